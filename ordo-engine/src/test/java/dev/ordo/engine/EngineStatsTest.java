package dev.ordo.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Engine.stats(): the snapshot agrees with what INFO reports, and stays as it was taken. */
class EngineStatsTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    @Test
    void stats_afterCommands_countsCallsAsInfoCommandstatsDoes() {
        client.call("ZADD", "board", "1", "a");
        client.call("ZADD", "board", "2", "b");
        client.call("ZSCORE", "board", "a");
        assertThatThrownBy(() -> client.call("ZADD", "board", "x", "c"));

        EngineStats stats = support.engine.stats();
        String info = text(client.call("INFO", "commandstats"));

        EngineStats.CommandStats zadd = stats.commands().get("zadd");
        assertThat(zadd.calls()).isEqualTo(3).isEqualTo(figure(info, "zadd", "calls"));
        assertThat(zadd.failedCalls()).isEqualTo(1).isEqualTo(figure(info, "zadd", "failed_calls"));
        assertThat(zadd.micros()).isEqualTo(figure(info, "zadd", "usec"));
        assertThat(stats.commands().get("zscore").calls()).isEqualTo(1);
        assertThat(stats.commands()).doesNotContainKey("info");
    }

    @Test
    void stats_keysInSeveralDatabases_countsThemAll() {
        client.call("SET", "a", "1");
        client.call("SET", "b", "1");
        client.call("SELECT", "3");
        client.call("SET", "c", "1");

        assertThat(support.engine.stats().keys()).isEqualTo(3);
    }

    @Test
    void stats_clientsConnectAndClose_followsConnectedClients() {
        int before = support.engine.stats().connectedClients();
        EmbeddedClient second = support.client();

        assertThat(support.engine.stats().connectedClients()).isEqualTo(before + 1).isGreaterThanOrEqualTo(2);
        second.close();
        assertThat(support.engine.stats().connectedClients()).isEqualTo(before);
    }

    @Test
    void stats_afterAWrite_usedMemoryGrows() {
        long before = support.engine.stats().usedMemory();
        client.call("SET", "big", "x".repeat(100_000));

        assertThat(support.engine.stats().usedMemory()).isGreaterThan(before + 100_000);
    }

    @Test
    void stats_laterCommands_leaveAnEarlierSnapshotAsItWas() {
        client.call("ZADD", "board", "1", "a");
        EngineStats earlier = support.engine.stats();
        client.call("ZADD", "board", "2", "b");

        assertThat(earlier.commands().get("zadd").calls()).isEqualTo(1);
        assertThat(earlier.keys()).isEqualTo(1);
        assertThat(support.engine.stats().commands().get("zadd").calls()).isEqualTo(2);
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    private static long figure(String info, String command, String field) {
        Matcher m = Pattern.compile("cmdstat_" + command + ":(?:[^\\r\\n]*,)?" + field + "=(\\d+)").matcher(info);
        assertThat(m.find()).as("%s of %s in %s", field, command, info).isTrue();
        return Long.parseLong(m.group(1));
    }
}
