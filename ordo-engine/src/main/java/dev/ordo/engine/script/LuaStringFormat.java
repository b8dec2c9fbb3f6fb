package dev.ordo.engine.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Lua 5.1's {@code string.format}, replacing LuaJ's (which ignores the precision of float
 * conversions): the specs {@code %[-+ #0][width][.precision](c|d|i|o|u|x|X|e|E|f|g|G|q|s|%)} with
 * C's meaning, integers truncated from the number as Lua 5.1 casts them, {@code %s} through
 * {@code tostring} rules, and Lua 5.1's error texts.
 */
final class LuaStringFormat extends VarArgFunction {
    private final LuaValue tostring;

    LuaStringFormat(LuaValue tostring) {
        this.tostring = tostring;
    }

    @Override
    public Varargs invoke(Varargs args) {
        LuaString fmt = args.checkstring(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(fmt.length() + 16);
        int arg = 1;
        int n = fmt.length();
        int i = 0;
        while (i < n) {
            int c = fmt.luaByte(i++);
            if (c != '%') {
                out.write(c);
                continue;
            }
            if (i < n && fmt.luaByte(i) == '%') {
                out.write('%');
                i++;
                continue;
            }
            int start = i;
            while (i < n && "-+ #0".indexOf(fmt.luaByte(i)) >= 0) {
                i++;
            }
            if (i - start > 5) {
                throw new LuaError("invalid format (repeated flags)");
            }
            String flags = fmt.substring(start, i).tojstring();
            int width = 0;
            int digits = 0;
            while (i < n && Character.isDigit(fmt.luaByte(i))) {
                width = width * 10 + fmt.luaByte(i++) - '0';
                digits++;
            }
            int precision = -1;
            if (i < n && fmt.luaByte(i) == '.') {
                i++;
                precision = 0;
                int pd = 0;
                while (i < n && Character.isDigit(fmt.luaByte(i))) {
                    precision = precision * 10 + fmt.luaByte(i++) - '0';
                    pd++;
                }
                if (pd > 2) {
                    throw new LuaError("invalid format (width or precision too long)");
                }
            }
            if (digits > 2) {
                throw new LuaError("invalid format (width or precision too long)");
            }
            if (i >= n) {
                throw new LuaError("invalid option '%' to 'format'");
            }
            char conv = (char) fmt.luaByte(i++);
            arg++;
            String text;
            // C's '0' flag: ignored for an integer given a precision, and for inf and nan.
            boolean zeros = flags.indexOf('0') >= 0 && precision < 0;
            switch (conv) {
                case 'c':
                    write(out, pad(new String(new char[] {(char) (long) number(args, arg)}), flags, width, false), true);
                    continue;
                case 'd':
                case 'i':
                    text = integer(Long.toString((long) number(args, arg)), flags, precision);
                    break;
                case 'u':
                    text = integer(Long.toUnsignedString((long) number(args, arg)), flags, precision);
                    break;
                case 'o':
                    text = unsigned(Long.toOctalString((long) number(args, arg)), flags, precision, "0");
                    break;
                case 'x':
                    text = unsigned(Long.toHexString((long) number(args, arg)), flags, precision, "0x");
                    break;
                case 'X':
                    text = unsigned(Long.toHexString((long) number(args, arg)), flags, precision, "0x").toUpperCase(java.util.Locale.ROOT);
                    break;
                case 'e':
                case 'E':
                case 'f':
                case 'g':
                case 'G':
                    double d = number(args, arg);
                    text = sign(CFormat.spec(d, conv, precision < 0 ? 6 : precision, flags.indexOf('#') >= 0), flags);
                    zeros = flags.indexOf('0') >= 0 && Double.isFinite(d);
                    break;
                case 'q':
                    quoted(out, args.checkstring(arg));
                    continue;
                case 's': {
                    LuaValue s = tostring.call(args.arg(arg));
                    if (!s.isstring()) {
                        throw new LuaError("'tostring' must return a string to 'format'");
                    }
                    byte[] bytes = LuaSandbox.bytes(s.checkstring());
                    if (precision >= 0 && precision < bytes.length) {
                        bytes = java.util.Arrays.copyOf(bytes, precision);
                    }
                    if (width <= bytes.length) {
                        out.write(bytes, 0, bytes.length);
                    } else {
                        byte[] padding = " ".repeat(width - bytes.length).getBytes(StandardCharsets.ISO_8859_1);
                        boolean left = flags.indexOf('-') >= 0;
                        out.write(left ? bytes : padding, 0, left ? bytes.length : padding.length);
                        out.write(left ? padding : bytes, 0, left ? padding.length : bytes.length);
                    }
                    continue;
                }
                default:
                    throw new LuaError("invalid option '%" + conv + "' to 'format'");
            }
            write(out, pad(text, flags, width, zeros), false);
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    private static double number(Varargs args, int i) {
        LuaValue v = args.arg(i);
        LuaValue n = v.tonumber();
        if (n.isnil()) {
            throw new LuaError("bad argument #" + i + " to 'format' (number expected, got "
                    + (v.isnil() && i > args.narg() ? "no value" : v.typename()) + ")");
        }
        return n.todouble();
    }

    private static String integer(String digits, String flags, int precision) {
        boolean negative = digits.startsWith("-");
        String body = negative ? digits.substring(1) : digits;
        if (precision >= 0 && body.length() < precision) {
            body = "0".repeat(precision - body.length()) + body;
        }
        return sign(negative ? "-" + body : body, flags);
    }

    private static String unsigned(String digits, String flags, int precision, String altPrefix) {
        String body = digits;
        if (precision >= 0 && body.length() < precision) {
            body = "0".repeat(precision - body.length()) + body;
        }
        if (flags.indexOf('#') >= 0 && !"0".equals(digits)) {
            body = altPrefix.equals("0") ? (body.startsWith("0") ? body : "0" + body) : altPrefix + body;
        }
        return body;
    }

    private static String sign(String s, String flags) {
        if (s.startsWith("-")) {
            return s;
        }
        if (flags.indexOf('+') >= 0) {
            return "+" + s;
        }
        if (flags.indexOf(' ') >= 0) {
            return " " + s;
        }
        return s;
    }

    /** Pads to {@code width}: left-justified with '-', else with {@code zeros} zero-filled after the sign and any 0x. */
    private static String pad(String s, String flags, int width, boolean zeros) {
        if (s.length() >= width) {
            return s;
        }
        int fill = width - s.length();
        if (flags.indexOf('-') >= 0) {
            return s + " ".repeat(fill);
        }
        if (zeros) {
            int signEnd = 0;
            while (signEnd < s.length() && "+- ".indexOf(s.charAt(signEnd)) >= 0) {
                signEnd++;
            }
            if (s.startsWith("0x", signEnd) || s.startsWith("0X", signEnd)) {
                signEnd += 2;
            }
            return s.substring(0, signEnd) + "0".repeat(fill) + s.substring(signEnd);
        }
        return " ".repeat(fill) + s;
    }

    private static void write(ByteArrayOutputStream out, String s, boolean latin1) {
        byte[] b = s.getBytes(latin1 ? StandardCharsets.ISO_8859_1 : StandardCharsets.US_ASCII);
        out.write(b, 0, b.length);
    }

    /** {@code %q}: the string in double quotes, with {@code " \ newline \r \0} escaped as Lua 5.1 does. */
    private static void quoted(ByteArrayOutputStream out, LuaString s) {
        out.write('"');
        for (int i = 0; i < s.length(); i++) {
            int c = s.luaByte(i);
            switch (c) {
                case '"':
                case '\\':
                case '\n':
                    out.write('\\');
                    out.write(c);
                    break;
                case '\r':
                    write(out, "\\r", false);
                    break;
                case 0:
                    write(out, "\\000", false);
                    break;
                default:
                    out.write(c);
            }
        }
        out.write('"');
    }
}
