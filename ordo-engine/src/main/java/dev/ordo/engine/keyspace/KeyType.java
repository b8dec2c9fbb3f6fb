package dev.ordo.engine.keyspace;

import dev.ordo.engine.zset.ZSet;

/** The value types a key can hold, named as TYPE replies. */
public enum KeyType {
    STRING("string"),
    HASH("hash"),
    SET("set"),
    ZSET("zset");

    private final String redisName;

    KeyType(String redisName) {
        this.redisName = redisName;
    }

    /** The name TYPE and SCAN ... TYPE use. */
    public String redisName() {
        return redisName;
    }

    /** The type of a stored value. */
    public static KeyType of(Object value) {
        if (value instanceof ZSet) {
            return ZSET;
        }
        if (value instanceof StringValue) {
            return STRING;
        }
        if (value instanceof HashValue) {
            return HASH;
        }
        if (value instanceof SetValue) {
            return SET;
        }
        throw new IllegalArgumentException("not a keyspace value: " + value);
    }

    /** The type named {@code name} (case-insensitive), or null. */
    public static KeyType named(String name) {
        for (KeyType t : values()) {
            if (t.redisName.equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }
}
