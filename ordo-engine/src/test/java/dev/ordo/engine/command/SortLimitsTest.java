package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SORT with GET patterns multiplies what one command produces: a reply of elements times
 * patterns. One whose count cannot be an array header is refused before any of it is produced,
 * and the server goes on serving; under the limit, the reply is streamed as it is produced.
 */
class SortLimitsTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    @Test
    void sort_getPatternsMultiplyPastAnArrayHeader_refusedAndServerServes() {
        int elements = 100_000;
        List<String> push = new ArrayList<>(List.of("RPUSH", "big"));
        for (int i = 0; i < elements; i++) {
            push.add(String.valueOf(i));
        }
        client.call(push.toArray(String[]::new));
        // 100,000 elements x 21,475 GETs = 2,147,500,000 results, past 2^31 - 1: gathering them
        // first (as SORT once did) would need gigabytes of references before the first byte.
        int gets = 21_475;
        List<String> sort = new ArrayList<>(List.of("SORT", "big"));
        for (int i = 0; i < gets; i++) {
            sort.add("GET");
            sort.add("#");
        }
        assertThatThrownBy(() -> client.call(sort.toArray(String[]::new)))
                .isInstanceOf(ErrorReply.class).hasMessage("ERR SORT reply too long");
        assertThat(client.call("LLEN", "big")).isEqualTo((long) elements);
        assertThat(client.call("PING")).isEqualTo("PONG");
    }

    @Test
    void sort_getPatternsWithinTheLimit_oneResultPerElementAndPattern() {
        client.call("RPUSH", "ids", "3", "1", "2");
        client.call("MSET", "name_1", "ann", "name_2", "bob", "name_3", "cy");
        List<String> reply = new ArrayList<>();
        for (Object o : (List<?>) client.call("SORT", "ids", "GET", "#", "GET", "name_*")) {
            reply.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        assertThat(reply).containsExactly("1", "ann", "2", "bob", "3", "cy");
    }
}
