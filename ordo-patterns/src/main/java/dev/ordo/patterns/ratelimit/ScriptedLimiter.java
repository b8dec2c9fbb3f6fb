package dev.ordo.patterns.ratelimit;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * What the three limiters share: one script per decision, over one key per limit, all under the
 * hash tag {@code {name:key}} (so a key's limits share a cluster slot). In that tag the name has
 * its {@code \} and {@code :} escaped with a {@code \}, so the first bare {@code :} ends it: limiter
 * {@code a:b}'s key {@code c} ({@code {a\:b:c}}) is never limiter {@code a}'s key {@code b:c}
 * ({@code {a:b:c}}), and a name with neither character keeps the plain layout. The script answers
 * {allowed (1/0), remaining, microseconds until the request would be granted, the server time
 * it decided at (microseconds), the 1-based index of the limit that decided}.
 */
public abstract sealed class ScriptedLimiter implements RateLimiter permits SlidingLogLimiter, SlidingWindowLimiter, TokenBucketLimiter {
    /**
     * One limit as the script takes it: its key suffix (naming the kind and every parameter, so a
     * changed limit never reads another's state), its arguments, and the most permits it can grant.
     */
    record Spec(String keySuffix, List<String> args, long maxPermits) {
        /** A windowed limit of {@code kind} ({@code log}, {@code swc}): arguments permits and window in microseconds. */
        static Spec windowed(String kind, Limit l) {
            return new Spec(kind + ":" + l.id(), List.of(Long.toString(l.permits()), Long.toString(l.windowMicros())), l.permits());
        }
    }

    /**
     * A limiter script, the resource {@code name} beside this class after {@code
     * limiter_prelude.lua}: what every limiter script starts with, the permits asked for ({@code
     * p}, ARGV[1]), the number of limits ({@code n}, one key each), the server's time in
     * microseconds ({@code now}, from TIME, so every decision uses the server's clock), and the
     * decision's accumulators. The body then checks each limit, writes only when all allow, and
     * returns {@code {allowed, remaining, wait, now}}.
     */
    static Script script(String name) {
        return Script.fromResource(ScriptedLimiter.class, name);
    }

    private final Store store;
    /** The name as it stands in the hash tag: {@code \} and {@code :} escaped. */
    private final String tagName;
    private final Script script;
    private final List<Spec> specs;
    private final long maxPermits;

    ScriptedLimiter(Store store, String name, Script script, List<Spec> specs, long perRequestCap) {
        this.store = Objects.requireNonNull(store, "store");
        this.tagName = Objects.requireNonNull(name, "name").replace("\\", "\\\\").replace(":", "\\:");
        this.script = script;
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("a limiter needs at least one limit");
        }
        this.specs = List.copyOf(specs);
        this.maxPermits = Math.min(perRequestCap, specs.stream().mapToLong(Spec::maxPermits).min().orElseThrow());
    }

    /** A decision and the server time it was taken at, in microseconds since the epoch. */
    record Timed(Decision decision, long serverMicros) {
    }

    @Override
    public Decision tryAcquire(String key, long permits) {
        return tryAcquireTimed(key, permits).decision();
    }

    @Override
    public CompletionStage<Decision> tryAcquireAsync(String key, long permits) {
        List<String> args = args(key, permits);
        return store.evalAsync(script, keys(key), args).thenApply(r -> timed(r).decision());
    }

    /**
     * Reads {@code key}'s state without taking a permit or writing anything: {@code remaining} is
     * how many permits a request could take now (under the tightest limit, whose 0-based index is
     * {@code limit}), {@code allowed} whether that is at least one, and {@code retryAfter} zero. For
     * tools that show a key's standing (the Ordo Console); a caller deciding a request uses
     * {@link #tryAcquire}, since a peek and a later request are two steps another client may come
     * between.
     *
     * @param key the key to read
     * @return the key's standing
     */
    public Decision peek(String key) {
        Objects.requireNonNull(key, "key");
        List<Reply> r = store.eval(script, keys(key), argv(0)).asList();
        long remaining = r.get(1).asLong();
        return new Decision(remaining >= 1, remaining, Duration.ZERO, (int) r.get(4).asLong() - 1);
    }

    /**
     * A SCAN {@code MATCH} pattern that matches every key this limiter keeps (and no other
     * limiter's), glob characters in its name escaped.
     *
     * @return the pattern
     */
    public String scanPattern() {
        return "{" + tagName.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + ":*";
    }

    /**
     * The key a request named, that this limiter stored under {@code storedKey}; empty when
     * {@code storedKey} is not one of this limiter's keys.
     *
     * @param storedKey a key in the database, as SCAN returns it
     * @return the limited key
     */
    public Optional<String> keyOf(String storedKey) {
        String prefix = "{" + tagName + ":";
        if (storedKey.startsWith(prefix)) {
            for (Spec spec : specs) {
                String suffix = "}:" + spec.keySuffix();
                if (storedKey.endsWith(suffix) && storedKey.length() >= prefix.length() + suffix.length()) {
                    return Optional.of(storedKey.substring(prefix.length(), storedKey.length() - suffix.length()));
                }
            }
        }
        return Optional.empty();
    }

    /** As {@link #tryAcquire}, with the server time the script read. */
    Timed tryAcquireTimed(String key, long permits) {
        List<String> args = args(key, permits);
        return timed(store.eval(script, keys(key), args));
    }

    /** ARGV: the permits asked for, then each limit's arguments; refuses a bad key or count. */
    private List<String> args(String key, long permits) {
        Objects.requireNonNull(key, "key");
        if (permits < 1 || permits > maxPermits) {
            throw new IllegalArgumentException("permits must be between 1 and " + maxPermits + " for this limiter, got " + permits);
        }
        return argv(permits);
    }

    private List<String> argv(long permits) {
        List<String> args = new ArrayList<>(1 + 3 * specs.size());
        args.add(Long.toString(permits));
        for (Spec spec : specs) {
            args.addAll(spec.args());
        }
        return args;
    }

    /** KEYS: one per limit, all under the key's hash tag. */
    private List<String> keys(String key) {
        String tag = "{" + tagName + ":" + key + "}";
        List<String> keys = new ArrayList<>(specs.size());
        for (Spec spec : specs) {
            keys.add(tag + ":" + spec.keySuffix());
        }
        return keys;
    }

    private static Timed timed(Reply reply) {
        List<Reply> r = reply.asList();
        return new Timed(new Decision(r.get(0).asLong() == 1L, r.get(1).asLong(), Duration.of(r.get(2).asLong(), java.time.temporal.ChronoUnit.MICROS),
                (int) r.get(4).asLong() - 1), r.get(3).asLong());
    }
}
