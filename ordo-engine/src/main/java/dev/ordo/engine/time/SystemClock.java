package dev.ordo.engine.time;

import java.time.Instant;

/**
 * {@link Clock#SYSTEM}: the wall clock, which also tells the time at a {@link System#nanoTime()}
 * reading without reading the wall clock again. The offset between the two clocks is taken from
 * {@link Instant#now()} (finer than the millisecond) between two nanoTime readings under a
 * microsecond apart ({@link #read}), and taken again once a reading is over a millisecond past
 * it: a step of the wall clock (an NTP jump, a clock set by hand) shows within a millisecond,
 * NTP's slewing moves the clocks apart by under a microsecond in that time, and under load the
 * engine reads the wall clock once a millisecond instead of once a command. So a result agrees
 * with {@link #millis()}, except that within about a microsecond after a millisecond's edge it may
 * still give the millisecond before; it is never ahead. Safe from any thread: the offset is one
 * immutable record behind a volatile field.
 */
final class SystemClock implements Clock {
    private static final long RESYNC_NANOS = 1_000_000L;
    private static final int READ_TRIES = 10;
    private static final long TIGHT_NANOS = 1_000L;

    /** Wall-clock nanoseconds since the epoch minus {@link System#nanoTime()}, as read at {@code nanoTime}. */
    private record Offset(long nanoTime, long epochNanosMinusNanoTime) {
    }

    private volatile Offset offset = read();

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Override
    public long millisAt(long nanoTime) {
        Offset o = offset;
        long since = nanoTime - o.nanoTime;
        if (since < 0 || since > RESYNC_NANOS) {
            o = read();
            offset = o;
        }
        return Math.floorDiv(nanoTime + o.epochNanosMinusNanoTime, 1_000_000L);
    }

    /**
     * Reads the offset from the tightest of up to {@value #READ_TRIES} tries, stopping at one whose
     * two nanoTime readings are under {@value #TIGHT_NANOS} ns apart (a thread preempted inside a
     * try would stretch it by the preemption), pairing the wall clock with the later reading: the
     * wall clock was read before it, so the offset errs low by at most the try's span and a result
     * is never ahead of the wall clock (a key never expires early). Paired with the midpoint, a
     * result could run up to half the span ahead, and fell on the next millisecond before the wall
     * clock did about once in 80,000 readings (SystemClockTest failed so on a busy machine).
     */
    private static Offset read() {
        Offset best = null;
        long bestSpan = Long.MAX_VALUE;
        for (int i = 0; i < READ_TRIES && bestSpan > TIGHT_NANOS; i++) {
            long before = System.nanoTime();
            Instant wall = Instant.now();
            long after = System.nanoTime();
            if (after - before < bestSpan) {
                bestSpan = after - before;
                best = new Offset(after, wall.getEpochSecond() * 1_000_000_000L + wall.getNano() - after);
            }
        }
        return best;
    }
}
