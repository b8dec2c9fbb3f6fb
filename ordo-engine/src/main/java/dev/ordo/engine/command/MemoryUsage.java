package dev.ordo.engine.command;

import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.zset.ZSet;

/**
 * MEMORY USAGE's estimate: the bytes a key and its value hold on Ordo's Java heap, counted from
 * the actual sizes of the key, the value's parts and their containers (12-byte object headers,
 * 16-byte array headers, 4-byte compressed references, 8-byte alignment). Sorted sets and sets
 * count their own storage; the estimate visits every element rather than sampling.
 */
final class MemoryUsage {
    /** A Key object: header, bytes reference, cached hash. */
    private static final long KEY_OBJECT = 24;
    /** A database entry (value reference, expiry, access time) and its two table slots at typical load. */
    private static final long DB_ENTRY = 32 + 16;
    /** A StringValue: header, buffer reference, length, origin reference. */
    private static final long STRING_OBJECT = 24;
    /** A hash's objects: the value, its LinkedHashMap or KeyTable. */
    private static final long HASH_OBJECTS = 24 + 56;
    /** One listpack-encoded hash field: the LinkedHashMap entry and its bucket slot. */
    private static final long HASH_LISTPACK_ENTRY = 40 + 8;
    /** One hashtable-encoded hash field: two table slots at typical load. */
    private static final long HASH_TABLE_ENTRY = 16;

    private MemoryUsage() {
    }

    /** The estimate for {@code key} holding {@code value}. */
    static long ofEntry(Key key, Object value) {
        return KEY_OBJECT + array(key.bytes().length) + DB_ENTRY + ofValue(value);
    }

    private static long ofValue(Object value) {
        if (value instanceof StringValue) {
            return STRING_OBJECT + array(((StringValue) value).buffer().length);
        }
        if (value instanceof HashValue) {
            return ofHash((HashValue) value);
        }
        if (value instanceof SetValue) {
            return ((SetValue) value).memoryUsage();
        }
        if (value instanceof ZSet) {
            return ((ZSet) value).memoryUsage();
        }
        throw new IllegalArgumentException("not a keyspace value: " + value);
    }

    private static long ofHash(HashValue h) {
        long perField = h.isHashtable() ? HASH_TABLE_ENTRY : HASH_LISTPACK_ENTRY;
        long[] bytes = {HASH_OBJECTS};
        h.forEach((field, value) -> bytes[0] += perField + KEY_OBJECT + array(field.bytes().length) + array(value.length));
        return bytes[0];
    }

    /** The heap size of a byte array (or any array) with {@code payload} bytes of elements. */
    private static long array(long payload) {
        return (16 + payload + 7) & ~7L;
    }
}
