package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Listpack;
import dev.ordo.engine.number.Doubles;

import java.util.Arrays;

/**
 * Builds a listpack, the packed layout Redis keeps small hashes and sorted sets in and stores
 * verbatim in an RDB file (types 16 and 17), in one growable buffer that is reused from value to
 * value. {@link PackedList} reads the same layout; this class writes only the smallest form of
 * each entry, which is what Redis itself produces.
 *
 * <p>The layout (header, entry encodings, back-lengths) is {@link Listpack}'s, which writes the
 * entries here too, so the list's nodes and these blobs are one format. A string is stored as an
 * integer entry when it is the canonical spelling of a 64-bit integer, as Redis's
 * {@code string2ll} accepts it.
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
        size += Listpack.writeInt(v, buf, size);
        count++;
    }

    /** Appends a string entry, never converted to an integer. */
    private void addText(byte[] s, int off, int len) {
        if (!room((long) len + MAX_ENTRY_OVERHEAD)) {
            return;
        }
        size += Listpack.writeText(s, off, len, buf, size);
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
        Listpack.setTotal(buf, size);
        Listpack.setCount(buf, count);
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
