package dev.ordo.engine.keyspace;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Expired keys nobody reads are deleted by the active cycle; DEBUG SET-ACTIVE-EXPIRE 0 stops it. */
class ActiveExpiryTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    private long awaitDbsize(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long size;
        while ((size = (Long) client.call("DBSIZE")) != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return size;
    }

    @Test
    void expiredKeysNobodyReads_areDeletedByTheActiveCycle() throws Exception {
        for (int i = 0; i < 500; i++) {
            client.call("ZADD", "temp:" + i, "1", "m");
            client.call("PEXPIRE", "temp:" + i, "100");
        }
        client.call("SET", "kept", "v");
        assertThat(client.call("DBSIZE")).isEqualTo(501L);
        support.advance(1000);
        assertThat(awaitDbsize(1)).isEqualTo(1L);
        assertThat(client.call("EXISTS", "kept")).isEqualTo(1L);
    }

    private long avgTtl() {
        String info = new String((byte[]) client.call("INFO", "keyspace"), java.nio.charset.StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("avg_ttl=(\\d+)").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private long awaitAvgTtl(java.util.function.LongPredicate done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long ttl;
        while (!done.test(ttl = avgTtl()) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return ttl;
    }

    /** avg_ttl is Redis's estimate: the cycle's samples, each weighing 1/50 against the estimate so far. */
    @Test
    void avgTtl_isEstimatedFromTheCyclesSamples() throws Exception {
        for (int i = 0; i < 20; i++) {
            client.call("SET", "k" + i, "v", "EX", "100");
        }
        assertThat(awaitAvgTtl(t -> t > 0)).isEqualTo(100_000L);
        support.advance(50_000);
        assertThat(awaitAvgTtl(t -> t < 100_000)).isBetween(50_000L, 99_000L);
        client.call("FLUSHDB");
        client.call("SET", "k", "v", "EX", "10");
        assertThat(awaitAvgTtl(t -> t > 0)).isEqualTo(10_000L);
    }

    @Test
    void activeExpiryOff_keysStayUntilRead() throws Exception {
        client.call("DEBUG", "SET-ACTIVE-EXPIRE", "0");
        client.call("SET", "k", "v", "PX", "50");
        support.advance(1000);
        Thread.sleep(300);
        assertThat(client.call("DBSIZE")).isEqualTo(1L);
        assertThat(client.call("GET", "k")).isNull();
        assertThat(client.call("DBSIZE")).isEqualTo(0L);
    }

    @Test
    void ttl_missingNoExpiryAndExpiring() {
        client.call("SET", "k", "v");
        assertThat(client.call("TTL", "nokey")).isEqualTo(-2L);
        assertThat(client.call("TTL", "k")).isEqualTo(-1L);
        client.call("EXPIRE", "k", "100");
        support.advance(40_000);
        assertThat(client.call("TTL", "k")).isEqualTo(60L);
        assertThat(client.call("PTTL", "k")).isEqualTo(60_000L);
        support.advance(60_000);
        assertThat(client.call("TTL", "k")).isEqualTo(-2L);
    }

    @Test
    void lastMemberRemoved_keyDisappears() {
        client.call("ZADD", "z", "1", "a");
        client.call("EXPIRE", "z", "100");
        client.call("ZREM", "z", "a");
        assertThat(client.call("EXISTS", "z")).isEqualTo(0L);
        client.call("ZADD", "z", "1", "a");
        assertThat(client.call("TTL", "z")).isEqualTo(-1L);
    }
}
