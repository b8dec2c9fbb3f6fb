package dev.ordo.engine.script.lib;

/**
 * The double-to-integer conversions that the C libraries Redis bundles perform, with the results x86-64 gives where C
 * leaves them undefined: {@code cvttsd2si} yields {@code 0x80000000...} for NaN and out-of-range values, and gcc's
 * double-to-unsigned conversion subtracts 2^63 first for large values.
 */
final class CConversions {

    private static final double TWO_POW_63 = 0x1p63;
    private static final double TWO_POW_31 = 0x1p31;

    private CConversions() {
    }

    /** Returns {@code (int64_t) d} on x86-64: truncation, or {@link Long#MIN_VALUE} for NaN and out-of-range. */
    static long toInt64(double d) {
        if (d >= TWO_POW_63 || d < -TWO_POW_63 || Double.isNaN(d)) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }

    /** Returns {@code (int32_t) d} on x86-64: truncation, or {@link Integer#MIN_VALUE} for NaN and out-of-range. */
    static int toInt32(double d) {
        if (d >= TWO_POW_31 || d < -TWO_POW_31 || Double.isNaN(d)) {
            return Integer.MIN_VALUE;
        }
        return (int) d;
    }

    /** Returns the bits of {@code (uint64_t) d} as gcc compiles it for x86-64 (NaN and negatives go the signed way). */
    static long toUint64(double d) {
        if (!(d >= TWO_POW_63)) {
            return toInt64(d);
        }
        return toInt64(d - TWO_POW_63) ^ Long.MIN_VALUE;
    }

    /** Returns the double nearest to the unsigned 64-bit value {@code bits}, as C's {@code (double) uint64_t}. */
    static double unsignedToDouble(long bits) {
        if (bits >= 0) {
            return bits;
        }
        double half = (double) ((bits >>> 1) | (bits & 1));
        return half * 2.0;
    }
}
