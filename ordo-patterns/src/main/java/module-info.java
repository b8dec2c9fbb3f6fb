/**
 * Ordo's patterns: leaderboards, job queues and rate limiters over the {@link
 * dev.ordo.patterns.store.Store} port. This module holds no database client; an adapter module
 * supplies the store ({@code dev.ordo.patterns.lettuce} for Redis, an Ordo server or a Redis
 * Cluster; {@code ordo-patterns-embedded} for Ordo in the same process).
 */
module dev.ordo.patterns {
    requires com.github.benmanes.caffeine;

    exports dev.ordo.patterns.store;
    exports dev.ordo.patterns.leaderboard;
    exports dev.ordo.patterns.queue;
    exports dev.ordo.patterns.ratelimit;
}
