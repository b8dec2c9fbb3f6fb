/** The patterns' {@link dev.ordo.patterns.store.Store} over Lettuce: {@link dev.ordo.patterns.lettuce.LettuceStore}. */
@SuppressWarnings("requires-automatic") // Lettuce ships no module-info; its jar names the automatic module lettuce.core
module dev.ordo.patterns.lettuce {
    requires transitive dev.ordo.patterns;
    requires lettuce.core;

    exports dev.ordo.patterns.lettuce;
}
