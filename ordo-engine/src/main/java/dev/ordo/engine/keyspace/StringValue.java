package dev.ordo.engine.keyspace;

import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A string value: binary-safe bytes and the encoding OBJECT ENCODING reports. Redis reports
 * {@code int} for a canonical 64-bit integer stored by SET, INCR and friends, {@code embstr} for
 * other values of at most 44 bytes, and {@code raw} for longer values, for values built by
 * SETRANGE on a new key, and for any value changed in place by APPEND or SETRANGE.
 *
 * <p>The bytes live in a buffer that may be longer than the value (its first {@link #length()}
 * bytes; the rest are zero), so that repeated appends take amortized constant time per byte as
 * Redis's do. No value is longer than {@link #MAX_LENGTH}. APPEND and SETRANGE change an
 * instance in place, so a key never shares its instance with another key.
 */
public final class StringValue implements Value {
    /** The longest value a Java array can hold. */
    public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    private static final int EMBSTR_LIMIT = 44;
    private static final int GROWTH_STEP_LIMIT = 1024 * 1024;

    /** How the value came to be, which decides its reported encoding. */
    private enum Origin {
        /** Stored whole by a command that tries the integer encoding (SET, MSET, APPEND to a new key ...). */
        STORED,
        /** Stored whole without trying the integer encoding (INCRBYFLOAT's result). */
        TEXT,
        /** Built or changed in place (APPEND, SETRANGE). */
        RAW
    }

    private byte[] buffer;
    private int length;
    private Origin origin;

    /**
     * A value stored whole, as SET stores it; the caller hands over {@code bytes} and no longer changes them.
     *
     * @param bytes the value, handed over
     */
    public StringValue(byte[] bytes) {
        this(bytes, Origin.STORED);
    }

    private StringValue(byte[] bytes, Origin origin) {
        this.buffer = bytes;
        this.length = bytes.length;
        this.origin = origin;
    }

    /**
     * A value stored as text, never reported as {@code int} (INCRBYFLOAT's result).
     *
     * @param bytes the text, handed over
     * @return the value
     */
    public static StringValue text(byte[] bytes) {
        return new StringValue(bytes, Origin.TEXT);
    }

    /**
     * A value of {@code length} zero bytes, reported as {@code raw} (SETRANGE on a missing key).
     *
     * @param length the number of bytes
     * @return the value
     */
    public static StringValue zeros(int length) {
        return new StringValue(new byte[length], Origin.RAW);
    }

    /**
     * The value of a 64-bit integer, as INCR stores it.
     *
     * @param value the integer
     * @return the value, its decimal text
     */
    public static StringValue of(long value) {
        return new StringValue(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The value's bytes, exactly {@link #length()} of them; callers must not change them. A copy
     * when the buffer has room to grow (the value never shrinks behind the memory accounting's back).
     *
     * @return the bytes
     */
    public byte[] bytes() {
        return buffer.length == length ? buffer : Arrays.copyOf(buffer, length);
    }

    /**
     * The backing buffer, whose first {@link #length()} bytes are the value; callers must not change it.
     *
     * @return the buffer
     */
    public byte[] buffer() {
        return buffer;
    }

    /**
     * The value's length in bytes.
     *
     * @return the length
     */
    public int length() {
        return length;
    }

    /**
     * Appends {@code suffix} in place (APPEND), growing the buffer geometrically.
     *
     * @param suffix the bytes to append
     */
    public void append(byte[] suffix) {
        writeAt(length, suffix);
    }

    /**
     * Writes {@code data} at {@code offset} in place (SETRANGE), zero-padding any gap after the current end.
     *
     * @param offset where to write, from 0
     * @param data the bytes to write
     */
    public void writeAt(int offset, byte[] data) {
        int end = Math.addExact(offset, data.length);
        if (end > buffer.length) {
            buffer = Arrays.copyOf(buffer, grownCapacity(end));
        }
        System.arraycopy(data, 0, buffer, offset, data.length);
        length = Math.max(length, end);
        origin = Origin.RAW;
    }

    /**
     * Replaces the value as an in-place edit, which Redis reports as raw.
     *
     * @param newBytes the new value, handed over
     */
    public void replaceInPlace(byte[] newBytes) {
        buffer = newBytes;
        length = newBytes.length;
        origin = Origin.RAW;
    }

    @Override
    public long memoryUsage() {
        return Footprint.object(2, 4) + Footprint.array(buffer.length);
    }

    @Override
    public KeyType type() {
        return KeyType.STRING;
    }

    @Override
    public String encodingName() {
        return encoding();
    }

    /** A copy with the same bytes and the same reported encoding. */
    @Override
    public StringValue copy() {
        return new StringValue(Arrays.copyOf(buffer, length), origin);
    }

    @Override
    public long weight() {
        return 1 + length / 64;
    }

    @Override
    public void digest(ValueDigest digest) {
        digest.mix(buffer, 0, length);
    }

    /**
     * The name OBJECT ENCODING reports.
     *
     * @return {@code int}, {@code embstr} or {@code raw}
     */
    public String encoding() {
        if (origin == Origin.RAW) {
            return "raw";
        }
        if (origin == Origin.STORED && isCanonicalLong(bytes())) {
            return "int";
        }
        return length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    /** Room for {@code needed} bytes: double while small, then 1 MB more, as Redis's strings grow. */
    private static int grownCapacity(int needed) {
        long capacity = needed < GROWTH_STEP_LIMIT ? 2L * needed : (long) needed + GROWTH_STEP_LIMIT;
        return (int) Math.min(capacity, MAX_LENGTH);
    }

    /**
     * Whether {@code b} is a 64-bit integer written the one way Redis writes it (no '+', no leading zero).
     *
     * @param b the text
     * @return whether it is canonical
     */
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
