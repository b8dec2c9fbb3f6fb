package dev.ordo.patterns.queue;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a failed job waits before its next attempt: a fixed delay, or an exponential one
 * ({@code base * 2^(attempt-1)}, capped) with random jitter that spreads retries of jobs that
 * failed together.
 */
public final class Backoff {
    private final Duration base;
    private final Duration max;
    private final boolean exponential;
    private final double jitter;

    private Backoff(Duration base, Duration max, boolean exponential, double jitter) {
        this.base = Objects.requireNonNull(base, "base");
        this.max = Objects.requireNonNull(max, "max");
        if (base.isNegative() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 <= base <= max, got " + base + " and " + max);
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("jitter is a fraction between 0 and 1, got " + jitter);
        }
        this.exponential = exponential;
        this.jitter = jitter;
    }

    /**
     * The same delay before every retry.
     *
     * @param delay the wait before each retry
     * @return the backoff
     */
    public static Backoff fixed(Duration delay) {
        return new Backoff(delay, delay, false, 0);
    }

    /**
     * {@code base}, doubling per attempt up to {@code max}, each delay shortened by up to {@code jitter} of itself at random.
     *
     * @param base the delay after the first failed attempt
     * @param max the longest delay
     * @param jitter the largest share of a delay taken off at random, 0 to 1
     * @return the backoff
     */
    public static Backoff exponential(Duration base, Duration max, double jitter) {
        return new Backoff(base, max, true, jitter);
    }

    /**
     * The delay after failed attempt number {@code attempt} (1 for the first).
     *
     * @param attempt how many attempts have failed, from 1
     * @return how long to wait before the next attempt
     */
    public Duration delayAfter(int attempt) {
        long ms = base.toMillis();
        if (exponential) {
            int doublings = Math.min(Math.max(attempt - 1, 0), 62);
            ms = doublings >= 62 || ms > (max.toMillis() >> doublings) ? max.toMillis() : Math.min(max.toMillis(), ms << doublings);
        }
        if (jitter > 0 && ms > 0) {
            ms -= (long) (ms * jitter * ThreadLocalRandom.current().nextDouble());
        }
        return Duration.ofMillis(ms);
    }
}
