package dev.ordo.engine.number;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Redis 7.2's double codec for sorted-set scores: {@code string2d}, the bound parsing of {@code zslParseRange}, and
 * {@code d2string}.
 *
 * <p>Parsing reads ASCII bytes with the syntax of glibc {@code strtod} in the C locale (decimal, hexadecimal,
 * {@code inf}/{@code infinity}, {@code nan}) and rounds correctly (round-half-even). {@link Double#NaN} is the
 * "invalid" result: a NaN is never valid input. Decimal input with at most 19 significant digits is converted without
 * allocating; longer input, hexadecimal input and the rare decimals that a 128-bit power of ten cannot settle are
 * validated first and then handed to {@link Double#parseDouble}.
 *
 * <p>Formatting writes integral values up to 2^62 in magnitude as integers and everything else as the shortest
 * round-trip digits in the layout of Redis's {@code fpconv_dtoa}; the output is ASCII, at most
 * {@link #MAX_FORMATTED_LENGTH} bytes, and always reads back as the same double. (Redis takes its digits from Grisu2,
 * which on rare inputs yields a longer digit string than the shortest one used here.)
 */
public final class Doubles {

    /** Longest output of {@link #format(double, byte[], int)}: a sign, 17 digits and 7 trailing zeros. */
    public static final int MAX_FORMATTED_LENGTH = 25;

    /** {@code (double) (LLONG_MAX / 2)}, which is 2^62: Redis prints integral values up to it as integers. */
    private static final double MAX_INTEGER_FORMATTED = (double) (Long.MAX_VALUE / 2);
    private static final int MAX_FAST_DIGITS = 19;
    private static final long EXPONENT_SATURATION = 1_000_000_000_000_000L;
    private static final long MAX_EXACT_DOUBLE_INTEGER = 1L << 53;
    private static final double[] EXACT_POWERS_OF_TEN = exactPowersOfTen();

    private static final byte[] NAN = {'n', 'a', 'n'};
    private static final byte[] INF = {'i', 'n', 'f'};
    private static final byte[] NEGATIVE_INF = {'-', 'i', 'n', 'f'};
    private static final byte[] ZERO = {'0'};
    private static final byte[] NEGATIVE_ZERO = {'-', '0'};

    private Doubles() {
    }

    /**
     * Parses a whole score argument like Redis {@code string2d}; returns NaN when Redis would reject it.
     *
     * @param s the argument's bytes
     * @return its value, or NaN
     */
    public static double parseStrict(byte[] s) {
        return parseStrict(s, 0, s.length);
    }

    /**
     * Parses {@code s[off..off+len)} like Redis {@code string2d}; returns NaN when Redis would reject it.
     *
     * @param s the buffer holding the argument
     * @param off where it starts
     * @param len its length
     * @return its value, or NaN
     */
    public static double parseStrict(byte[] s, int off, int len) {
        int end = off + len;
        if (len == 0 || isCSpace(s[off]) || strtodEnd(s, off, end) != end) {
            return Double.NaN;
        }
        double value = convert(s, off, end);
        return isRangeError(s, off, end, value) ? Double.NaN : value;
    }

    /**
     * Parses one {@code zslParseRange} bound, the {@code (} already stripped, like {@code strtod} on a C string
     * followed by {@code *eptr == '\0'}; returns NaN when Redis would reject it.
     *
     * @param s the buffer holding the bound
     * @param off where it starts, after any {@code (}
     * @param len its length
     * @return its value, or NaN
     */
    public static double parseRangeBound(byte[] s, int off, int len) {
        int end = cStringEnd(s, off, off + len);
        if (end == off) {
            return 0.0;
        }
        int start = skipCSpace(s, off, end);
        int numberEnd = strtodEnd(s, start, end);
        if (numberEnd == start || numberEnd != end) {
            return Double.NaN;
        }
        return convert(s, start, end);
    }

    /**
     * Parses a SORT weight as Redis's sort.c does: {@code strtod} over the C string (leading
     * spaces allowed, "" is 0), which must read to its end with no range error and give a
     * number; returns NaN otherwise.
     *
     * @param s the weight's bytes
     * @return its value, or NaN when SORT would refuse it
     */
    public static double parseSortWeight(byte[] s) {
        int end = cStringEnd(s, 0, s.length);
        if (end == 0) {
            return 0.0;
        }
        int start = skipCSpace(s, 0, end);
        if (start == end || strtodEnd(s, start, end) != end) {
            return Double.NaN;
        }
        double value = convert(s, start, end);
        return isRangeError(s, start, end, value) ? Double.NaN : value;
    }

    /**
     * Formats {@code d} like Redis 7.2 {@code d2string}, with shortest round-trip digits.
     *
     * @param d the number
     * @return its text
     */
    public static String format(double d) {
        byte[] buffer = new byte[MAX_FORMATTED_LENGTH];
        return new String(buffer, 0, format(d, buffer, 0), StandardCharsets.ISO_8859_1);
    }

    /**
     * Formats {@code d} like Redis 7.2 {@code d2string}, with shortest round-trip digits, as ASCII bytes.
     *
     * @param d the number
     * @return its text in ASCII
     */
    public static byte[] formatBytes(double d) {
        byte[] buffer = new byte[MAX_FORMATTED_LENGTH];
        return Arrays.copyOf(buffer, format(d, buffer, 0));
    }

    /**
     * Writes {@link #format(double)} of {@code d} in ASCII at {@code dst[off..)} and returns the number of bytes
     * written, at most {@link #MAX_FORMATTED_LENGTH}; nothing outside those bytes is touched.
     *
     * @param d the number
     * @param dst the buffer, with room for {@link #MAX_FORMATTED_LENGTH} bytes from {@code off}
     * @param off where to write
     * @return the number of bytes written
     */
    public static int format(double d, byte[] dst, int off) {
        if (Double.isNaN(d)) {
            return put(NAN, dst, off);
        }
        if (Double.isInfinite(d)) {
            return put(d > 0 ? INF : NEGATIVE_INF, dst, off);
        }
        if (d == 0) {
            return put(Double.doubleToRawLongBits(d) < 0 ? NEGATIVE_ZERO : ZERO, dst, off);
        }
        if (d >= -MAX_INTEGER_FORMATTED && d <= MAX_INTEGER_FORMATTED && (double) (long) d == d) {
            return Decimal.write((long) d, dst, off) - off;
        }
        return writeShortest(d, dst, off) - off;
    }

    private static int put(byte[] text, byte[] dst, int off) {
        System.arraycopy(text, 0, dst, off, text.length);
        return text.length;
    }

    /** Writes finite nonzero {@code d} in the fpconv layout and returns the end position. */
    private static int writeShortest(double d, byte[] dst, int off) {
        int at = off;
        if (d < 0) {
            dst[at++] = '-';
        }
        int packed = ShortestDigits.write(Math.abs(d), dst, at);
        int length = ShortestDigits.length(packed);
        int exponent = ShortestDigits.exponent(packed);
        int scientificExponent = exponent + length - 1;
        int magnitude = Math.abs(scientificExponent);
        if (exponent >= 0 && magnitude < length + 7) {
            return fill(dst, at + length, exponent, (byte) '0');
        }
        if (exponent < 0 && (exponent > -7 || magnitude < 4)) {
            return layOutPlainDecimal(dst, at, length, length + exponent);
        }
        return layOutScientific(dst, at, length, scientificExponent);
    }

    /** Turns the digits at {@code dst[at..at+length)} into a decimal with {@code integerDigits} before the point. */
    private static int layOutPlainDecimal(byte[] dst, int at, int length, int integerDigits) {
        if (integerDigits > 0) {
            System.arraycopy(dst, at + integerDigits, dst, at + integerDigits + 1, length - integerDigits);
            dst[at + integerDigits] = '.';
            return at + length + 1;
        }
        int leadingZeros = -integerDigits;
        System.arraycopy(dst, at, dst, at + 2 + leadingZeros, length);
        dst[at] = '0';
        dst[at + 1] = '.';
        fill(dst, at + 2, leadingZeros, (byte) '0');
        return at + 2 + leadingZeros + length;
    }

    /** Turns the digits at {@code dst[at..at+length)} into {@code d[.ddd]e±x}. */
    private static int layOutScientific(byte[] dst, int at, int length, int scientificExponent) {
        int end = at + 1;
        if (length > 1) {
            System.arraycopy(dst, at + 1, dst, at + 2, length - 1);
            dst[at + 1] = '.';
            end = at + length + 1;
        }
        dst[end++] = 'e';
        dst[end++] = (byte) (scientificExponent < 0 ? '-' : '+');
        return Decimal.write(Math.abs(scientificExponent), dst, end);
    }

    private static int fill(byte[] dst, int from, int count, byte value) {
        Arrays.fill(dst, from, from + count, value);
        return from + count;
    }

    /** C {@code isspace} in the C locale: space, \t, \n, \v, \f, \r. */
    private static boolean isCSpace(byte b) {
        return b == ' ' || (b >= '\t' && b <= '\r');
    }

    private static int skipCSpace(byte[] s, int from, int end) {
        int i = from;
        while (i < end && isCSpace(s[i])) {
            i++;
        }
        return i;
    }

    private static int cStringEnd(byte[] s, int from, int end) {
        for (int i = from; i < end; i++) {
            if (s[i] == 0) {
                return i;
            }
        }
        return end;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isHexDigit(byte b) {
        int lower = b | 0x20;
        return isDigit(b) || (lower >= 'a' && lower <= 'f');
    }

    private static boolean isLetter(byte b, char lowerCase) {
        return (b | 0x20) == lowerCase;
    }

    private static int skipSign(byte[] s, int from, int end) {
        return from < end && (s[from] == '+' || s[from] == '-') ? from + 1 : from;
    }

    /**
     * End of the longest prefix of {@code s[from..end)} that glibc {@code strtod} converts, without skipping
     * whitespace; {@code from} when it converts nothing. Of a {@code nan}, only those three letters are counted: a
     * NaN is rejected whatever follows it.
     */
    private static int strtodEnd(byte[] s, int from, int end) {
        int i = skipSign(s, from, end);
        int word = wordEnd(s, i, end);
        if (word > i) {
            return word;
        }
        int hex = hexEnd(s, i, end);
        if (hex > i) {
            return hex;
        }
        int decimal = decimalEnd(s, i, end);
        return decimal > i ? decimal : from;
    }

    private static int wordEnd(byte[] s, int from, int end) {
        if (matchesIgnoreCase(s, from, end, "infinity")) {
            return from + 8;
        }
        if (matchesIgnoreCase(s, from, end, "inf") || matchesIgnoreCase(s, from, end, "nan")) {
            return from + 3;
        }
        return from;
    }

    private static boolean matchesIgnoreCase(byte[] s, int from, int end, String lowerCaseWord) {
        if (end - from < lowerCaseWord.length()) {
            return false;
        }
        for (int k = 0; k < lowerCaseWord.length(); k++) {
            if (!isLetter(s[from + k], lowerCaseWord.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHexPrefix(byte[] s, int from, int end) {
        return end - from >= 2 && s[from] == '0' && isLetter(s[from + 1], 'x');
    }

    /** End of {@code 0x} hex-significand [p exponent], or {@code from} when no hex digit follows the prefix. */
    private static int hexEnd(byte[] s, int from, int end) {
        if (!isHexPrefix(s, from, end)) {
            return from;
        }
        int i = from + 2;
        int digits = 0;
        for (; i < end && isHexDigit(s[i]); i++) {
            digits++;
        }
        if (i < end && s[i] == '.') {
            for (i++; i < end && isHexDigit(s[i]); i++) {
                digits++;
            }
        }
        return digits == 0 ? from : exponentEnd(s, i, end, 'p');
    }

    /** End of digits[.digits][e exponent], or {@code from} when there is no digit before the exponent. */
    private static int decimalEnd(byte[] s, int from, int end) {
        int i = from;
        int digits = 0;
        for (; i < end && isDigit(s[i]); i++) {
            digits++;
        }
        if (i < end && s[i] == '.') {
            for (i++; i < end && isDigit(s[i]); i++) {
                digits++;
            }
        }
        return digits == 0 ? from : exponentEnd(s, i, end, 'e');
    }

    /** End of an exponent part starting at {@code from} (marker, optional sign, digits), or {@code from} if none. */
    private static int exponentEnd(byte[] s, int from, int end, char marker) {
        if (from >= end || !isLetter(s[from], marker)) {
            return from;
        }
        int i = skipSign(s, from + 1, end);
        if (i >= end || !isDigit(s[i])) {
            return from;
        }
        while (i < end && isDigit(s[i])) {
            i++;
        }
        return i;
    }

    /** glibc's ERANGE with a ±HUGE_VAL or zero result: a finite literal overflowed or a nonzero one underflowed. */
    private static boolean isRangeError(byte[] s, int from, int end, double value) {
        int i = skipSign(s, from, end);
        if (Double.isInfinite(value)) {
            return !isLetter(s[i], 'i');
        }
        return value == 0 && hasNonZeroSignificand(s, i, end);
    }

    private static boolean hasNonZeroSignificand(byte[] s, int from, int end) {
        boolean hex = isHexPrefix(s, from, end);
        for (int i = hex ? from + 2 : from; i < end; i++) {
            byte b = s[i];
            if (b != '.' && !(hex ? isHexDigit(b) : isDigit(b))) {
                return false;
            }
            if (b != '.' && b != '0') {
                return true;
            }
        }
        return false;
    }

    /** Value of {@code s[from..end)}, which {@link #strtodEnd} accepted whole; NaN for a {@code nan}. */
    private static double convert(byte[] s, int from, int end) {
        int i = skipSign(s, from, end);
        boolean negative = s[from] == '-';
        double magnitude;
        if (isLetter(s[i], 'i')) {
            magnitude = Double.POSITIVE_INFINITY;
        } else if (isLetter(s[i], 'n')) {
            return Double.NaN;
        } else if (isHexPrefix(s, i, end)) {
            magnitude = parseHexWithJava(s, i, end);
        } else {
            magnitude = decimalMagnitude(s, i, end);
        }
        return negative ? -magnitude : magnitude;
    }

    /**
     * Correctly rounded value of {@code s[from..end)}, an unsigned decimal literal as {@code strtod} reads one:
     * digits with an optional fraction (at least one digit in all), then an optional exponent.
     *
     * @param s the buffer holding the literal
     * @param from where it starts
     * @param end where it ends, exclusive
     * @return its value, correctly rounded
     */
    public static double decimalMagnitude(byte[] s, int from, int end) {
        long significand = 0;
        int significantDigits = 0;
        int fractionDigits = 0;
        boolean inFraction = false;
        int i = from;
        for (; i < end && s[i] != 'e' && s[i] != 'E'; i++) {
            byte b = s[i];
            if (b == '.') {
                inFraction = true;
                continue;
            }
            if (inFraction) {
                fractionDigits++;
            }
            if (significand == 0 && b == '0') {
                continue;
            }
            if (++significantDigits > MAX_FAST_DIGITS) {
                return parseDecimalWithJava(s, from, end);
            }
            significand = significand * 10 + (b - '0');
        }
        if (significand == 0) {
            return 0.0;
        }
        long exponent = (i < end ? exponentValue(s, i + 1, end) : 0) - fractionDigits;
        double value = scaleByPowerOfTen(significand, exponent);
        return Double.isNaN(value) ? parseDecimalWithJava(s, from, end) : value;
    }

    /** Value of a validated exponent (optional sign, digits), saturated far beyond any double's range. */
    private static long exponentValue(byte[] s, int from, int end) {
        int i = skipSign(s, from, end);
        long magnitude = 0;
        for (; i < end; i++) {
            if (magnitude < EXPONENT_SATURATION) {
                magnitude = magnitude * 10 + (s[i] - '0');
            }
        }
        return s[from] == '-' ? -magnitude : magnitude;
    }

    /**
     * Correctly rounded {@code w × 10^q} for unsigned {@code w > 0}; NaN when the fast methods cannot decide.
     * Clinger's exact path covers small values; otherwise a 128-bit power of five brackets the product.
     */
    private static double scaleByPowerOfTen(long w, long q) {
        if (w > 0 && w <= MAX_EXACT_DOUBLE_INTEGER && Math.abs(q) < EXACT_POWERS_OF_TEN.length) {
            int k = (int) Math.abs(q);
            return q >= 0 ? w * EXACT_POWERS_OF_TEN[k] : w / EXACT_POWERS_OF_TEN[k];
        }
        if (q < PowersOfFive.MIN_EXPONENT) {
            return 0.0;
        }
        if (q > PowersOfFive.MAX_EXPONENT) {
            return Double.POSITIVE_INFINITY;
        }
        return PowersOfFive.scale(w, (int) q);
    }

    private static double parseDecimalWithJava(byte[] s, int from, int end) {
        return Double.parseDouble(new String(s, from, end - from, StandardCharsets.ISO_8859_1));
    }

    private static double parseHexWithJava(byte[] s, int from, int end) {
        String literal = new String(s, from, end - from, StandardCharsets.ISO_8859_1);
        boolean hasExponent = literal.indexOf('p') >= 0 || literal.indexOf('P') >= 0;
        return Double.parseDouble(hasExponent ? literal : literal + "p0");
    }

    private static double[] exactPowersOfTen() {
        double[] powers = new double[23];
        powers[0] = 1;
        for (int k = 1; k < powers.length; k++) {
            powers[k] = powers[k - 1] * 10;
        }
        return powers;
    }

    /**
     * Eisel-Lemire style decimal scaling. Entry {@code q} holds T, the top 128 bits of 5^q rounded down, with
     * 5^q = (T + δ) × 2^shift[q] and 0 ≤ δ &lt; 1 (δ = 0 exactly when 5^q fits in 128 bits). The 192-bit product
     * of a normalised significand w' and T then brackets the true product in [Z, Z + w'), which decides the
     * rounding unless a rounding midpoint falls inside that bracket.
     */
    private static final class PowersOfFive {
        /** Below this, 19 digits times 10^q are under half of the smallest subnormal. */
        static final int MIN_EXPONENT = -342;
        /** Above this, any nonzero significand times 10^q overflows. */
        static final int MAX_EXPONENT = 308;

        private static final int SIGNIFICAND_BITS = 52;
        private static final int EXPONENT_BIAS = 1023;
        private static final int MIN_NORMAL_EXPONENT = 1 - EXPONENT_BIAS;
        private static final int SUBNORMAL_LSB_EXPONENT = MIN_NORMAL_EXPONENT - SIGNIFICAND_BITS;
        private static final long INFINITY_BITS = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);

        private static final long[] HIGH = new long[MAX_EXPONENT - MIN_EXPONENT + 1];
        private static final long[] LOW = new long[HIGH.length];
        private static final int[] SHIFT = new int[HIGH.length];
        private static final boolean[] EXACT = new boolean[HIGH.length];

        static {
            for (int q = MIN_EXPONENT; q <= MAX_EXPONENT; q++) {
                BigInteger pow5 = BigInteger.valueOf(5).pow(Math.abs(q));
                int bits = pow5.bitLength();
                BigInteger top;
                int shift;
                if (q >= 0) {
                    shift = bits - 128;
                    top = shift >= 0 ? pow5.shiftRight(shift) : pow5.shiftLeft(-shift);
                } else {
                    shift = -(127 + bits);
                    top = BigInteger.ONE.shiftLeft(127 + bits).divide(pow5);
                }
                int index = q - MIN_EXPONENT;
                HIGH[index] = top.shiftRight(64).longValue();
                LOW[index] = top.longValue();
                SHIFT[index] = shift;
                EXACT[index] = q >= 0 && bits <= 128;
            }
        }

        private PowersOfFive() {
        }

        /** Correctly rounded {@code w × 10^q} for unsigned {@code w > 0} and q in range; NaN if undecidable. */
        static double scale(long w, int q) {
            int index = q - MIN_EXPONENT;
            int leadingZeros = Long.numberOfLeadingZeros(w);
            long wn = w << leadingZeros;
            long z0 = wn * LOW[index];
            long middle = unsignedMultiplyHigh(wn, LOW[index]);
            long z1 = wn * HIGH[index] + middle;
            long z2 = unsignedMultiplyHigh(wn, HIGH[index]) + (Long.compareUnsigned(z1, middle) < 0 ? 1 : 0);
            int binaryExponent = SHIFT[index] + q - leadingZeros;
            if (EXACT[index]) {
                return round(z2, binaryExponent, z1 != 0 || z0 != 0, true);
            }
            if (z1 == -1 && crossesWord(z0, wn) && isJustBelowMidpoint(z2, binaryExponent)) {
                return Double.NaN;
            }
            return round(z2, binaryExponent, true, false);
        }

        /**
         * Rounds Z × 2^binaryExponent to a double, where z2 holds the top 64 of Z's 192 bits; {@code lowBitsNonZero}
         * says whether anything nonzero lies below z2, and {@code exact} whether Z is the true product (otherwise the
         * true product is strictly larger, so a midpoint in z2 rounds up).
         */
        private static double round(long z2, int binaryExponent, boolean lowBitsNonZero, boolean exact) {
            int top = 63 - Long.numberOfLeadingZeros(z2);
            int leading = 128 + top + binaryExponent;
            if (leading > EXPONENT_BIAS) {
                return Double.POSITIVE_INFINITY;
            }
            boolean normal = leading >= MIN_NORMAL_EXPONENT;
            int lsb = lowestSignificandBit(z2, binaryExponent);
            if (lsb > top + 1) {
                return 0.0;
            }
            long significand = lsb >= 64 ? 0 : z2 >>> lsb;
            int roundPosition = lsb - 1;
            boolean roundBit = (z2 >>> roundPosition & 1) != 0;
            boolean sticky = lowBitsNonZero || (z2 & ((1L << roundPosition) - 1)) != 0;
            boolean roundUp = roundBit && (!exact || sticky || (significand & 1) != 0);
            long exponentField = normal ? (long) (leading - MIN_NORMAL_EXPONENT) << SIGNIFICAND_BITS : 0;
            long bits = exponentField + significand + (roundUp ? 1 : 0);
            return bits >= INFINITY_BITS ? Double.POSITIVE_INFINITY : Double.longBitsToDouble(bits);
        }

        /** Bit of z2 that becomes the last significand bit: 52 below the top, or the 2^-1074 bit when subnormal. */
        private static int lowestSignificandBit(long z2, int binaryExponent) {
            int top = 63 - Long.numberOfLeadingZeros(z2);
            boolean normal = 128 + top + binaryExponent >= MIN_NORMAL_EXPONENT;
            return normal ? top - SIGNIFICAND_BITS : SUBNORMAL_LSB_EXPONENT - binaryExponent - 128;
        }

        /** Whether z2's round bit is 0 with only ones below it, so that Z sits just under a rounding midpoint. */
        private static boolean isJustBelowMidpoint(long z2, int binaryExponent) {
            int roundPosition = lowestSignificandBit(z2, binaryExponent) - 1;
            if (roundPosition > 63) {
                return false;
            }
            long belowRound = (1L << roundPosition) - 1;
            return (z2 >>> roundPosition & 1) == 0 && (z2 & belowRound) == belowRound;
        }

        /** Whether {@code z0 + w} exceeds 2^64 (unsigned), i.e. a midpoint lies strictly inside the bracket. */
        private static boolean crossesWord(long z0, long w) {
            long sum = z0 + w;
            return Long.compareUnsigned(sum, z0) < 0 && sum != 0;
        }

        private static long unsignedMultiplyHigh(long x, long y) {
            return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
        }
    }
}
