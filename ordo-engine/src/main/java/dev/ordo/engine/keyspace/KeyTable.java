package dev.ordo.engine.keyspace;

import dev.ordo.engine.memory.Footprint;

import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * An open-addressing hash map from {@link Key} to values, with what a Redis keyspace needs beyond
 * {@link java.util.HashMap}: a resumable SCAN cursor that returns every entry present for the
 * whole scan at least once across resizes, and O(1) random sampling (RANDOMKEY, active expiry).
 *
 * <p>Linear probing; a removed slot becomes a tombstone unless the probe chain ends right after
 * it. Capacity is a power of two, live entries plus tombstones stay at or below 60% of it, and it
 * halves below 1/8 full. The SCAN cursor walks home buckets ({@code hash & mask}) in Redis's
 * reverse-binary order, so buckets of a smaller table are unions of buckets of a larger one.
 * Not thread-safe.
 */
public final class KeyTable<V> {
    private static final Key TOMBSTONE = Key.of(new byte[0]);
    private static final int MAX_LOAD_PERCENT = 60;
    private static final int MIN_CAPACITY = 8;

    private Key[] keys;
    private Object[] values;
    private int mask;
    private int size;
    private int tombstones;
    /** Told whenever the slot arrays are replaced, so an owner can cache {@link #allocatedBytes}; null for none. */
    private final Runnable resized;

    /** An empty table. */
    public KeyTable() {
        this(null);
    }

    /**
     * An empty table that runs {@code resized} whenever its slot arrays are replaced (growth,
     * shrinking, clearing), so its owner can cache {@link #allocatedBytes} between them.
     *
     * @param resized told of each replacement; null for nothing
     */
    public KeyTable(Runnable resized) {
        this.resized = resized;
        allocate(MIN_CAPACITY);
    }

    /**
     * The number of entries.
     *
     * @return the number of entries
     */
    public int size() {
        return size;
    }

    /**
     * The heap bytes of this table's own object and slot arrays (not of the keys and values).
     *
     * @return the bytes
     */
    public long allocatedBytes() {
        return Footprint.object(2, 12) + 2 * Footprint.referenceArray(keys.length);
    }

    /**
     * Returns the value of {@code key}, or null.
     *
     * @param key the key
     * @return its value, or null
     */
    @SuppressWarnings("unchecked")
    public V get(Key key) {
        int i = slotOf(key);
        return i < 0 ? null : (V) values[i];
    }

    /**
     * The key instance this table holds equal to {@code key}, or null: lets another table share it.
     *
     * @param key the key
     * @return the instance held, or null
     */
    public Key storedKey(Key key) {
        int i = slotOf(key);
        return i < 0 ? null : keys[i];
    }

    /**
     * Sets the value of {@code key}; returns the previous one, or null.
     *
     * @param key the key
     * @param value its new value
     * @return the previous value, or null
     */
    @SuppressWarnings("unchecked")
    public V put(Key key, V value) {
        int i = key.hashCode() & mask;
        int free = -1;
        for (Key k = keys[i]; k != null; k = keys[i]) {
            if (k == TOMBSTONE) {
                if (free < 0) {
                    free = i;
                }
            } else if (k.equals(key)) {
                V old = (V) values[i];
                values[i] = value;
                return old;
            }
            i = (i + 1) & mask;
        }
        if (free >= 0) {
            i = free;
            tombstones--;
        }
        keys[i] = key;
        values[i] = value;
        size++;
        if ((size + tombstones) * 100L > (long) keys.length * MAX_LOAD_PERCENT) {
            rehash(capacityFor(size));
        }
        return null;
    }

    /**
     * Removes {@code key}; returns its value, or null.
     *
     * @param key the key
     * @return its value, or null
     */
    @SuppressWarnings("unchecked")
    public V remove(Key key) {
        int i = slotOf(key);
        if (i < 0) {
            return null;
        }
        V old = (V) values[i];
        values[i] = null;
        size--;
        if (keys[(i + 1) & mask] != null) {
            keys[i] = TOMBSTONE;
            tombstones++;
        } else {
            keys[i] = null;
            for (int j = (i - 1) & mask; keys[j] == TOMBSTONE; j = (j - 1) & mask) {
                keys[j] = null;
                tombstones--;
            }
        }
        if (keys.length > MIN_CAPACITY && size < keys.length / 8) {
            rehash(capacityFor(size));
        }
        return old;
    }

    /** Removes every entry. */
    public void clear() {
        allocate(MIN_CAPACITY);
        size = 0;
    }

    /**
     * Visits every entry, in table order.
     *
     * @param visitor called with each key and its value
     */
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<Key, V> visitor) {
        Key[] ks = keys;
        Object[] vs = values;
        for (int i = 0; i < ks.length; i++) {
            if (ks[i] != null && ks[i] != TOMBSTONE) {
                visitor.accept(ks[i], (V) vs[i]);
            }
        }
    }

    /**
     * One SCAN step: visits the entries of some home buckets, at least {@code count} entries when
     * the table has them, and returns the next cursor (0 when the scan is complete).
     *
     * @param cursor where to resume, 0 to start
     * @param count about how many entries to visit
     * @param visitor called with each key and its value
     * @return the next cursor, 0 when the scan is done
     */
    @SuppressWarnings("unchecked")
    public long scan(long cursor, int count, BiConsumer<Key, V> visitor) {
        if (size == 0) {
            return 0;
        }
        long m = mask;
        long v = cursor;
        int emitted = 0;
        int budget = Math.max(count, 1) * 10;
        do {
            int bucket = (int) (v & m);
            for (int i = bucket; keys[i] != null; i = (i + 1) & mask) {
                Key k = keys[i];
                if (k != TOMBSTONE && (k.hashCode() & mask) == bucket) {
                    visitor.accept(k, (V) values[i]);
                    emitted++;
                }
            }
            v |= ~m;
            v = Long.reverse(Long.reverse(v) + 1);
        } while (v != 0 && emitted < count && --budget > 0);
        return v;
    }

    /**
     * Returns a uniformly chosen key, or null when empty.
     *
     * @param random the source of randomness
     * @return a key, or null
     */
    public Key randomKey(RandomGenerator random) {
        if (size == 0) {
            return null;
        }
        while (true) {
            Key k = keys[random.nextInt(keys.length)];
            if (k != null && k != TOMBSTONE) {
                return k;
            }
        }
    }

    private int slotOf(Key key) {
        int i = key.hashCode() & mask;
        for (Key k = keys[i]; k != null; k = keys[i]) {
            if (k != TOMBSTONE && k.equals(key)) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    private static int capacityFor(int entries) {
        long needed = Math.max(MIN_CAPACITY, entries * 100L / MAX_LOAD_PERCENT + 1);
        return (int) Math.min(1 << 30, Long.highestOneBit(needed - 1) << 1);
    }

    private void allocate(int capacity) {
        keys = new Key[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
        tombstones = 0;
        if (resized != null) {
            resized.run();
        }
    }

    private void rehash(int capacity) {
        Key[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(capacity);
        for (int j = 0; j < oldKeys.length; j++) {
            Key k = oldKeys[j];
            if (k != null && k != TOMBSTONE) {
                int i = k.hashCode() & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = k;
                values[i] = oldValues[j];
            }
        }
    }

    @Override
    public String toString() {
        return "KeyTable[size=" + size + ", capacity=" + keys.length + ", tombstones=" + tombstones + "]";
    }
}
