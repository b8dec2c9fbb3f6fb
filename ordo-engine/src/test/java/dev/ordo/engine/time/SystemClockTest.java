package dev.ordo.engine.time;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SystemClockTest {
    /**
     * The contract is agreement with the wall clock except within about a microsecond after a
     * millisecond's edge, where a reading may fall on the millisecond before (hence {@code before
     * - 1}), and never a reading ahead of it. A million readings: an offset paired with the
     * midpoint of its two nanoTime readings ran ahead about once in 80,000 on a busy machine.
     */
    @Test
    void millisAt_aReadingJustTaken_fallsBetweenTheWallClockBeforeAndAfterIt() {
        Clock clock = Clock.SYSTEM;
        int onTheEdge = 0;
        for (int i = 0; i < 1_000_000; i++) {
            long before = System.currentTimeMillis();
            long at = clock.millisAt(System.nanoTime());
            long after = System.currentTimeMillis();
            assertThat(at).as("reading %d", i).isBetween(before - 1, after);
            if (at < before) {
                onTheEdge++;
            }
        }
        assertThat(onTheEdge).as("readings a millisecond behind").isLessThan(1_000);
    }

    @Test
    void millisAt_readingsOverMoreThanTheResyncInterval_stayWithTheWallClock() throws InterruptedException {
        Clock clock = Clock.SYSTEM;
        for (int i = 0; i < 3; i++) {
            Thread.sleep(5); // past the millisecond after which the offset is read again
            long before = System.currentTimeMillis();
            long at = clock.millisAt(System.nanoTime());
            long after = System.currentTimeMillis();
            assertThat(at).isBetween(before - 1, after);
        }
    }

    @Test
    void millisAt_ofAFakeClock_isItsMillis() {
        Clock fake = () -> 42L;
        assertThat(fake.millisAt(System.nanoTime())).isEqualTo(42L);
    }
}
