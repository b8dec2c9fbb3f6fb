package dev.ordo.spring.boot.topologies;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.spring.boot.EmbeddedOrdo;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.Leaderboards;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.RateLimiters;
import dev.ordo.spring.boot.health.OrdoHealthAutoConfiguration;
import dev.ordo.spring.boot.health.OrdoHealthIndicator;
import dev.ordo.spring.boot.jobs.OrdoJobsAutoConfiguration;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis mode on a Sentinel-managed master, end to end: a real master {@code redis-server} and a
 * real Sentinel ({@code redis-server <conf> --sentinel}) monitoring it, each on a free loopback
 * port; the application names only the Sentinel and the master's name. The Sentinel and the
 * master want different credentials (the Sentinel a password of its own, the master an ACL user
 * for the data), so the store connects only when each side gets its own. What the declared
 * patterns write is read back from the master over a separate admin connection.
 */
class SentinelModeTest {
    private static final String MASTER_NAME = "ordo-master";
    private static final String ADMIN_PASSWORD = "master-admin-pass";
    private static final String SENTINEL_PASSWORD = "sentinel-only-pass";
    private static final String DATA_USER = "ordo-app";
    private static final String DATA_PASSWORD = "data-user-pass";

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class,
            OrdoJobsAutoConfiguration.class, OrdoHealthAutoConfiguration.class, HealthContributorAutoConfiguration.class,
            HealthContributorRegistryAutoConfiguration.class));

    @Test
    void sentinelNodesAndMasterName_patternsWriteToTheMasterAsTheDataUser() throws Exception {
        try (RedisServer master = RedisServer.start("--requirepass", ADMIN_PASSWORD);
             RedisServer sentinel = RedisServer.sentinel("--requirepass", SENTINEL_PASSWORD);
             LettuceStore admin = LettuceStore.connect("redis://127.0.0.1:" + master.port(),
                     new LettuceStore.Credentials("default", ADMIN_PASSWORD))) {
            // The data user may run everything on every key, but is not the master's default user
            admin.call(StoreCommand.of("ACL").arg("SETUSER").arg(DATA_USER).arg("on").arg(">" + DATA_PASSWORD).arg("~*").arg("+@all"));
            monitor(sentinel.port(), master.port());

            runner.withBean(TicketHandler.class).withPropertyValues(
                    "spring.data.redis.sentinel.master=" + MASTER_NAME,
                    "spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinel.port(),
                    "spring.data.redis.sentinel.password=" + SENTINEL_PASSWORD,
                    "spring.data.redis.username=" + DATA_USER,
                    "spring.data.redis.password=" + DATA_PASSWORD,
                    "ordo.leaderboards.weekly.order=highest-first",
                    "ordo.rate-limits.api.limits=2/1h",
                    "ordo.queues.reminders.max-attempts=3",
                    "ordo.queues.tickets.concurrency=2",
                    "ordo.queues.tickets.poll-wait=200ms").run(context -> {
                assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedOrdo.class);
                Store store = context.getBean(Store.class);
                assertThat(store).isInstanceOf(LettuceStore.class);
                // On the master (whose run id the admin connection reads), as the data user
                assertThat(store.call(StoreCommand.of("ACL").arg("WHOAMI")).asString()).isEqualTo(DATA_USER);
                assertThat(serverInfo(store, "run_id")).isEqualTo(serverInfo(admin, "run_id"));

                context.getBean(StringRedisTemplate.class).opsForValue().set("written-by-template", "yes");
                assertThat(store.call(StoreCommand.of("GET").key("written-by-template")).asString()).isEqualTo("yes");

                Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
                weekly.addPoints("alice", 5);
                weekly.addPoints("bob", 7);
                assertThat(weekly.top(2)).extracting(Entry::member).containsExactly("bob", "alice");
                assertThat(admin.call(StoreCommand.of("ZSCORE").key(weekly.key()).arg("bob")).asString()).isEqualTo("7");

                RateLimiter api = context.getBean(RateLimiters.class).get("api");
                assertThat(api.tryAcquire("u1").allowed()).isTrue();
                assertThat(api.tryAcquire("u1").allowed()).isTrue();
                assertThat(api.tryAcquire("u1").allowed()).isFalse();
                assertThat(api.tryAcquire("u2").allowed()).isTrue();
                assertThat(keys(admin, "*api*u1*")).isNotEmpty();

                DelayedJobQueue<String> reminders = context.getBean(JobQueues.class).delayed("reminders");
                assertThat(reminders.schedule("r1", "call mum", Due.now())).isTrue();
                assertThat(reminders.schedule("r2", "water plants", Due.now())).isTrue();
                List<ClaimedJob<String>> claimed = reminders.claim(1);
                assertThat(claimed).hasSize(1);
                assertThat(reminders.ack(claimed.get(0))).isTrue();
                assertThat(reminders.counts().ready()).isEqualTo(1);
                assertThat(keys(admin, "*reminders*")).isNotEmpty();

                context.getBean(TicketHandler.class).scheduleThreeAndAwaitThem(context.getBean(JobQueues.class).delayed("tickets"));

            Health health = context.getBean(OrdoHealthIndicator.class).health();
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(health.getDetails()).containsEntry("mode", "redis").containsEntry("version", serverInfo(admin, "redis_version"));
            });
        }
    }

    /** Has the Sentinel watch the master under {@link #MASTER_NAME}, and waits until it has reached it. */
    private static void monitor(int sentinelPort, int masterPort) throws InterruptedException {
        RedisClient client = RedisClient.create(RedisURI.Builder.redis("127.0.0.1", sentinelPort)
                .withPassword(SENTINEL_PASSWORD.toCharArray()).build());
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            RedisSentinelCommands<String, String> sentinel = connection.sync();
            assertThat(sentinel.monitor(MASTER_NAME, "127.0.0.1", masterPort, 1)).isEqualTo("OK");
            assertThat(sentinel.set(MASTER_NAME, "auth-pass", ADMIN_PASSWORD)).isEqualTo("OK");
            long deadline = System.nanoTime() + 10_000_000_000L;
            Map<String, String> seen = sentinel.master(MASTER_NAME);
            // "master" alone once the Sentinel is connected and authenticated ("master,disconnected" before)
            while (!"master".equals(seen.get("flags"))) {
                assertThat(System.nanoTime()).as("the Sentinel reaching the master: %s", seen).isLessThan(deadline);
                Thread.sleep(20);
                seen = sentinel.master(MASTER_NAME);
            }
        } finally {
            client.shutdown();
        }
    }

    /** A field of the server's INFO server section, e.g. its run_id. */
    private static String serverInfo(Store store, String field) {
        return store.call(StoreCommand.of("INFO").arg("server")).asString().lines()
                .filter(line -> line.startsWith(field + ":")).findFirst().orElseThrow().substring(field.length() + 1);
    }

    private static List<String> keys(Store store, String pattern) {
        return store.call(StoreCommand.of("KEYS").arg(pattern)).asList().stream().map(Reply::asString).toList();
    }
}
