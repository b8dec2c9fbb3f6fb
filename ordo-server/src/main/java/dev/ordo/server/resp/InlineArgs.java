package dev.ordo.server.resp;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line into arguments the way Redis reads inline commands and config files.
 *
 * <ul>
 *   <li>Arguments are separated by runs of whitespace (space, tab, CR, LF, VT, FF); an unquoted
 *       argument ends at space, tab, CR or LF.</li>
 *   <li>{@code "double quotes"} understand {@code \n \r \t \b \a}, {@code \xHH} (two hex digits,
 *       either case) and a backslash before any other byte, which stands for that byte.</li>
 *   <li>{@code 'single quotes'} are literal except for {@code \'}.</li>
 *   <li>A quote may open in the middle of an argument ({@code ab"c d"} is {@code abc d}); a closing
 *       quote must be followed by whitespace or the end of the line, and an unclosed quote is an
 *       error: the line is then unbalanced and {@link #split} returns null.</li>
 *   <li>A NUL byte ends the line, as it ends Redis's C string.</li>
 * </ul>
 */
public final class InlineArgs {
    private InlineArgs() {
    }

    /** The arguments of {@code line[off, off + len)}, or null when its quotes are unbalanced. */
    public static List<byte[]> split(byte[] line, int off, int len) {
        Cursor c = new Cursor(line, off, off + len);
        List<byte[]> args = new ArrayList<>();
        while (true) {
            c.skipSpace();
            if (c.atEnd()) {
                return args;
            }
            byte[] arg = c.argument();
            if (arg == null) {
                return null;
            }
            args.add(arg);
        }
    }

    /** A position in the line and the argument being assembled. */
    private static final class Cursor {
        private final byte[] s;
        private final int end;
        private int p;
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();

        Cursor(byte[] s, int from, int end) {
            this.s = s;
            this.p = from;
            this.end = end;
        }

        /** The byte at {@code i}, or 0 past the end (the C string's terminator). */
        private int at(int i) {
            return i < end ? s[i] : 0;
        }

        boolean atEnd() {
            return at(p) == 0;
        }

        void skipSpace() {
            while (isSpace(at(p))) {
                p++;
            }
        }

        /** Reads one argument starting at a non-space byte; null if a quote is left open. */
        byte[] argument() {
            current.reset();
            int quote = 0;
            while (true) {
                int b = at(p);
                if (quote == '"') {
                    if (!doubleQuoted(b)) {
                        return null;
                    }
                    if (b == '"') {
                        p++;
                        return closed();
                    }
                } else if (quote == '\'') {
                    if (!singleQuoted(b)) {
                        return null;
                    }
                    if (b == '\'') {
                        p++;
                        return closed();
                    }
                } else if (b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == 0) {
                    return current.toByteArray();
                } else if (b == '"' || b == '\'') {
                    quote = b;
                    p++;
                } else {
                    current.write(b);
                    p++;
                }
            }
        }

        /** Consumes one step inside double quotes; false on an unterminated quote. */
        private boolean doubleQuoted(int b) {
            if (b == 0) {
                return false;
            }
            if (b == '\\' && at(p + 1) == 'x' && isHex(at(p + 2)) && isHex(at(p + 3))) {
                current.write(hex(at(p + 2)) * 16 + hex(at(p + 3)));
                p += 4;
            } else if (b == '\\' && at(p + 1) != 0) {
                current.write(unescape(at(p + 1)));
                p += 2;
            } else if (b != '"') {
                current.write(b);
                p++;
            }
            return true;
        }

        /** Consumes one step inside single quotes; false on an unterminated quote. */
        private boolean singleQuoted(int b) {
            if (b == 0) {
                return false;
            }
            if (b == '\\' && at(p + 1) == '\'') {
                current.write('\'');
                p += 2;
            } else if (b != '\'') {
                current.write(b);
                p++;
            }
            return true;
        }

        /** The argument after its closing quote, which must be followed by whitespace or the end. */
        private byte[] closed() {
            int next = at(p);
            if (next != 0 && !isSpace(next)) {
                return null;
            }
            return current.toByteArray();
        }
    }

    private static int unescape(int c) {
        switch (c) {
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'b':
                return '\b';
            case 'a':
                return 7;
            default:
                return c;
        }
    }

    private static boolean isSpace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == 0x0b || b == 0x0c;
    }

    private static boolean isHex(int b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }

    private static int hex(int b) {
        if (b <= '9') {
            return b - '0';
        }
        return (b | 0x20) - 'a' + 10;
    }
}
