package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.number.Doubles;

import java.util.Arrays;

/**
 * Builds a listpack, the packed layout Redis keeps small hashes and sorted sets in and stores
 * verbatim in an RDB file (types 16 and 17), in one growable buffer that is reused from value to
 * value. {@link PackedList} reads the same layout; this class writes only the smallest form of
 * each entry, which is what Redis itself produces.
 *
 * <h2>Layout</h2>
 * <ul>
 *   <li>Header, 6 bytes: the blob's total size in bytes (uint32, little-endian, terminator
 *       included), then the number of entries (uint16, little-endian). A count of 65535 or more is
 *       stored as 65535, which means "unknown, walk the entries".</li>
 *   <li>The entries, back to back. Each is an encoding byte, the data, and a back-length.</li>
 *   <li>The terminator, one byte 0xFF.</li>
 * </ul>
 *
 * <h2>Entry encodings</h2>
 * A string whose bytes are the canonical decimal spelling of a 64-bit integer (what Redis's
 * {@code string2ll} accepts: an optional '-', no '+', no leading zero, not "-0", no spaces, at
 * most 20 bytes, within the int64 range) is stored as that integer, in the first form that holds it:
 * <ul>
 *   <li>0 to 127: the single byte {@code 0vvvvvvv}.</li>
 *   <li>-4096 to 4095: two bytes, {@code 110} and the top 5 of 13 two's-complement bits, then the
 *       low 8 bits.</li>
 *   <li>16, 24, 32 or 64 bits: the byte 0xF1, 0xF2, 0xF3 or 0xF4, then the value in 2, 3, 4 or 8
 *       bytes, little-endian two's complement.</li>
 * </ul>
 * Any other string is its length and bytes: up to 63 bytes behind the single byte
 * {@code 10llllll}; up to 4095 behind {@code 1110llll} and the length's low 8 bits; longer
 * behind 0xF0 and a uint32 little-endian length.
 *
 * <h2>Back-length</h2>
 * After each entry comes the size of its encoding byte(s) plus data, so that the list can be
 * walked from the end: 7 bits per byte, the most significant group in the first byte (top bit
 * clear), every later byte with its top bit set. It takes 1 byte up to 127, 2 below 16383, 3 below
 * 2^21 - 1, 4 below 2^28 - 1, else 5 (these bounds are Redis's; a reader recomputes the width from
 * the entry size, so they must match exactly).
 *
 * <h2>Sorted-set scores</h2>
 * A score is an entry too. An integral double with magnitude at most 2^53 other than -0.0 is
 * written as an integer; anything else as the text {@link Doubles#format(double, byte[], int)}
 * produces (shortest round-trip digits, {@code inf}, {@code -inf}, {@code -0}), which Redis's and
 * Ordo's loaders parse back to the same double. Such text is never turned into an integer entry,
 * even when it looks like one (an integral score beyond 2^53). Scores with at most 6 decimals
 * (two-decimal prices, say) take a fast path that finds the same shortest digits by scaling
 * instead of the general shortest-digits search: formatting is most of the cost of writing such
 * a set, which Redis, keeping its listpacks as they are in memory, does not pay.
 *
 * <p>Not thread-safe. The buffer is returned to a small size by {@link #shrink} after an unusually
 * large value, so that one huge listpack does not pin its memory for the rest of a save.
 */
