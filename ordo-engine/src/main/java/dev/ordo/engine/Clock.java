package dev.ordo.engine;

/**
 * The engine's source of wall-clock time, in milliseconds since the epoch. Passed in, never read
 * from {@link System#currentTimeMillis()} deep inside logic, so that expiry and timeouts can be
 * tested with a fake clock.
 */
@FunctionalInterface
public interface Clock {
    /** The system clock. */
    Clock SYSTEM = System::currentTimeMillis;

    /** Milliseconds since the epoch. */
    long millis();
}
