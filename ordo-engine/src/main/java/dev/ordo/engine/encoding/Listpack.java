package dev.ordo.engine.encoding;

import java.nio.charset.StandardCharsets;

/**
 * Redis's listpack layout, read and changed in place in a byte array that holds one listpack from
 * offset 0 and may have unused capacity after it.
 *
 * <pre>
 *  0          4        6                                          total-1
 *  +----------+--------+---------+---------+-----+---------+------+
 *  | total    | count  | entry 0 | entry 1 | ... | entry n | 0xFF |
 *  | u32 LE   | u16 LE |         |         |     |         |      |
 *  +----------+--------+---------+---------+-----+---------+------+
 *
 *  entry = encoding byte(s) + data + back-length (size of encoding and data, 1 to 5 bytes)
 * </pre>
 *
 * <ul>
 *   <li>{@code total} counts every byte up to and including the terminator 0xFF; {@code count} is
 *       the number of entries, or 65535 meaning "walk to count".</li>
 *   <li>A string that is the canonical decimal spelling of a 64-bit integer (no '+', no leading
 *       zero, not "-0", at most 20 bytes) is stored as that integer in its smallest form:
 *       {@code 0vvvvvvv} (0..127); {@code 110vvvvv vvvvvvvv} (13-bit two's complement); 0xF1,
 *       0xF2, 0xF3, 0xF4 then 2, 3, 4 or 8 bytes little-endian.</li>
 *   <li>Any other string: {@code 10llllll} and up to 63 bytes; {@code 1110llll llllllll} and up to
 *       4095 bytes; 0xF0, a u32 LE length and the bytes.</li>
 *   <li>The back-length holds the entry's encoding-plus-data size in 7-bit groups, most
 *       significant first; every byte but the first has its top bit set, so it reads backwards
 *       from the byte before the next entry. Widths: 1 byte up to 127, 2 below 16383, 3 below
 *       2^21 - 1, 4 below 2^28 - 1, else 5.</li>
 * </ul>
 * Offsets passed to these methods point at an entry's first byte, or at the terminator for "after
 * the last entry". They are trusted: this class does not validate foreign bytes (the RDB reader
 * does that before a listpack gets here).
 */
public final class Listpack {
    /** Bytes of the header: total size and count. */
    public static final int HEADER = 6;
    /** Bytes of an empty listpack: header and terminator. */
    public static final int EMPTY = HEADER + 1;
    /** The count field's "unknown" value, also the largest count it holds. */
    public static final int UNKNOWN_COUNT = 0xFFFF;
    private static final int TERMINATOR = 0xFF;
    private static final int MAX_INT_STRING = 20;
    /** Entry bytes beyond a string's: 5 of encoding, 5 of back-length. */
    public static final int MAX_OVERHEAD = 10;

    private Listpack() {
    }

    /** A new empty listpack in an array of at least {@code capacity} bytes. */
    public static byte[] empty(int capacity) {
        byte[] b = new byte[Math.max(EMPTY, capacity)];
        setTotal(b, EMPTY);
        b[HEADER] = (byte) TERMINATOR;
        return b;
    }

