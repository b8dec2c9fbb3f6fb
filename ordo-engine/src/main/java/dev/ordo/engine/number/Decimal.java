package dev.ordo.engine.number;

/**
 * Longs as decimal ASCII. Writing, without building a {@link String}: the digits of replies,
 * formatted scores and RESP lengths; the digit count comes from the bit length (one multiply and
 * one table lookup) and digits are written two at a time from a table of pairs. Reading, as
 * Redis's {@code string2ll} does ({@link #parseOrMin}).
 */
public final class Decimal {
    /** The longest output of {@link #write}: {@code -9223372036854775808}. */
    public static final int MAX_LENGTH = 20;

    private static final long[] POWERS_OF_TEN = powersOfTen();
    private static final byte[] PAIRS = pairs();
    private static final byte[] MIN_VALUE_DIGITS = "9223372036854775808".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Decimal() {
    }

    /** The powers of ten a long holds exactly: 10^0 to 10^18. */
    public static final int MAX_POWER_OF_TEN = 18;

    /**
     * 10^{@code exponent}, for {@code exponent} from 0 to {@link #MAX_POWER_OF_TEN}.
     *
     * @param exponent 0 to {@link #MAX_POWER_OF_TEN}
     * @return the power of ten
     */
    public static long powerOfTen(int exponent) {
        return POWERS_OF_TEN[exponent];
    }

    /**
     * The number of decimal digits of {@code value}, which is not negative.
     *
     * @param value a number, not negative
     * @return its digit count, 1 for 0
     */
    public static int length(long value) {
        // floor(log10(2^bits)) approximated by bits * 1233 / 4096, then corrected by one comparison
        int guess = ((64 - Long.numberOfLeadingZeros(value)) * 1233) >>> 12;
        return guess == 0 ? 1 : guess + (value >= POWERS_OF_TEN[guess] ? 1 : 0);
    }

    /**
     * Writes {@code value} at {@code dst[off..)}, at most {@link #MAX_LENGTH} bytes, and returns the end position.
     *
     * @param value the number to write, sign included
     * @param dst the buffer
     * @param off where to write
     * @return the index just after the last byte written
     */
    public static int write(long value, byte[] dst, int off) {
        int at = off;
        long rest = value;
        if (rest < 0) {
            dst[at++] = '-';
            if (rest == Long.MIN_VALUE) {
                System.arraycopy(MIN_VALUE_DIGITS, 0, dst, at, MIN_VALUE_DIGITS.length);
                return at + MIN_VALUE_DIGITS.length;
            }
            rest = -rest;
        }
        int end = at + length(rest);
        int i = end;
        while (rest >= 100) {
            long quotient = rest / 100;
            int pair = (int) (rest - quotient * 100) << 1;
            dst[--i] = PAIRS[pair + 1];
            dst[--i] = PAIRS[pair];
            rest = quotient;
        }
        if (rest >= 10) {
            int pair = (int) rest << 1;
            dst[--i] = PAIRS[pair + 1];
            dst[--i] = PAIRS[pair];
        } else {
            dst[--i] = (byte) ('0' + rest);
        }
        return end;
    }

    /**
     * Redis's {@code string2ll}: an optional '-', digits, no '+', no spaces, no leading zero (but
     * "0"), within 64 bits. Returns Long.MIN_VALUE for invalid input, and for
     * {@code -9223372036854775808} itself: {@link #isMinValue} tells them apart.
     *
     * @param b the text
     * @return its value, or Long.MIN_VALUE
     */
    public static long parseOrMin(byte[] b) {
        int n = b.length;
        if (n == 0 || n > MAX_LENGTH) {
            return Long.MIN_VALUE;
        }
        if (n == 1 && b[0] == '0') {
            return 0;
        }
        boolean negative = b[0] == '-';
        int i = negative ? 1 : 0;
        if (i == n || b[i] < '1' || b[i] > '9') {
            return Long.MIN_VALUE;
        }
        long v = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || v < (Long.MIN_VALUE + d) / 10) {
                return Long.MIN_VALUE;
            }
            v = v * 10 - d;
        }
        if (!negative) {
            if (v == Long.MIN_VALUE) {
                return Long.MIN_VALUE;
            }
            v = -v;
        }
        return v;
    }

    /**
     * Whether {@code b} is exactly {@code -9223372036854775808}, the one valid input {@link #parseOrMin} returns as Long.MIN_VALUE.
     *
     * @param b the text
     * @return whether it is Long.MIN_VALUE's decimal form
     */
    public static boolean isMinValue(byte[] b) {
        return b.length == MIN_VALUE_DIGITS.length + 1 && b[0] == '-'
                && java.util.Arrays.equals(b, 1, b.length, MIN_VALUE_DIGITS, 0, MIN_VALUE_DIGITS.length);
    }

    private static long[] powersOfTen() {
        long[] powers = new long[19];
        powers[0] = 1;
        for (int i = 1; i < powers.length; i++) {
            powers[i] = powers[i - 1] * 10;
        }
        return powers;
    }

    private static byte[] pairs() {
        byte[] pairs = new byte[200];
        for (int i = 0; i < 100; i++) {
            pairs[2 * i] = (byte) ('0' + i / 10);
            pairs[2 * i + 1] = (byte) ('0' + i % 10);
        }
        return pairs;
    }
}
