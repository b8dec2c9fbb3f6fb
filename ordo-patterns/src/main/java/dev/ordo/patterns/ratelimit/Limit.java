package dev.ordo.patterns.ratelimit;

import java.time.Duration;
import java.util.Objects;

/**
 * At most {@code permits} in any {@code window} (sliding limiters), or, for a token bucket, a
 * bucket of {@code permits} tokens that refills {@code permits} tokens per {@code window}
 * continuously (see {@link TokenBucketLimiter} for a burst larger than the refill).
 *
 * @param permits how many permits the window holds, at least 1
 * @param window  the window, at least one millisecond
 */
public record Limit(long permits, Duration window) {
    /** The largest permit count a limit may hold. */
    public static final long MAX_PERMITS = 1L << 40;

    /**
     * Checks the limit: 1 to {@link #MAX_PERMITS} permits over a window of 1 ms to 366 days.
     *
     * @param permits how many permits the window allows, 1 to {@link #MAX_PERMITS}
     * @param window the window they are counted over, 1 ms to 366 days
     */
    public Limit {
        Objects.requireNonNull(window, "window");
        if (permits < 1 || permits > MAX_PERMITS) {
            throw new IllegalArgumentException("permits must be between 1 and " + MAX_PERMITS + ", got " + permits);
        }
        if (window.compareTo(Duration.ofMillis(1)) < 0 || window.compareTo(Duration.ofDays(366)) > 0) {
            throw new IllegalArgumentException("a window lasts from one millisecond to 366 days, got " + window);
        }
    }

    /**
     * {@code permits} per second.
     *
     * @param permits how many permits each second allows
     * @return the limit
     */
    public static Limit perSecond(long permits) {
        return new Limit(permits, Duration.ofSeconds(1));
    }

    /**
     * {@code permits} per minute.
     *
     * @param permits how many permits each minute allows
     * @return the limit
     */
    public static Limit perMinute(long permits) {
        return new Limit(permits, Duration.ofMinutes(1));
    }

    /**
     * {@code permits} per hour.
     *
     * @param permits how many permits each hour allows
     * @return the limit
     */
    public static Limit perHour(long permits) {
        return new Limit(permits, Duration.ofHours(1));
    }

    long windowMicros() {
        return window.toNanos() / 1000;
    }

    /** This limit as a key suffix, so that a changed limit never reads another limit's state. */
    String id() {
        return permits + "/" + windowMicros() + "us";
    }
}