final class ListpackEncoder {
    /** Header: uint32 total bytes, uint16 entry count. */
    static final int HEADER = 6;
    /** Redis refuses to grow a listpack past 1 GB; a value that would is written in the plain types instead. */
    static final int MAX_BYTES = 1 << 30;
    private static final int UNKNOWN_COUNT = 0xFFFF;
    private static final int TERMINATOR = 0xFF;
    private static final int INITIAL_CAPACITY = 512;
    /** The buffer is kept between values up to this size. */
    private static final int RETAINED_CAPACITY = 1 << 20;
    /** Integral scores up to this magnitude are integer entries. */
    private static final long MAX_INTEGER_SCORE = 1L << 53;
    /** The most bytes an entry adds beyond its string's bytes: 5 for the encoding, 5 for the back-length. */
    private static final int MAX_ENTRY_OVERHEAD = 10;
    private static final int MAX_INT_STRING = 20;
    private static final double[] POWERS_OF_TEN = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};
    private static final int MAX_SHORT_DECIMALS = POWERS_OF_TEN.length - 1;
    /**
     * Scaled scores below this are far enough from 2^53 that the scaling and rounding errors (a few
     * units in the last place) cannot reach half of the last decimal digit.
     */
    private static final double MAX_SCALED = 0x1p50;

    private final int maxBytes;
    private byte[] buf = new byte[INITIAL_CAPACITY];
    private int size;
    private int count;
    private boolean tooLarge;
    /** The value {@link #parseCanonicalLong} found. */
    private long parsed;
    private final byte[] number = new byte[Doubles.MAX_FORMATTED_LENGTH];

    /** An encoder whose listpacks may take up to {@link #MAX_BYTES}. */
    ListpackEncoder() {
        this(MAX_BYTES);
    }

    /** An encoder whose listpacks may take up to {@code maxBytes} (at most {@link #MAX_BYTES}). */
    ListpackEncoder(int maxBytes) {
        if (maxBytes < 0 || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("listpack size limit " + maxBytes + " is outside 0.." + MAX_BYTES);
        }
        this.maxBytes = maxBytes;
    }

    /** Starts a new, empty listpack. */
    void reset() {
        size = HEADER;
        count = 0;
        tooLarge = false;
    }

    /** Appends {@code s[off, off+len)}: as an integer entry when it spells one canonically, else as a string. */
    void addString(byte[] s, int off, int len) {
        if (len <= MAX_INT_STRING && parseCanonicalLong(s, off, len)) {
            addInt(parsed);
        } else {
            addText(s, off, len);
        }
    }

    void addString(byte[] s) {
        addString(s, 0, s.length);
    }

    /** Appends a sorted-set score, as the class comment describes. */
    void addScore(double score) {
        long l = (long) score;
        if (l == score && l >= -MAX_INTEGER_SCORE && l <= MAX_INTEGER_SCORE
                && (l != 0 || Double.doubleToRawLongBits(score) == 0)) {
            addInt(l);
        } else {
            int n = score != 0 ? shortDecimal(score) : -1;
            addText(number, 0, n >= 0 ? n : Doubles.format(score, number, 0));
        }
    }

    /**
     * Writes a finite, non-integral, nonzero {@code score} that is the double nearest to a decimal
     * with at most 6 fraction digits into {@link #number}, as {@link Doubles#format} would (plain
     * notation, shortest digits); returns the length, or -1 for any other score.
     *
     * <p>Why the digits are the shortest: at the first scale 10^k where rint(|score| * 10^k) / 10^k
     * gives back |score|, that integer over 10^k is a decimal that reads back as the score (IEEE
     * division and decimal parsing both round the same exact quotient). Below 2^50 the interval of
     * reals that read back as the score is narrower than a quarter of 10^-k, so no other decimal with
     * k fraction digits lies in it, and one with fewer fraction digits would have been found at a
     * smaller k. With k at most 6 Doubles.format writes plain notation.
     */
    private int shortDecimal(double score) {
        double magnitude = Math.abs(score);
        for (int k = 1; k <= MAX_SHORT_DECIMALS; k++) {
            double scaled = magnitude * POWERS_OF_TEN[k];
            if (!(scaled < MAX_SCALED)) {
                return -1;
            }
            double digits = Math.rint(scaled);
            if (digits / POWERS_OF_TEN[k] == magnitude) {
                return plainDecimal((long) digits, k, score < 0);
            }
        }
        return -1;
    }

    /** Writes {@code digits} * 10^-{@code decimals} (not an integer) into {@link #number}; returns the length. */
    private int plainDecimal(long digits, int decimals, boolean negative) {
        byte[] b = number;
        int p = negative ? 1 : 0;
        b[0] = '-';
        int n = 1;
        for (long rest = digits / 10; rest != 0; rest /= 10) {
            n++;
        }
        if (n <= decimals) {
            b[p++] = '0';
            b[p++] = '.';
            for (int i = n; i < decimals; i++) {
                b[p++] = '0';
            }
            return writeDigits(b, p, digits, n);
        }
        int end = writeDigits(b, p + 1, digits, n);
        int point = p + n - decimals;
        System.arraycopy(b, p + 1, b, p, n - decimals);
        b[point] = '.';
        return end;
    }

    /** Writes the {@code n} decimal digits of {@code v} from {@code b[p]}; returns the end. */
    private static int writeDigits(byte[] b, int p, long v, int n) {
        long rest = v;
        for (int i = p + n - 1; i >= p; i--) {
            b[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return p + n;
    }

    /** Appends an integer entry in its smallest encoding. */
    void addInt(long v) {
        if (!room(MAX_ENTRY_OVERHEAD)) {
            return;
        }
        byte[] b = buf;
        int p = size;
        if (v >= 0 && v <= 127) {
            b[p++] = (byte) v;
        } else if (v >= -4096 && v <= 4095) {
            b[p++] = (byte) (0xC0 | (int) (v >> 8) & 0x1F);
            b[p++] = (byte) v;
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            b[p++] = (byte) 0xF1;
            p = littleEndian(b, p, v, 2);
        } else if (v >= -(1 << 23) && v < 1 << 23) {
            b[p++] = (byte) 0xF2;
            p = littleEndian(b, p, v, 3);
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            b[p++] = (byte) 0xF3;
            p = littleEndian(b, p, v, 4);
        } else {
            b[p++] = (byte) 0xF4;
            p = littleEndian(b, p, v, 8);
        }
        b[p] = (byte) (p - size); // at most 9: a one-byte back-length
        size = p + 1;
        count++;
    }

    /** Appends a string entry, never converted to an integer. */
    private void addText(byte[] s, int off, int len) {
        if (!room((long) len + MAX_ENTRY_OVERHEAD)) {
            return;
        }
        byte[] b = buf;
        int start = size;
        int p = start;
        if (len < 1 << 6) {
            b[p++] = (byte) (0x80 | len);
        } else if (len < 1 << 12) {
            b[p++] = (byte) (0xE0 | len >>> 8);
            b[p++] = (byte) len;
        } else {
            b[p++] = (byte) 0xF0;
            p = littleEndian(b, p, len, 4);
        }
        System.arraycopy(s, off, b, p, len);
        p += len;
        size = backLength(b, p, p - start);
        count++;
    }

    /**
     * Writes the terminator and the header; returns the listpack's size in bytes (the blob is
     * {@code buffer()[0, size)}), or -1 when it would exceed the size limit.
     */
    int finish() {
        if (tooLarge || !room(1)) {
            return -1;
        }
        buf[size++] = (byte) TERMINATOR;
        littleEndian(buf, 0, size, 4);
        littleEndian(buf, 4, Math.min(count, UNKNOWN_COUNT), 2);
        return size;
    }

    /** The number of entries appended since {@link #reset}. */
    int count() {
        return count;
    }

    /** The buffer holding the listpack (after {@link #finish}) or, after {@link #scratch}, the caller's bytes. */
    byte[] buffer() {
        return buf;
    }

    /** The same buffer lent for another blob (an intset) of {@code n} bytes; its content is undefined. */
    byte[] scratch(int n) {
        if (buf.length < n) {
            buf = new byte[n];
        }
        return buf;
    }

    /** Drops an unusually large buffer (kept up to 1 MB between values). */
    void shrink() {
        if (buf.length > RETAINED_CAPACITY) {
            buf = new byte[INITIAL_CAPACITY];
        }
    }

    /** The size limit given at construction. */
    int maxBytes() {
        return maxBytes;
    }

    /**
     * Makes room for {@code n} more bytes; false (and the listpack marked too large) when the
     * listpack could pass the size limit. (An entry reserves its worst-case overhead, so a
     * listpack within a few bytes of the limit may be refused: harmless, it is then written in the
     * portable type.)
     */
    private boolean room(long n) {
        if (tooLarge) {
            return false;
        }
        long needed = size + n;
        if (needed > maxBytes) {
            tooLarge = true;
            return false;
        }
        if (needed > buf.length) {
            buf = Arrays.copyOf(buf, (int) Math.min(maxBytes, Math.max(needed, 2L * buf.length)));
        }
        return true;
    }

    /** Writes the back-length of an entry of {@code l} bytes at {@code b[p]}; returns the position after it. */
    private static int backLength(byte[] b, int p, int l) {
        if (l <= 127) {
            b[p++] = (byte) l;
            return p;
        }
        int groups = l < 16383 ? 2 : l < (1 << 21) - 1 ? 3 : l < (1 << 28) - 1 ? 4 : 5;
        b[p++] = (byte) (l >>> 7 * (groups - 1));
        for (int g = groups - 2; g >= 0; g--) {
            b[p++] = (byte) (l >>> 7 * g & 0x7F | 0x80);
        }
        return p;
    }

    private static int littleEndian(byte[] b, int p, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b[p++] = (byte) (v >>> 8 * i);
        }
        return p;
    }

    /**
     * Whether {@code s[off, off+len)} (at most 20 bytes) is the canonical spelling of a 64-bit
     * integer; if so, {@link #parsed} holds it.
     */
    private boolean parseCanonicalLong(byte[] s, int off, int len) {
        if (len == 0) {
            return false;
        }
        int i = off;
        int end = off + len;
        boolean negative = s[i] == '-';
        if (negative && ++i == end) {
            return false;
        }
        int d = s[i] - '0';
        if (d < 1 || d > 9) {
            if (d == 0 && len == 1) {
                parsed = 0;
                return true;
            }
            return false;
        }
        long v = -d; // accumulated negatively, so that Long.MIN_VALUE fits
        for (i++; i < end; i++) {
            d = s[i] - '0';
            if (d < 0 || d > 9 || v < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return false;
            }
            v = -v;
        }
        parsed = v;
        return true;
    }
}
