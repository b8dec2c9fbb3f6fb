package dev.ordo.engine.script.lib;

import java.util.Arrays;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The {@code struct} library of Redis 7's scripts, Roberto Ierusalimschy's lua-struct as Redis patches it:
 * {@code pack(fmt, ...)}, {@code unpack(fmt, s [, pos])} (the values, then the position after them) and
 * {@code size(fmt)}, with the sizes of x86-64 Linux.
 *
 * <pre>
 * option   meaning                                   size (bytes)
 * &gt; &lt;      big / little endian (little is native)    -
 * ![n]     align to min(size, n), n a power of 2     default n = 8
 * x        one padding byte                          1
 * b B      signed / unsigned char                    1
 * h H      signed / unsigned short                   2
 * l L      signed / unsigned long                    8
 * T        size_t                                    8
 * i[n] I[n] signed / unsigned integer of n bytes     default 4, at most 32
 * c[n]     n chars; pack: n = 0 means the whole string; unpack: n = 0 takes the previous result as the length
 * s        zero-terminated string
 * f d      float / double                            4 / 8
 * ' '      ignored
 * </pre>
 *
 * <p>Integers are packed from their 64-bit value (C {@code long}): wider fields get zero bytes beyond the eighth,
 * out-of-range doubles convert as x86-64 does, and unpacking keeps the low 64 bits of a wider field, extending the
 * sign from bit {@code (8n - 1) mod 64}. Alignment pads with {@code (s - (pos & (s - 1))) & (s - 1)} zero bytes for a
 * field of size s (capped by the alignment), which is lua-struct's formula, also for sizes that are no power of 2.
 * A format ends at its first NUL byte. {@code size} ignores letters and digits it does not know.
 */
public final class StructLib extends TwoArgFunction {

    private static final int MAX_INT_SIZE = 32;
    private static final int MAX_ALIGN = 8;
    private static final int INT_SIZE = 4;
    private static final int LONG_SIZE = 8;

    /** Creates the library; {@code globals.load(new StructLib())} installs it. */
    public StructLib() {
    }

    /** Sets {@code env.struct} to a new module table and returns it. */
    @Override
    public LuaValue call(LuaValue modname, LuaValue env) {
        LuaTable module = new LuaTable();
        LibraryFunction.register(module, "pack", StructLib::pack);
        LibraryFunction.register(module, "unpack", StructLib::unpack);
        LibraryFunction.register(module, "size", StructLib::size);
        env.set("struct", module);
        return module;
    }

    /** A format string being read, with the endianness and alignment its options have set so far. */
    private static final class Format {
        final String function;
        final byte[] fmt;
        final int end;
        int pos;
        boolean littleEndian = true;
        int align = 1;

        Format(LuaString format, String function) {
            this.function = function;
            this.fmt = format.m_bytes;
            this.pos = format.m_offset;
            int stop = format.m_offset;
            int limit = format.m_offset + format.m_length;
            while (stop < limit && format.m_bytes[stop] != 0) {
                stop++;
            }
            this.end = stop;
        }

        boolean hasNext() {
            return pos < end;
        }

        int next() {
            return fmt[pos++] & 0xff;
        }

        private boolean atDigit() {
            return pos < end && fmt[pos] >= '0' && fmt[pos] <= '9';
        }

        /** lua-struct's {@code getnum}: the decimal number here, or {@code def} when there is none. */
        int number(int def) {
            if (!atDigit()) {
                return def;
            }
            int a = 0;
            do {
                int digit = fmt[pos] - '0';
                if (a > Integer.MAX_VALUE / 10 || a * 10 > Integer.MAX_VALUE - digit) {
                    throw LuaArgs.error("integral size overflow");
                }
                a = a * 10 + digit;
                pos++;
            } while (atDigit());
            return a;
        }

        /** lua-struct's {@code optsize}: the size of option {@code opt}, reading its number; 0 for the others. */
        long size(int opt) {
            switch (opt) {
                case 'B':
                case 'b':
                case 'x':
                    return 1;
                case 'H':
                case 'h':
                    return 2;
                case 'L':
                case 'l':
                case 'T':
                case 'd':
                    return LONG_SIZE;
                case 'f':
                    return 4;
                case 'c':
                    return number(1);
                case 'i':
                case 'I': {
                    int size = number(INT_SIZE);
                    if (size > MAX_INT_SIZE) {
                        throw LuaArgs.error("integral size " + size + " is larger than limit of " + MAX_INT_SIZE);
                    }
                    return size;
                }
                default:
                    return 0;
            }
        }

