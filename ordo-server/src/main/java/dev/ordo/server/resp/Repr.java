package dev.ordo.server.resp;

import io.netty.buffer.ByteBuf;

/**
 * Quotes bytes for human-readable output, as MONITOR lines and startup errors show arguments:
 * inside double quotes, {@code \} and {@code "} are escaped with a backslash, newline, carriage
 * return, tab, bell and backspace become {@code \n \r \t \a \b}, other bytes outside printable
 * ASCII (0x20..0x7e) become {@code \xhh} in lowercase hex, and the rest is copied as is.
 */
public final class Repr {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Repr() {
    }

    /** Appends {@code "..."} for {@code value} to {@code out}. */
    public static void quote(byte[] value, ByteBuf out) {
        out.writeByte('"');
        for (byte b : value) {
            escape(b, out);
        }
        out.writeByte('"');
    }

    /** {@code "..."} for {@code value}, as a string. */
    public static String quote(byte[] value) {
        StringBuilder sb = new StringBuilder(value.length + 2).append('"');
        for (byte b : value) {
            String escaped = escape(b);
            if (escaped == null) {
                sb.append((char) b);
            } else {
                sb.append(escaped);
            }
        }
        return sb.append('"').toString();
    }

    private static void escape(byte b, ByteBuf out) {
        String escaped = escape(b);
        if (escaped == null) {
            out.writeByte(b);
        } else {
            for (int i = 0; i < escaped.length(); i++) {
                out.writeByte(escaped.charAt(i));
            }
        }
    }

    /** The escape sequence for {@code b}, or null when it is printed as itself. */
    private static String escape(byte b) {
        switch (b) {
            case '\\':
                return "\\\\";
            case '"':
                return "\\\"";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            case 7:
                return "\\a";
            case '\b':
                return "\\b";
            default:
                if (b >= 0x20 && b <= 0x7e) {
                    return null;
                }
                return "\\x" + (char) HEX[(b >> 4) & 0xf] + (char) HEX[b & 0xf];
        }
    }
}
