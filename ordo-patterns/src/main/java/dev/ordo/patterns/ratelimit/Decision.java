package dev.ordo.patterns.ratelimit;

import java.time.Duration;

/**
 * The answer to one {@code tryAcquire}.
 *
 * @param allowed    whether the permits were granted (a refusal takes nothing)
 * @param remaining  permits still available now under the tightest limit, after this request
 * @param retryAfter on a refusal, how long until the same request would be granted (for a
 *                   Retry-After header) if nothing else takes permits meanwhile; zero when allowed
 */
public record Decision(boolean allowed, long remaining, Duration retryAfter) {
}