        /** lua-struct's {@code gettoalign}: padding before a field of {@code size} bytes at offset {@code at}. */
        long padding(long at, int opt, long size) {
            if (size == 0 || opt == 'c') {
                return 0;
            }
            long s = Math.min(size, align);
            return (s - (at & (s - 1))) & (s - 1);
        }

        /** lua-struct's {@code controloptions}: endianness, alignment and spaces; anything else is an error. */
        void control(int opt) {
            switch (opt) {
                case ' ':
                    return;
                case '>':
                    littleEndian = false;
                    return;
                case '<':
                    littleEndian = true;
                    return;
                case '!': {
                    int a = number(MAX_ALIGN);
                    if (a <= 0 || (a & (a - 1)) != 0) {
                        throw LuaArgs.error("alignment " + a + " is not a power of 2");
                    }
                    align = a;
                    return;
                }
                default:
                    throw LuaArgs.argError(1, function, "invalid format option '" + (char) opt + "'");
            }
        }
    }

    private static boolean isIntegerOption(int opt) {
        switch (opt) {
            case 'b':
            case 'B':
            case 'h':
            case 'H':
            case 'l':
            case 'L':
            case 'T':
            case 'i':
            case 'I':
                return true;
            default:
                return false;
        }
    }

    private static Varargs pack(Varargs packArgs) {
        Format format = new Format(LuaArgs.checkString(packArgs, 1, "pack"), "pack");
        Varargs args = withNilMarker(packArgs);
        ByteSink out = new ByteSink(32);
        int arg = 2;
        long total = 0;
        while (format.hasNext()) {
            int opt = format.next();
            long size = format.size(opt);
            long padding = format.padding(total, opt, size);
            total += padding;
            for (long i = 0; i < padding; i++) {
                out.append(0);
            }
            if (isIntegerOption(opt)) {
                double n = LuaArgs.checkNumber(args, arg++, "pack");
                long value = n < 0 ? CConversions.toInt64(n) : CConversions.toUint64(n);
                writeInteger(out, value, (int) size, format.littleEndian);
            } else if (opt == 'x') {
                out.append(0);
            } else if (opt == 'f') {
                float f = (float) LuaArgs.checkNumber(args, arg++, "pack");
                writeInteger(out, Float.floatToRawIntBits(f) & 0xffffffffL, 4, format.littleEndian);
            } else if (opt == 'd') {
                double d = LuaArgs.checkNumber(args, arg++, "pack");
                writeInteger(out, Double.doubleToRawLongBits(d), 8, format.littleEndian);
            } else if (opt == 'c' || opt == 's') {
                LuaString s = LuaArgs.checkString(args, arg++, "pack");
                if (size == 0) {
                    size = s.m_length;
                }
                if (s.m_length < size) {
                    throw LuaArgs.argError(arg, "pack", "string too short");
                }
                out.append(s.m_bytes, s.m_offset, (int) size);
                if (opt == 's') {
                    out.append(0);
                    size++;
                }
            } else {
                format.control(opt);
            }
            total += size;
        }
        return out.toLuaString();
    }

    /**
     * {@code b_pack} pushes a nil to separate its arguments from its string buffer, so a missing argument right after
     * the last one reads as nil, not as no value. (The buffer's own stack entries, which lua-struct reads as further
     * arguments once output passes 8 KiB, are not modelled.)
     */
    private static Varargs withNilMarker(Varargs args) {
        LuaValue[] values = new LuaValue[args.narg() + 1];
        for (int i = 0; i < args.narg(); i++) {
            values[i] = args.arg(i + 1);
        }
        values[args.narg()] = LuaValue.NIL;
        return LuaValue.varargsOf(values);
    }

    /** lua-struct's {@code putinteger}: the low bytes of {@code value}, zeros past the eighth. */
    private static void writeInteger(ByteSink out, long value, int size, boolean littleEndian) {
        byte[] bytes = new byte[size];
        long v = value;
        for (int i = 0; i < size; i++) {
            bytes[littleEndian ? i : size - 1 - i] = (byte) v;
            v >>>= 8;
        }
        out.append(bytes, 0, size);
    }

