package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What command tests share: an engine with a manual clock, one client, and reply converters. */
abstract class CommandTestSupport {
    protected final EngineTestSupport support = new EngineTestSupport();
    protected final EmbeddedClient client = support.client();

    @AfterEach
    void closeEngine() {
        support.close();
    }

    /** A bulk reply as UTF-8 text. */
    protected static String s(Object bulk) {
        return new String((byte[]) bulk, StandardCharsets.UTF_8);
    }

    /** An array reply's elements as text (bulk strings decoded, other values by {@code toString}). */
    protected static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) reply) {
            out.add(o instanceof byte[] ? s(o) : String.valueOf(o));
        }
        return out;
    }

    /** Asserts that the command fails with exactly {@code expected}. */
    protected void fails(String expected, String... args) {
        assertThatThrownBy(() -> client.call(args)).isInstanceOf(ErrorReply.class).hasMessage(expected);
    }
}
