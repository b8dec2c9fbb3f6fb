package dev.ordo.spring.boot;

import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Embedded mode: Ordo starts in-process, Spring Data Redis reaches it with no setting, and it leaves nothing behind. */
class EmbeddedModeTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class));

    @Test
    void noRedisSettings_stringRedisTemplateWritesToTheInProcessOrdo() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(EmbeddedOrdo.class);
            EmbeddedOrdo ordo = context.getBean(EmbeddedOrdo.class);
            context.getBean(StringRedisTemplate.class).opsForValue().set("greeting", "hello");
            try (EmbeddedStore engine = EmbeddedStore.on(ordo.ordo().engine())) {
                assertThat(engine.call(StoreCommand.of("GET").key("greeting")).asString()).isEqualTo("hello");
            }
            assertThat(context.getEnvironment().getProperty("local.ordo.port", Integer.class)).isEqualTo(ordo.port());
        });
    }

    @Test
    void embeddedMode_storeIsInProcess() {
        runner.run(context -> {
            assertThat(context.getBean(Store.class)).isInstanceOf(EmbeddedStore.class);
            context.getBean(Store.class).call(StoreCommand.of("SET").key("k").arg("from-store"));
            assertThat(context.getBean(StringRedisTemplate.class).opsForValue().get("k")).isEqualTo("from-store");
        });
    }

    @Test
    void contextClosed_portRefusedAndNoOrdoThreadLeft() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        AtomicInteger port = new AtomicInteger();
        runner.run(context -> {
            port.set(context.getBean(EmbeddedOrdo.class).port());
            context.getBean(StringRedisTemplate.class).opsForValue().set("k", "v");
            assertThat(ordoThreads(before)).isNotEmpty();
        });
        assertThatThrownBy(() -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port.get()), 1000);
            }
        }).isInstanceOf(ConnectException.class);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!ordoThreads(before).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ordoThreads(before)).isEmpty();
    }

    private static Set<String> ordoThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName).filter(name -> name.startsWith("ordo")).collect(Collectors.toSet());
    }

    @Test
    void fixedPort_servesOnThatPort() throws IOException {
        int free;
        try (ServerSocket socket = new ServerSocket(0)) {
            free = socket.getLocalPort();
        }
        runner.withPropertyValues("ordo.embedded.port=" + free).run(context -> {
            assertThat(context.getBean(EmbeddedOrdo.class).port()).isEqualTo(free);
            try (LettuceStore client = LettuceStore.connect("redis://127.0.0.1:" + free)) {
                assertThat(client.call(StoreCommand.of("PING")).asString()).isEqualTo("PONG");
            }
        });
    }

    @Test
    void serverSettings_passedThrough_includingRequirepassForSpringDataRedis() {
        runner.withPropertyValues("ordo.embedded.config.maxmemory=64mb", "ordo.embedded.config.requirepass=s3cret").run(context -> {
            Ordo ordo = context.getBean(EmbeddedOrdo.class).ordo();
            assertThat(ordo.engine().config().get("maxmemory")).isEqualTo(String.valueOf(64L * 1024 * 1024));
            StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
            template.opsForValue().set("k", "v");
            assertThat(template.opsForValue().get("k")).isEqualTo("v");
            assertThatThrownBy(() -> {
                try (LettuceStore anonymous = LettuceStore.connect("redis://127.0.0.1:" + context.getBean(EmbeddedOrdo.class).port())) {
                    anonymous.call(StoreCommand.of("GET").key("k"));
                }
            }).rootCause().hasMessageContaining("NOAUTH");
        });
    }

    @Test
    void dataDir_keepsDataAcrossRestarts(@TempDir Path dir) {
        Path data = dir.resolve("ordo-data");
        runner.withPropertyValues("ordo.embedded.data-dir=" + data).run(context ->
                context.getBean(StringRedisTemplate.class).opsForZSet().add("scores", "alice", 120));
        assertThat(data).isDirectory();
        assertThat(Files.exists(data.resolve("appendonly.aof")) || Files.exists(data.resolve("appendonlydir"))).isTrue();
        runner.withPropertyValues("ordo.embedded.data-dir=" + data).run(context ->
                assertThat(context.getBean(StringRedisTemplate.class).opsForZSet().score("scores", "alice")).isEqualTo(120.0));
    }

    @Test
    void redisHostSet_modeIsRedis_noEmbeddedOrdo() {
        try (Ordo server = Ordo.embedded()) {
            int port = server.openPort(0);
            runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port).run(context -> {
                assertThat(context).doesNotHaveBean(EmbeddedOrdo.class);
                assertThat(context.getBean(Store.class)).isInstanceOf(LettuceStore.class);
            });
        }
    }

    @Test
    void explicitEmbeddedMode_beatsAConfiguredRedisHost() {
        runner.withPropertyValues("ordo.mode=embedded", "spring.data.redis.host=redis.invalid", "spring.data.redis.port=1").run(context -> {
            assertThat(context).hasSingleBean(EmbeddedOrdo.class);
            StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
            template.opsForValue().set("k", "v");
            assertThat(template.opsForValue().get("k")).isEqualTo("v");
        });
    }

    @Test
    void applicationsOwnStore_isTheOneThePatternsUse() {
        try (Ordo other = Ordo.embedded(); EmbeddedStore own = EmbeddedStore.on(other.engine())) {
            runner.withBean(Store.class, () -> own).withPropertyValues("ordo.leaderboards.weekly.order=highest-first").run(context -> {
                assertThat(context.getBean(Store.class)).isSameAs(own);
                context.getBean(Leaderboards.class).get("weekly").addPoints("alice", 3);
                assertThat(own.call(StoreCommand.of("ZSCORE").key("{weekly}").arg("alice")).asString()).isEqualTo("3");
            });
        }
    }

    @Test
    void portInUse_failsStartupNamingThePropertyAndLeavesNoOrdoThread() throws IOException, InterruptedException {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            runner.withPropertyValues("ordo.embedded.port=" + taken.getLocalPort()).run(context ->
                    assertThat(context).getFailure().hasStackTraceContaining("ordo.embedded.port " + taken.getLocalPort()));
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!ordoThreads(before).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ordoThreads(before)).isEmpty();
    }

    @Test
    void badPort_failsStartupNamingTheProperty() {
        runner.withPropertyValues("ordo.embedded.port=70000").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("ordo.embedded.port"));
    }
}
