package dev.ordo.engine.script.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * {@code cmsgpack.pack}'s writer, with lua-cmsgpack 0.4.0's type choices.
 *
 * <pre>
 * value                                   written as
 * nil, function, userdata, thread         nil (0xc0)
 * boolean                                 false (0xc2) / true (0xc3)
 * integral number in [-2^63, 2^63)        smallest of fixint, uint 8/16/32/64 (>= 0), int 8/16/32/64 (< 0)
 * other number                            float 32 when the float is the same number (also +-inf), else float 64
 * string                                  fixstr (< 32 bytes), str 8, str 16, str 32
 * table with keys exactly 1..n            fixarray (n <= 15), array 16, array 32; the empty table is []
 * other table                             fixmap, map 16, map 32, entries in table order
 * table nested 16 deep                    nil (lua-cmsgpack's guard against cycles)
 * </pre>
 *
 * {@code -0.0} is the integer 0; NaN is a float 64 that keeps its sign bit.
 */
final class MsgpackEncoder {

    /** lua-cmsgpack's {@code LUACMSGPACK_MAX_NESTING}: a table at this level is written as nil. */
    static final int MAX_NESTING = 16;

    private final ByteSink out = new ByteSink(32);

    private MsgpackEncoder() {
    }

    /** Returns the MessagePack objects of all {@code values}, one after the other. */
    static LuaString pack(Varargs values) {
        MsgpackEncoder encoder = new MsgpackEncoder();
        for (int i = 1; i <= values.narg(); i++) {
            encoder.write(values.arg(i), 0);
        }
        return encoder.out.toLuaString();
    }

    private void write(LuaValue value, int level) {
        int type = value.type();
        if (type == LuaValue.TTABLE && level == MAX_NESTING) {
            type = LuaValue.TNIL;
        }
        switch (type) {
            case LuaValue.TSTRING:
                writeString(value.checkstring());
                break;
            case LuaValue.TBOOLEAN:
                out.append(value.toboolean() ? 0xc3 : 0xc2);
                break;
            case LuaValue.TNUMBER:
                writeNumber(value.todouble());
                break;
            case LuaValue.TTABLE:
                writeTable((LuaTable) value, level);
                break;
            default:
                out.append(0xc0);
                break;
        }
    }

    private void writeString(LuaString s) {
        int length = s.m_length;
        if (length < 32) {
            out.append(0xa0 | length);
        } else if (length <= 0xff) {
            out.append(0xd9);
            out.append(length);
        } else if (length <= 0xffff) {
            out.append(0xda);
            out.appendBigEndian(length, 2);
        } else {
            out.append(0xdb);
            out.appendBigEndian(length, 4);
        }
        out.append(s);
    }

    private void writeNumber(double d) {
        long asLong = CConversions.toInt64(d);
        if (!Double.isInfinite(d) && asLong == d) {
            writeInteger(asLong);
            return;
        }
        float f = (float) d;
        if (f == d) {
            out.append(0xca);
            out.appendBigEndian(Float.floatToRawIntBits(f), 4);
        } else {
            out.append(0xcb);
            out.appendBigEndian(Double.doubleToRawLongBits(d), 8);
        }
    }

    private void writeInteger(long n) {
        if (n >= 0) {
            if (n <= 127) {
                out.append((int) n);
            } else if (n <= 0xff) {
                out.append(0xcc);
                out.append((int) n);
            } else if (n <= 0xffff) {
                out.append(0xcd);
                out.appendBigEndian(n, 2);
            } else if (n <= 0xffffffffL) {
                out.append(0xce);
                out.appendBigEndian(n, 4);
            } else {
                out.append(0xcf);
                out.appendBigEndian(n, 8);
            }
        } else if (n >= -32) {
            out.append((int) n);
        } else if (n >= -128) {
            out.append(0xd0);
            out.append((int) n);
        } else if (n >= -32768) {
            out.append(0xd1);
            out.appendBigEndian(n, 2);
        } else if (n >= -2147483648L) {
            out.append(0xd2);
            out.appendBigEndian(n, 4);
        } else {
            out.append(0xd3);
            out.appendBigEndian(n, 8);
        }
    }

    private void writeTable(LuaTable table, int level) {
        int count = arrayCount(table);
        if (count >= 0) {
            writeHeader(count, 0x90, 0xdc, 0xdd);
            for (int i = 1; i <= count; i++) {
                write(table.rawget(i), level + 1);
            }
            return;
        }
        int entries = 0;
        LuaValue key = LuaValue.NIL;
        while (!(key = table.next(key).arg1()).isnil()) {
            entries++;
        }
        writeHeader(entries, 0x80, 0xde, 0xdf);
        key = LuaValue.NIL;
        while (true) {
            Varargs entry = table.next(key);
            key = entry.arg1();
            if (key.isnil()) {
                return;
            }
            write(key, level + 1);
            write(entry.arg(2), level + 1);
        }
    }

    /** lua-cmsgpack's {@code table_is_an_array}: the key count when the keys are exactly 1..n, else -1. */
    private static int arrayCount(LuaTable table) {
        int count = 0;
        int max = 0;
        LuaValue key = LuaValue.NIL;
        while (!(key = table.next(key).arg1()).isnil()) {
            if (key.type() != LuaValue.TNUMBER) {
                return -1;
            }
            double n = key.todouble();
            if (n <= 0 || Double.isInfinite(n) || CConversions.toInt32(n) != n) {
                return -1;
            }
            max = Math.max(max, (int) n);
            count++;
        }
        return max == count ? count : -1;
    }

    private void writeHeader(int count, int fixBase, int code16, int code32) {
        if (count <= 15) {
            out.append(fixBase | count);
        } else if (count <= 0xffff) {
            out.append(code16);
            out.appendBigEndian(count, 2);
        } else {
            out.append(code32);
            out.appendBigEndian(count, 4);
        }
    }
}
