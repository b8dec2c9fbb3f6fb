package dev.ordo.engine.command;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ErrorStats} and {@link CommandLatency}: the rules INFO's error and latency figures follow. */
class ErrorFiguresTest {
    private static Map<String, Long> codes(ErrorStats stats) {
        Map<String, Long> out = new LinkedHashMap<>();
        stats.forEach(out::put);
        return out;
    }

    @Test
    void code_isTheWordBeforeASpaceInTheFirst31Characters_elseErr() {
        assertThat(ErrorStats.code("WRONGTYPE Operation against a key")).isEqualTo("WRONGTYPE");
        assertThat(ErrorStats.code("NOSPACE")).isEqualTo("ERR");
        assertThat(ErrorStats.code("")).isEqualTo("ERR");
        assertThat(ErrorStats.code("  lead")).isEmpty();
        assertThat(ErrorStats.code("A".repeat(30) + " x")).isEqualTo("A".repeat(30));
        assertThat(ErrorStats.code("A".repeat(31) + " x")).isEqualTo("ERR");
    }

    @Test
    void count_listsCodesInByteOrderAndCountsEveryReply() {
        ErrorStats stats = new ErrorStats();
        for (String text : new String[] {"lower case", "WRONGTYPE x", "ERR a", "-DASH x", "ERR b"}) {
            stats.count(text);
        }
        assertThat(codes(stats)).containsExactly(Map.entry("-DASH", 1L), Map.entry("ERR", 2L), Map.entry("WRONGTYPE", 1L),
                Map.entry("lower", 1L));
        assertThat(stats.total()).isEqualTo(5);
    }

    @Test
    void count_pastTheCodeLimit_stopsAddingCodesUntilReset() {
        ErrorStats stats = new ErrorStats();
        for (int i = 0; i < ErrorStats.MAX_CODES + 5; i++) {
            stats.count("E" + i + " made up by a script");
        }
        stats.count("E0 again");
        assertThat(codes(stats)).hasSize(ErrorStats.MAX_CODES).containsEntry("E0", 2L).doesNotContainKey("E" + ErrorStats.MAX_CODES);
        assertThat(stats.total()).isEqualTo(ErrorStats.MAX_CODES + 6);

        stats.reset();
        stats.count("NEW code");
        assertThat(codes(stats)).containsExactly(Map.entry("NEW", 1L));
        assertThat(stats.total()).isEqualTo(1);
    }

    /** Two calls of 9 and 10 µs: what redis-server 7.0.15 printed for them. */
    @Test
    void describe_twoCalls_printsWhatRedisPrints() {
        CommandLatency latency = new CommandLatency();
        latency.record(9);
        latency.record(10);
        assertThat(latency.describe(new double[] {50, 99, 99.9})).isEqualTo("p50=9.023,p99=10.047,p99.9=10.047");
    }

    /**
     * The count at a percentile is rounded to nearest, as Redis's C library does, not up as
     * HdrHistogram's Java getValueAtPercentile does: of 160 calls of 1..160 µs, p99 is the 158th
     * (158.4 rounds to 158), in the bucket 157,696..158,719 ns.
     */
    @Test
    void valueAt_countAtPercentile_roundsToNearestAsRedis() {
        CommandLatency latency = new CommandLatency();
        for (int micros = 1; micros <= 160; micros++) {
            latency.record(micros);
        }
        assertThat(latency.valueAt(99)).isEqualTo(158_719);
        assertThat(latency.describe(new double[] {99, 100, 0})).isEqualTo("p99=158.719,p100=160.767,p0=1.003");
    }

    @Test
    void record_beyondOneSecond_countsAsOneSecond() {
        CommandLatency latency = new CommandLatency();
        latency.record(5_000_000);
        assertThat(latency.valueAt(50)).isBetween(1_000_000_000L, 1_010_000_000L);
    }
}
