package dev.ordo.patterns.ratelimit;

import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Token buckets: each holds up to {@code capacity} tokens (the burst), refilled continuously at
 * {@code refill} tokens per {@code period}; a request takes its permits from every bucket, or
 * from none. Constant memory per key and bucket. A bucket's state is a hash
 * {@code {name:key}:tb:<capacity>/<refill>/<period>us} with fields {@code tokens} and {@code ts}
 * (the server time of the last refill, microseconds); a key idle long enough to refill fully
 * expires, which reads the same as a full bucket.
 */
public final class TokenBucketLimiter extends ScriptedLimiter {
    /**
     * One bucket.
     *
     * @param capacity the burst: tokens a full bucket holds
     * @param refill   tokens added per period, continuously
     * @param period   the refill period
     */
    public record Bucket(long capacity, long refill, Duration period) {
        /**
         * Checks the bucket: capacity and refill are each a valid {@link Limit} over the period.
         *
         * @param capacity the most tokens the bucket holds, and so the largest burst
         * @param refill how many tokens come back each {@code period}
         * @param period the time {@code refill} tokens take to come back
         */
        public Bucket {
            Objects.requireNonNull(period, "period");
            new Limit(capacity, period);
            new Limit(refill, period);
            if (period.toMillis() * (double) capacity / refill > MAX_REFILL.toMillis()) {
                throw new IllegalArgumentException("a bucket refills fully within " + MAX_REFILL + "; this one takes longer");
            }
        }

        /** The longest time a bucket may take to refill from empty. */
        public static final Duration MAX_REFILL = Duration.ofDays(3660);

        /**
         * A bucket of {@code limit.permits()} tokens refilled at that many per window.
         *
         * @param limit the permits and window to turn into a bucket
         * @return a full bucket of that many tokens
         */
        public static Bucket of(Limit limit) {
            return new Bucket(limit.permits(), limit.permits(), limit.window());
        }
    }

    private static final Script SCRIPT = script("limiter_token_bucket.lua");

    /**
     * A limiter called {@code name} holding every one of {@code buckets} for each key.
     *
     * @param store where the limiter keeps its buckets
     * @param name the limiter's name, prefixing its keys in the store
     * @param buckets the buckets every acquisition draws from, at least one
     * @return the limiter
     */
    public static TokenBucketLimiter create(Store store, String name, Bucket... buckets) {
        return new TokenBucketLimiter(store, name, buckets);
    }

    private TokenBucketLimiter(Store store, String name, Bucket... buckets) {
        super(store, name, SCRIPT, List.of(buckets).stream().map(TokenBucketLimiter::spec).toList(), Long.MAX_VALUE);
    }

    private static Spec spec(Bucket b) {
        String period = Long.toString(b.period().toNanos() / 1000);
        return new Spec("tb:" + b.capacity() + "/" + b.refill() + "/" + period + "us",
                List.of(Long.toString(b.capacity()), Long.toString(b.refill()), period), b.capacity());
    }
}
