package dev.ordo.engine.number;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Checks {@link ShortestDigits} against an exact, slow BigDecimal search for the shortest round-trip decimal. */
class ShortestDigitsTest {

    private static final long RANDOM_SEED = 0x5EED_0D0L;
    private static final int RANDOM_SAMPLES = 200_000;
    private static final BigDecimal HALF = new BigDecimal("0.5");

    @Test
    void floorLog10Pow2_matchesExactValue_forEveryExponentUsed() {
        for (int e = 0; e <= 1700; e++) {
            assertThat(ShortestDigits.floorLog10Pow2(e)).as("e=%d", e)
                    .isEqualTo(exactFloorLog10(BigInteger.TWO.pow(e)));
        }
    }

    @Test
    void floorLog10Pow5_matchesExactValue_forEveryExponentUsed() {
        for (int e = 0; e <= 1700; e++) {
            assertThat(ShortestDigits.floorLog10Pow5(e)).as("e=%d", e)
                    .isEqualTo(exactFloorLog10(BigInteger.valueOf(5).pow(e)));
        }
    }

    @Test
    void write_extremes_matchReference() {
        assertMatchesReference(Double.MIN_VALUE);
        assertMatchesReference(Double.MIN_NORMAL);
        assertMatchesReference(Math.nextDown(Double.MIN_NORMAL));
        assertMatchesReference(Math.nextUp(Double.MIN_NORMAL));
        assertMatchesReference(Double.MAX_VALUE);
        assertMatchesReference(Math.nextDown(Double.MAX_VALUE));
    }

    @Test
    void write_everyPowerOfTwo_matchesReference() {
        for (int e = -1074; e <= 1023; e++) {
            assertMatchesReference(Math.scalb(1.0, e));
        }
    }

    @Test
    void write_firstAndLastSignificandOfEveryExponent_matchReference() {
        for (long biased = 0; biased < 2047; biased++) {
            long base = biased << 52;
            assertMatchesReference(Double.longBitsToDouble(base | 1));
            assertMatchesReference(Double.longBitsToDouble(base | 2));
            assertMatchesReference(Double.longBitsToDouble(base | ((1L << 52) - 1)));
        }
    }

    @Test
    void write_subnormalsAroundEveryPowerOfTwoBoundary_matchReference() {
        for (int bit = 0; bit < 52; bit++) {
            long power = 1L << bit;
            for (long delta = -2; delta <= 2; delta++) {
                if (power + delta > 0) {
                    assertMatchesReference(Double.longBitsToDouble(power + delta));
                }
            }
        }
    }

    @Test
    void write_integersNear2To53_matchReference() {
        long twoTo53 = 1L << 53;
        for (long delta = -1000; delta <= 1000; delta++) {
            assertMatchesReference((double) (twoTo53 + delta));
        }
    }

    /** Significands whose scaled value or interval ends are multiples of 5^22 or 5^23: the exactness edge cases. */
    @Test
    void write_significandsDivisibleByHighPowersOfFive_matchReference() {
        long pow22 = BigInteger.valueOf(5).pow(22).longValueExact();
        long pow23 = BigInteger.valueOf(5).pow(23).longValueExact();
        long[] significands = {
            2 * pow22, 3 * pow22, (7 * pow22 + 1) / 2, (7 * pow22 - 1) / 2, (pow23 + 1) / 2, (pow23 - 1) / 2,
        };
        for (long significand : significands) {
            assertThat(significand).isBetween(1L << 52, (1L << 53) - 1);
            for (int e = -1126; e <= 971; e++) {
                double v = Math.scalb((double) significand, e);
                if (v > 0 && Double.isFinite(v)) {
                    assertMatchesReference(v);
                    assertMatchesReference(Math.nextUp(v));
                }
            }
        }
    }

    @Test
    void write_randomBitPatterns_matchReference() {
        SplittableRandom random = new SplittableRandom(RANDOM_SEED);
        for (int i = 0; i < RANDOM_SAMPLES; i++) {
            double v = Double.longBitsToDouble(random.nextLong() & Long.MAX_VALUE);
            if (!Double.isFinite(v) || v == 0) {
                continue;
            }
            Decimal expected = reference(v);
            Decimal actual = write(v);
            if (!actual.equals(expected)) {
                fail("seed=%#x sample=%d v=%s (bits %#x): expected %s, got %s",
                        RANDOM_SEED, i, v, Double.doubleToRawLongBits(v), expected, actual);
            }
        }
    }

