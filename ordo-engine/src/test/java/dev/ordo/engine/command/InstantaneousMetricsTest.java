package dev.ordo.engine.command;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The instantaneous figures of INFO stats: Redis's ring of 16 per-second samples, fed with explicit times. */
class InstantaneousMetricsTest {
    private final InstantaneousMetrics metrics = new InstantaneousMetrics();

    private static TransportStats bytes(long in, long out) {
        return new TransportStats(0, 0, in, out, 0, 0, 0, 0, 0);
    }

    @Test
    void opsPerSec_steadyRateOverAFullRing_isThatRate() {
        for (int i = 0; i <= 16; i++) {
            metrics.sample(1_000 + i * 100L, i * 50L, TransportStats.NONE);
        }
        assertThat(metrics.opsPerSec()).isEqualTo(500);
    }

    @Test
    void opsPerSec_fewSamples_isTheMeanOverSixteenWithIntegerDivision() {
        metrics.sample(1_000, 0, TransportStats.NONE);
        metrics.sample(1_100, 10, TransportStats.NONE);
        metrics.sample(1_200, 25, TransportStats.NONE);
        assertThat(metrics.opsPerSec()).isEqualTo((100 + 150) / 16);
    }

    @Test
    void opsPerSec_firstSampleOnly_isZero() {
        metrics.sample(1_000, 1_000_000, TransportStats.NONE);
        assertThat(metrics.opsPerSec()).isZero();
    }

    @Test
    void kbps_bytesPerSampleInAndOut_areKibPerSecond() {
        for (int i = 0; i <= 16; i++) {
            metrics.sample(i * 100L, 0, bytes(i * 1024L, i * 512L));
        }
        assertThat(metrics.inputKbps()).isEqualTo(10.0);
        assertThat(metrics.outputKbps()).isEqualTo(5.0);
    }

    @Test
    void sample_counterGoesDownOrNoTimePasses_countsAsNoGrowth() {
        metrics.sample(1_000, 0, bytes(5_000, 0));
        metrics.sample(1_100, 0, bytes(0, 0));
        metrics.sample(1_100, 0, bytes(9_000, 0));
        assertThat(metrics.inputKbps()).isZero();
    }

    @Test
    void reset_forgetsSamplesAndCountsFromZero() {
        for (int i = 0; i <= 16; i++) {
            metrics.sample(i * 100L, i * 50L, TransportStats.NONE);
        }
        metrics.reset(2_000);
        assertThat(metrics.opsPerSec()).isZero();
        metrics.sample(2_100, 16, TransportStats.NONE);
        assertThat(metrics.opsPerSec()).isEqualTo(160 / 16);
    }
}
