package dev.ordo.engine.time;

/**
 * The engine's source of wall-clock time, in milliseconds since the epoch. Passed in, never read
 * from {@link System#currentTimeMillis()} deep inside logic, so that expiry and timeouts can be
 * tested with a fake clock.
 */
@FunctionalInterface
public interface Clock {
    /** The system clock. */
    Clock SYSTEM = new SystemClock();

    /**
     * Milliseconds since the epoch.
     *
     * @return the current time in milliseconds
     */
    long millis();

    /**
     * Microseconds since the epoch, read now (TIME); by default from {@link #millis()}.
     *
     * @return the current time in microseconds
     */
    default long micros() {
        return millis() * 1000;
    }

    /**
     * Milliseconds since the epoch at the moment {@link System#nanoTime()} read {@code nanoTime},
     * so that a caller that needs both readings takes one; by default it reads {@link #millis()}.
     *
     * @param nanoTime a reading of {@link System#nanoTime()} just taken
     * @return the current time in milliseconds
     */
    default long millisAt(long nanoTime) {
        return millis();
    }
}