    @Test
    void write_doesNotTouchBytesBeyondTheDigits() {
        byte[] buffer = "xxxxxxxxxxxxxxxxxxxxxxxx".getBytes(StandardCharsets.US_ASCII);
        int packed = ShortestDigits.write(1.5, buffer, 3);
        assertThat(new String(buffer, StandardCharsets.US_ASCII)).isEqualTo("xxx15xxxxxxxxxxxxxxxxxxx");
        assertThat(ShortestDigits.length(packed)).isEqualTo(2);
        assertThat(ShortestDigits.exponent(packed)).isEqualTo(-1);
    }

    private static void assertMatchesReference(double v) {
        assertThat(write(v)).as("v=%s (bits %#x)", v, Double.doubleToRawLongBits(v)).isEqualTo(reference(v));
    }

    private static int exactFloorLog10(BigInteger value) {
        return value.toString().length() - 1;
    }

    /** A decimal {@code digits × 10^exponent}; digits carry no trailing zeros. */
    private record Decimal(String digits, int exponent) {
    }

    private static Decimal write(double v) {
        byte[] buffer = new byte[ShortestDigits.MAX_DIGITS];
        int packed = ShortestDigits.write(v, buffer, 0);
        String digits = new String(buffer, 0, ShortestDigits.length(packed), StandardCharsets.US_ASCII);
        return new Decimal(digits, ShortestDigits.exponent(packed));
    }

    /**
     * For a length n, the only decimals of at most n digits that can lie in v's rounding interval are the n-digit
     * roundings of v down and up. The interval runs halfway to the neighbouring doubles, ends included when v's
     * significand is even. A decimal of n digits is also one of n + 1, so the lengths that work are all those from
     * the shortest up to 17: walk down from 17 while the next shorter length still works, then take the candidate
     * inside, the closer one if both are, the one with the even last digit on a tie.
     */
    private static Decimal reference(double v) {
        BigDecimal exact = new BigDecimal(v);
        BigDecimal lower = exact.add(new BigDecimal(Math.nextDown(v))).multiply(HALF);
        BigDecimal upper = exact.add(new BigDecimal(Math.ulp(v)).multiply(HALF));
        boolean endsIncluded = (Double.doubleToRawLongBits(v) & 1) == 0;
        BigDecimal best = shortestAtLength(17, exact, lower, upper, endsIncluded);
        if (best == null) {
            throw new AssertionError("no decimal of 17 digits or fewer round-trips " + v);
        }
        for (int n = 16; n >= 1; n--) {
            BigDecimal shorter = shortestAtLength(n, exact, lower, upper, endsIncluded);
            if (shorter == null) {
                break;
            }
            best = shorter;
        }
        BigDecimal stripped = best.stripTrailingZeros();
        return new Decimal(stripped.unscaledValue().toString(), -stripped.scale());
    }

    /** The best decimal of at most n digits inside the interval, or null if there is none. */
    private static BigDecimal shortestAtLength(
            int n, BigDecimal exact, BigDecimal lower, BigDecimal upper, boolean endsIncluded) {
        BigDecimal down = exact.round(new MathContext(n, RoundingMode.FLOOR));
        BigDecimal up = exact.round(new MathContext(n, RoundingMode.CEILING));
        boolean downInside = isInside(down, lower, upper, endsIncluded);
        boolean upInside = isInside(up, lower, upper, endsIncluded);
        if (downInside && upInside) {
            return closer(exact, down, up);
        }
        return downInside ? down : upInside ? up : null;
    }

    private static boolean isInside(BigDecimal candidate, BigDecimal lower, BigDecimal upper, boolean endsIncluded) {
        int fromLower = candidate.compareTo(lower);
        int fromUpper = candidate.compareTo(upper);
        return endsIncluded ? fromLower >= 0 && fromUpper <= 0 : fromLower > 0 && fromUpper < 0;
    }

    private static BigDecimal closer(BigDecimal exact, BigDecimal down, BigDecimal up) {
        int comparison = exact.subtract(down).compareTo(up.subtract(exact));
        if (comparison != 0) {
            return comparison < 0 ? down : up;
        }
        return down.unscaledValue().testBit(0) ? up : down;
    }
}
