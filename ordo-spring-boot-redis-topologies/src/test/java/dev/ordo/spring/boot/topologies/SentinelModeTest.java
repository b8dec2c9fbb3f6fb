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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis mode on a Sentinel-managed master, end to end: a real master {@code redis-server} and a
 * real Sentinel ({@code redis-server <conf> --sentinel}) monitoring it, each on a free loopback
 * port; the application names only the Sentinels (the first of them not running) and the master's
 * name. The Sentinel and the master want different credentials (an ACL user of the Sentinel's own,
 * and one on the master for the data), so the store connects only when each side gets its own. What the declared
 * patterns write is read back from the master over a separate admin connection. When the master
 * dies, the Sentinel promotes its replica and the store follows it there.
 */
class SentinelModeTest {
    private static final String MASTER_NAME = "ordo-master";
    private static final String ADMIN_PASSWORD = "master-admin-pass";
    private static final String SENTINEL_PASSWORD = "sentinel-only-pass";
    private static final String SENTINEL_USER = "ordo-sentinel-client";
    private static final String SENTINEL_USER_PASSWORD = "sentinel-user-pass";
    private static final String DATA_USER = "ordo-app";
    private static final String DATA_PASSWORD = "data-user-pass";
    /** Not 0, so that the admin connection, on this database, sees the keys only if the store writes there too. */
    private static final int DATABASE = 3;

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class,
            OrdoJobsAutoConfiguration.class, OrdoHealthAutoConfiguration.class, HealthContributorAutoConfiguration.class,
            HealthContributorRegistryAutoConfiguration.class));

    @Test
    void sentinelNodesAndMasterName_patternsWriteToTheMasterAsTheDataUser() throws Exception {
        try (RedisServer master = RedisServer.start("--requirepass", ADMIN_PASSWORD);
             RedisServer sentinel = sentinelFor(master.port());
             LettuceStore admin = LettuceStore.connect("redis://127.0.0.1:" + master.port() + "/" + DATABASE,
                     new LettuceStore.Credentials("default", ADMIN_PASSWORD))) {
            // The data user may run everything on every key, but is not the master's default user
            admin.call(StoreCommand.of("ACL").arg("SETUSER").arg(DATA_USER).arg("on").arg(">" + DATA_PASSWORD).arg("~*").arg("+@all"));
            // The application asks the Sentinel as a user of the Sentinel's own, neither the default user nor the data user
            try (LettuceStore sentinelAdmin = LettuceStore.connect("redis://127.0.0.1:" + sentinel.port(),
                    new LettuceStore.Credentials("default", SENTINEL_PASSWORD))) {
                sentinelAdmin.call(StoreCommand.of("ACL").arg("SETUSER").arg(SENTINEL_USER).arg("on").arg(">" + SENTINEL_USER_PASSWORD)
                        .arg("&*").arg("+@all"));
            }
            awaitWatching(sentinel, 0);
            int stopped = stoppedPort();

            runner.withBean(TicketHandler.class).withPropertyValues(
                    "spring.data.redis.sentinel.master=" + MASTER_NAME,
                    // the first Sentinel listed is not running: the second answers
                    "spring.data.redis.sentinel.nodes=127.0.0.1:" + stopped + ",127.0.0.1:" + sentinel.port(),
                    "spring.data.redis.sentinel.username=" + SENTINEL_USER,
                    "spring.data.redis.sentinel.password=" + SENTINEL_USER_PASSWORD,
                    "spring.data.redis.username=" + DATA_USER,
                    "spring.data.redis.password=" + DATA_PASSWORD,
                    "spring.data.redis.database=" + DATABASE,
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

    @Test
    void masterDies_sentinelPromotesTheReplica_storeAndWorkersFollowIt() throws Exception {
        // Not a resource of the try: the test stops it, and closes it again (which does nothing) at the end.
        // A replica's first sync starts at once, not after the 5 s Redis waits by default for more replicas.
        RedisServer master = RedisServer.start("--requirepass", ADMIN_PASSWORD, "--masterauth", ADMIN_PASSWORD,
                "--repl-diskless-sync-delay", "0");
        try (RedisServer replica = replicaOf(master);
             RedisServer sentinel = sentinelFor(master.port(), "down-after-milliseconds", "1000");
             LettuceStore masterAdmin = LettuceStore.connect("redis://127.0.0.1:" + master.port(),
                     new LettuceStore.Credentials("default", ADMIN_PASSWORD));
             LettuceStore replicaAdmin = LettuceStore.connect("redis://127.0.0.1:" + replica.port(),
                     new LettuceStore.Credentials("default", ADMIN_PASSWORD))) {
            // ACL users are not replicated: the data user is made on both servers
            for (Store admin : List.of(masterAdmin, replicaAdmin)) {
                admin.call(StoreCommand.of("ACL").arg("SETUSER").arg(DATA_USER).arg("on").arg(">" + DATA_PASSWORD).arg("~*").arg("+@all"));
            }
            awaitWatching(sentinel, 1);

            runner.withBean(TicketHandler.class).withPropertyValues(
                    "spring.data.redis.sentinel.master=" + MASTER_NAME,
                    "spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinel.port(),
                    "spring.data.redis.sentinel.password=" + SENTINEL_PASSWORD,
                    "spring.data.redis.username=" + DATA_USER,
                    "spring.data.redis.password=" + DATA_PASSWORD,
                    "ordo.leaderboards.weekly.order=highest-first",
                    "ordo.queues.tickets.poll-wait=200ms").run(context -> {
                Store store = context.getBean(Store.class);
                assertThat(serverInfo(store, "run_id")).isEqualTo(serverInfo(masterAdmin, "run_id"));
                Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
                weekly.addPoints("alice", 5);
                assertThat(masterAdmin.call(StoreCommand.of("WAIT").arg(1).arg(5000)).asLong()).as("replicas that have alice").isEqualTo(1);

                master.close();
                long deadline = System.nanoTime() + 30_000_000_000L;
                RuntimeException last = null;
                while (true) {
                    assertThat(System.nanoTime()).as("the store writing to the promoted replica (last failure: %s)", last).isLessThan(deadline);
                    try {
                        weekly.setScore("bob", 7);
                        break;
                    } catch (RuntimeException e) {
                        last = e;
                        Thread.sleep(50);
                    }
                }
                assertThat(serverInfo(store, "run_id")).isEqualTo(serverInfo(replicaAdmin, "run_id"));
                assertThat(weekly.top(2)).extracting(Entry::member).containsExactly("bob", "alice");
                assertThat(replicaAdmin.call(StoreCommand.of("ZSCORE").key(weekly.key()).arg("bob")).asString()).isEqualTo("7");
                context.getBean(TicketHandler.class).scheduleThreeAndAwaitThem(context.getBean(JobQueues.class).delayed("tickets"));
                assertThat(context.getBean(OrdoHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
            });
        } finally {
            master.close();
        }
    }

    /**
     * A Sentinel watching the master under {@link #MASTER_NAME} from the start (its configuration
     * given on the command line), with a password of its own and the master's as auth-pass, and the
     * {@code settings} given (name and value pairs, e.g. down-after-milliseconds). Configured this
     * way rather than with SENTINEL MONITOR and SET, the Sentinel never PINGs the master without
     * the password: refused PINGs would count towards the master being down, and its first INFO,
     * which finds the replicas, would fail and not come again for ten seconds.
     */
    private static RedisServer sentinelFor(int masterPort, String... settings) throws Exception {
        List<String> args = new ArrayList<>(List.of("--requirepass", SENTINEL_PASSWORD,
                "--sentinel", "monitor", MASTER_NAME, "127.0.0.1", String.valueOf(masterPort), "1",
                "--sentinel", "auth-pass", MASTER_NAME, ADMIN_PASSWORD));
        for (int i = 0; i < settings.length; i += 2) {
            args.addAll(List.of("--sentinel", settings[i], MASTER_NAME, settings[i + 1]));
        }
        return RedisServer.sentinel(args.toArray(String[]::new));
    }

    /** Waits until the Sentinel has reached the master (PINGs answered) and found its {@code replicas}. */
    private static void awaitWatching(RedisServer sentinelServer, int replicas) throws InterruptedException {
        RedisClient client = RedisClient.create(RedisURI.Builder.redis("127.0.0.1", sentinelServer.port())
                .withPassword(SENTINEL_PASSWORD.toCharArray()).build());
        try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
            RedisSentinelCommands<String, String> sentinel = connection.sync();
            long deadline = System.nanoTime() + 15_000_000_000L;
            while (true) {
                Map<String, String> master = sentinel.master(MASTER_NAME);
                List<Map<String, String>> known = sentinel.replicas(MASTER_NAME);
                // "master" alone once connected ("master,disconnected" before); a PING answered within the last second
                if ("master".equals(master.get("flags")) && Long.parseLong(master.get("last-ok-ping-reply")) < 1000
                        && known.size() == replicas && known.stream().allMatch(r -> "slave".equals(r.get("flags")))) {
                    return;
                }
                assertThat(System.nanoTime()).as("the Sentinel reaching the master and its replicas: %s, %s", master, known)
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
        } finally {
            client.shutdown();
        }
    }

    /**
     * A replica of {@code master}, returned once replicating, so that a Sentinel started next finds
     * it in the master's first INFO (the next comes ten seconds later).
     */
    private static RedisServer replicaOf(RedisServer master) throws Exception {
        RedisServer replica = RedisServer.start("--requirepass", ADMIN_PASSWORD, "--masterauth", ADMIN_PASSWORD,
                "--replicaof", "127.0.0.1", String.valueOf(master.port()));
        try (LettuceStore admin = LettuceStore.connect("redis://127.0.0.1:" + replica.port(),
                new LettuceStore.Credentials("default", ADMIN_PASSWORD))) {
            awaitInfo(admin, "replication", "master_link_status:up");
            return replica;
        } catch (Exception | AssertionError e) {
            replica.close();
            throw e;
        }
    }

    /** Waits until the server's INFO {@code section} holds {@code line}. */
    private static void awaitInfo(Store store, String section, String line) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!store.call(StoreCommand.of("INFO").arg(section)).asString().lines().toList().contains(line)) {
            assertThat(System.nanoTime()).as("INFO %s holding %s", section, line).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    /** A loopback port nothing listens on (one just given up by a socket of this test). */
    private static int stoppedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
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
