package dev.ordo.engine.script.lib;

import dev.ordo.engine.number.Decimal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf("%.<precision>g")} for doubles, as glibc prints it; {@link #g14(double)} is the conversion Lua 5.1
 * (and so Redis's scripts) uses for {@code tostring}, string coercion and {@code cjson.encode}.
 *
 * <p>Digits come from the double's exact binary value rounded half-to-even, as glibc rounds. The style is C's: with
 * X the decimal exponent after rounding, {@code %f} style when {@code precision > X >= -4}, otherwise {@code %e} style
 * with at least two exponent digits; trailing zeros and a trailing point are removed. Negative zero prints as
 * {@code -0}, infinities as {@code inf}/{@code -inf}, NaN as {@code nan} or {@code -nan} by its sign bit (x86's
 * {@code 0/0} is the negative one, so Redis prints {@code tostring(0/0)} as {@code -nan}).
 */
public final class LuaNumberFormat {

    /** Lua 5.1's {@code LUAI_NUMFFORMAT} precision. */
    public static final int LUA_PRECISION = 14;

    /** Doubles below this magnitude that are integral print as plain integers at every precision from 16 up. */
    private static final double EXACT_INTEGER_LIMIT = 0x1p53;

    private LuaNumberFormat() {
    }

    /** Returns {@code v} as C's {@code printf("%.14g", v)} prints it, the text Lua 5.1 gives a number. */
    public static String g14(double v) {
        return g(v, LUA_PRECISION);
    }

    /** Returns {@code v} as C's {@code printf("%.<precision>g", v)} prints it; a precision of 0 counts as 1. */
    public static String g(double v, int precision) {
        int p = Math.max(precision, 1);
        if (Double.isNaN(v)) {
            return Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(v)) {
            return v < 0 ? "-inf" : "inf";
        }
        if (v == 0) {
            return Double.doubleToRawLongBits(v) < 0 ? "-0" : "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < EXACT_INTEGER_LIMIT && p <= Decimal.MAX_POWER_OF_TEN
                && Math.abs(v) < Decimal.powerOfTen(p)) {
            return Long.toString((long) v);
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(p, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < p && exponent >= -4) {
            String fixed = rounded.setScale(p - 1 - exponent, RoundingMode.UNNECESSARY).toPlainString();
            return stripFraction(fixed);
        }
        String digits = rounded.unscaledValue().abs().toString();
        StringBuilder out = new StringBuilder(p + 8);
        if (rounded.signum() < 0) {
            out.append('-');
        }
        out.append(digits.charAt(0));
        String fraction = stripTrailingZeros(digits.substring(1));
        if (!fraction.isEmpty()) {
            out.append('.').append(fraction);
        }
        out.append(exponent < 0 ? "e-" : "e+");
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            out.append('0');
        }
        return out.append(magnitude).toString();
    }

    private static String stripFraction(String fixed) {
        if (fixed.indexOf('.') < 0) {
            return fixed;
        }
        String s = stripTrailingZeros(fixed);
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static String stripTrailingZeros(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, end);
    }
}
