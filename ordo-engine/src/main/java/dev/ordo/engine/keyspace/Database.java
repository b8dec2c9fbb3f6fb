package dev.ordo.engine.keyspace;

import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * One numbered database: keys to values, with Redis's expiry. A key whose expiry time has passed
 * is treated as absent by every read and deleted on the spot (lazy expiry); {@link
 * #expireSample} deletes expired keys nobody reads (active expiry). Keys with an expiry are also
 * kept in a second table so that sampling them is O(1).
 *
 * <p>"Now" is the keyspace's command time, fixed at the start of each command, so a key does not
 * expire halfway through one. Not thread-safe: the engine's lock guards it.
 */
public final class Database {
    /** The expiry of a key that has none. */
    public static final long NO_EXPIRY = -1;

    private final int index;
    private final Keyspace keyspace;
    private final KeyTable<Entry> entries;
    private final KeyTable<Entry> volatileEntries;
    /** INFO keyspace's avg_ttl: a running average of the sampled keys' remaining time, in ms. */
    private long avgTtl;

    /**
     * A stored value with its expiry and access field: the last access time (OBJECT IDLETIME), or
     * under an LFU policy the access counter ({@link Lfu}), as Redis keeps either in one field.
     */
    public static final class Entry {
        /** The heap bytes of an entry object: value reference, expiry, access field, accounted size. */
        static final long FOOTPRINT = Footprint.object(1, 24);

        Value value;
        long expireAt = NO_EXPIRY;
        long lastAccess;
        /** The value's size when last accounted ({@link Keyspace#storedBytes}): on storing it and after each change. */
        long accounted;

        /**
         * The value stored.
         *
         * @return the value
         */
        public Value value() {
            return value;
        }

        /**
         * The absolute expiry time in ms since the epoch, or {@link Database#NO_EXPIRY}.
         *
         * @return the expiry time
         */
        public long expireAt() {
            return expireAt;
        }

        /**
         * The access field: the last access time under LRU, or the counter and its decay time under LFU ({@link Lfu}).
         *
         * @return the field
         */
        public long lastAccess() {
            return lastAccess;
        }
    }

    Database(int index, Keyspace keyspace) {
        this.index = index;
        this.keyspace = keyspace;
        this.entries = new KeyTable<>(keyspace::tablesResized);
        this.volatileEntries = new KeyTable<>(keyspace::tablesResized);
    }

    /**
     * The database's number, as SELECT names it.
     *
     * @return the number, from 0
     */
    public int index() {
        return index;
    }

    /**
     * Returns the live entry of {@code key}, deleting it first if it has expired; null if absent.
     *
     * @param key the key
     * @return its entry, or null
     */
    public Entry entry(Key key) {
        Entry e = entries.get(key);
        if (e == null) {
            return null;
        }
        if (e.expireAt != NO_EXPIRY && e.expireAt <= keyspace.now() && !keyspace.loading()) {
            expire(key);
            return null;
        }
        return e;
    }

    /**
     * The value stored at {@code key}, expired or not, with no side effect (no expiry, no statistics).
     *
     * @param key the key
     * @return its value, or null
     */
    public Value peek(Key key) {
        Entry e = entries.get(key);
        return e == null ? null : e.value;
    }

    /**
     * The entry stored at {@code key}, expired or not, with no side effect; null if absent.
     *
     * @param key the key
     * @return its entry, or null
     */
    public Entry stored(Key key) {
        return entries.get(key);
    }

    /** A key chosen at random among all keys, or among those with an expiry; null when there is none. Expired keys count. */
    Key sampleKey(boolean allKeys, RandomGenerator random) {
        return (allKeys ? entries : volatileEntries).randomKey(random);
    }

    /** Deletes {@code key} to free memory ({@link Eviction}): counted, and heard as a change and as an eviction. */
    void evict(Key key) {
        remove(key);
        keyspace.stats().evictedKeys++;
        keyspace.evicted(index, key);
    }

    /**
     * Whether {@code key} is stored but past its expiry time (not yet deleted), with no side effect.
     *
     * @param key the key
     * @return whether it is stored and expired
     */
    public boolean isExpired(Key key) {
        Entry e = entries.get(key);
        return e != null && e.expireAt != NO_EXPIRY && e.expireAt <= keyspace.now();
    }

    /**
     * Visits every stored key, expired ones included, with no side effect.
     *
     * @param visitor called with each key and its entry
     */
    public void forEachStored(BiConsumer<Key, Entry> visitor) {
        entries.forEach(visitor);
    }

    /** Visits every stored key, or only the keys with an expiry, with no side effect. */
    void forEachStored(boolean allKeys, BiConsumer<Key, Entry> visitor) {
        (allKeys ? entries : volatileEntries).forEach(visitor);
    }

    /**
     * The live entry of {@code key} for a write: no hit or miss counted, access time refreshed.
     *
     * @param key the key
     * @return its entry, or null
     */
    public Entry entryForWrite(Key key) {
        Entry e = entry(key);
        if (e != null && keyspace.touching()) {
            e.lastAccess = keyspace.accessed(e.lastAccess);
        }
        return e;
    }

    /**
     * Returns the live value of {@code key}, or null; counts a hit or a miss (a "keymiss" event)
     * and refreshes its access time.
     *
     * @param key the key
     * @return its value, or null
     */
    public Value get(Key key) {
        Entry e = entry(key);
        if (e == null) {
            keyspace.stats().keyspaceMisses++;
            keyspace.notifyKeyspaceEvent(EventClass.KEY_MISS, "keymiss", key, index);
            return null;
        }
        keyspace.stats().keyspaceHits++;
        if (keyspace.touching()) {
            e.lastAccess = keyspace.accessed(e.lastAccess);
        }
        return e.value;
    }

    /**
     * Whether {@code key} exists (without touching its access time).
     *
     * @param key the key
     * @return whether it exists and has not expired
     */
    public boolean exists(Key key) {
        return entry(key) != null;
    }

    /**
     * Sets {@code key} to a new value and removes any expiry (SET without KEEPTTL).
     *
     * @param key the key
     * @param value its new value
     */
    public void set(Key key, Value value) {
        Entry e = entry(key);
        if (e == null) {
            add(key, value);
            return;
        }
        if (e.expireAt != NO_EXPIRY) {
            volatileEntries.remove(key);
            e.expireAt = NO_EXPIRY;
        }
        e.value = value;
        e.lastAccess = keyspace.overwritten(e.lastAccess);
        recount(e);
        keyspace.modified(index, key);
    }

    /**
     * Replaces the value of an existing key, keeping its expiry.
     *
     * @param key an existing key
     * @param value its new value
     */
    public void replaceKeepingTtl(Key key, Value value) {
        Entry e = entry(key);
        if (e == null) {
            add(key, value);
            return;
        }
        e.value = value;
        recount(e);
        keyspace.modified(index, key);
    }

    /**
     * Adds a key that must be absent; tells listeners a key was created.
     *
     * @param key a key not in the database
     * @param value its value
     */
    public void add(Key key, Value value) {
        Entry e = new Entry();
        e.value = value;
        e.lastAccess = keyspace.created();
        e.accounted = sizeOf(value);
        keyspace.stored(overhead(key) + e.accounted);
        entries.put(key, e);
        keyspace.modified(index, key);
        keyspace.created(index, key);
    }

    /**
     * Adds a key that must be absent, as RESTORE does: its expiry (or {@link #NO_EXPIRY}) and its
     * access field from RESTORE's IDLETIME / FREQ hints (-1 when not given).
     *
     * @param key a key not in the database
     * @param value its value
     * @param expireAt its expiry in ms since the epoch, or {@link #NO_EXPIRY}
     * @param idleSeconds RESTORE's IDLETIME, or -1
     * @param freq RESTORE's FREQ, or -1
     */
    public void addRestored(Key key, Value value, long expireAt, long idleSeconds, int freq) {
        add(key, value);
        entries.get(key).lastAccess = keyspace.restored(idleSeconds, freq);
        if (expireAt != NO_EXPIRY) {
            setExpireAt(key, expireAt);
        }
    }

    /**
     * Adds a key that must be absent holding a deleted key's entry as it is: value, expiry and
     * access field (RENAME and MOVE, for which Redis moves the object itself).
     *
     * @param key a key not in the database
     * @param moved the entry deleted from the key it comes from
     */
    public void addMoved(Key key, Entry moved) {
        long expireAt = moved.expireAt;
        moved.expireAt = NO_EXPIRY;
        keyspace.stored(overhead(key) + moved.accounted);
        entries.put(key, moved);
        keyspace.modified(index, key);
        keyspace.created(index, key);
        if (expireAt != NO_EXPIRY) {
            setExpireAt(key, expireAt);
        }
    }

    /**
     * Deletes {@code key}; returns whether it existed (expired keys do not count).
     *
     * @param key the key
     * @return whether it existed
     */
    public boolean delete(Key key) {
        if (entry(key) == null) {
            return false;
        }
        remove(key);
        keyspace.modified(index, key);
        return true;
    }

    /**
     * Records that the value held by {@code key} changed in place: WATCH, and the memory accounting.
     *
     * @param key the key whose value changed
     */
    public void touchModified(Key key) {
        Entry e = entries.get(key);
        if (e != null) {
            recount(e);
        }
        keyspace.modified(index, key);
    }

    /**
     * {@link #touchModified(Key)} for a command that holds the key's entry from
     * {@link #entryForWrite} in the same command (so the entry is still the key's).
     *
     * @param key the key whose value changed
     * @param e its entry
     */
    public void touchModified(Key key, Entry e) {
        recount(e);
        keyspace.modified(index, key);
    }

    /**
     * Records that the value held by {@code key} changed its encoding but not its content (SORT's
     * conversion of a sorted set): the memory accounting only; no watcher or tracker is told.
     *
     * @param key the key whose value was re-encoded
     */
    public void reencoded(Key key) {
        Entry e = entries.get(key);
        if (e != null) {
            recount(e);
        }
    }

    /** Brings the accounted size of {@code e}'s value up to date, in O(1). */
    private void recount(Entry e) {
        long now = sizeOf(e.value);
        keyspace.stored(now - e.accounted);
        e.accounted = now;
    }

    private static long sizeOf(Value value) {
        return value.memoryUsage();
    }

    /**
     * The heap bytes {@code key} and its entry {@code e} hold, as the memory accounting counts
     * them (MEMORY USAGE): the key object and bytes, the entry, and the value.
     *
     * @param key the key
     * @param e its entry
     * @return the bytes
     */
    public static long memoryUsage(Key key, Entry e) {
        return overhead(key) + e.accounted;
    }

    /** The heap bytes a key costs besides its value: the key object, its bytes, the entry object. */
    private static long overhead(Key key) {
        return Key.FOOTPRINT + Footprint.array(key.bytes().length) + Entry.FOOTPRINT;
    }

    /** Checks each entry's accounted size against its value now; returns the bytes of all entries. */
    long checkAccounting() {
        long[] total = {0};
        entries.forEach((k, e) -> {
            long now = sizeOf(e.value);
            if (now != e.accounted) {
                throw new AssertionError("key '" + k + "' in db " + index + " holds " + now + " bytes, accounted as " + e.accounted);
            }
            total[0] += overhead(k) + now;
        });
        return total[0];
    }

    /**
     * The heap bytes of this database's two key tables (the main one and the one of keys with an expiry).
     *
     * @return the bytes
     */
    public long tableBytes() {
        return entries.allocatedBytes() + volatileEntries.allocatedBytes();
    }

    /**
     * The heap bytes of the table of keys with an expiry.
     *
     * @return the bytes
     */
    public long expiresTableBytes() {
        return volatileEntries.allocatedBytes();
    }

    /**
     * The absolute expiry of an existing key in ms, or {@link #NO_EXPIRY}.
     *
     * @param key an existing key
     * @return its expiry in ms since the epoch, or {@link #NO_EXPIRY}
     */
    public long expireAt(Key key) {
        Entry e = entry(key);
        return e == null ? NO_EXPIRY : e.expireAt;
    }

    /**
     * Sets the expiry of an existing key; a time not in the future deletes it at once, which Redis
     * does not count as an expired key (INFO's expired_keys). Returns whether the key is still
     * there (false when missing or deleted).
     *
     * @param key an existing key
     * @param atMillis the new expiry in ms since the epoch
     * @return whether the key still exists
     */
    public boolean setExpireAt(Key key, long atMillis) {
        Entry e = entry(key);
        if (e == null) {
            return false;
        }
        if (atMillis <= keyspace.now() && !keyspace.loading()) {
            delete(key);
            return false;
        }
        if (e.expireAt == NO_EXPIRY) {
            // The key object the main table holds, not the caller's equal copy: one key in memory.
            volatileEntries.put(entries.storedKey(key), e);
        }
        e.expireAt = atMillis;
        keyspace.modified(index, key);
        return true;
    }

    /**
     * Removes the expiry of an existing key (refreshing its access time, as a write); returns whether it had one.
     *
     * @param key an existing key
     * @return whether it had an expiry
     */
    public boolean persist(Key key) {
        Entry e = entryForWrite(key);
        if (e == null || e.expireAt == NO_EXPIRY) {
            return false;
        }
        e.expireAt = NO_EXPIRY;
        volatileEntries.remove(key);
        keyspace.modified(index, key);
        return true;
    }

    /**
     * Number of keys, counting expired ones not yet deleted (as Redis's DBSIZE does).
     *
     * @return the number of keys
     */
    public int size() {
        return entries.size();
    }

    /**
     * Number of keys with an expiry.
     *
     * @return the number of keys with an expiry
     */
    public int volatileSize() {
        return volatileEntries.size();
    }

    /**
     * One SCAN step over the keys; expired keys are deleted rather than visited.
     *
     * @param cursor where to resume, 0 to start
     * @param count about how many keys to visit
     * @param visitor called with each key and its entry
     * @return the next cursor, 0 when the scan is done
     */
    public long scan(long cursor, int count, BiConsumer<Key, Entry> visitor) {
        List<Key> expired = new ArrayList<>();
        long now = keyspace.now();
        long next = entries.scan(cursor, count, (k, e) -> {
            if (e.expireAt != NO_EXPIRY && e.expireAt <= now) {
                expired.add(k);
            } else {
                visitor.accept(k, e);
            }
        });
        expired.forEach(this::expire);
        return next;
    }

    /**
     * Visits every live key, in table order.
     *
     * @param visitor called with each key and its entry
     */
    public void forEach(BiConsumer<Key, Entry> visitor) {
        long now = keyspace.now();
        entries.forEach((k, e) -> {
            if (e.expireAt == NO_EXPIRY || e.expireAt > now) {
                visitor.accept(k, e);
            }
        });
    }

    /**
     * A random live key, or null when there is none.
     *
     * @param random the source of randomness
     * @return a key, or null
     */
    public Key randomKey(RandomGenerator random) {
        for (int tries = 0; tries < 100 && entries.size() > 0; tries++) {
            Key k = entries.randomKey(random);
            if (entry(k) != null) {
                return k;
            }
        }
        return null;
    }

    /** Removes every key. */
    public void clear() {
        keyspace.flushing(index, true);
        try {
            entries.forEach((k, e) -> {
                keyspace.stored(-overhead(k) - e.accounted);
                keyspace.modified(index, k);
            });
        } finally {
            keyspace.flushing(index, false);
        }
        entries.clear();
        volatileEntries.clear();
        avgTtl = 0;
    }

    /**
     * Samples up to {@code samples} keys with an expiry and deletes the expired ones; returns how many.
     *
     * @param samples the most keys to look at
     * @param random the source of randomness
     * @return the number of keys deleted
     */
    public int expireSample(int samples, RandomGenerator random) {
        if (volatileEntries.size() == 0) {
            avgTtl = 0;
            return 0;
        }
        int expired = 0;
        long now = keyspace.now();
        long ttlSum = 0;
        int ttlSamples = 0;
        for (int i = 0; i < samples && volatileEntries.size() > 0; i++) {
            Key k = volatileEntries.randomKey(random);
            Entry e = volatileEntries.get(k);
            if (e.expireAt <= now) {
                expire(k);
                expired++;
            } else {
                ttlSum += e.expireAt - now;
                ttlSamples++;
            }
        }
        if (ttlSamples > 0) {
            // Redis's estimate: the previous one weighs 49/50 and this sample's mean 1/50.
            long sampled = ttlSum / ttlSamples;
            if (avgTtl == 0) {
                avgTtl = sampled;
            }
            avgTtl = (avgTtl / 50) * 49 + sampled / 50;
        }
        return expired;
    }

    /**
     * The estimated average remaining time to live of this database's keys with one, in ms (0 before any sample).
     *
     * @return the average, in ms
     */
    public long avgTtl() {
        return avgTtl;
    }

    /** Moves every key of this database into {@code other}'s tables and back (SWAPDB). */
    void swapContents(Database other) {
        KeyTable<Entry> tmp = new KeyTable<>();
        entries.forEach(tmp::put);
        KeyTable<Entry> tmpVolatile = new KeyTable<>();
        volatileEntries.forEach(tmpVolatile::put);
        entries.clear();
        volatileEntries.clear();
        other.entries.forEach(entries::put);
        other.volatileEntries.forEach(volatileEntries::put);
        other.entries.clear();
        other.volatileEntries.clear();
        tmp.forEach(other.entries::put);
        tmpVolatile.forEach(other.volatileEntries::put);
        long ttl = avgTtl;
        avgTtl = other.avgTtl;
        other.avgTtl = ttl;
    }

    private void expire(Key key) {
        remove(key);
        keyspace.stats().expiredKeys++;
        keyspace.expired(index, key);
    }

    private void remove(Key key) {
        Entry e = entries.remove(key);
        if (e == null) {
            return;
        }
        keyspace.stored(-overhead(key) - e.accounted);
        if (e.expireAt != NO_EXPIRY) {
            volatileEntries.remove(key);
        }
    }
}