    private static Varargs unpack(Varargs args) {
        Format format = new Format(LuaArgs.checkString(args, 1, "unpack"), "unpack");
        LuaString data = LuaArgs.checkString(args, 2, "unpack");
        long length = data.m_length;
        long pos = LuaArgs.optInteger(args, 3, "unpack", 1);
        if (pos == 0) {
            throw LuaArgs.argError(3, "unpack", "offset must be 1 or greater");
        }
        pos--;
        LuaValue[] results = new LuaValue[8];
        int n = 0;
        while (format.hasNext()) {
            int opt = format.next();
            long size = format.size(opt);
            pos += format.padding(pos, opt, size);
            checkData(size, pos, length);
            if (args.narg() + n + 2 > LuaArgs.MAX_C_STACK) {
                throw LuaArgs.error("stack overflow (too many results)");
            }
            if (n + 1 >= results.length) {
                results = Arrays.copyOf(results, results.length * 2);
            }
            int at = data.m_offset + (int) pos;
            if (isIntegerOption(opt)) {
                results[n++] = readInteger(data.m_bytes, at, (int) size, format.littleEndian,
                        Character.isLowerCase(opt));
            } else if (opt == 'f') {
                int bits = (int) readBits(data.m_bytes, at, 4, format.littleEndian);
                results[n++] = LuaValue.valueOf((double) Float.intBitsToFloat(bits));
            } else if (opt == 'd') {
                results[n++] = LuaValue.valueOf(Double.longBitsToDouble(readBits(data.m_bytes, at, 8,
                        format.littleEndian)));
            } else if (opt == 'c') {
                if (size == 0) {
                    Double previous = n == 0 ? null : LuaArgs.toNumber(results[n - 1]);
                    if (previous == null) {
                        throw LuaArgs.error("format 'c0' needs a previous size");
                    }
                    n--;
                    size = CConversions.toUint64(previous);
                    checkData(size, pos, length);
                }
                results[n++] = LuaString.valueOf(data.m_bytes, at, (int) size);
            } else if (opt == 's') {
                int nul = -1;
                for (int i = at, stop = data.m_offset + (int) length; i < stop; i++) {
                    if (data.m_bytes[i] == 0) {
                        nul = i;
                        break;
                    }
                }
                if (nul < 0) {
                    throw LuaArgs.error("unfinished string in data");
                }
                size = nul - at + 1;
                results[n++] = LuaString.valueOf(data.m_bytes, at, (int) size - 1);
            } else if (opt != 'x') {
                format.control(opt);
            }
            pos += size;
        }
        results[n++] = LuaValue.valueOf((double) (pos + 1));
        return LuaValue.varargsOf(Arrays.copyOf(results, n));
    }

    /** lua-struct's bounds check, in C's unsigned {@code size_t} arithmetic. */
    private static void checkData(long size, long pos, long length) {
        if (Long.compareUnsigned(size, length) > 0 || Long.compareUnsigned(pos, length - size) > 0) {
            throw LuaArgs.argError(2, "unpack", "data string too short");
        }
    }

    private static long readBits(byte[] b, int at, int size, boolean littleEndian) {
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = (value << 8) | (b[littleEndian ? at + size - 1 - i : at + i] & 0xff);
        }
        return value;
    }

    /** lua-struct's {@code getinteger}: the low 64 bits of the field, sign-extended as x86-64 shifts do. */
    private static LuaValue readInteger(byte[] b, int at, int size, boolean littleEndian, boolean signed) {
        long value = readBits(b, at, size, littleEndian);
        if (!signed) {
            return LuaValue.valueOf(CConversions.unsignedToDouble(value));
        }
        long mask = -1L << (size * 8 - 1);
        if ((value & mask) != 0) {
            value |= mask;
        }
        return LuaValue.valueOf((double) value);
    }

    private static Varargs size(Varargs args) {
        Format format = new Format(LuaArgs.checkString(args, 1, "size"), "size");
        long pos = 0;
        while (format.hasNext()) {
            int opt = format.next();
            long size = format.size(opt);
            pos += format.padding(pos, opt, size);
            if (opt == 's') {
                throw LuaArgs.argError(1, "size", "option 's' has no fixed size");
            }
            if (opt == 'c' && size == 0) {
                throw LuaArgs.argError(1, "size", "option 'c0' has no fixed size");
            }
            if (!isAsciiAlphanumeric(opt)) {
                format.control(opt);
            }
            pos += size;
        }
        return LuaValue.valueOf((double) pos);
    }

    private static boolean isAsciiAlphanumeric(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
}
