package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.memory.HeapBudget;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * RESTORE decodes a payload whose compressed strings may expand 88 times and whose elements
 * become objects: what it would take is checked against what the heap's data limit has left
 * before it is allocated. Here the restoring server has a 128 MB heap's limits (64 MB for data);
 * the payloads are made by a server with the test JVM's.
 */
class RestoreBudgetTest {
    private static final long MB = 1 << 20;

    @Test
    void restore_compressedStringPastTheHeapsDataLimit_oomAndNothingStored() {
        byte[] payload = dumpOf("k", client -> client.call("SETRANGE", "k", String.valueOf(100 * MB - 1), "x"));
        assertThat(payload.length).as("100 MB of zeros, LZF-compressed").isLessThan((int) (2 * MB));
        try (EngineTestSupport small = new EngineTestSupport(new Config(), new HeapBudget(128 * MB))) {
            EmbeddedClient client = small.client();
            assertThatThrownBy(() -> client.call("RESTORE".getBytes(), "k".getBytes(), "0".getBytes(), payload))
                    .isInstanceOf(ErrorReply.class).hasMessageStartingWith("OOM");
            assertThat(client.call("EXISTS", "k")).isEqualTo(0L);
            assertThat(client.call("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void restore_listOfRepeatedElementsPastTheLimit_oom_aSmallerOneFits() {
        byte[] big = dumpOf("l", client -> pushRepeated(client, "l", 2_000_000));
        byte[] small = dumpOf("l", client -> pushRepeated(client, "l", 20_000));
        try (EngineTestSupport server = new EngineTestSupport(new Config(), new HeapBudget(128 * MB))) {
            EmbeddedClient client = server.client();
            assertThatThrownBy(() -> client.call("RESTORE".getBytes(), "l".getBytes(), "0".getBytes(), big))
                    .isInstanceOf(ErrorReply.class).hasMessageStartingWith("OOM");
            assertThat(client.call("RESTORE".getBytes(), "l".getBytes(), "0".getBytes(), small)).isEqualTo("OK");
            assertThat(client.call("LLEN", "l")).isEqualTo(20_000L);
        }
    }

    private static void pushRepeated(EmbeddedClient client, String key, int n) {
        for (int done = 0; done < n; done += 10_000) {
            List<String> args = new ArrayList<>(List.of("RPUSH", key));
            for (int i = 0; i < 10_000; i++) {
                args.add("the-same-element-every-time-the-same-element-every-time-60b");
            }
            client.call(args.toArray(String[]::new));
        }
    }

    /** DUMP's payload of {@code key} after {@code fill}, from a server with the test JVM's limits. */
    private static byte[] dumpOf(String key, Consumer<EmbeddedClient> fill) {
        try (EngineTestSupport maker = new EngineTestSupport()) {
            EmbeddedClient client = maker.client();
            fill.accept(client);
            return (byte[]) client.call("DUMP", key);
        }
    }
}
