package dev.ordo.server.compat;

import dev.ordo.server.Ordo;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real clients against an Ordo server: Lettuce (which negotiates RESP3 with HELLO), Jedis
 * (RESP2) and the {@code redis-cli} binary, each running sorted-set work the way applications do.
 */
class ClientCompatibilityTest {
    private static Ordo ordo;
    private static int port;
    private static RedisClient lettuce;

    @BeforeAll
    static void start() {
        ordo = Ordo.embedded();
        port = ordo.openPort(0);
        lettuce = RedisClient.create("redis://127.0.0.1:" + port);
    }

    @AfterAll
    static void stop() {
        lettuce.shutdown();
        ordo.close();
    }

    @BeforeEach
    void flush() {
        ordo.client().call("FLUSHALL");
    }

    @Test
    void lettuce_leaderboardCommands_workOverResp3() {
        try (StatefulRedisConnection<String, String> conn = lettuce.connect()) {
            RedisCommands<String, String> redis = conn.sync();
            redis.zadd("board", 120.0, "alice", 95.0, "bob", 150.0, "carol");
            assertThat(redis.zincrby("board", 60, "bob")).isEqualTo(155.0);
            assertThat(redis.zrevrangeWithScores("board", 0, 2)).containsExactly(ScoredValue.just(155, "bob"),
                    ScoredValue.just(150, "carol"), ScoredValue.just(120, "alice"));
            assertThat(redis.zrevrank("board", "alice")).isEqualTo(2L);
            assertThat(redis.zscore("board", "nobody")).isNull();
            assertThat(redis.zadd("board", ZAddArgs.Builder.gt().ch(), 100, "alice")).isZero();
            assertThat(redis.zrangebyscore("board", Range.create(100, 200), Limit.create(1, 1))).containsExactly("carol");
            assertThat(redis.zunionstore("copy", "board")).isEqualTo(3L);
            assertThat(redis.zpopmin("copy")).isEqualTo(ScoredValue.just(120, "alice"));
            assertThat(redis.zscan("board").getValues()).hasSize(3);
        }
    }

    @Test
    void lettuce_bzpopmin_onItsOwnConnection_wakesOnZadd() throws Exception {
        try (StatefulRedisConnection<String, String> worker = lettuce.connect();
             StatefulRedisConnection<String, String> producer = lettuce.connect()) {
            CompletableFuture<?> taken = worker.async().bzpopmin(10, "jobs").toCompletableFuture();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!"1".equals(blockedClients()) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            producer.sync().zadd("jobs", 1, "job-1");
            Object popped = taken.get(10, TimeUnit.SECONDS);
            assertThat(popped.toString()).contains("jobs").contains("job-1");
        }
    }

    private static String blockedClients() {
        String info = new String((byte[]) ordo.client().call("INFO", "clients"), StandardCharsets.UTF_8);
        for (String line : info.split("\r\n")) {
            if (line.startsWith("blocked_clients:")) {
                return line.substring("blocked_clients:".length());
            }
        }
        return "";
    }

    @Test
    @SuppressWarnings("deprecation") // ZREVRANGE and ZRANGEBYLEX as most Jedis code still calls them
    void jedis_leaderboardCommands_workOverResp2() {
        try (Jedis jedis = new Jedis("127.0.0.1", port)) {
            jedis.zadd("board", 120, "alice");
            jedis.zadd("board", 95, "bob");
            jedis.zadd("board", 150, "carol");
            jedis.zincrby("board", 60, "bob");
            List<Tuple> top = jedis.zrevrangeWithScores("board", 0, 2);
            assertThat(top).extracting(Tuple::getElement).containsExactly("bob", "carol", "alice");
            assertThat(top).extracting(Tuple::getScore).containsExactly(155.0, 150.0, 120.0);
            assertThat(jedis.zrevrank("board", "alice")).isEqualTo(2L);
            assertThat(jedis.zcount("board", "(120", "+inf")).isEqualTo(2L);
            assertThat(jedis.zrangeByLex("board", "-", "+")).hasSize(3);
            assertThat(jedis.bzpopmin(1, "board").getValue().getElement()).isEqualTo("alice");
            assertThat(jedis.zmscore("board", "bob", "nobody")).containsExactly(155.0, null);
        }
    }

    @Test
    void redisCli_zaddAndRange_printsWhatRedisPrints() throws Exception {
        String cli = onPath("redis-cli");
        if (cli == null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("redis-cli is not installed, and CI=true requires it");
            }
            Assumptions.abort("redis-cli is not installed: skipping the redis-cli test");
        }
        assertThat(cli(cli, "zadd", "board", "120", "alice", "95", "bob")).isEqualTo("2");
        assertThat(cli(cli, "zrevrange", "board", "0", "-1", "withscores")).isEqualTo("alice\n120\nbob\n95");
        assertThat(cli(cli, "zscore", "board", "nobody")).isEmpty();
        assertThat(cli(cli, "zadd", "board", "x", "y")).isEqualTo("ERR value is not a valid float");
    }

    private static String cli(String binary, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(binary, "-p", String.valueOf(port)));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return out.strip();
    }

    private static String onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        return null;
    }
}
