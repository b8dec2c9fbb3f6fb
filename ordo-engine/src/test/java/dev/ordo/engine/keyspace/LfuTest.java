package dev.ordo.engine.keyspace;

import org.junit.jupiter.api.Test;

import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

class LfuTest {
    private static final long MINUTE = 60_000;
    /** A minute's start well inside the 16-bit minute clock. */
    private static final long T0 = 1_000 * MINUTE;

    /** Active LFU settings (shared with EvictionTest). */
    static Lfu.Settings settings(long logFactor, long decayTime) {
        return new Lfu.Settings() {
            @Override
            public boolean active() {
                return true;
            }

            @Override
            public long logFactor() {
                return logFactor;
            }

            @Override
            public long decayTime() {
                return decayTime;
            }
        };
    }

    /** A generator whose every double is {@code value}: 0 always passes the increment's draw, just under 1 never does below p = 1. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    @Test
    void newKey_startsAtFive() {
        assertThat(Lfu.counter(Lfu.created(T0), T0, 1)).isEqualTo(5);
    }

    @Test
    void firstAccess_alwaysCounts_laterOnesWithProbabilityOneOverBaseTimesFactorPlusOne() {
        RandomGenerator never = fixed(Math.nextDown(1.0));
        long field = Lfu.accessed(Lfu.created(T0), T0, settings(10, 1), never);
        assertThat(Lfu.counter(field, T0, 1)).as("at 5 the probability is 1").isEqualTo(6);
        assertThat(Lfu.counter(Lfu.accessed(field, T0, settings(10, 1), never), T0, 1)).as("at 6 it is 1/11").isEqualTo(6);
        assertThat(Lfu.counter(Lfu.accessed(field, T0, settings(10, 1), fixed(1.0 / 11 - 1e-9)), T0, 1)).isEqualTo(7);
        assertThat(Lfu.counter(Lfu.accessed(field, T0, settings(0, 1), never), T0, 1)).as("factor 0 always counts").isEqualTo(7);
    }

    @Test
    void counter_saturatesAt255() {
        long field = Lfu.created(T0);
        for (int i = 0; i < 300; i++) {
            field = Lfu.accessed(field, T0, settings(10, 1), fixed(0));
        }
        assertThat(Lfu.counter(field, T0, 1)).isEqualTo(255);
    }

    @Test
    void counter_losesOnePerDecayPeriod_downToZero_andNeverWithDecayZero() {
        long field = Lfu.accessed(Lfu.created(T0), T0, settings(10, 2), fixed(0)); // 6
        assertThat(Lfu.counter(field, T0 + 5 * MINUTE, 2)).as("two whole periods of 2 minutes").isEqualTo(4);
        assertThat(Lfu.counter(field, T0 + 100 * MINUTE, 2)).isZero();
        assertThat(Lfu.counter(field, T0 + 100 * MINUTE, 0)).isEqualTo(6);
        long decayed = Lfu.accessed(field, T0 + 5 * MINUTE, settings(10, 2), fixed(Math.nextDown(1.0)));
        assertThat(Lfu.counter(decayed, T0 + 5 * MINUTE, 2)).as("decayed to 4, then counted (below 5 always)").isEqualTo(5);
        assertThat(Lfu.counter(decayed, T0 + 6 * MINUTE, 2)).as("the decay was stored: no period has passed since").isEqualTo(5);
    }

    @Test
    void minuteClock_wrapsAt65536() {
        long lastMinute = 65_535 * MINUTE;
        long field = Lfu.accessed(Lfu.created(lastMinute), lastMinute, settings(10, 1), fixed(0));
        assertThat(Lfu.counter(field, lastMinute + 3 * MINUTE, 1)).as("65535 -> 2 is 2 minutes, as Redis counts it").isEqualTo(4);
    }
}
