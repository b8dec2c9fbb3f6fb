package dev.ordo.engine.script.lib;

import dev.ordo.engine.number.Doubles;

import java.nio.charset.StandardCharsets;

/**
 * glibc's {@code strtod} in the C locale, reading the longest prefix that forms a number: an optional sign, then a
 * decimal number with optional fraction and exponent, a hexadecimal one ({@code 0x1.8p3}, exponent optional),
 * {@code inf}/{@code infinity} or {@code nan}/{@code nan(chars)} in any case. Conversion rounds correctly; overflow
 * gives an infinity and underflow a subnormal or zero, as glibc's does. Unlike {@code strtod} it skips no leading
 * white space (its callers never start at any), and {@code nan(chars)} gives the default NaN, without glibc's
 * payload.
 */
final class CStrtod {

    private final byte[] s;
    private final int end;
    private int next;
    private double value;

    /** Prepares to read numbers in {@code s} before index {@code end}; bytes from {@code end} on read as a NUL. */
    CStrtod(byte[] s, int end) {
        this.s = s;
        this.end = end;
    }

    /** Parses from {@code from}; returns whether a number was read, then see {@link #end()} and {@link #value()}. */
    boolean parse(int from) {
        int i = from;
        boolean negative = false;
        if (at(i) == '+' || at(i) == '-') {
            negative = at(i) == '-';
            i++;
        }
        int after;
        if ((after = matchWord(i, "infinity")) > 0 || (after = matchWord(i, "inf")) > 0) {
            return found(after, negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
        }
        if ((after = matchWord(i, "nan")) > 0) {
            int close = nanCharsEnd(after);
            double nan = negative ? Double.longBitsToDouble(0xfff8000000000000L) : Double.NaN;
            return found(close > 0 ? close : after, nan);
        }
        if (at(i) == '0' && (at(i + 1) | 0x20) == 'x') {
            int hexEnd = hexEnd(i + 2);
            if (hexEnd > 0) {
                return found(hexEnd, hexValue(from, i + 2, hexEnd));
            }
        }
        int decimalEnd = decimalEnd(i);
        if (decimalEnd < 0) {
            next = from;
            return false;
        }
        double magnitude = Doubles.decimalMagnitude(s, i, decimalEnd);
        return found(decimalEnd, negative ? -magnitude : magnitude);
    }

    /** The index just past the number read. */
    int end() {
        return next;
    }

    /** The number read. */
    double value() {
        return value;
    }

    private boolean found(int after, double v) {
        next = after;
        value = v;
        return true;
    }

    private int at(int i) {
        return i < end ? s[i] & 0xff : 0;
    }

    private int matchWord(int i, String word) {
        for (int k = 0; k < word.length(); k++) {
            if ((at(i + k) | 0x20) != word.charAt(k)) {
                return -1;
            }
        }
        return i + word.length();
    }

    private int nanCharsEnd(int i) {
        if (at(i) != '(') {
            return -1;
        }
        int k = i + 1;
        while (Character.isLetterOrDigit(at(k)) && at(k) < 0x80 || at(k) == '_') {
            k++;
        }
        return at(k) == ')' ? k + 1 : -1;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(int c) {
        return isDigit(c) || (c | 0x20) >= 'a' && (c | 0x20) <= 'f';
    }

    /** End of a decimal number starting at {@code i}, or -1 when there is no digit. */
    private int decimalEnd(int i) {
        int k = i;
        int digits = 0;
        while (isDigit(at(k))) {
            k++;
            digits++;
        }
        if (at(k) == '.') {
            k++;
            while (isDigit(at(k))) {
                k++;
                digits++;
            }
        }
        if (digits == 0) {
            return -1;
        }
        return exponentEnd(k, 'e');
    }

    /** End of a hexadecimal significand (and exponent) starting after {@code 0x}, or -1 when it has no digit. */
    private int hexEnd(int i) {
        int k = i;
        int digits = 0;
        while (isHexDigit(at(k))) {
            k++;
            digits++;
        }
        if (at(k) == '.') {
            k++;
            while (isHexDigit(at(k))) {
                k++;
                digits++;
            }
        }
        if (digits == 0) {
            return -1;
        }
        return exponentEnd(k, 'p');
    }

    private int exponentEnd(int k, char marker) {
        if ((at(k) | 0x20) != marker) {
            return k;
        }
        int e = k + 1;
        if (at(e) == '+' || at(e) == '-') {
            e++;
        }
        if (!isDigit(at(e))) {
            return k;
        }
        while (isDigit(at(e))) {
            e++;
        }
        return e;
    }

    private double hexValue(int from, int digitsStart, int hexEnd) {
        String sign = at(from) == '-' ? "-" : "";
        String body = new String(s, digitsStart, hexEnd - digitsStart, StandardCharsets.ISO_8859_1);
        if (body.indexOf('p') < 0 && body.indexOf('P') < 0) {
            body = body + "p0";
        }
        return Double.parseDouble(sign + "0x" + body);
    }
}