    /** The listpack's size in bytes, terminator included. */
    public static int total(byte[] b) {
        return (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
    }

    /** The header's entry count (65535 means unknown). */
    public static int headerCount(byte[] b) {
        return (b[4] & 0xFF) | (b[5] & 0xFF) << 8;
    }

    /** Sets the header's total size field. */
    public static void setTotal(byte[] b, int total) {
        b[0] = (byte) total;
        b[1] = (byte) (total >>> 8);
        b[2] = (byte) (total >>> 16);
        b[3] = (byte) (total >>> 24);
    }

    /** Sets the header's count field to {@code count}, or "unknown" when it does not fit. */
    public static void setCount(byte[] b, int count) {
        int c = Math.min(count, UNKNOWN_COUNT);
        b[4] = (byte) c;
        b[5] = (byte) (c >>> 8);
    }

    /** The offset of the terminator (where the next appended entry goes). */
    public static int end(byte[] b) {
        return total(b) - 1;
    }

    /** The offset of the entry after the one at {@code p}. */
    public static int next(byte[] b, int p) {
        int content = contentSize(b, p);
        return p + content + backlenSize(content);
    }

    /** The offset of the entry before {@code p} (an entry or the terminator, not the first entry). */
    public static int prev(byte[] b, int p) {
        int q = p - 1;
        int len = 0;
        int shift = 0;
        while (true) {
            int c = b[q] & 0xFF;
            len |= (c & 0x7F) << shift;
            if ((c & 0x80) == 0) {
                break;
            }
            shift += 7;
            q--;
        }
        return q - len;
    }

    /** The bytes of encoding and data of the entry at {@code p}. */
    static int contentSize(byte[] b, int p) {
        int e = b[p] & 0xFF;
        if (e < 0x80) {
            return 1;
        }
        if (e < 0xC0) {
            return 1 + (e & 0x3F);
        }
        if (e < 0xE0) {
            return 2;
        }
        if (e < 0xF0) {
            return 2 + ((e & 0x0F) << 8 | (b[p + 1] & 0xFF));
        }
        switch (e) {
            case 0xF0:
                return 5 + ((b[p + 1] & 0xFF) | (b[p + 2] & 0xFF) << 8 | (b[p + 3] & 0xFF) << 16 | (b[p + 4] & 0xFF) << 24);
            case 0xF1:
                return 3;
            case 0xF2:
                return 4;
            case 0xF3:
                return 5;
            case 0xF4:
                return 9;
            default:
                throw new IllegalStateException("not a listpack entry: 0x" + Integer.toHexString(e));
        }
    }

    /** The bytes of the entry at {@code p}, back-length included. */
    public static int entrySize(byte[] b, int p) {
        int content = contentSize(b, p);
        return content + backlenSize(content);
    }

    /** Whether the entry at {@code p} is an integer entry. */
    public static boolean isInt(byte[] b, int p) {
        int e = b[p] & 0xFF;
        return e < 0x80 || (e >= 0xC0 && e < 0xE0) || (e >= 0xF1 && e <= 0xF4);
    }

    /**
     * The length of the entry at {@code p} when it is a string of at most 63 bytes, whose data
     * starts right after its one encoding byte; -1 for any other entry. The usual list element,
     * read with one test instead of {@link #isInt}, {@link #stringOffset} and {@link #stringLength}.
     */
    public static int shortStringLength(byte[] b, int p) {
        int e = b[p];
        return (e & 0xC0) == 0x80 ? e & 0x3F : -1;
    }

    /** The value of the integer entry at {@code p}. */
    public static long intValue(byte[] b, int p) {
        int e = b[p] & 0xFF;
        if (e < 0x80) {
            return e;
        }
        if (e < 0xE0) {
            int v = (e & 0x1F) << 8 | (b[p + 1] & 0xFF);
            return v >= 1 << 12 ? v - (1 << 13) : v;
        }
        int n = e == 0xF4 ? 8 : e - 0xEF;
        long v = 0;
        for (int i = n; i >= 1; i--) {
            v = v << 8 | (b[p + i] & 0xFF);
        }
        int unused = 64 - 8 * n;
        return v << unused >> unused;
    }

    /** The offset of the string entry's bytes. */
    public static int stringOffset(byte[] b, int p) {
        int e = b[p] & 0xFF;
        return p + (e < 0xC0 ? 1 : e < 0xF0 ? 2 : 5);
    }

    /** The length of the string entry's bytes. */
    public static int stringLength(byte[] b, int p) {
        return contentSize(b, p) - (stringOffset(b, p) - p);
    }

    /** The entry at {@code p} as a new array (an integer as its decimal digits). */
    public static byte[] get(byte[] b, int p) {
        if (isInt(b, p)) {
            return Long.toString(intValue(b, p)).getBytes(StandardCharsets.US_ASCII);
        }
        int off = stringOffset(b, p);
        return java.util.Arrays.copyOfRange(b, off, off + stringLength(b, p));
    }

    /** Whether the entry at {@code p} equals {@code probe}. */
    public static boolean matches(byte[] b, int p, Probe probe) {
        if (isInt(b, p)) {
            return probe.isInt && intValue(b, p) == probe.intValue;
        }
        if (probe.isInt) {
            return false;
        }
        int off = stringOffset(b, p);
        int len = stringLength(b, p);
        return java.util.Arrays.equals(b, off, off + len, probe.bytes, 0, probe.bytes.length);
    }

    /** A value to compare entries with, classified once: whether it would be stored as an integer. */
    public static final class Probe {
        final byte[] bytes;
        final boolean isInt;
        final long intValue;

        public Probe(byte[] bytes) {
            this.bytes = bytes;
            this.isInt = isCanonicalLong(bytes);
            this.intValue = isInt ? Long.parseLong(new String(bytes, StandardCharsets.US_ASCII)) : 0;
        }

        /** Whether {@code value} has the same bytes (for elements kept outside a listpack). */
        public boolean matches(byte[] value) {
            return java.util.Arrays.equals(bytes, value);
        }
    }

    /** Whether {@code s} is the canonical decimal spelling of a 64-bit integer. */
    public static boolean isCanonicalLong(byte[] s) {
        int len = s.length;
        if (len == 0 || len > MAX_INT_STRING) {
            return false;
        }
        int i = 0;
        boolean negative = s[0] == '-';
        if (negative && ++i == len) {
            return false;
        }
        if (s[i] == '0') {
            return len == 1;
        }
        long v = 0;
        for (; i < len; i++) {
            int d = s[i] - '0';
            if (d < 0 || d > 9 || v < Long.MIN_VALUE / 10) {
                return false;
            }
            v *= 10;
            if (v < Long.MIN_VALUE + d) {
                return false;
            }
            v -= d;
        }
        return negative || v != Long.MIN_VALUE;
    }

    /** The bytes {@code value} takes as an entry, back-length included. */
    public static int encodedSize(byte[] value) {
        int content;
        if (isCanonicalLong(value)) {
            content = intContentSize(Long.parseLong(new String(value, StandardCharsets.US_ASCII)));
        } else {
            content = stringContentSize(value.length);
        }
        return content + backlenSize(content);
    }

    private static int intContentSize(long v) {
        if (v >= 0 && v <= 127) {
            return 1;
        }
        if (v >= -4096 && v <= 4095) {
            return 2;
        }
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            return 3;
        }
        if (v >= -(1 << 23) && v < 1 << 23) {
            return 4;
        }
        if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            return 5;
        }
        return 9;
    }

    private static int stringContentSize(int len) {
        return len + (len <= 63 ? 1 : len <= 4095 ? 2 : 5);
    }

    /** Writes {@code value} as an entry at {@code out[at]}; returns its size ({@link #encodedSize}). */
    public static int encode(byte[] value, byte[] out, int at) {
        if (isCanonicalLong(value)) {
            return writeInt(Long.parseLong(new String(value, StandardCharsets.US_ASCII)), out, at);
        }
        return writeText(value, 0, value.length, out, at);
    }

    /** Writes the integer entry {@code v} in its smallest form at {@code out[at]}; returns its size. */
    public static int writeInt(long v, byte[] out, int at) {
        int content = intContentSize(v);
        int p = at;
        switch (content) {
            case 1:
                out[p++] = (byte) v;
                break;
            case 2:
                out[p++] = (byte) (0xC0 | (int) (v >> 8) & 0x1F);
                out[p++] = (byte) v;
                break;
            default:
                int n = content - 1;
                out[p++] = (byte) (n == 8 ? 0xF4 : 0xEF + n);
                for (int i = 0; i < n; i++) {
                    out[p++] = (byte) (v >> (8 * i));
                }
        }
        return content + writeBacklen(content, out, p);
    }

    /** Writes {@code s[off, off+len)} as a string entry (never an integer) at {@code out[at]}; returns its size. */
    public static int writeText(byte[] s, int off, int len, byte[] out, int at) {
        int p = at;
        if (len <= 63) {
            out[p++] = (byte) (0x80 | len);
        } else if (len <= 4095) {
            out[p++] = (byte) (0xE0 | len >>> 8);
            out[p++] = (byte) len;
        } else {
            out[p++] = (byte) 0xF0;
            out[p++] = (byte) len;
            out[p++] = (byte) (len >>> 8);
            out[p++] = (byte) (len >>> 16);
            out[p++] = (byte) (len >>> 24);
        }
        System.arraycopy(s, off, out, p, len);
        p += len;
        return p - at + writeBacklen(p - at, out, p);
    }

    /** The width of the back-length of an entry whose encoding and data take {@code content} bytes. */
    public static int backlenSize(int content) {
        if (content <= 127) {
            return 1;
        }
        if (content < 16383) {
            return 2;
        }
        if (content < (1 << 21) - 1) {
            return 3;
        }
        if (content < (1 << 28) - 1) {
            return 4;
        }
        return 5;
    }

    private static int writeBacklen(int content, byte[] out, int at) {
        int n = backlenSize(content);
        for (int k = 0; k < n; k++) {
            int group = (content >>> (7 * (n - 1 - k))) & 0x7F;
            out[at + k] = (byte) (k == 0 ? group : group | 0x80);
        }
        return n;
    }

    /**
     * Makes room for {@code size} bytes at {@code p} (moving what follows, terminator included,
     * which the array must have capacity for) and records one more entry of that size.
     */
    public static void open(byte[] b, int p, int size, int newCount) {
        int total = total(b);
        System.arraycopy(b, p, b, p + size, total - p);
        setTotal(b, total + size);
        setCount(b, newCount);
    }

    /** Removes the bytes {@code [from, to)} (whole entries) and records {@code newCount} entries. */
    public static void cut(byte[] b, int from, int to, int newCount) {
        int total = total(b);
        System.arraycopy(b, to, b, from, total - to);
        setTotal(b, total - (to - from));
        setCount(b, newCount);
    }
}
