package dev.ordo.server.compat;

import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LATENCY beside a real {@code redis-server}: each server gets one certain spike (the threshold
 * at 1 ms around a DEBUG SLEEP of 20 ms, then 0 again so nothing else is recorded), and every
 * subcommand's reply must have the same shape on both, in RESP2 and RESP3: the same types and
 * nesting, the same names, and texts laid out alike; the timings themselves are only checked
 * against the sleep. Both servers allow DEBUG, as Redis's own tests run theirs.
 */
class LatencyOverWireTest {
    private static final String SPIKE_LINE =
            "\\d+\\. command: \\d+ latency spikes \\(average \\d+ms, mean deviation \\d+ms, period \\d+\\.\\d\\d sec\\)\\. "
                    + "Worst all time event \\d+ms\\.";

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide(Map.of("enable-debug-command", "yes"));

    /** What one server answered, by subcommand, after its spike. */
    private static Map<String, Reply> probe(int port) throws IOException {
        Map<String, Reply> out = new LinkedHashMap<>();
        try (RespSocket s = new RespSocket(port)) {
            s.call(SideBySide.words("CONFIG SET latency-monitor-threshold 1"));
            s.call(SideBySide.words("DEBUG SLEEP 0.02"));
            s.call(SideBySide.words("CONFIG SET latency-monitor-threshold 0"));
            for (String protocol : List.of("2", "3")) {
                s.call(SideBySide.words("HELLO " + protocol));
                for (String line : List.of("LATENCY LATEST", "LATENCY HISTORY command", "LATENCY GRAPH command", "LATENCY DOCTOR",
                        "LATENCY HISTOGRAM debug", "LATENCY HELP")) {
                    out.put("RESP" + protocol + " " + line, s.call(SideBySide.words(line)));
                }
            }
            out.put("LATENCY RESET command", s.call(SideBySide.words("LATENCY RESET command")));
            out.put("LATENCY HISTORY command after RESET", s.call(SideBySide.words("LATENCY HISTORY command")));
        }
        return out;
    }

    @Test
    void everySubcommand_hasRedisShape() throws IOException {
        Map<String, Reply> fromRedis = probe(SERVERS.redis().port());
        Map<String, Reply> fromOrdo = probe(SERVERS.ordoPort());
        for (String what : fromRedis.keySet()) {
            Reply r = fromRedis.get(what);
            Reply o = fromOrdo.get(what);
            String verbatim = what.startsWith("RESP3") ? "VERBATIM" : "BULK";
            if (what.endsWith("LATEST")) {
                assertThat(shape(commandEntry(o))).as(what).isEqualTo(shape(commandEntry(r))).isEqualTo("A[\"command\", #, #, #]");
                assertThat(commandEntry(o).children().get(2).integer()).as(what).isGreaterThanOrEqualTo(20);
            } else if (what.endsWith("HISTORY command")) {
                assertThat(o.children()).as(what).isNotEmpty();
                assertThat(o.children().stream().map(LatencyOverWireTest::shape).distinct().toList()).as(what)
                        .isEqualTo(r.children().stream().map(LatencyOverWireTest::shape).distinct().toList())
                        .containsExactly("A[#, #]");
            } else if (what.endsWith("GRAPH command")) {
                assertThat(o.kind().name()).as(what).isEqualTo(r.kind().name()).isEqualTo(verbatim);
                assertThat(graphLayout(o, fromOrdo.get("RESP2 LATENCY HISTORY command").children().size())).as(what)
                        .isEqualTo(graphLayout(r, fromRedis.get("RESP2 LATENCY HISTORY command").children().size()));
            } else if (what.endsWith("DOCTOR")) {
                assertThat(o.kind().name()).as(what).isEqualTo(r.kind().name()).isEqualTo(verbatim);
                assertThat(r.textString()).as(what).containsPattern(SPIKE_LINE);
                assertThat(o.textString()).as(what).containsPattern(SPIKE_LINE);
            } else if (what.endsWith("HELP")) {
                assertThat(o.children()).as(what).hasSameSizeAs(r.children());
                assertThat(o.children().stream().map(c -> c.kind().name()).distinct().toList()).containsExactly("STATUS");
            } else {
                assertThat(shape(o)).as(what + ": Redis %s, Ordo %s", r, o).isEqualTo(shape(r));
            }
        }
        assertThat(shape(fromOrdo.get("RESP3 LATENCY HISTOGRAM debug")))
                .isEqualTo("M[\"debug\", M[\"calls\", #, \"histogram_usec\", M[#, #]]]");
    }

    /** LATEST's entry for the command event (other events may have spiked too: their timing is not ours to decide). */
    private static Reply commandEntry(Reply latest) {
        return latest.children().stream().filter(e -> "command".equals(e.children().get(0).textString())).findFirst()
                .orElseThrow(() -> new AssertionError("no command event in " + latest));
    }

    /** A reply's types and nesting, with integers as {@code #} and verbatim text as {@code =}. */
    private static String shape(Reply r) {
        return switch (r.kind()) {
            case INTEGER -> "#";
            case BULK, STATUS, ERROR -> r.toString();
            case VERBATIM -> "=";
            case ARRAY, MAP, SET, PUSH -> r.kind().name().charAt(0)
                    + r.children().stream().map(LatencyOverWireTest::shape).collect(Collectors.joining(", ", "[", "]"));
            default -> r.kind().name();
        };
    }

    /**
     * GRAPH's text with its figures replaced: the header with {@code N} for numbers, the rule, then
     * each row's width against the number of samples and the characters it may hold.
     */
    private static List<String> graphLayout(Reply graph, int samples) {
        String[] lines = graph.textString().split("\n", -1);
        List<String> out = new ArrayList<>();
        out.add(lines[0].replaceAll("\\d+", "N"));
        out.add(lines[1]);
        for (int i = 2; i < lines.length - 1; i++) {
            String row = lines[i];
            String kind = i < 6 ? (row.matches("[ _o#|\\-`]*") ? "bars" : row) : i == 6 ? (row.isBlank() ? "blank" : row)
                    : (row.matches("[0-9smhd ]*") ? "label" : row);
            out.add(kind + (row.length() == samples ? "" : " of width " + row.length() + " for " + samples + " samples"));
        }
        out.add(lines[lines.length - 1].isEmpty() ? "ends with a newline" : "ends with " + lines[lines.length - 1]);
        return out.stream().map(line -> line.startsWith("label") ? "label" : line).distinct().collect(Collectors.toList());
    }
}
