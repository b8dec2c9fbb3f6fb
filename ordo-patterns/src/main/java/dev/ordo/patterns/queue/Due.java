package dev.ordo.patterns.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** When a job falls due: at an instant, or after a delay counted on the server's clock. */
public final class Due {
    private final String wire;

    private Due(String wire) {
        this.wire = wire;
    }

    /**
     * After {@code delay} (zero: now), counted from the server's clock when the job is stored.
     *
     * @param delay how long from now, not negative
     * @return the due time
     */
    public static Due in(Duration delay) {
        if (Objects.requireNonNull(delay, "delay").isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative, got " + delay);
        }
        return new Due("+" + delay.toMillis());
    }

    /**
     * At {@code at} (in the past: due at once).
     *
     * @param at the instant the job falls due
     * @return the due time
     */
    public static Due at(Instant at) {
        return new Due("@" + Objects.requireNonNull(at, "at").toEpochMilli());
    }

    /**
     * Now.
     *
     * @return a due time of now
     */
    public static Due now() {
        return in(Duration.ZERO);
    }

    String wire() {
        return wire;
    }
}
