package dev.ordo.engine.keyspace;

import dev.ordo.engine.internal.Hashing;
import dev.ordo.engine.memory.Footprint;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A binary-safe key (or hash field, or set member) with its seeded hash computed once. Wraps the
 * given array without copying: callers hand over arrays they no longer change.
 */
public final class Key implements Comparable<Key> {
    /** The heap bytes of a key object, not counting its byte array. */
    public static final long FOOTPRINT = Footprint.object(1, 4);

    private final byte[] bytes;
    private final int hash;

    private Key(byte[] bytes) {
        this.bytes = bytes;
        this.hash = (int) Hashing.hash(bytes, 0, bytes.length, Hashing.SEED);
    }

    /**
     * Wraps {@code bytes}, which the caller must not change afterwards.
     *
     * @param bytes the key's bytes
     * @return the key
     */
    public static Key of(byte[] bytes) {
        return new Key(bytes);
    }

    /**
     * A key from UTF-8 text.
     *
     * @param text the key's text
     * @return the key
     */
    public static Key of(String text) {
        return new Key(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The key's bytes; do not change them.
     *
     * @return the bytes
     */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int compareTo(Key o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
