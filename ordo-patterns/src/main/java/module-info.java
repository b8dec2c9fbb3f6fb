/**
 * Ordo's patterns: leaderboards, job queues and rate limiters over the {@link
 * dev.ordo.patterns.store.Store} port. This module holds no database client; an adapter module
 * supplies the store ({@code dev.ordo.patterns.lettuce} for Redis, an Ordo server or a Redis
 * Cluster; {@code ordo-patterns-embedded} for Ordo in the same process).
 *
 * <p>Micrometer is optional ({@code requires static}): only {@code dev.ordo.patterns.metrics}
 * uses it, and no other package refers to it, so the patterns run without it. Micrometer's jars
 * name themselves by {@code Automatic-Module-Name} only, hence the suppressed
 * {@code requires-automatic} lint. The metrics package's API shows Micrometer's types, yet this
 * module does not pass Micrometer on: {@code requires static transitive} would make every module
 * that reads this one find Micrometer to compile. Code that calls the metrics requires Micrometer
 * itself, as it must to have a registry to give; the metrics' public classes suppress the
 * {@code exports} lint for that reason.
 */
@SuppressWarnings("requires-automatic")
module dev.ordo.patterns {
    requires com.github.benmanes.caffeine;
    requires static micrometer.core;
    requires static micrometer.observation;
    requires static micrometer.commons;

    exports dev.ordo.patterns.store;
    exports dev.ordo.patterns.leaderboard;
    exports dev.ordo.patterns.queue;
    exports dev.ordo.patterns.ratelimit;
    exports dev.ordo.patterns.metrics;
    exports dev.ordo.patterns.registry;
}
