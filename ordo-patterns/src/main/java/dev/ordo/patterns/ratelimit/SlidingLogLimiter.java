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

    private static final Script SCRIPT = script("""
            local counts = {}
            for i = 1, n do
              local limit, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
              redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
              local c = redis.call('ZCARD', KEYS[i])
              counts[i] = c
              if c + p > limit then
                allowed = 0
                local oldest = redis.call('ZRANGE', KEYS[i], c + p - limit - 1, c + p - limit - 1, 'WITHSCORES')
                local w = tonumber(oldest[2]) + window - now
                if w > wait then wait = w end
              end
              if remaining == nil or limit - c < remaining then remaining = limit - c end
            end
            if allowed == 1 then
              local stamp = string.format('%.0f', now) .. ':'
              for i = 1, n do
                local entries = {}
                for j = 1, p do
                  entries[#entries + 1] = now
                  entries[#entries + 1] = stamp .. (counts[i] + j)
                end
                redis.call('ZADD', KEYS[i], unpack(entries))
                redis.call('PEXPIREAT', KEYS[i], math.ceil((now + tonumber(ARGV[2 * i + 1])) / 1000) + 1)
              end
              remaining = remaining - p
            end
            return {allowed, remaining, math.ceil(wait), now}
            """);

    /** A limiter called {@code name} enforcing every one of {@code limits} on each key. */
    public SlidingLogLimiter(Store store, String name, Limit... limits) {
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
