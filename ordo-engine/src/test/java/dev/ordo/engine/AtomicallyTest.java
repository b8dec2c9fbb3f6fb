package dev.ordo.engine;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link EmbeddedClient#atomically}: one unit, as a script is on a server. */
class AtomicallyTest {
    private final EngineTestSupport ordo = new EngineTestSupport();
    private final EmbeddedClient client = ordo.client();

    @AfterEach
    void close() {
        ordo.close();
    }

    private static String text(Object reply) {
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    @Test
    void readThenWriteLosesNoUpdateAcrossThreads() throws Exception {
        int perThread = 5_000;
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            EmbeddedClient own = ordo.client();
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < perThread; i++) {
                    own.atomically(c -> {
                        Object v = c.call("GET", "counter");
                        return c.call("SET", "counter", Long.toString(v == null ? 1 : Long.parseLong(text(v)) + 1));
                    });
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(client.call("GET", "counter")).isEqualTo("20000".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void writesReachTheEffectLogAsOneUnit() {
        List<Integer> unitSizes = new ArrayList<>();
        HostedEngine.of(ordo.engine).dispatcher().effects().setListener(effects -> unitSizes.add(effects.size()));
        client.atomically(c -> {
            c.call("ZADD", "board", "1", "a");
            c.call("ZSCORE", "board", "a");
            return c.call("ZINCRBY", "board", "2", "a");
        });
        client.call("ZADD", "board", "5", "b");
        assertThat(unitSizes).containsExactly(2, 1);
    }

    @Test
    void anErrorIsThrownKeepsEarlierWritesAndReleasesTheEngine() {
        assertThatThrownBy(() -> client.atomically(c -> {
            c.call("SET", "s", "text");
            return c.call("ZADD", "s", "1", "a");
        })).isInstanceOf(ErrorReply.class)
                .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
        EmbeddedClient other = ordo.client();
        assertThat(other.call("GET", "s")).isEqualTo("text".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> client.atomically(c -> c.call(new byte[0][]))).isInstanceOf(IllegalArgumentException.class);
        assertThat(other.call("PING")).isEqualTo("PONG");
    }

    @Test
    void aBlockingCommandAnswersAtOnceAndWaitersAreServedAfterTheUnit() throws Exception {
        Object nothing = client.atomically(c -> c.call("BZPOPMIN", "queue", "0"));
        assertThat(nothing).isNull();
        EmbeddedClient waiter = ordo.client();
        CompletableFuture<Object> popped = CompletableFuture.supplyAsync(() -> waiter.call("BZPOPMIN", "jobs", "0"));
        while (!text(client.call("INFO", "clients")).contains("blocked_clients:1\r\n")) {
            Thread.onSpinWait();
        }
        Object inside = client.atomically(c -> {
            c.call("ZADD", "jobs", "1", "j1");
            return c.call("ZCARD", "jobs");
        });
        assertThat(inside).isEqualTo(1L);
        assertThat((List<?>) popped.get(10, TimeUnit.SECONDS)).extracting(AtomicallyTest::text)
                .containsExactly("jobs", "j1", "1");
    }

    @Test
    void timeStandsStillInsideTheUnit() {
        Object inside = client.atomically(c -> {
            c.call("SET", "k", "v", "PX", "100");
            ordo.advance(200);
            return c.call("GET", "k");
        });
        assertThat(inside).isEqualTo("v".getBytes(StandardCharsets.UTF_8));
        assertThat(client.call("GET", "k")).isNull();
    }

    @Test
    void insideMultiItRefuses() {
        client.call("MULTI");
        assertThatThrownBy(() -> client.atomically(c -> c.call("PING"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("MULTI");
        assertThat(client.call("EXEC")).isEqualTo(List.of());
    }

    @Test
    void aClosedClientRefuses() {
        client.close();
        assertThatThrownBy(() -> client.atomically(c -> c.call("PING"))).isInstanceOf(IllegalStateException.class);
    }
}
