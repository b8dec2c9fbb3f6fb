package dev.ordo.engine.number;

import java.math.BigInteger;

/**
 * Shortest round-trip decimal digits of a positive finite double.
 *
 * <p>Contract: for a positive finite {@code v}, {@link #write} produces the decimal {@code D × 10^K} whose digit
 * string D is as short as possible while still reading back (round-half-even) as exactly {@code v}; among the
 * equally short candidates it is the one closest to the exact value of {@code v}, and an exact tie goes to the even
 * last digit. D has 1 to 17 digits, no leading and no trailing zeros.
 *
 * <p>Algorithm: Ryu (Adams, PLDI 2018). The value and the two ends of its rounding interval, scaled by 4, are
 * multiplied by a 125-bit approximation of a power of five (or of its inverse) so that three 64-bit integers carry
 * them to a fixed decimal exponent; digits are then dropped while the interval still contains a shorter number.
 * Divisibility tests on the binary significand tell when those integers are exact, which is what decides the
 * inclusive interval ends and half-even ties. Java 17's {@code Double.toString} is not always shortest and BigDecimal
 * is far too slow for reply formatting, hence this class.
 *
 * <p>Invariants: the multiplier tables are built once, with BigInteger, at class initialisation; after that a call
 * allocates nothing and only touches the caller's buffer.
 */
final class ShortestDigits {

    /** The most digits {@link #write} ever produces. */
    static final int MAX_DIGITS = 17;

    private static final int FRACTION_BITS = 52;
    private static final long FRACTION_MASK = (1L << FRACTION_BITS) - 1;
    private static final int EXPONENT_BIAS = 1023;
    /** Makes e2 the binary exponent of {@code 4·m2}: scaling by 4 puts the interval ends on integers too. */
    private static final int SCALED_EXPONENT_OFFSET = EXPONENT_BIAS + FRACTION_BITS + 2;
    private static final int MIN_SCALED_EXPONENT = 1 - SCALED_EXPONENT_OFFSET;
    private static final int MAX_SCALED_EXPONENT = 2046 - SCALED_EXPONENT_OFFSET;

    /** Bits kept of every power of five and of every inverse power of five. */
    private static final int MULTIPLIER_BITS = 125;
    /** Largest q such that 5^q can divide a scaled significand (which is below 2^55). */
    private static final int MAX_POW5_DIVISOR_EXPONENT = 23;
    /** A shortened result packs the digits (below 10^17, so under 2^57) beneath the count of dropped digits. */
    private static final int REMOVED_SHIFT = 57;
    private static final long DIGITS_MASK = (1L << REMOVED_SHIFT) - 1;

    private static final long[] POW5_HIGH;
    private static final long[] POW5_LOW;
    private static final int[] POW5_BIT_LENGTH;
    private static final long[] INV_POW5_HIGH;
    private static final long[] INV_POW5_LOW;

    static {
        int pow5Count = -MIN_SCALED_EXPONENT - decimalExponentForNegative(MIN_SCALED_EXPONENT) + 1;
        int invPow5Count = decimalExponentForPositive(MAX_SCALED_EXPONENT) + 1;
        POW5_HIGH = new long[pow5Count];
        POW5_LOW = new long[pow5Count];
        POW5_BIT_LENGTH = new int[pow5Count];
        for (int i = 0; i < pow5Count; i++) {
            BigInteger pow5 = BigInteger.valueOf(5).pow(i);
            POW5_BIT_LENGTH[i] = pow5.bitLength();
            BigInteger normalized = pow5.bitLength() <= MULTIPLIER_BITS
                    ? pow5.shiftLeft(MULTIPLIER_BITS - pow5.bitLength())
                    : pow5.shiftRight(pow5.bitLength() - MULTIPLIER_BITS);
            POW5_HIGH[i] = normalized.shiftRight(64).longValue();
            POW5_LOW[i] = normalized.longValue();
        }
        INV_POW5_HIGH = new long[invPow5Count];
        INV_POW5_LOW = new long[invPow5Count];
        for (int q = 0; q < invPow5Count; q++) {
            BigInteger pow5 = BigInteger.valueOf(5).pow(q);
            BigInteger inverse = BigInteger.ONE.shiftLeft(inversePow5Shift(q)).divide(pow5).add(BigInteger.ONE);
            INV_POW5_HIGH[q] = inverse.shiftRight(64).longValue();
            INV_POW5_LOW[q] = inverse.longValue();
        }
    }

