package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocking list pops and moves under many threads: producers push, consumers take with BLPOP,
 * BRPOP, BLMPOP and BLMOVE (through a second list), all at once, in bounded time. Every element
 * pushed is taken exactly once; nothing is lost or duplicated and no list is left behind.
 */
class BlockingListConcurrencyTest {
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 500;
    private static final int CONSUMERS = 6;

    private final EngineTestSupport support = new EngineTestSupport();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        threads.shutdownNow();
        support.close();
    }

    @Test
    void manyProducersAndConsumers_everyElementTakenExactlyOnce() throws Exception {
        int total = PRODUCERS * PER_PRODUCER;
        List<Future<List<String>>> consumers = new ArrayList<>();
        int[] shares = new int[CONSUMERS];
        for (int i = 0; i < total; i++) {
            shares[i % CONSUMERS]++;
        }
        for (int c = 0; c < CONSUMERS; c++) {
            EmbeddedClient client = support.client();
            int share = shares[c];
            int kind = c % 3;
            String through = "moved" + c;
            consumers.add(threads.submit(() -> consume(client, kind, share, through)));
        }
        List<Future<?>> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            EmbeddedClient client = support.client();
            int id = p;
            producers.add(threads.submit(() -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    client.call(i % 2 == 0 ? "LPUSH" : "RPUSH", "q", id + ":" + i);
                }
                return null;
            }));
        }
        for (Future<?> p : producers) {
            p.get(30, TimeUnit.SECONDS);
        }
        Set<String> taken = new HashSet<>();
        int count = 0;
        for (Future<List<String>> c : consumers) {
            List<String> got = c.get(30, TimeUnit.SECONDS);
            count += got.size();
            taken.addAll(got);
        }
        assertThat(count).isEqualTo(total);
        assertThat(taken).hasSize(total);
        assertThat(support.client().call("DBSIZE")).isEqualTo(0L);
        assertThat(support.engine.blockedClients()).isZero();
    }

    /** Takes {@code share} elements, one at a time, with the blocking command of {@code kind} (moves go through {@code through}). */
    private static List<String> consume(EmbeddedClient client, int kind, int share, String through) {
        List<String> got = new ArrayList<>();
        while (got.size() < share) {
            switch (kind) {
                case 0:
                    got.add(text(((List<?>) client.call("BLPOP", "q", "0")).get(1)));
                    break;
                case 1: {
                    List<?> reply = (List<?>) client.call("BLMPOP", "0", "2", "other", "q", "RIGHT");
                    got.add(text(((List<?>) reply.get(1)).get(0)));
                    break;
                }
                default: {
                    Object moved = client.call("BLMOVE", "q", through, "RIGHT", "LEFT", "0");
                    Object back = client.call("RPOP", through);
                    assertThat(text(back)).isEqualTo(text(moved));
                    got.add(text(moved));
                }
            }
        }
        return got;
    }

    private static String text(Object bulk) {
        return new String((byte[]) bulk, StandardCharsets.UTF_8);
    }
}
