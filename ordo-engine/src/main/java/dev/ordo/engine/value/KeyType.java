package dev.ordo.engine.value;

/** The value types a key can hold, named as TYPE replies. */
public enum KeyType {
    STRING("string", 0),
    LIST("list", 1),
    SET("set", 2),
    ZSET("zset", 3),
    HASH("hash", 4);

    private final String redisName;
    private final int objectCode;

    KeyType(String redisName, int objectCode) {
        this.redisName = redisName;
        this.objectCode = objectCode;
    }

    /** The name TYPE and SCAN ... TYPE use. */
    public String redisName() {
        return redisName;
    }

    /** Redis's object type number ({@code OBJ_STRING} 0, {@code OBJ_LIST} 1, ...), as DEBUG DIGEST mixes it in. */
    public int objectCode() {
        return objectCode;
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
