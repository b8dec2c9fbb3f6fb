package dev.ordo.engine.pubsub;

import dev.ordo.engine.match.Glob;
import dev.ordo.engine.keyspace.Key;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The server's subscriptions: for each channel, pattern and shard channel, its subscribers in
 * the order they came. Invariants: a name is here exactly while it has a subscriber, and a
 * subscriber is listed under a name exactly when the name is in its {@link Subscriptions}.
 * Patterns are kept in the order they were first subscribed, so a message matching several
 * reaches them in that order (Redis walks a hash table; the order is unspecified there).
 *
 * <p>Publishing delivers to the channel's subscribers, then to each subscriber of each
 * matching pattern, and answers how many deliveries were made (a client subscribed to the
 * channel and to a matching pattern counts twice, as in Redis). Sinks are called on the
 * publishing thread; all of this runs under the engine lock.
 */
public final class PubSub {
    private final Map<Space, Map<Key, Set<Subscriptions>>> subscribers = new EnumMap<>(Space.class);

    /**
     * An empty registry: no subscription.
     */
    public PubSub() {
        subscribers.put(Space.CHANNELS, new HashMap<>());
        subscribers.put(Space.PATTERNS, new LinkedHashMap<>());
        subscribers.put(Space.SHARD_CHANNELS, new HashMap<>());
    }

    /**
     * Subscribes {@code s} to {@code name} in {@code space}; false when it already was.
     *
     * @param space the kind of name
     * @param s     the subscriber
     * @param name  the channel or pattern
     * @return whether it was added
     */
    public boolean subscribe(Space space, Subscriptions s, byte[] name) {
        Key key = Key.of(name.clone());
        if (!s.add(space, key)) {
            return false;
        }
        subscribers.get(space).computeIfAbsent(key, k -> new LinkedHashSet<>()).add(s);
        return true;
    }

    /**
     * Unsubscribes {@code s} from {@code name} in {@code space}; false when it was not subscribed.
     *
     * @param space the kind of name
     * @param s     the subscriber
     * @param name  the channel or pattern
     * @return whether it was removed
     */
    public boolean unsubscribe(Space space, Subscriptions s, byte[] name) {
        Key key = Key.of(name);
        if (!s.remove(space, key)) {
            return false;
        }
        Map<Key, Set<Subscriptions>> map = subscribers.get(space);
        Set<Subscriptions> set = map.get(key);
        set.remove(s);
        if (set.isEmpty()) {
            map.remove(key);
        }
        return true;
    }

    /**
     * Unsubscribes {@code s} from every name of {@code space}; returns them, in subscription order.
     *
     * @param space the kind of name
     * @param s     the subscriber
     * @return the names it had
     */
    public List<byte[]> unsubscribeAll(Space space, Subscriptions s) {
        List<byte[]> names = s.names(space);
        for (byte[] name : names) {
            unsubscribe(space, s, name);
        }
        return names;
    }

    /**
     * Unsubscribes {@code s} from everything (a client that leaves, or RESET).
     *
     * @param s the subscriber
     */
    public void forget(Subscriptions s) {
        for (Space space : Space.values()) {
            unsubscribeAll(space, s);
        }
    }

    /**
     * PUBLISH: delivers to the channel's and the matching patterns' subscribers; returns the deliveries.
     *
     * @param channel the channel
     * @param payload the message
     * @return the number of deliveries, as PUBLISH answers
     */
    public int publish(byte[] channel, byte[] payload) {
        int receivers = deliver(Space.CHANNELS, channel, payload);
        for (Map.Entry<Key, Set<Subscriptions>> e : subscribers.get(Space.PATTERNS).entrySet()) {
            byte[] pattern = e.getKey().bytes();
            if (Glob.matches(pattern, channel, false)) {
                Message m = new Message(Message.Kind.PMESSAGE, pattern, channel, payload);
                for (Subscriptions s : List.copyOf(e.getValue())) {
                    s.deliver(m);
                    receivers++;
                }
            }
        }
        return receivers;
    }

    /**
     * SPUBLISH: delivers to the shard channel's subscribers; returns how many.
     *
     * @param channel the shard channel
     * @param payload the message
     * @return the number of deliveries, as SPUBLISH answers
     */
    public int publishShard(byte[] channel, byte[] payload) {
        return deliver(Space.SHARD_CHANNELS, channel, payload);
    }

    private int deliver(Space space, byte[] channel, byte[] payload) {
        Set<Subscriptions> set = subscribers.get(space).get(Key.of(channel));
        if (set == null) {
            return 0;
        }
        Message m = new Message(space.kind(), null, channel, payload);
        // A sink may close its subscriber (an output limit), which changes the set: deliver to a copy.
        List<Subscriptions> receivers = set.size() == 1 ? List.of(set.iterator().next()) : List.copyOf(set);
        for (Subscriptions s : receivers) {
            s.deliver(m);
        }
        return receivers.size();
    }

    /**
     * The channels (or shard channels) with a subscriber, matching {@code pattern} (null for all), as PUBSUB CHANNELS lists them.
     *
     * @param space   channels or shard channels
     * @param pattern a glob to filter by, or null
     * @return the names
     */
    public List<byte[]> activeNames(Space space, byte[] pattern) {
        List<byte[]> out = new ArrayList<>();
        for (Key k : subscribers.get(space).keySet()) {
            if (pattern == null || Glob.matches(pattern, k.bytes(), false)) {
                out.add(k.bytes());
            }
        }
        return out;
    }

    /**
     * How many subscribers {@code name} has in {@code space} (PUBSUB NUMSUB, SHARDNUMSUB).
     *
     * @param space the kind of name
     * @param name  the channel or pattern
     * @return its subscribers
     */
    public int subscriberCount(Space space, byte[] name) {
        Set<Subscriptions> set = subscribers.get(space).get(Key.of(name));
        return set == null ? 0 : set.size();
    }

    /**
     * How many distinct names have a subscriber in {@code space} (PUBSUB NUMPAT for patterns; INFO).
     *
     * @param space the kind of name
     * @return the number of names with a subscriber
     */
    public int nameCount(Space space) {
        return subscribers.get(space).size();
    }
}
