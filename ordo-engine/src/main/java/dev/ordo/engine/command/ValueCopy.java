package dev.ordo.engine.command;

import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.zset.ListpackLimits;
import dev.ordo.engine.zset.ZSet;

/**
 * Deep copies of keyspace values for COPY: the copy shares nothing mutable with the original and
 * reports the same OBJECT ENCODING, as Redis's duplicates do.
 */
final class ValueCopy {
    /** Limits under which no hash field forces a conversion: the copy takes the source's encoding. */
    private static final ListpackLimits UNBOUNDED = ListpackLimits.of(Integer.MAX_VALUE, Integer.MAX_VALUE);

    private ValueCopy() {
    }

    /** A deep copy of {@code value}, which must be one of the keyspace's value types. */
    static Object of(Object value) {
        if (value instanceof StringValue) {
            return copyString((StringValue) value);
        }
        if (value instanceof HashValue) {
            return copyHash((HashValue) value);
        }
        if (value instanceof SetValue) {
            return ((SetValue) value).copy();
        }
        if (value instanceof ZSet) {
            return ((ZSet) value).copy();
        }
        throw new IllegalArgumentException("not a keyspace value: " + value);
    }

    private static StringValue copyString(StringValue s) {
        byte[] bytes = s.bytes().clone();
        switch (s.encoding()) {
            case "int":
                return new StringValue(bytes);
            case "embstr":
                return StringValue.text(bytes);
            default:
                StringValue raw = new StringValue(bytes);
                raw.replaceInPlace(bytes);
                return raw;
        }
    }

    private static HashValue copyHash(HashValue h) {
        HashValue copy = new HashValue();
        if (h.isHashtable()) {
            copy.convertToHashtable();
        }
        h.forEach((field, value) -> copy.put(field, value.clone(), UNBOUNDED));
        return copy;
    }
}
