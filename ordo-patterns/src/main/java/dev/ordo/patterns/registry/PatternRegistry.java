package dev.ordo.patterns.registry;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A small record, kept in the database itself, of the boards, queues and limiters an application
 * uses, so that a tool that did not build them (the Ordo Console) can find them and open them the
 * way their owner does. A board is only a sorted set: its key alone does not say it is a board,
 * nor which tie rule orders it.
 *
 * <p>One hash, {@value #KEY} unless {@link #on(Store, String)} names another: field {@code kind:name}, value the pattern's settings form-encoded
 * ({@code order=highest-first&tie-rule=member-order}). A single key, so on a Redis Cluster it
 * lives in one slot; registering is one HSET and idempotent, so every instance of an application
 * may register the same patterns at startup. Entries are never removed by the patterns
 * themselves: {@link #remove} is for the owner of a pattern that is gone.
 */
public final class PatternRegistry {
    /** The registry's key. */
    public static final String KEY = "ordo:registry";
    /** The most entries {@link #list} reads: a registry is a handful of names, never unbounded data. */
    public static final int MAX_ENTRIES = 10_000;

    private final Store store;
    private final String key;

    private PatternRegistry(Store store, String key) {
        this.store = Objects.requireNonNull(store, "store");
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * The registry in {@code store}, at {@value #KEY}.
     *
     * @param store the database the patterns live in
     * @return its registry
     */
    public static PatternRegistry on(Store store) {
        return new PatternRegistry(store, KEY);
    }

    /**
     * A registry at {@code key} instead of {@value #KEY}: for applications that share one
     * database and keep their registries apart, or an ACL user whose keys all share a prefix.
     *
     * @param store the database the patterns live in
     * @param key the registry's key
     * @return that registry
     */
    public static PatternRegistry on(Store store, String key) {
        return new PatternRegistry(store, key);
    }

    /**
     * The key this registry lives at.
     *
     * @return its key
     */
    public String key() {
        return key;
    }

    /**
     * Records {@code patterns}, replacing what was recorded under the same kind and name.
     *
     * @param patterns the patterns to record
     */
    public void register(List<PatternInfo> patterns) {
        if (patterns.isEmpty()) {
            return;
        }
        StoreCommand hset = StoreCommand.of("HSET").key(key);
        for (PatternInfo p : patterns) {
            hset.arg(p.field()).arg(p.encodedSettings());
        }
        store.call(hset);
    }

    /**
     * Forgets the pattern of {@code kind} called {@code name}.
     *
     * @param kind its kind
     * @param name its name
     * @return whether it was recorded
     */
    public boolean remove(PatternInfo.Kind kind, String name) {
        return store.call(StoreCommand.of("HDEL").key(key).arg(kind.id() + ":" + name)).asLong() == 1L;
    }

    /**
     * Every recorded pattern of a known kind, by kind then name; at most {@link #MAX_ENTRIES}.
     *
     * @return the recorded patterns
     */
    public List<PatternInfo> list() {
        long size = store.call(StoreCommand.of("HLEN").key(key)).asLong();
        if (size > MAX_ENTRIES) {
            throw new IllegalStateException(key + " holds " + size + " entries, more than the " + MAX_ENTRIES + " a registry may");
        }
        List<Reply> flat = store.call(StoreCommand.of("HGETALL").key(key)).asList();
        List<PatternInfo> out = new ArrayList<>(flat.size() / 2);
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            PatternInfo info = PatternInfo.decode(flat.get(i).asString(), flat.get(i + 1).asString());
            if (info != null) {
                out.add(info);
            }
        }
        out.sort(Comparator.comparing(PatternInfo::kind).thenComparing(PatternInfo::name));
        return out;
    }
}
