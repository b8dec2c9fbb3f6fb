package dev.ordo.engine.pubsub;

import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.memory.Footprint;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One subscriber's channels, patterns and shard channels, each in the order it subscribed, and
 * where its messages go. {@link PubSub} keeps the two sides (the subscriber's names here, the
 * name's subscribers there) in step; only it changes them, under the engine lock.
 *
 * <p>Memory: {@link #memory()} is what the subscriptions hold on both sides (each name's bytes
 * and object, and an entry in two hash sets), counted into the client's memory as Redis counts
 * a client's Pub/Sub dictionaries, so that client eviction and INFO see a client that
 * subscribes to a million channels.
 */
public final class Subscriptions {
    /** Per subscription beyond the name's bytes: the key object and an entry in two linked hash sets. */
    private static final long ENTRY_BYTES = Key.FOOTPRINT + 2 * Footprint.object(4, 4);

    private final PushSink sink;
    private final Map<Space, Set<Key>> names = new EnumMap<>(Space.class);
    /** Read by the client's own thread (its memory, its output class) while the engine changes them: volatile. */
    private volatile long memory;
    private volatile int total;

    /**
     * A subscriber's subscriptions, none yet, delivering to {@code sink}.
     *
     * @param sink where its messages go
     */
    public Subscriptions(PushSink sink) {
        this.sink = sink;
        for (Space space : Space.values()) {
            names.put(space, new LinkedHashSet<>());
        }
    }

    /**
     * The count a (un)subscribe reply of {@code space} carries: channels and patterns together, or shard channels.
     *
     * @param space the space of the command
     * @return the count
     */
    public int countFor(Space space) {
        return space == Space.SHARD_CHANNELS ? count(Space.SHARD_CHANNELS) : count(Space.CHANNELS) + count(Space.PATTERNS);
    }

    /**
     * How many names of {@code space} this subscriber has.
     *
     * @param space the kind of name
     * @return the count
     */
    public int count(Space space) {
        return names.get(space).size();
    }

    /**
     * Whether any subscription is left (Redis's pubsub client flag); from any thread.
     *
     * @return true while subscribed to anything
     */
    public boolean any() {
        return total > 0;
    }

    /**
     * The names of {@code space}, in subscription order (a copy).
     *
     * @param space the kind of name
     * @return the names
     */
    public List<byte[]> names(Space space) {
        List<byte[]> out = new ArrayList<>(names.get(space).size());
        names.get(space).forEach(k -> out.add(k.bytes()));
        return out;
    }

    /**
     * The heap bytes the subscriptions hold; from any thread.
     *
     * @return the bytes
     */
    public long memory() {
        return memory;
    }

    Set<Key> set(Space space) {
        return names.get(space);
    }

    boolean add(Space space, Key name) {
        if (!names.get(space).add(name)) {
            return false;
        }
        memory += sizeOf(name);
        total++;
        return true;
    }

    boolean remove(Space space, Key name) {
        if (!names.get(space).remove(name)) {
            return false;
        }
        memory -= sizeOf(name);
        total--;
        return true;
    }

    void deliver(Message message) {
        sink.push(message);
    }

    private static long sizeOf(Key name) {
        return ENTRY_BYTES + Footprint.array(name.bytes().length);
    }
}
