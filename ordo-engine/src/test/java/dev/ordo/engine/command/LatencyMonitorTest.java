package dev.ordo.engine.command;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The latency monitor's rules on a fake clock and threshold: what it keeps, for how long, and its figures. */
class LatencyMonitorTest {
    private final AtomicLong threshold = new AtomicLong(10);
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final LatencyMonitor monitor = new LatencyMonitor(threshold::get, clock::get);

    private long second() {
        return clock.get() / 1000;
    }

    @Test
    void sample_belowThresholdOrMonitorOff_recordsNothing() {
        monitor.sample("command", 9);
        threshold.set(0);
        monitor.sample("command", 500);
        assertThat(monitor.events()).isEmpty();
        threshold.set(10);
        monitor.sample("command", 10);
        assertThat(monitor.history("command")).containsExactly(new LatencyMonitor.Sample(second(), 10));
    }

    @Test
    void sample_sameSecond_keepsTheWorstInOneSample() {
        monitor.sample("command", 30);
        monitor.sample("command", 20);
        monitor.sample("command", 50);
        assertThat(monitor.history("command")).containsExactly(new LatencyMonitor.Sample(second(), 50));
        clock.addAndGet(1000);
        monitor.sample("command", 15);
        assertThat(monitor.history("command")).extracting(LatencyMonitor.Sample::millis).containsExactly(50L, 15L);
        assertThat(monitor.allTimeMax("command")).isEqualTo(50);
    }

    @Test
    void sample_pastTheRing_dropsTheOldestButRemembersTheWorst() {
        monitor.sample("expire-cycle", 999);
        for (int i = 0; i < LatencyMonitor.SAMPLES; i++) {
            clock.addAndGet(1000);
            monitor.sample("expire-cycle", 10 + i);
        }
        List<LatencyMonitor.Sample> kept = monitor.history("expire-cycle");
        assertThat(kept).hasSize(LatencyMonitor.SAMPLES);
        assertThat(kept.get(0).millis()).isEqualTo(10);
        assertThat(kept.get(kept.size() - 1)).isEqualTo(new LatencyMonitor.Sample(second(), 10 + LatencyMonitor.SAMPLES - 1));
        assertThat(monitor.allTimeMax("expire-cycle")).isEqualTo(999);
    }

    @Test
    void reset_namedEventsIgnoringCase_orAll() {
        monitor.sample("command", 10);
        monitor.sample("fast-command", 10);
        monitor.sample("expire-cycle", 10);
        assertThat(monitor.reset(List.of("COMMAND", "nosuch"))).isEqualTo(1);
        assertThat(monitor.events()).containsExactly("fast-command", "expire-cycle");
        assertThat(monitor.reset(List.of())).isEqualTo(2);
        assertThat(monitor.events()).isEmpty();
        assertThat(monitor.allTimeMax("command")).isZero();
    }

    @Test
    void stats_averageDeviationAndPeriod() {
        monitor.sample("command", 10);
        clock.addAndGet(2000);
        monitor.sample("command", 20);
        clock.addAndGet(2000);
        monitor.sample("command", 60);
        // average (10 + 20 + 60) / 3 = 30; deviations 20, 10, 30: mean 20; the oldest sample is 4 s old.
        assertThat(monitor.stats("command")).isEqualTo(new LatencyMonitor.Stats(3, 30, 20, 10, 60, 4));
        assertThat(monitor.stats("nosuch")).isEqualTo(new LatencyMonitor.Stats(0, 0, 0, 0, 0, 0));
    }

    @Test
    void sparkline_barsThenABlankRowThenLabelsDownwards() {
        StringBuilder out = new StringBuilder();
        Sparkline.render(out, List.of(new Sparkline.Point(10, "12s"), new Sparkline.Point(40, "5s"),
                new Sparkline.Point(25, "0s")));
        // Heights in 12 steps: 0, 12 capped to 11, 6: '_' at the bottom; '#' on top of '|'s; '_' in the second row over '|'s.
        assertThat(out.toString()).isEqualTo(String.join("\n",
                " # ",
                " |_",
                " ||",
                "_||",
                "   ",
                "150",
                "2ss",
                "s  ",
                ""));
    }

    @Test
    void sparkline_moreThanEightyPoints_wrapsIntoBlocks() {
        StringBuilder out = new StringBuilder();
        List<Sparkline.Point> points = new java.util.ArrayList<>();
        for (int i = 0; i < Sparkline.COLUMNS + 1; i++) {
            points.add(new Sparkline.Point(1, "1s"));
        }
        Sparkline.render(out, points);
        String[] blocks = out.toString().split("\n\n");
        assertThat(blocks).hasSize(2);
        assertThat(blocks[0].split("\n")[0]).hasSize(Sparkline.COLUMNS);
        assertThat(blocks[1].split("\n")).containsExactly(" ", " ", " ", "_", " ", "1", "s");
    }
}
