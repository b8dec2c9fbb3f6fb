/**
 * The patterns' {@link dev.ordo.patterns.store.Store} on an in-process engine:
 * {@link dev.ordo.patterns.embedded.EmbeddedStore}. It uses only the engine's exported API (the
 * engine, its clients and error replies).
 */
module dev.ordo.patterns.embedded {
    requires transitive dev.ordo.patterns;
    requires transitive dev.ordo.engine;

    exports dev.ordo.patterns.embedded;
}
