package dev.ordo.engine.keyspace;

import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;
import dev.ordo.engine.zset.ListpackLimits;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;

/**
 * A hash value: fields to values. It starts {@code listpack}-encoded, keeping fields in insertion
 * order (an updated field keeps its place) as Redis's listpack does. It becomes
 * {@code hashtable}-encoded, never to go back, once it holds more fields than the entry limit or
 * a field or value longer than the value limit; then the fields live in a {@link KeyTable}, whose
 * SCAN cursor resumes across resizes and which samples a random field in O(1).
 *
 * <p>Exactly one of the two stores is in use. Fields and values are handed over: callers do not
 * change the arrays afterwards. Not thread-safe.
 */
public final class HashValue implements Value {
    /** Limits under which no field forces a conversion: a copy keeps its source's encoding. */
    private static final ListpackLimits UNBOUNDED = ListpackLimits.of(Integer.MAX_VALUE, Integer.MAX_VALUE);
    /** A LinkedHashMap entry: hash, key, value, next, before, after. */
    private static final long LINKED_ENTRY = Footprint.object(5, 4);
    private static final int LINKED_MIN_CAPACITY = 16;

    private Map<Key, byte[]> listpack = new LinkedHashMap<>();
    private KeyTable<byte[]> table;
    /** The bytes of the fields (key objects and arrays) and values, kept as they change. */
    private long payloadBytes;
    /** The most fields the listpack map has held: its bucket array grew for them and never shrinks. */
    private int listpackPeak;

    /**
     * The number of fields.
     *
     * @return the number of fields
     */
    public int size() {
        return table != null ? table.size() : listpack.size();
    }

    /**
     * The value of {@code field}, or null.
     *
     * @param field the field
     * @return its value, or null
     */
    public byte[] get(Key field) {
        return table != null ? table.get(field) : listpack.get(field);
    }

    /**
     * Whether {@code field} is in the hash.
     *
     * @param field the field
     * @return whether it is there
     */
    public boolean contains(Key field) {
        return get(field) != null;
    }

    /**
     * Sets {@code field} to {@code value}; returns whether the field is new. Converts to a hash
     * table first when either is longer than the value limit, and after adding when the hash
     * holds more fields than the entry limit.
     *
     * @param field the field
     * @param value its value
     * @param limits the listpack limits of the configuration
     * @return whether the field is new
     */
    public boolean put(Key field, byte[] value, ListpackLimits limits) {
        if (table == null && (field.bytes().length > limits.maxValueBytes() || value.length > limits.maxValueBytes())) {
            convertToHashtable();
        }
        byte[] old = table != null ? table.put(field, value) : listpack.put(field, value);
        payloadBytes += Footprint.array(value.length) - (old == null ? -fieldBytes(field) : Footprint.array(old.length));
        if (table == null) {
            listpackPeak = Math.max(listpackPeak, listpack.size());
            if (listpack.size() > limits.maxEntries()) {
                convertToHashtable();
            }
        }
        return old == null;
    }

    /**
     * Removes {@code field}; returns whether it was there.
     *
     * @param field the field
     * @return whether it was there
     */
    public boolean remove(Key field) {
        byte[] old = table != null ? table.remove(field) : listpack.remove(field);
        if (old == null) {
            return false;
        }
        payloadBytes -= fieldBytes(field) + Footprint.array(old.length);
        return true;
    }

    private static long fieldBytes(Key field) {
        return Key.FOOTPRINT + Footprint.array(field.bytes().length);
    }

    @Override
    public long memoryUsage() {
        long own = Footprint.object(2, 12);
        if (table != null) {
            return own + table.allocatedBytes() + payloadBytes;
        }
        int capacity = LINKED_MIN_CAPACITY;
        while (listpackPeak > capacity / 4 * 3) {
            capacity *= 2;
        }
        return own + Footprint.object(6, 16) + Footprint.referenceArray(capacity) + listpack.size() * LINKED_ENTRY + payloadBytes;
    }

    /**
     * Visits every field and value: in insertion order while listpack-encoded, else in table order.
     *
     * @param visitor called with each field and its value
     */
    public void forEach(BiConsumer<Key, byte[]> visitor) {
        if (table != null) {
            table.forEach(visitor);
        } else {
            listpack.forEach(visitor);
        }
    }

    /**
     * One HSCAN step from {@code cursor}: a listpack-encoded hash visits everything and returns 0;
     * a hash table visits at least {@code count} entries when it has them and returns the next
     * cursor (0 when done), every field present for the whole scan being visited at least once.
     *
     * @param cursor where to resume, 0 to start
     * @param count about how many entries to visit
     * @param visitor called with each field and its value
     * @return the next cursor, 0 when the scan is done
     */
    public long scan(long cursor, int count, BiConsumer<Key, byte[]> visitor) {
        if (table == null) {
            listpack.forEach(visitor);
            return 0;
        }
        return table.scan(cursor, count, visitor);
    }

    /**
     * A uniformly chosen field, or null when empty: O(1) for a hash table, O(n) for a listpack.
     *
     * @param random the source of randomness
     * @return a field, or null
     */
    public Key randomField(RandomGenerator random) {
        if (table != null) {
            return table.randomKey(random);
        }
        int skip = listpack.isEmpty() ? -1 : random.nextInt(listpack.size());
        for (Key k : listpack.keySet()) {
            if (skip-- == 0) {
                return k;
            }
        }
        return null;
    }

    @Override
    public KeyType type() {
        return KeyType.HASH;
    }

    @Override
    public String encodingName() {
        return encoding();
    }

    /** A copy in the same encoding and, while listpack-encoded, the same field order. */
    @Override
    public HashValue copy() {
        HashValue copy = new HashValue();
        if (isHashtable()) {
            copy.convertToHashtable();
        }
        forEach((field, value) -> copy.put(field, value.clone(), UNBOUNDED));
        return copy;
    }

    @Override
    public long weight() {
        return size() + 1L;
    }

    @Override
    public void digest(ValueDigest digest) {
        forEach((field, value) -> digest.element(field.bytes(), 0, field.bytes().length, value));
    }

    /**
     * The name OBJECT ENCODING reports.
     *
     * @return {@code listpack} or {@code hashtable}
     */
    public String encoding() {
        return isHashtable() ? "hashtable" : "listpack";
    }

    /** Moves the fields into a hash table, if they are not there already. */
    public void convertToHashtable() {
        if (table != null) {
            return;
        }
        table = new KeyTable<>();
        listpack.forEach(table::put);
        listpack = null;
    }

    /**
     * Whether the hash is hashtable-encoded rather than a listpack.
     *
     * @return whether it is a hash table
     */
    public boolean isHashtable() {
        return table != null;
    }
}
