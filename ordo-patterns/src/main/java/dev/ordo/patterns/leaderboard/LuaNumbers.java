package dev.ordo.patterns.leaderboard;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers as Lua 5.1 turns them into text ({@code tostring}, {@code ..}): C's
 * {@code printf("%.14g")}, so a script's Java twin writes an error message with the very text the
 * Lua writes. The digits are the double's exact binary value rounded half-to-even to 14
 * significant digits, as glibc rounds. With X the decimal exponent after rounding: {@code %f}
 * layout when {@code -4 <= X < 14}, else {@code d.ddde±XX} with at least two exponent digits;
 * trailing zeros and a trailing point are dropped.
 */
final class LuaNumbers {
    private static final int PRECISION = 14;
    private static final MathContext ROUNDING = new MathContext(PRECISION, RoundingMode.HALF_EVEN);

    private LuaNumbers() {
    }

    /** {@code v} as C's {@code printf("%.14g", v)} prints it: the text Lua 5.1 gives a number. */
    static String g14(double v) {
        if (Double.isNaN(v)) {
            return Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? "-inf" : "inf";
        }
        if (v == 0) {
            return Double.doubleToRawLongBits(v) < 0 ? "-0" : "0";
        }
        BigDecimal rounded = new BigDecimal(v).round(ROUNDING);
        int exponent = rounded.precision() - rounded.scale() - 1;
        String digits = rounded.unscaledValue().abs().toString();
        int significant = digits.length();
        while (significant > 1 && digits.charAt(significant - 1) == '0') {
            significant--;
        }
        digits = digits.substring(0, significant);
        StringBuilder out = new StringBuilder(24);
        if (v < 0) {
            out.append('-');
        }
        if (exponent >= -4 && exponent < PRECISION) {
            if (exponent < 0) {
                out.append("0.").append("0".repeat(-exponent - 1)).append(digits);
            } else if (digits.length() <= exponent + 1) {
                out.append(digits).append("0".repeat(exponent + 1 - digits.length()));
            } else {
                out.append(digits, 0, exponent + 1).append('.').append(digits, exponent + 1, digits.length());
            }
            return out.toString();
        }
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append(exponent < 0 ? "e-" : "e+");
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            out.append('0');
        }
        return out.append(magnitude).toString();
    }
}
