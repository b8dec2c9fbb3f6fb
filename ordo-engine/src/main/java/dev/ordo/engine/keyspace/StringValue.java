package dev.ordo.engine.keyspace;

/**
 * A string value. Redis reports its encoding as {@code int} (a canonical 64-bit integer written
 * by SET or INCR), {@code embstr} (at most 44 bytes) or {@code raw} (longer, or changed in place
 * by APPEND or SETRANGE); this class keeps the bytes and whether they were changed in place.
 */
public final class StringValue {
    private static final int EMBSTR_LIMIT = 44;

    private byte[] bytes;
    private boolean changedInPlace;

    public StringValue(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The value's bytes; callers must not change them. */
    public byte[] bytes() {
        return bytes;
    }

    /** Replaces the value as an in-place edit (APPEND, SETRANGE), which Redis reports as raw. */
    public void replaceInPlace(byte[] newBytes) {
        bytes = newBytes;
        changedInPlace = true;
    }

    /** The name OBJECT ENCODING reports. */
    public String encoding() {
        if (!changedInPlace && isCanonicalLong(bytes)) {
            return "int";
        }
        return !changedInPlace && bytes.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    /** Whether {@code b} is a 64-bit integer written the one way Redis writes it (no '+', no leading zero). */
    public static boolean isCanonicalLong(byte[] b) {
        int n = b.length;
        if (n == 0 || n > 20) {
            return false;
        }
        int i = b[0] == '-' ? 1 : 0;
        if (i == n || (b[i] == '0' && n > 1)) {
            return false;
        }
        long value = 0;
        for (int j = i; j < n; j++) {
            int d = b[j] - '0';
            if (d < 0 || d > 9) {
                return false;
            }
            if (value < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            value = value * 10 - d;
        }
        return i == 1 ? value != 0 : value != Long.MIN_VALUE;
    }
}
