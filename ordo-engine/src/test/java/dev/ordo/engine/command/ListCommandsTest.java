package dev.ordo.engine.command;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * List behaviour the side-by-side tests cannot compare with redis-server 7.0: Redis 7.2's
 * encodings (listpack, quicklist, and back), the list settings and their old names, MEMORY
 * USAGE, COPY, SCAN TYPE, LPOS RANK's 7.2 range, and what the append-only file is told.
 */
class ListCommandsTest extends CommandTestSupport {
    private String encoding(String key) {
        return s(client.call("OBJECT", "ENCODING", key));
    }

    private void rpush(String key, int n, int width) {
        rpushTo(client, key, n, width);
    }

    private static void rpushTo(EmbeddedClient client, String key, int n, int width) {
        List<String> args = new ArrayList<>(List.of("RPUSH", key));
        for (int i = 0; i < n; i++) {
            args.add(String.format("e%0" + (width - 1) + "d", i));
        }
        client.call(args.toArray(String[]::new));
    }

    @Test
    void objectEncoding_listpackUntilEightKilobytes_thenQuicklist_backAtHalf() {
        rpush("l", 500, 14);
        assertThat(encoding("l")).isEqualTo("listpack");
        client.call("RPUSH", "l", "x".repeat(200));
        assertThat(encoding("l")).isEqualTo("quicklist");
        client.call("LTRIM", "l", "0", "299");
        assertThat(encoding("l")).as("above half the limit").isEqualTo("quicklist");
        client.call("LTRIM", "l", "0", "199");
        assertThat(encoding("l")).isEqualTo("listpack");
    }

    @Test
    void objectEncoding_bigElement_quicklistAtOnce() {
        client.call("LPUSH", "l", "x".repeat(9000));
        assertThat(encoding("l")).isEqualTo("quicklist");
        client.call("LSET", "l", "0", "small");
        assertThat(encoding("l")).isEqualTo("listpack");
    }

    @Test
    void linsert_pivotMissing_stillConverts_asRedis72() {
        rpush("l", 10, 4);
        client.call("CONFIG", "SET", "list-max-listpack-size", "10");
        assertThat(client.call("LINSERT", "l", "BEFORE", "nosuch", "x")).isEqualTo(-1L);
        assertThat(encoding("l")).isEqualTo("quicklist");
    }

    @Test
    void config_oldNameAndCompressDepth_takeEffect() {
        dev.ordo.engine.config.Config debuggable = new dev.ordo.engine.config.Config();
        debuggable.set("enable-debug-command", "yes", true);
        try (EngineTestSupport ordo = new EngineTestSupport(debuggable)) {
            EmbeddedClient client = ordo.client();
            configTakesEffect(client);
        }
    }

    private void configTakesEffect(EmbeddedClient client) {
        assertThat(strings(client.call("CONFIG", "GET", "list-max-ziplist-size"))).containsExactly("list-max-ziplist-size", "-2");
        client.call("CONFIG", "SET", "list-max-ziplist-size", "3");
        assertThat(strings(client.call("CONFIG", "GET", "list-max-listpack-size"))).containsExactly("list-max-listpack-size", "3");
        client.call("CONFIG", "SET", "list-compress-depth", "1");
        rpushTo(client, "l", 40, 30);
        String debug = (String) client.call("DEBUG", "OBJECT", "l");
        assertThat(debug).contains("encoding:quicklist").contains("ql_nodes:14").contains("ql_listpack_max:3")
                .contains("ql_compressed:1");
        assertThat(strings(client.call("LRANGE", "l", "38", "-1"))).containsExactly(
                "e00000000000000000000000000038", "e00000000000000000000000000039");
        assertThatThrownBy(() -> client.call("CONFIG", "SET", "list-compress-depth", "-1")).isInstanceOf(ErrorReply.class);
    }

    @Test
    void memoryUsage_growsWithTheList_copyAndScanTypeSeeIt() {
        rpush("l", 2000, 14);
        long usage = (Long) client.call("MEMORY", "USAGE", "l");
        assertThat(usage).isBetween(2000L * 16, 2000L * 20);
        assertThat(client.call("COPY", "l", "c")).isEqualTo(1L);
        client.call("LPOP", "l");
        assertThat(client.call("LLEN", "c")).isEqualTo(2000L);
        assertThat(client.call("TYPE", "c")).isEqualTo("list");
        client.call("SET", "str", "x");
        List<?> scan = (List<?>) client.call("SCAN", "0", "TYPE", "list", "COUNT", "100");
        assertThat(strings(scan.get(1))).containsExactlyInAnyOrder("l", "c");
    }

    @Test
    void debugQuicklistPackedThreshold_givesLargerElementsPlainNodes() {
        dev.ordo.engine.config.Config debuggable = new dev.ordo.engine.config.Config();
        debuggable.set("enable-debug-command", "yes", true);
        try (EngineTestSupport ordo = new EngineTestSupport(debuggable)) {
            EmbeddedClient c = ordo.client();
            rpushTo(c, "l", 1000, 14);
            assertThat((String) c.call("DEBUG", "OBJECT", "l")).contains("ql_nodes:2 ");
            assertThat(c.call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "100")).isEqualTo("OK");
            c.call("RPUSH", "l", "x".repeat(100), "small", "y".repeat(150));
            assertThat((String) c.call("DEBUG", "OBJECT", "l")).contains("ql_nodes:5 ");
            assertThat(c.call("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "0")).isEqualTo("OK");
            c.call("RPUSH", "l", "z".repeat(150), "w".repeat(150));
            assertThat((String) c.call("DEBUG", "OBJECT", "l")).as("both packed, in one new node after the plain tail")
                    .contains("ql_nodes:6 ");
            assertThat(c.call("LINDEX", "l", "1001")).isEqualTo("small".getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void lpos_rankLongMin_refusedAsRedis72() {
        client.call("RPUSH", "l", "a");
        fails("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                "LPOS", "l", "a", "RANK", "-9223372036854775808");
    }

    @Test
    void effects_popsAndMovesLoggedAsTheirNonBlockingForms() {
        try (EngineTestSupport ordo = new EngineTestSupport()) {
            List<String> log = new ArrayList<>();
            HostedEngine.of(ordo.engine).dispatcher().effects().setListener(effects -> effects.forEach(e -> {
                List<String> parts = new ArrayList<>();
                for (byte[] a : e.args()) {
                    parts.add(new String(a, StandardCharsets.UTF_8));
                }
                log.add(String.join(" ", parts));
            }));
            EmbeddedClient c = ordo.client();
            c.call("RPUSH", "a", "1", "2", "3");
            c.call("LMPOP", "2", "none", "a", "RIGHT", "COUNT", "5");
            c.call("RPUSH", "a", "x", "y");
            c.call("BLPOP", "a", "0");
            c.call("BLMOVE", "a", "b", "LEFT", "RIGHT", "0");
            c.call("LPOP", "none");
            assertThat(log).containsExactly("RPUSH a 1 2 3", "RPOP a 3", "RPUSH a x y", "LPOP a 1",
                    "LMOVE a b LEFT RIGHT");
        }
    }
}
