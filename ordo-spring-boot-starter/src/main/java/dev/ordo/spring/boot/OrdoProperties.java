package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.TieRule;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Ordo's settings, under {@code ordo.*}.
 *
 * @param mode        where the data lives: {@code embedded} (an Ordo in this JVM) or {@code redis}
 *                    (the application's Redis connection, {@code spring.data.redis.*}); when not
 *                    set, embedded unless {@code spring.data.redis.host}, {@code url},
 *                    {@code cluster.nodes} or {@code sentinel.*} is set
 * @param embedded    the in-process Ordo, in embedded mode
 * @param leaderboards leaderboards to build at startup, by name (each is also a bean of that name)
 * @param queues      job queues to build at startup, by name (each is also a bean of that name)
 * @param rateLimits  rate limiters to build at startup, by name (each is also a bean of that name)
 */
@ConfigurationProperties("ordo")
public record OrdoProperties(Mode mode, @DefaultValue Embedded embedded, Map<String, LeaderboardSpec> leaderboards,
                             Map<String, QueueSpec> queues, Map<String, RateLimitSpec> rateLimits) {
    /** Replaces absent maps with empty ones. */
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
     * @param port    the loopback port it serves RESP on; 0 for a free one (published as {@code local.ordo.port})
     * @param dataDir where it keeps its data, with the append-only file on; none (in memory only) when not set
     * @param config  server settings, as in ordo.conf or CONFIG SET (for example {@code maxmemory: 64mb})
     */
    public record Embedded(@DefaultValue("0") int port, Path dataDir, Map<String, String> config) {
        /** Checks the port and replaces an absent config with an empty one. */
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
     * @param order    which score ranks first
     * @param tieRule  how equal scores rank; fixed for the life of the board's keys
     * @param metadata whether top, page and around return each member's metadata
     */
    public record LeaderboardSpec(@DefaultValue("highest-first") Order order, @DefaultValue("member-order") TieRule tieRule,
                                  @DefaultValue("false") boolean metadata) {
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
     * @param type              delayed (claims, retries, dead letters) or priority (taken once)
     * @param visibilityTimeout delayed queues: how long a claim lasts before the job may be claimed again
     * @param maxAttempts       delayed queues: claims a job gets before it becomes a dead letter
     */
    public record QueueSpec(@DefaultValue("delayed") QueueType type, @DefaultValue("30s") Duration visibilityTimeout,
                            @DefaultValue("5") int maxAttempts) {
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
     * @param limits    permits per window, every one checked and charged together: {@code 10/1s,1000/1h}
     * @param algorithm how it counts
     */
    public record RateLimitSpec(List<String> limits, @DefaultValue("sliding-window") Algorithm algorithm) {
        /** Replaces absent limits with none (refused when the limiter is built). */
        public RateLimitSpec {
            limits = limits == null ? List.of() : List.copyOf(limits);
        }
    }
}
