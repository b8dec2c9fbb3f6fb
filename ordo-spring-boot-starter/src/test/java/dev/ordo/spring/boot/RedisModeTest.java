package dev.ordo.spring.boot;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;
import dev.ordo.server.tls.TestCertificates;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis mode: the Store and the declared patterns use the server of the application's
 * spring.data.redis connection, the one StringRedisTemplate talks to. Against a real
 * redis-server (skipped with the reason when it is not installed, failed under CI=true) and
 * against an Ordo server that wants a password.
 */
class RedisModeTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class));

    @Test
    void redisServer_storeAndTemplateShareTheServer() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                    "ordo.leaderboards.weekly.order=highest-first").run(context -> {
                assertThat(context).doesNotHaveBean(EmbeddedOrdo.class);
                Store store = context.getBean(Store.class);
                assertThat(store).isInstanceOf(LettuceStore.class);
                context.getBean(StringRedisTemplate.class).opsForValue().set("written-by-template", "yes");
                assertThat(store.call(StoreCommand.of("GET").key("written-by-template")).asString()).isEqualTo("yes");
                assertThat(store.call(StoreCommand.of("INFO").arg("server")).asString()).contains("redis_version:" + redis.version());

                Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
                weekly.addPoints("alice", 5);
                weekly.addPoints("bob", 7);
                assertThat(weekly.top(2)).extracting(Entry::member).containsExactly("bob", "alice");
                assertThat(context.getBean(StringRedisTemplate.class).opsForZSet().zCard(weekly.key())).isEqualTo(2);
            });
        }
    }

    @Test
    void passwordWithUriCharactersInSpringDataRedis_storeAuthenticates() {
        try (Ordo server = Ordo.embedded()) {
            int port = server.openPort(0);
            server.engine().config().set("requirepass", "p@ss:w/rd %1", false);
            runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port,
                    "spring.data.redis.password=p@ss:w/rd %1").run(context -> {
                context.getBean(StringRedisTemplate.class).opsForValue().set("k", "v");
                assertThat(context.getBean(Store.class).call(StoreCommand.of("GET").key("k")).asString()).isEqualTo("v");
            });
        }
    }

    @Test
    void applicationClientResources_storesIoRunsOnTheirThreads() {
        ClientResources shared = ClientResources.builder()
                .threadFactoryProvider(pool -> new DefaultThreadFactory("app-" + pool, true)).build();
        try (Ordo server = Ordo.embedded()) {
            int port = server.openPort(0);
            runner.withBean(ClientResources.class, () -> shared).withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port).run(context -> {
                assertThat(context).doesNotHaveBean("ordoClientResources");
                // BLPOP on an empty list answers after its timeout, so the stage completes on the connection's I/O thread
                String replyThread = context.getBean(Store.class).callAsync(StoreCommand.of("BLPOP").key("nothing").arg("0.2"))
                        .thenApply(reply -> Thread.currentThread().getName()).toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(replyThread).startsWith("app-");
            });
        } finally {
            shared.shutdown();
        }
    }

    @Test
    void sslBundle_storeConnectsOverTlsWithTheBundlesCertificates(@TempDir Path dir) throws Exception {
        TestCertificates ca = TestCertificates.authority(dir, "starter-ca");
        TestCertificates server = ca.server("starter-server");
        TestCertificates client = ca.client("starter-client");
        try (Ordo ordo = Ordo.embedded(server.serverConfig(ca))) {
            int port = ordo.openTlsPort(0);
            runner.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class)).withPropertyValues(
                    "spring.data.redis.host=localhost", "spring.data.redis.port=" + port,
                    "spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=ordo",
                    "spring.ssl.bundle.pem.ordo.truststore.certificate=" + ca.certFile().toUri(),
                    "spring.ssl.bundle.pem.ordo.keystore.certificate=" + client.certFile().toUri(),
                    "spring.ssl.bundle.pem.ordo.keystore.private-key=" + client.keyFile().toUri()).run(context -> {
                assertThat(context).hasNotFailed();
                context.getBean(StringRedisTemplate.class).opsForValue().set("over-tls", "yes");
                assertThat(context.getBean(Store.class).call(StoreCommand.of("GET").key("over-tls")).asString()).isEqualTo("yes");
            });
        }
    }

    @Test
    void redisUrl_modeIsRedis() {
        try (Ordo server = Ordo.embedded()) {
            int port = server.openPort(0);
            runner.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + port + "/2").run(context -> {
                assertThat(context).doesNotHaveBean(EmbeddedOrdo.class);
                context.getBean(StringRedisTemplate.class).opsForValue().set("in-db-2", "v");
                assertThat(context.getBean(Store.class).call(StoreCommand.of("GET").key("in-db-2")).asString()).isEqualTo("v");
            });
        }
    }
}
