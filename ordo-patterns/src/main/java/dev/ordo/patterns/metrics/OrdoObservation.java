package dev.ordo.patterns.metrics;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations the patterns make, with their default names and low-cardinality keys. Each
 * is named by its convention ({@link DefaultOrdoObservationConvention} unless the registry holds
 * a {@code GlobalObservationConvention} that supports the context), so an application renames
 * one by registering a convention whose {@code supportsContext} picks it out through {@link
 * OrdoObservationContext#observation()}. Where a meter handler listens (Spring Boot's
 * {@code DefaultMeterObservationHandler}, or {@link OrdoMetrics#create(io.micrometer.core.instrument.MeterRegistry)}),
 * each observation is also a timer of its name, with its low-cardinality keys as tags and an
 * {@code error} tag: no separate timer shares a name with an observation. No key holds a member,
 * a limiter's key, a job id or a payload.
 */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public enum OrdoObservation implements ObservationDocumentation {
    /** One rate-limit decision ({@code tryAcquire}, blocking or not); result {@code allowed}, {@code refused} or {@code error}. */
    RATE_LIMITER_ACQUIRE("ordo.ratelimiter.acquire", Key.LIMITER, Key.ALGORITHM, Key.RESULT),
    /**
     * One write to a board: {@code addPoints}, {@code setScore}, {@code keepBest}, {@code remove};
     * on the kinds' own methods also {@code incrementScore}, {@code setMetadata}, a family's
     * {@code addPointsAll}, {@code setScoreAll}, {@code keepBestAll} and a sharded board's {@code mergeSnapshot}.
     */
    LEADERBOARD_WRITE("ordo.leaderboard.write", Key.BOARD, Key.OPERATION),
    /**
     * One read of a board: {@code score}, {@code rank}, {@code top}, {@code around}, {@code count};
     * on a plain board's own methods also {@code placement}, {@code page}, {@code percentile},
     * {@code metadata}.
     */
    LEADERBOARD_READ("ordo.leaderboard.read", Key.BOARD, Key.OPERATION),
    /** One claim of a batch of jobs, waiting or not. */
    QUEUE_CLAIM("ordo.queue.claim", Key.QUEUE),
    /** One ack; outcome {@code acked}, {@code stale} (no longer the job's latest claim) or {@code error}. */
    QUEUE_ACK("ordo.queue.ack", Key.QUEUE, Key.OUTCOME),
    /** One nack; outcome {@code retried}, {@code dead}, {@code stale} or {@code error}. */
    QUEUE_NACK("ordo.queue.nack", Key.QUEUE, Key.OUTCOME),
    /**
     * Handling one job, from its claim to its ack or nack; outcome as the ack's or nack's, or
     * {@code abandoned} when the worker gave the job up unsettled.
     */
    QUEUE_JOB("ordo.queue.job.duration", Key.QUEUE, Key.OUTCOME);

    private final String defaultName;
    private final Key[] keys;

    OrdoObservation(String defaultName, Key... keys) {
        this.defaultName = defaultName;
        this.keys = keys;
    }

    /**
     * The name the default convention gives this observation (and the timer made from it).
     *
     * @return a lower-case dotted name starting with {@code ordo.}
     */
    public String defaultName() {
        return defaultName;
    }

    @Override
    public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
        return DefaultOrdoObservationConvention.class;
    }

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
        return keys.clone();
    }

    @Override
    public String getPrefix() {
        return "ordo.";
    }

    /** The low-cardinality keys; each value is a name the application chose or one of a few fixed words. */
    public enum Key implements KeyName {
        /** The rate limiter's name. */
        LIMITER("limiter"),
        /** The limiter's algorithm: {@code sliding-window}, {@code sliding-log}, {@code token-bucket} or {@code custom}. */
        ALGORITHM("algorithm"),
        /** A decision: {@code allowed}, {@code refused} or {@code error}. */
        RESULT("result"),
        /** The board's name. */
        BOARD("board"),
        /** The board method called, as named in {@link dev.ordo.patterns.leaderboard.Board} or the board's class, without {@code Async}. */
        OPERATION("operation"),
        /** The queue's name. */
        QUEUE("queue"),
        /** How a job's handling, ack or nack ended. */
        OUTCOME("outcome");

        private final String key;

        Key(String key) {
            this.key = key;
        }

        @Override
        public String asString() {
            return key;
        }
    }
}
