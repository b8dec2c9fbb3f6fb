package dev.ordo.engine.keyspace;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A hash value: fields to values, in insertion order (what Redis's listpack encoding returns).
 * Reported as {@code listpack} until it passes {@code hash-max-listpack-entries} /
 * {@code hash-max-listpack-value}, then {@code hashtable}, never back.
 */
public final class HashValue {
    private final Map<Key, byte[]> fields = new LinkedHashMap<>();
    private boolean hashtable;

    public Map<Key, byte[]> fields() {
        return fields;
    }

    /** The name OBJECT ENCODING reports. */
    public String encoding() {
        return hashtable ? "hashtable" : "listpack";
    }

    /** Records that the hash outgrew the listpack limits. */
    public void convertToHashtable() {
        hashtable = true;
    }

    public boolean isHashtable() {
        return hashtable;
    }
}
