package dev.ordo.engine.command;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LATENCY's subcommands on an engine. A spike is made certain, never hoped for: DEBUG SLEEP 0.01
 * holds the engine at least 10 ms and the threshold is 1 ms, so only the shapes and lower bounds
 * are asserted, never a timing.
 */
class LatencyCommandsTest extends CommandTestSupport {
    private static final long NOW_SECONDS = 1_700_000_000L;

    private void spike() {
        client.call("CONFIG", "SET", "latency-monitor-threshold", "1");
        client.call("DEBUG", "SLEEP", "0.01");
    }

    @Test
    void threshold_isZeroByDefault_andRecordsNothing() {
        assertThat(strings(client.call("CONFIG", "GET", "latency-monitor-threshold"))).containsExactly("latency-monitor-threshold", "0");
        client.call("DEBUG", "SLEEP", "0.01");
        assertThat((List<?>) client.call("LATENCY", "LATEST")).isEmpty();
        assertThat(s(client.call("LATENCY", "DOCTOR"))).startsWith("Latency monitoring is disabled");
        fails("ERR CONFIG SET failed (possibly related to argument 'latency-monitor-threshold') - argument must be between 0 and "
                + "9223372036854775807 inclusive", "CONFIG", "SET", "latency-monitor-threshold", "-1");
    }

    @Test
    void latest_afterASlowCommand_namesTheCommandEvent() {
        spike();
        List<?> latest = (List<?>) client.call("LATENCY", "LATEST");
        assertThat(latest).hasSize(1);
        List<?> entry = (List<?>) latest.get(0);
        assertThat(s(entry.get(0))).isEqualTo("command");
        assertThat(entry.get(1)).isEqualTo(NOW_SECONDS);
        assertThat((Long) entry.get(2)).isGreaterThanOrEqualTo(10L);
        assertThat(entry.get(3)).isEqualTo(entry.get(2));
    }

    @Test
    void history_listsTimeAndLatencyPairs_andNothingForAnUnknownEvent() {
        spike();
        support.advance(1000);
        client.call("DEBUG", "SLEEP", "0.01");
        List<?> history = (List<?>) client.call("LATENCY", "HISTORY", "command");
        assertThat(history).hasSize(2);
        assertThat(((List<?>) history.get(0)).get(0)).isEqualTo(NOW_SECONDS);
        assertThat(((List<?>) history.get(1)).get(0)).isEqualTo(NOW_SECONDS + 1);
        assertThat((List<?>) client.call("LATENCY", "HISTORY", "nosuch")).isEmpty();
        fails("ERR wrong number of arguments for 'latency|history' command", "LATENCY", "HISTORY");
    }

    @Test
    void graph_hasHeaderRuleBarsAndLabels() {
        spike();
        support.advance(5000);
        String graph = s(client.call("LATENCY", "GRAPH", "command"));
        String[] lines = graph.split("\n", -1);
        assertThat(lines[0]).matches("command - high (\\d+) ms, low \\1 ms \\(all time high \\1 ms\\)");
        assertThat(lines[1]).isEqualTo("-".repeat(80));
        assertThat(List.of(lines).subList(2, lines.length)).containsExactly(" ", " ", " ", "_", " ", "5", "s", "");
        fails("ERR No samples available for event 'nosuch'", "LATENCY", "GRAPH", "nosuch");
    }

    @Test
    void doctor_reportsEachEventWithAdvice() {
        client.call("CONFIG", "SET", "latency-monitor-threshold", "1");
        assertThat(s(client.call("LATENCY", "DOCTOR"))).startsWith("No latency spike has been recorded");
        client.call("DEBUG", "SLEEP", "0.01");
        String report = s(client.call("LATENCY", "DOCTOR"));
        assertThat(report).containsPattern("\n1\\. command: 1 latency spikes \\(average \\d+ms, mean deviation 0ms, period 1\\.00 sec\\)\\. "
                + "Worst all time event \\d+ms\\.\n");
        // slowlog-log-slower-than is 10000 us = 10 ms, above the 1 ms threshold.
        assertThat(report).contains("'CONFIG SET slowlog-log-slower-than 1000'", "SLOWLOG GET");
    }

    @Test
    void reset_countsWhatItForgot() {
        spike();
        assertThat(client.call("LATENCY", "RESET", "nosuch")).isEqualTo(0L);
        assertThat(client.call("LATENCY", "RESET", "COMMAND", "command")).isEqualTo(1L);
        assertThat((List<?>) client.call("LATENCY", "LATEST")).isEmpty();
        assertThat(client.call("LATENCY", "RESET")).isEqualTo(0L);
    }

    @Test
    void histogram_mapsCommandsToCumulativeBuckets() {
        client.call("SET", "k", "v");
        client.call("SET", "k", "w");
        client.call("CONFIG", "GET", "hz");
        List<?> all = (List<?>) client.call("LATENCY", "HISTOGRAM");
        assertThat(all.size() % 2).isZero();
        assertThat(strings(all).stream().filter(x -> x.equals("set") || x.equals("config|get"))).hasSize(2);
        List<?> named = (List<?>) client.call("LATENCY", "HISTOGRAM", "SET", "nosuch", "config", "get");
        assertThat(s(named.get(0))).isEqualTo("set");
        List<?> set = (List<?>) named.get(1);
        assertThat(s(set.get(0))).isEqualTo("calls");
        assertThat(set.get(1)).isEqualTo(2L);
        assertThat(s(set.get(2))).isEqualTo("histogram_usec");
        List<?> buckets = (List<?>) set.get(3);
        assertThat(buckets.get(buckets.size() - 1)).isEqualTo(2L);
        assertThat(s(named.get(2))).isEqualTo("config|get");
        // GET was never called: it has no histogram, as an unknown name has none.
        assertThat(named).hasSize(4);
    }

    @Test
    void histogram_bucketsAreRedisPowersOfTwoFrom1024Nanoseconds() {
        CommandLatency latency = new CommandLatency();
        for (long micros : new long[] {0, 1, 3, 3, 40, 1500}) {
            latency.record(micros);
        }
        ObjectReplyWriter out = new ObjectReplyWriter(() -> 2, true);
        latency.writeCumulative(out);
        // Tops of the buckets holding 1024, 4096, 65536 and 2097152 ns, as redis-server reports them.
        assertThat(out.take()).isEqualTo(List.of("calls", 6L, "histogram_usec", List.of(1L, 2L, 4L, 4L, 66L, 5L, 2113L, 6L)));
    }

    @Test
    void help_listsTheSubcommands() {
        List<String> help = strings(client.call("LATENCY", "HELP"));
        assertThat(help.get(0)).isEqualTo("LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        assertThat(help).contains("DOCTOR", "GRAPH <event>", "HISTORY <event>", "LATEST", "RESET [<event> ...]",
                "HISTOGRAM [COMMAND ...]", "HELP");
        fails("ERR unknown subcommand 'FOO'. Try LATENCY HELP.", "LATENCY", "FOO");
    }
}
