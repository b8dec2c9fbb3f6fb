/**
 * Ordo's patterns: leaderboards, job queues and rate limiters over the {@link
 * dev.ordo.patterns.store.Store} port. This module holds no database client; an adapter module
 * supplies the store ({@code dev.ordo.patterns.lettuce} for Redis, an Ordo server or a Redis
 * Cluster; {@code ordo-patterns-embedded} for Ordo in the same process).
 *
 * <p>Micrometer is optional ({@code requires static}): only {@code dev.ordo.patterns.metrics}
 * uses it, and no other package refers to it, so the patterns run without it. Micrometer's jars
 * name themselves by {@code Automatic-Module-Name} only, hence the suppressed
 * {@code requires-automatic} lint. The metrics package's API shows Micrometer's types, so a
 * module that reads this one reads Micrometer too, when Micrometer is there ({@code static
 * transitive}: the edge is followed only when this module is being compiled, so users who never
 * touch the metrics neither need nor resolve Micrometer); {@code requires-transitive-automatic}
 * is suppressed for the same reason as above.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.ordo.patterns {
    requires com.github.benmanes.caffeine;
    requires static transitive micrometer.core;
    requires static transitive micrometer.observation;
    requires static transitive micrometer.commons;

    exports dev.ordo.patterns.store;
    exports dev.ordo.patterns.leaderboard;
    exports dev.ordo.patterns.queue;
    exports dev.ordo.patterns.ratelimit;
    exports dev.ordo.patterns.metrics;
}
