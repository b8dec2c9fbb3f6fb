package dev.ordo.engine.script;

import dev.ordo.engine.script.lib.LuaNumberFormat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's printf conversions {@code %e %f %g} for {@code string.format}, as glibc prints them:
 * rounding is exact (the double's full binary value, ties to even). Plain {@code %g} is {@link
 * LuaNumberFormat}'s, the one {@code tostring} uses too; this class adds {@code %e}, {@code %f}
 * and the {@code #} flag's {@code %g}.
 */
public final class CFormat {
    private CFormat() {
    }

    /**
     * The text of {@code v} under conversion {@code conv} (one of {@code eEfgG}), without width or sign flags.
     *
     * @param v the number
     * @param conv the conversion letter
     * @param precision the digits after the point ({@code e}, {@code f}) or significant digits ({@code g})
     * @param alternate the {@code #} flag of C's printf
     * @return the text
     */
    public static String spec(double v, char conv, int precision, boolean alternate) {
        if (!alternate && (conv == 'g' || conv == 'G')) {
            String g = LuaNumberFormat.g(v, precision);
            return conv == 'G' ? g.toUpperCase(java.util.Locale.ROOT) : g;
        }
        boolean negative = v < 0 || (v == 0 && 1 / v < 0) || (Double.isNaN(v) && Double.doubleToRawLongBits(v) < 0);
        String body;
        if (Double.isNaN(v)) {
            body = "nan";
        } else if (Double.isInfinite(v)) {
            body = "inf";
        } else {
            BigDecimal abs = new BigDecimal(Math.abs(v));
            switch (Character.toLowerCase(conv)) {
                case 'f':
                    body = fixed(abs, precision, alternate);
                    break;
                case 'e':
                    body = exponent(abs, precision, alternate);
                    break;
                default:
                    body = general(abs, precision, alternate);
                    break;
            }
        }
        if (Character.isUpperCase(conv)) {
            body = body.toUpperCase(java.util.Locale.ROOT);
        }
        return negative ? "-" + body : body;
    }

    private static String fixed(BigDecimal abs, int precision, boolean alternate) {
        String s = abs.setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        return precision == 0 && alternate ? s + "." : s;
    }

    private static String exponent(BigDecimal abs, int precision, boolean alternate) {
        if (abs.signum() == 0) {
            return zeros(precision, alternate) + "e+00";
        }
        BigDecimal r = abs.round(new MathContext(precision + 1, RoundingMode.HALF_EVEN));
        int exp = r.precision() - r.scale() - 1;
        String digits = r.unscaledValue().toString();
        StringBuilder sb = new StringBuilder();
        sb.append(digits.charAt(0));
        if (precision > 0 || alternate) {
            sb.append('.');
        }
        for (int i = 1; i <= precision; i++) {
            sb.append(i < digits.length() ? digits.charAt(i) : '0');
        }
        sb.append(exp < 0 ? "e-" : "e+");
        int e = Math.abs(exp);
        if (e < 10) {
            sb.append('0');
        }
        return sb.append(e).toString();
    }

    private static String zeros(int precision, boolean alternate) {
        StringBuilder sb = new StringBuilder("0");
        if (precision > 0 || alternate) {
            sb.append('.');
        }
        return sb.append("0".repeat(precision)).toString();
    }

    private static String general(BigDecimal abs, int precision, boolean alternate) {
        int p = precision == 0 ? 1 : precision;
        int exp;
        if (abs.signum() == 0) {
            exp = 0;
        } else {
            BigDecimal r = abs.round(new MathContext(p, RoundingMode.HALF_EVEN));
            exp = r.precision() - r.scale() - 1;
        }
        String s = exp < -4 || exp >= p ? exponent(abs, p - 1, alternate) : fixed(abs, p - 1 - exp, alternate);
        if (alternate) {
            return s;
        }
        int e = s.indexOf('e');
        String mantissa = e < 0 ? s : s.substring(0, e);
        String suffix = e < 0 ? "" : s.substring(e);
        if (mantissa.indexOf('.') >= 0) {
            int end = mantissa.length();
            while (mantissa.charAt(end - 1) == '0') {
                end--;
            }
            if (mantissa.charAt(end - 1) == '.') {
                end--;
            }
            mantissa = mantissa.substring(0, end);
        }
        return mantissa + suffix;
    }
}