    private ShortestDigits() {
    }

    /**
     * Writes the shortest digits of positive finite {@code v} as ASCII at {@code dst[off..off+n)} and returns
     * {@code n} and the exponent {@code K} (value = digits × 10^K) packed for {@link #length} and {@link #exponent}.
     */
    static int write(double v, byte[] dst, int off) {
        long bits = Double.doubleToRawLongBits(v);
        int biasedExponent = (int) (bits >>> FRACTION_BITS);
        long fraction = bits & FRACTION_MASK;
        long m2 = biasedExponent == 0 ? fraction : fraction | (1L << FRACTION_BITS);
        int e2 = Math.max(biasedExponent, 1) - SCALED_EXPONENT_OFFSET;
        boolean symmetricInterval = fraction != 0 || biasedExponent <= 1;
        long shortened = e2 >= 0
                ? shortestForNonNegativeExponent(m2, e2, symmetricInterval)
                : shortestForNegativeExponent(m2, e2, symmetricInterval);
        int length = Decimal.write(shortened & DIGITS_MASK, dst, off) - off;
        int e10 = (e2 >= 0 ? decimalExponentForPositive(e2) : decimalExponentForNegative(e2) + e2)
                + (int) (shortened >>> REMOVED_SHIFT);
        return packResult(length, e10);
    }

    /** Shortened digits of m2 × 2^(e2+2) for e2 ≥ 0: the interval is divided by 10^q via an inverse power of 5. */
    private static long shortestForNonNegativeExponent(long m2, int e2, boolean symmetricInterval) {
        boolean boundsIncluded = (m2 & 1) == 0;
        long mv = 4 * m2;
        long mp = mv + 2;
        long mm = symmetricInterval ? mv - 2 : mv - 1;
        int q = decimalExponentForPositive(e2);
        int shift = inversePow5Shift(q) + q - e2;
        long vr = mulShift(mv, INV_POW5_HIGH[q], INV_POW5_LOW[q], shift);
        long vp = mulShift(mp, INV_POW5_HIGH[q], INV_POW5_LOW[q], shift);
        long vm = mulShift(mm, INV_POW5_HIGH[q], INV_POW5_LOW[q], shift);
        boolean vrExact = false;
        boolean vmExact = false;
        if (q <= MAX_POW5_DIVISOR_EXPONENT) {
            if (mv % 5 == 0) {
                vrExact = isDivisibleByPow5(mv, q);
            } else if (boundsIncluded) {
                vmExact = isDivisibleByPow5(mm, q);
            } else if (isDivisibleByPow5(mp, q)) {
                vp--;
            }
        }
        return shorten(vr, vp, vm, vrExact, vmExact, boundsIncluded);
    }

    /** Shortened digits of m2 × 2^(e2+2) for e2 &lt; 0: the interval is multiplied by 5^(-e2-q) and divided by 2^q. */
    private static long shortestForNegativeExponent(long m2, int e2, boolean symmetricInterval) {
        boolean boundsIncluded = (m2 & 1) == 0;
        long mv = 4 * m2;
        long mp = mv + 2;
        long mm = symmetricInterval ? mv - 2 : mv - 1;
        int q = decimalExponentForNegative(e2);
        int i = -e2 - q;
        int shift = q - (POW5_BIT_LENGTH[i] - MULTIPLIER_BITS);
        long vr = mulShift(mv, POW5_HIGH[i], POW5_LOW[i], shift);
        long vp = mulShift(mp, POW5_HIGH[i], POW5_LOW[i], shift);
        long vm = mulShift(mm, POW5_HIGH[i], POW5_LOW[i], shift);
        boolean vrExact = false;
        boolean vmExact = false;
        if (q <= 1) {
            vrExact = true;
            if (boundsIncluded) {
                vmExact = symmetricInterval;
            } else {
                vp--;
            }
        } else if (q < 63) {
            vrExact = (mv & ((1L << q) - 1)) == 0;
        }
        return shorten(vr, vp, vm, vrExact, vmExact, boundsIncluded);
    }

