package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.TieRule;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * Ordo's settings, under {@code ordo.*}.
 *
 * @param mode        Where the data lives: embedded (an Ordo in this JVM) or redis (the server of
 *                    the application's spring.data.redis connection). When not set: redis if
 *                    spring.data.redis.host, url, cluster or sentinel is set, else embedded.
 * @param embedded    The in-process Ordo of embedded mode.
 * @param leaderboards Leaderboards built at startup, by name; each is also a bean of that name.
 * @param queues      Job queues built at startup, by name; each is also a bean of that name.
 * @param rateLimits  Rate limiters built at startup, by name; each is also a bean of that name.
 */
@ConfigurationProperties("ordo")
public record OrdoProperties(Mode mode, @DefaultValue Embedded embedded, Map<String, LeaderboardSpec> leaderboards,
                             Map<String, QueueSpec> queues, Map<String, RateLimitSpec> rateLimits) {
    /**
     * Replaces absent maps with empty ones.
     *
     * @param mode         embedded or redis; null to decide from the Redis connection settings
     * @param embedded     the in-process Ordo's settings
     * @param leaderboards the declared leaderboards by name, or null for none
     * @param queues       the declared job queues by name, or null for none
     * @param rateLimits   the declared rate limiters by name, or null for none
     */
    public OrdoProperties {
        leaderboards = leaderboards == null ? Map.of() : Map.copyOf(leaderboards);
        queues = queues == null ? Map.of() : Map.copyOf(queues);
        rateLimits = rateLimits == null ? Map.of() : Map.copyOf(rateLimits);
    }

    /** Where the data lives. */
    public enum Mode {
        /** An Ordo in this JVM, with a port Spring Data Redis is pointed at. */
        EMBEDDED,
        /** The server of the application's Redis connection ({@code spring.data.redis.*}). */
        REDIS
    }

    /**
     * The in-process Ordo.
     *
     * @param port    Port the in-process Ordo serves RESP on, at 127.0.0.1; 0 for a free one,
     *                published as local.ordo.port.
     * @param dataDir Directory where the in-process Ordo keeps its data, with the append-only file
     *                on; in memory only when not set.
     * @param config  Server settings passed to the in-process Ordo, as in ordo.conf or CONFIG SET (maxmemory, requirepass...).
     */
    public record Embedded(@DefaultValue("0") int port, Path dataDir, Map<String, String> config) {
        /**
         * Checks the port and replaces an absent config with an empty one.
         *
         * @param port    0 to 65535; 0 for a free port
         * @param dataDir where the data is kept, or null for memory only
         * @param config  server settings by directive name, or null for none
         */
        public Embedded {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("ordo.embedded.port must be 0 (a free port) to 65535, not " + port);
            }
            config = config == null ? Map.of() : Map.copyOf(config);
        }
    }

    /** A leaderboard's sort order. */
    public enum Order {
        /** The highest score ranks first (points). */
        HIGHEST_FIRST,
        /** The lowest score ranks first (race times). */
        LOWEST_FIRST
    }

    /**
     * A leaderboard.
     *
     * @param order     Which score ranks first.
     * @param tieRule   How equal scores rank; fixed for the life of the board's keys.
     * @param metadata  Whether top, page and around return each member's metadata.
     * @param period    Periodic boards to keep (daily, weekly, monthly, all-time), each written
     *                  together by one call; none for a single board.
     * @param zone      Periodic boards: the zone days, weeks and months begin and end in.
     * @param retention Periodic boards: how long an ended period's board stays readable.
     * @param shards    How many shards members are spread over (a sharded board, for a Redis
     *                  Cluster); 1 for one key.
     * @param cacheTop  A local cache of the board's top, read through Leaderboards.cachedTop(name).
     */
    public record LeaderboardSpec(@DefaultValue("highest-first") Order order, @DefaultValue("member-order") TieRule tieRule,
                                  @DefaultValue("false") boolean metadata, List<BoardPeriod> period, @DefaultValue("UTC") ZoneId zone,
                                  @DefaultValue("7d") Duration retention, @DefaultValue("1") int shards, CacheTop cacheTop) {
        /**
         * Replaces an absent period list with none.
         *
         * @param order     which score ranks first
         * @param tieRule   how equal scores rank
         * @param metadata  whether reads return metadata
         * @param period    the periodic boards to keep, or null for a single board
         * @param zone      the zone calendar periods follow
         * @param retention how long an ended period's board stays readable
         * @param shards    how many shards, 1 for one key
         * @param cacheTop  the local top cache, or null for none
         */
        public LeaderboardSpec {
            period = period == null ? List.of() : List.copyOf(period);
        }
    }

    /** A periodic board kept beside the others. */
    public enum BoardPeriod {
        /** One board per calendar day. */
        DAILY,
        /** One board per ISO week. */
        WEEKLY,
        /** One board per calendar month. */
        MONTHLY,
        /** One board that never resets. */
        ALL_TIME
    }

    /**
     * A local cache of a board's top entries, so a hot top-N read does not reach the store every time.
     *
     * @param size   How many entries to cache, from the top.
     * @param maxAge How old the cached entries may be.
     */
    public record CacheTop(@DefaultValue("100") int size, @DefaultValue("1s") Duration maxAge) {
    }

    /** A queue's kind. */
    public enum QueueType {
        /** {@code DelayedJobQueue}: due times, claims with a visibility timeout, retries and dead letters. */
        DELAYED,
        /** {@code PriorityJobQueue}: jobs by priority, taken once. */
        PRIORITY
    }

    /**
     * A job queue.
     *
     * @param type              Delayed (claims, retries, dead letters) or priority (taken once).
     * @param visibilityTimeout Delayed queues: how long a claim lasts before the job may be claimed again.
     * @param maxAttempts       Delayed queues: claims a job gets before it becomes a dead letter.
     * @param backoff           Delayed queues: the wait before a failed job's next attempt.
     * @param concurrency       Delayed queues with a @JobHandler or JobWorker: threads that claim and run jobs.
     * @param batch             Delayed queues with a handler: jobs one thread claims at a time; each claim's
     *                          visibility timeout runs while the jobs before it in the batch are handled.
     * @param pollWait          Delayed queues with a handler: how long one claim waits for a due job; a stopping
     *                          worker notices within this time.
     * @param shutdownTimeout   Delayed queues with a handler: how long stopping waits for running handlers to
     *                          finish and ack; claims still running after it are left to time out.
     */
    public record QueueSpec(@DefaultValue("delayed") QueueType type, @DefaultValue("30s") Duration visibilityTimeout,
                            @DefaultValue("5") int maxAttempts, @DefaultValue BackoffSpec backoff,
                            @DefaultValue("1") int concurrency, @DefaultValue("1") int batch,
                            @DefaultValue("1s") Duration pollWait, @DefaultValue("30s") Duration shutdownTimeout) {
    }

    /** How retry delays grow. */
    public enum BackoffKind {
        /** The same delay before every retry. */
        FIXED,
        /** The delay doubles per failed attempt, up to the maximum, shortened at random by up to the jitter. */
        EXPONENTIAL
    }

    /**
     * The wait before a failed job's next attempt.
     *
     * @param kind   Fixed, or exponential (doubling per failed attempt).
     * @param delay  The wait after the first failure (every failure, when fixed).
     * @param max    Exponential: the longest wait.
     * @param jitter Exponential: the largest share of a wait taken off at random, 0 to 1.
     */
    public record BackoffSpec(@DefaultValue("exponential") BackoffKind kind, @DefaultValue("1s") Duration delay,
                              @DefaultValue("5m") Duration max, @DefaultValue("0.2") double jitter) {
    }

    /** How a rate limiter counts. */
    public enum Algorithm {
        /** {@code SlidingWindowLimiter}: two fixed windows weighted, constant memory per key. */
        SLIDING_WINDOW,
        /** {@code SlidingLogLimiter}: every request logged, exact. */
        SLIDING_LOG,
        /** {@code TokenBucketLimiter}: a bucket per limit that refills continuously. */
        TOKEN_BUCKET
    }

    /**
     * A rate limiter.
     *
     * @param limits    Permits per window, such as 10/1s,1000/1h; every limit is checked and charged together.
     * @param algorithm How the limiter counts.
     */
    public record RateLimitSpec(List<String> limits, @DefaultValue("sliding-window") Algorithm algorithm) {
        /**
         * Replaces absent limits with none (refused when the limiter is built).
         *
         * @param limits    the limits as written, such as {@code 10/1s}, or null
         * @param algorithm how the limiter counts
         */
        public RateLimitSpec {
            limits = limits == null ? List.of() : List.copyOf(limits);
        }
    }
}
