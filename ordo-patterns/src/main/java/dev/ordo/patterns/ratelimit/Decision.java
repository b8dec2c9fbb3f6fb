package dev.ordo.patterns.ratelimit;

import java.time.Duration;

/**
 * The answer to one {@code tryAcquire}.
 *
 * @param allowed    whether the permits were granted (a refusal takes nothing)
 * @param remaining  permits still available now under the tightest limit, after this request
 * @param retryAfter on a refusal, how long until the same request would be granted (for a
 *                   Retry-After header) if nothing else takes permits meanwhile; zero when allowed
 * @param limit      which of the limiter's limits decided, as a 0-based index in the order they
 *                   were given: when allowed, the one {@code remaining} counts; when refused, the
 *                   one {@code retryAfter} waits for; -1 when the limiter does not say
 */
public record Decision(boolean allowed, long remaining, Duration retryAfter, int limit) {
    /**
     * A decision that does not say which limit decided ({@code limit} -1).
     *
     * @param allowed    whether the permits were granted
     * @param remaining  permits still available under the tightest limit
     * @param retryAfter on a refusal, how long until the request would be granted; zero when allowed
     */
    public Decision(boolean allowed, long remaining, Duration retryAfter) {
        this(allowed, remaining, retryAfter, -1);
    }
}
