package dev.ordo.engine.value;

import dev.ordo.engine.memory.MemorySized;

/**
 * What every value a key holds answers, whatever its type: the keyspace, COPY, TYPE, OBJECT
 * ENCODING, MEMORY USAGE, DEBUG DIGEST and the snapshot's pacing ask a value through this
 * interface and nothing else. The RDB encoding of each type (also DUMP's payload) lives with the
 * file format in {@code persist.rdb} ({@code RdbWriter.entry}, {@code RdbReader.value}), by
 * decision: the format's primitives (listpack and intset blobs, LZF, string encodings) serve
 * every type, and keeping them in one place keeps the writer allocation-free and the reader's
 * corruption checks in one spot.
 *
 * <p>This package sits below every value type ({@code keyspace}'s strings, hashes and sets,
 * {@code zset}, {@code list}) and imports none of them, so that types depend on it and never on
 * each other or on the keyspace that stores them.
 */
public interface Value extends MemorySized {
    /**
     * The type TYPE reports.
     *
     * @return the type
     */
    KeyType type();

    /**
     * The encoding OBJECT ENCODING reports, in Redis's words ("listpack", "skiplist", "int", ...).
     *
     * @return the encoding's name
     */
    String encodingName();

    /**
     * A deep copy that shares nothing mutable with this value and reports the same encoding (COPY).
     *
     * @return the copy
     */
    Value copy();

    /**
     * Roughly how much work saving or copying this value is, in elements (at least 1): the
     * snapshot paces itself by it.
     *
     * @return the weight, at least 1
     */
    long weight();

    /**
     * Feeds the content to {@code digest} as Redis's DEBUG DIGEST reads this type.
     *
     * @param digest receives the content
     */
    void digest(ValueDigest digest);
}
