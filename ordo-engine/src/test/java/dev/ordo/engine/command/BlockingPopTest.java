package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** BZPOPMIN, BZPOPMAX and BZMPOP: waking (by a write or SWAPDB), order of service, timeouts and disconnection. */
class BlockingPopTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        threads.shutdownNow();
        support.close();
    }

    private Future<Object> inBackground(EmbeddedClient client, String... args) {
        return threads.submit(() -> client.call(args));
    }

    private void awaitBlocked(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (support.engine.blockedClients() != n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + n + " blocked clients, have " + support.engine.blockedClients());
            }
            Thread.sleep(2);
        }
    }

    private static List<String> strings(Object reply) {
        return ((List<?>) reply).stream().map(o -> new String((byte[]) o, StandardCharsets.UTF_8)).toList();
    }

    @Test
    void bzpopmin_emptyKey_wakesWhenAMemberIsAdded() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMIN", "q", "0");
        awaitBlocked(1);
        support.client().call("ZADD", "q", "5", "job");
        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("q", "job", "5");
        assertThat(support.client().call("EXISTS", "q")).isEqualTo(0L);
    }

    @Test
    void bzpopmin_twoWaiters_servedFirstComeFirstServed() throws Exception {
        Future<Object> first = inBackground(support.client(), "BZPOPMIN", "q", "0");
        awaitBlocked(1);
        Future<Object> second = inBackground(support.client(), "BZPOPMIN", "q", "0");
        awaitBlocked(2);
        EmbeddedClient producer = support.client();
        producer.call("ZADD", "q", "1", "a");
        assertThat(strings(first.get(10, TimeUnit.SECONDS))).containsExactly("q", "a", "1");
        assertThat(second.isDone()).isFalse();
        producer.call("ZADD", "q", "2", "b");
        assertThat(strings(second.get(10, TimeUnit.SECONDS))).containsExactly("q", "b", "2");
    }

    @Test
    void bzpopmax_severalKeys_popsFromTheKeyThatAppears() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMAX", "a", "b", "c", "0");
        awaitBlocked(1);
        support.client().call("ZADD", "b", "1", "low", "9", "high");
        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("b", "high", "9");
        assertThat(support.client().call("ZCARD", "b")).isEqualTo(1L);
    }

    /** Redis 7.2 reads timeouts as long doubles, so numbers past a double's range are still numbers. */
    @Test
    void bzpopmin_timeoutsPastADouble_errAsRedis72() {
        EmbeddedClient client = support.client();
        for (String[] c : new String[][] {
            {"1e309", "ERR timeout is out of range"},
            {"1e4932", "ERR timeout is out of range"},
            {"0x1p1024", "ERR timeout is out of range"},
            {"9".repeat(6000), "ERR timeout is not a float or out of range"},
            {"inf", "ERR timeout is out of range"},
            {"-1e309", "ERR timeout is negative"},
            {"-0.5", "ERR timeout is negative"},
            {"1e5000", "ERR timeout is not a float or out of range"},
            {"nan", "ERR timeout is not a float or out of range"},
            {"1e", "ERR timeout is not a float or out of range"}}) {
            assertThatThrownBy(() -> client.call("BZPOPMIN", "q", c[0])).as(c[0]).hasMessage(c[1]);
            assertThatThrownBy(() -> client.call("BZMPOP", c[0], "1", "q", "MIN")).as(c[0]).hasMessage(c[1]);
        }
        assertThat(client.call("BZPOPMIN", "q", "1e-400")).as("a tiny timeout waits a millisecond").isNull();
    }

    @Test
    void bzpopmin_fractionalTimeout_returnsNullArray() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMIN", "q", "0.05");
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(support.engine.blockedClients()).isZero();
    }

    @Test
    void bzmpop_count_popsUpToCountWhenWoken() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZMPOP", "0", "1", "q", "MIN", "COUNT", "2");
        awaitBlocked(1);
        support.client().call("ZADD", "q", "1", "a", "2", "b", "3", "c");
        List<?> reply = (List<?>) waiting.get(10, TimeUnit.SECONDS);
        assertThat(new String((byte[]) reply.get(0), StandardCharsets.UTF_8)).isEqualTo("q");
        assertThat(((List<?>) reply.get(1))).hasSize(2);
        assertThat(support.client().call("ZCARD", "q")).isEqualTo(1L);
    }

    @Test
    void blockedClient_doesNotBlockOtherClients() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMIN", "q", "0");
        awaitBlocked(1);
        EmbeddedClient other = support.client();
        CompletableFuture<Object> ping = CompletableFuture.supplyAsync(() -> other.call("PING"), threads);
        assertThat(ping.get(10, TimeUnit.SECONDS)).isEqualTo("PONG");
        assertThat(waiting.isDone()).isFalse();
    }

    @Test
    void disconnectedWaiter_isForgottenAndTheMemberStays() throws Exception {
        EmbeddedClient leaving = support.client();
        inBackground(leaving, "BZPOPMIN", "q", "0");
        awaitBlocked(1);
        leaving.close();
        awaitBlocked(0);
        support.client().call("ZADD", "q", "1", "kept");
        assertThat(support.client().call("ZCARD", "q")).isEqualTo(1L);
    }

    @Test
    void bzpopmin_keyAlreadyFilled_doesNotBlock() {
        EmbeddedClient client = support.client();
        client.call("ZADD", "q", "3", "c", "1", "a");
        assertThat(strings(client.call("BZPOPMIN", "missing", "q", "0"))).containsExactly("q", "a", "1");
    }

    /** A client that has selected database {@code db}. */
    private EmbeddedClient clientOf(int db) {
        EmbeddedClient client = support.client();
        client.call("SELECT", String.valueOf(db));
        return client;
    }

    @Test
    void swapdb_zsetSwappedIntoTheWaitersDatabase_servesItAtOnce() throws Exception {
        Future<Object> waiting = inBackground(clientOf(1), "BZPOPMIN", "k", "0");
        awaitBlocked(1);
        EmbeddedClient db0 = clientOf(0);
        db0.call("ZADD", "k", "1", "a");
        assertThat(waiting.isDone()).isFalse();

        assertThat(db0.call("SWAPDB", "0", "1")).isEqualTo("OK");

        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k", "a", "1");
        assertThat(db0.call("EXISTS", "k")).isEqualTo(0L);
        assertThat(clientOf(1).call("EXISTS", "k")).isEqualTo(0L);
        assertThat(support.engine.blockedClients()).isZero();
    }

    @Test
    void swapdb_severalWaiters_servedFirstComeFirstServedWhileMembersLast() throws Exception {
        Future<Object> first = inBackground(clientOf(1), "BZPOPMIN", "k", "0");
        awaitBlocked(1);
        Future<Object> second = inBackground(clientOf(1), "BZMPOP", "0", "1", "k", "MAX", "COUNT", "5");
        awaitBlocked(2);
        Future<Object> third = inBackground(clientOf(1), "BZPOPMIN", "k", "0");
        awaitBlocked(3);
        EmbeddedClient db0 = clientOf(0);
        db0.call("ZADD", "k", "1", "a", "2", "b", "3", "c");

        db0.call("SWAPDB", "1", "0");

        assertThat(strings(first.get(10, TimeUnit.SECONDS))).containsExactly("k", "a", "1");
        List<?> popped = (List<?>) second.get(10, TimeUnit.SECONDS);
        assertThat(new String((byte[]) popped.get(0), StandardCharsets.UTF_8)).isEqualTo("k");
        assertThat(((List<?>) popped.get(1)).stream().map(e -> strings(e)).toList())
                .containsExactly(List.of("c", "3"), List.of("b", "2"));
        assertThat(support.engine.blockedClients()).isEqualTo(1);
        assertThat(third.isDone()).isFalse();
        clientOf(1).call("ZADD", "k", "4", "d");
        assertThat(strings(third.get(10, TimeUnit.SECONDS))).containsExactly("k", "d", "4");
    }

    @Test
    void swapdb_waiterInTheOtherDatabase_isServedToo() throws Exception {
        Future<Object> waiting = inBackground(clientOf(0), "BZPOPMAX", "k", "0");
        awaitBlocked(1);
        EmbeddedClient db3 = clientOf(3);
        db3.call("ZADD", "k", "1", "low", "9", "high");

        db3.call("SWAPDB", "3", "0");

        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k", "high", "9");
        assertThat(clientOf(0).call("ZCARD", "k")).isEqualTo(1L);
    }

    @Test
    void swapdb_keyOfAnotherType_leavesTheWaiterBlockedUntilAZsetComes() throws Exception {
        Future<Object> waiting = inBackground(clientOf(1), "BZPOPMIN", "k", "0");
        awaitBlocked(1);
        EmbeddedClient db0 = clientOf(0);
        db0.call("SET", "k", "x");

        db0.call("SWAPDB", "0", "1");

        assertThat(support.engine.blockedClients()).isEqualTo(1);
        assertThat(waiting.isDone()).isFalse();
        EmbeddedClient db1 = clientOf(1);
        assertThat(db1.call("GET", "k")).isEqualTo("x".getBytes(StandardCharsets.UTF_8));
        db1.call("DEL", "k");
        db1.call("ZADD", "k", "2", "b");
        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k", "b", "2");
    }

    @Test
    void swapdb_waiterOnSeveralKeysOneOfAnotherType_isServedFromTheZset() throws Exception {
        Future<Object> waiting = inBackground(clientOf(1), "BZPOPMIN", "k2", "k1", "0");
        awaitBlocked(1);
        EmbeddedClient db0 = clientOf(0);
        db0.call("SET", "k2", "x");
        db0.call("ZADD", "k1", "1", "a");

        db0.call("SWAPDB", "0", "1");

        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k1", "a", "1");
    }

    @Test
    void swapdb_insideMulti_servesTheWaiterAfterExec() throws Exception {
        Future<Object> waiting = inBackground(clientOf(1), "BZPOPMIN", "k", "0");
        awaitBlocked(1);
        EmbeddedClient db0 = clientOf(0);
        db0.call("MULTI");
        db0.call("ZADD", "k", "1", "a");
        db0.call("SWAPDB", "0", "1");
        db0.call("EXEC");

        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k", "a", "1");
    }

    @Test
    void set_onTheKeyAClientWaitsFor_leavesItBlocked() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMIN", "k", "0");
        awaitBlocked(1);
        EmbeddedClient other = support.client();

        other.call("SET", "k", "x");

        assertThat(support.engine.blockedClients()).isEqualTo(1);
        assertThat(other.call("GET", "k")).isEqualTo("x".getBytes(StandardCharsets.UTF_8));
        other.call("DEL", "k");
        other.call("ZADD", "k", "1", "a");
        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k", "a", "1");
    }

    @Test
    void bzpopmin_twoKeysCreatedInOneTransaction_servedFromTheFirstCreated() throws Exception {
        Future<Object> waiting = inBackground(support.client(), "BZPOPMIN", "k1", "k2", "0");
        awaitBlocked(1);
        EmbeddedClient other = support.client();
        other.call("MULTI");
        other.call("ZADD", "k2", "2", "b");
        other.call("ZADD", "k1", "1", "a");
        other.call("EXEC");

        assertThat(strings(waiting.get(10, TimeUnit.SECONDS))).containsExactly("k2", "b", "2");
        assertThat(other.call("ZCARD", "k1")).isEqualTo(1L);
    }
}
