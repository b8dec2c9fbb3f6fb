/** The patterns' {@link dev.ordo.patterns.store.Store} over Lettuce: {@link dev.ordo.patterns.lettuce.LettuceStore}. */
// Lettuce ships no module-info; its jar names the automatic module lettuce.core. Transitive because
// LettuceStore's factories for shared client resources take Lettuce's own types.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.ordo.patterns.lettuce {
    requires transitive dev.ordo.patterns;
    requires transitive lettuce.core;

    exports dev.ordo.patterns.lettuce;
}