    /**
     * Drops decimal digits from vr while the interval (vm, vp) still holds a shorter number, rounds, and returns
     * the digits packed with the number of digits dropped. The flags say that vr / vm are exact (no nonzero digits
     * were lost when they were computed); without them the rounding interval is treated as open and ties as above.
     */
    private static long shorten(long vr, long vp, long vm, boolean vrExact, boolean vmExact, boolean boundsIncluded) {
        if (!vrExact && !vmExact) {
            return shortenInexact(vr, vp, vm);
        }
        int removed = 0;
        int lastRemovedDigit = 0;
        while (vp / 10 > vm / 10 || vmExact && vm % 10 == 0) {
            vmExact &= vm % 10 == 0;
            vrExact &= lastRemovedDigit == 0;
            lastRemovedDigit = (int) (vr % 10);
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        boolean tieRoundsDown = vrExact && lastRemovedDigit == 5 && (vr & 1) == 0;
        boolean roundUp = lastRemovedDigit > 5 || lastRemovedDigit == 5 && !tieRoundsDown;
        boolean belowInterval = vr == vm && (!boundsIncluded || !vmExact);
        return packShortened(vr + (roundUp || belowInterval ? 1 : 0), removed);
    }

    private static long shortenInexact(long vr, long vp, long vm) {
        int removed = 0;
        boolean roundUp = false;
        while (vp / 10 > vm / 10) {
            roundUp = vr % 10 >= 5;
            vr /= 10;
            vp /= 10;
            vm /= 10;
            removed++;
        }
        return packShortened(vr + (roundUp || vr == vm ? 1 : 0), removed);
    }

    private static long packShortened(long digits, int removed) {
        return (long) removed << REMOVED_SHIFT | digits;
    }

    /** Number of digits written by the {@link #write} call that returned {@code packed}. */
    static int length(int packed) {
        return packed & 0x1F;
    }

    /** Decimal exponent K (value = digits × 10^K) of the {@link #write} call that returned {@code packed}. */
    static int exponent(int packed) {
        return packed >> 5;
    }

    private static int packResult(int length, int exponent) {
        return exponent << 5 | length;
    }

    /**
     * Decimal digits q dropped by the multiplier for e2 ≥ 0: floor(log10(2^e2)) less one (never negative), so that
     * vr keeps one digit below the interval's resolution for the shortening loop to round away.
     */
    private static int decimalExponentForPositive(int e2) {
        return floorLog10Pow2(e2) - (e2 > 3 ? 1 : 0);
    }

    /** Decimal digits q kept below the point for e2 &lt; 0: floor(log10(5^-e2)) less one (never negative), as above. */
    private static int decimalExponentForNegative(int e2) {
        return floorLog10Pow5(-e2) - (-e2 > 1 ? 1 : 0);
    }

    /** floor(log10(2^e)) for 0 ≤ e ≤ 1700. */
    static int floorLog10Pow2(int e) {
        return (int) ((e * 631305L) >>> 21);
    }

    /** floor(log10(5^e)) for 0 ≤ e ≤ 1700. */
    static int floorLog10Pow5(int e) {
        return (int) ((e * 1465846L) >>> 21);
    }

    /** k such that the inverse table entry for q is floor(2^k / 5^q) + 1, a 125- or 126-bit number. */
    private static int inversePow5Shift(int q) {
        return POW5_BIT_LENGTH[q] - 1 + MULTIPLIER_BITS;
    }

    private static boolean isDivisibleByPow5(long value, int q) {
        int count = 0;
        while (value % 5 == 0 && count < q) {
            value /= 5;
            count++;
        }
        return count >= q;
    }

    /**
     * floor(m × (high·2^64 + low) / 2^shift) for 0 ≤ m &lt; 2^56, a multiplier of at most 126 bits and
     * 64 &lt; shift &lt; 128 (the tables only ever need 118 to 125); the choice of q keeps the result within 64 bits.
     */
    private static long mulShift(long m, long high, long low, int shift) {
        long lowProductHigh = unsignedMultiplyHigh(m, low);
        long highProductLow = m * high;
        long highProductHigh = Math.multiplyHigh(m, high);
        long sumLow = highProductLow + lowProductHigh;
        long sumHigh = highProductHigh + (Long.compareUnsigned(sumLow, highProductLow) < 0 ? 1 : 0);
        int distance = shift - 64;
        return (sumHigh << (64 - distance)) | (sumLow >>> distance);
    }

    private static long unsignedMultiplyHigh(long x, long y) {
        return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
    }
}
