package dev.ordo.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Engine#connectText()}: the replies of {@link Engine#connect()}, bulk strings as text. */
class TextRepliesTest {
    private final EngineTestSupport forBytes = new EngineTestSupport();
    private final EngineTestSupport forText = new EngineTestSupport();
    private final EmbeddedClient bytes = forBytes.client();
    private final EmbeddedClient text = forText.engine.connectText();

    /** The same commands go to both engines, so writes leave them alike. */
    private static final List<String[]> COMMANDS = List.of(
            new String[] {"ZADD", "board", "1.5", "alice", "-inf", "bob", "3", "ca\u00e9rol"},
            new String[] {"HSET", "h", "f", "v", "g", "w"},
            new String[] {"SET", "s", "value"},
            new String[] {"ZRANGE", "board", "0", "-1", "WITHSCORES"},
            new String[] {"ZREVRANGE", "board", "0", "1"},
            new String[] {"ZSCORE", "board", "alice"},
            new String[] {"ZSCORE", "board", "nobody"},
            new String[] {"ZINCRBY", "board", "0.25", "alice"},
            new String[] {"ZMSCORE", "board", "bob", "nobody"},
            new String[] {"ZREVRANK", "board", "alice", "WITHSCORE"},
            new String[] {"ZPOPMIN", "board"},
            new String[] {"HGETALL", "h"},
            new String[] {"MGET", "s", "missing"},
            new String[] {"GET", "s"},
            new String[] {"INCRBYFLOAT", "n", "1.5"},
            new String[] {"PING"},
            new String[] {"ZCARD", "board"});

    @AfterEach
    void close() {
        forBytes.close();
        forText.close();
    }

    /** A reply with every {@code byte[]} decoded from UTF-8, lists rebuilt. */
    private static Object decoded(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(item -> out.add(decoded(item)));
            return out;
        }
        return reply;
    }

    @Test
    void everyReplyIsTheByteReplyDecoded() {
        for (String[] command : COMMANDS) {
            Object asBytes = bytes.call(command);
            Object asText = text.call(command);
            assertThat(asText).as(Arrays.toString(command)).isEqualTo(decoded(asBytes));
        }
        assertThat(text.call("ZRANGE", "board", "0", "-1", "WITHSCORES")).isEqualTo(List.of("alice", "1.75", "ca\u00e9rol", "3"));
    }

    @Test
    void atomicallyGivesTheClientsForm() {
        text.call("ZADD", "board", "2", "alice");
        Object inUnit = text.atomically(c -> c.call("ZSCORE", "board", "alice"));
        assertThat(inUnit).isEqualTo("2");
        bytes.call("ZADD", "board", "2", "alice");
        Object asBytes = bytes.atomically(c -> c.call("ZSCORE", "board", "alice"));
        assertThat(asBytes).isEqualTo("2".getBytes());
    }

    @Test
    void resp3DoublesStayDoubles() {
        text.call("HELLO", "3");
        text.call("ZADD", "board", "2.5", "alice");
        assertThat(text.call("ZSCORE", "board", "alice")).isEqualTo(2.5);
        assertThat(text.call("GET", "nothing")).isNull();
    }
}
