package dev.ordo.patterns.ratelimit;

import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.util.List;

/**
 * The sliding-window counter: constant memory per key and limit, for limits of any size. Time is
 * cut into fixed windows; each limit keeps the count of the current window and of the one
 * before, and estimates the last sliding window as
 * {@code previous * (1 - elapsed / window) + current}, assuming the previous window's grants
 * were spread evenly. A request is granted when the estimate plus the request fits every limit.
 *
 * <p>Documented error: every fixed window grants at most {@code permits} exactly (the estimate
 * never falls below the current count); a sliding window that straddles two fixed windows can
 * grant up to twice {@code permits} in the worst case (all of the previous window's grants at its
 * very end), and close to {@code permits} when traffic is even. A refusal's retry-after can
 * reach two windows: the previous window's count keeps weighing after it ends.
 *
 * <p>Keys: one hash per limit, {@code {name:key}:swc:<permits>/<window>us}, fields {@code w}
 * (the current window's number), {@code c} and {@code p} (current and previous counts).
 */
public final class SlidingWindowLimiter extends ScriptedLimiter {
    private static final Script SCRIPT = script("limiter_sliding_window.lua");

    /**
     * A limiter called {@code name} enforcing every one of {@code limits} on each key.
     *
     * @param store where the limiter keeps its counters
     * @param name the limiter's name, prefixing its keys in the store
     * @param limits the limits every acquisition must satisfy, at least one
     * @return the limiter
     */
    public static SlidingWindowLimiter create(Store store, String name, Limit... limits) {
        return new SlidingWindowLimiter(store, name, limits);
    }

    private SlidingWindowLimiter(Store store, String name, Limit... limits) {
        super(store, name, SCRIPT, List.of(limits).stream().map(l -> Spec.windowed("swc", l)).toList(), Long.MAX_VALUE);
    }
}
