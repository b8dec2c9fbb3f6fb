package dev.ordo.engine.time;

/**
 * The engine's source of wall-clock time, in milliseconds since the epoch. Passed in, never read
 * from {@link System#currentTimeMillis()} deep inside logic, so that expiry and timeouts can be
 * tested with a fake clock.
 */
@FunctionalInterface
public interface Clock {
    /** The system clock. */
    Clock SYSTEM = new Clock() {
        @Override
        public long millis() {
            return System.currentTimeMillis();
        }

        @Override
        public long micros() {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
        }
    };

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
}
