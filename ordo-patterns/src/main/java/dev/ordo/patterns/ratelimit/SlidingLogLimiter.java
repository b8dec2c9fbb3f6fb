package dev.ordo.patterns.ratelimit;

import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.util.List;

/**
 * Exact sliding windows (seed 000's algorithm): each limit keeps a sorted set of the grants it
 * counted, scored by the server's time in microseconds; a request is granted when, for every
 * limit, the grants of the last window plus this request fit. Exact at any instant, at the price
 * of one entry per granted permit, so it suits small limits; for large ones use
 * {@link SlidingWindowLimiter}. A grant counts while {@code now - grantTime < window}.
 *
 * <p>Keys: {@code {name:key}:log:<permits>/<window>us} per limit. A grant's member is
 * {@code <time>:<count before it + 1>}: unique, because grants of one microsecond see each
 * other in the count (scripts run one at a time) and grants of different microseconds differ in
 * the time. A key expires one millisecond after its newest grant leaves the window, at a time
 * computed from the TIME the script read (PEXPIREAT), not from when the command started, and
 * rounded up: a key can never vanish while its newest grant still counts.
 */
public final class SlidingLogLimiter extends ScriptedLimiter {
    /** The most permits one request may take (each is one entry, written in one command). */
    public static final int MAX_PERMITS_PER_REQUEST = 1000;

    private static final Script SCRIPT = script("limiter_sliding_log.lua");

    /**
     * A limiter called {@code name} enforcing every one of {@code limits} on each key.
     *
     * @param store where the limiter keeps its logs
     * @param name the limiter's name, prefixing its keys in the store
     * @param limits the limits every acquisition must satisfy, at least one
     * @return the limiter
     */
    public static SlidingLogLimiter create(Store store, String name, Limit... limits) {
        return new SlidingLogLimiter(store, name, limits);
    }

    private SlidingLogLimiter(Store store, String name, Limit... limits) {
        super(store, name, SCRIPT, List.of(limits).stream().map(SlidingLogLimiter::spec).toList(), MAX_PERMITS_PER_REQUEST);
    }

    /** The largest limit a sliding log holds: one entry per permit in the window. */
    public static final long MAX_LIMIT = 1_000_000;

    private static Spec spec(Limit l) {
        if (l.permits() > MAX_LIMIT) {
            throw new IllegalArgumentException("a sliding log keeps one entry per permit, so at most " + MAX_LIMIT
                    + " per window; use SlidingWindowLimiter for " + l.permits());
        }
        return Spec.windowed("log", l);
    }
}
