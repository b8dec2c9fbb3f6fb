package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.value.Value;
import dev.ordo.engine.keyspace.Key;

/**
 * Receives what {@link RdbReader} finds in a file, in file order. The reader may deliver entries
 * and then discover that the file is bad (a later malformed value, a wrong checksum, a truncated
 * tail): it then throws {@link RdbException}, and the caller must discard everything the sink
 * received. A sink therefore loads into fresh databases and swaps them in only when
 * {@code read} returns.
 *
 * <p>The reader does not look at the clock or remember keys: dropping keys whose expiry has
 * passed, and rejecting a key that appears twice in one database, are the sink's choice.
 */
public interface RdbSink {
    /** An AUX field from the header (redis-ver, redis-bits, ctime, used-mem, aof-base ...). */
    default void aux(String key, byte[] value) {
    }

    /** A function library's code (FUNCTION LOAD's argument). */
    default void function(byte[] libraryCode) {
    }

    /**
     * A key of database {@code db} with its value, in the encoding Redis would give it after loading, and its
     * expiry time in Unix milliseconds, or -1 for none. The sink owns the key and value.
     */
    void entry(int db, Key key, Value value, long expireAtMillis);
}
