package dev.ordo.engine.script.lib;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * {@code cjson.encode}: lua-cjson 2.1.0's JSON writer.
 *
 * <p>A table whose keys are all integral numbers {@code >= 1} is an array of length max-key (holes are {@code null})
 * unless it is excessively sparse (max-key {@code >} ratio times the key count and {@code >} safe), which is an error
 * or, with {@code encode_sparse_array(true)}, an object; any other table, and the empty one, is an object whose number
 * keys are written as strings. Numbers use {@code %.<encode_number_precision>g}; strings are escaped as lua-cjson
 * does ({@code /} as {@code \/}, control bytes and DEL as {@code \}{@code u00XX}, other bytes unchanged). Like
 * lua-cjson, a key of 2^31 or more sets max-key to {@code INT_MIN} (the x86 cast) when it exceeds the max so far,
 * which usually makes the table an object; but a smaller key seen later raises max-key again, so for tables that mix
 * such keys with small ones the outcome depends on iteration order, and LuaJ's order is not Lua 5.1's.
 *
 * <p>Tables are walked with an explicit stack rather than recursion, so deep nesting cannot overflow the Java stack.
 * Nesting stops at {@code encode_max_depth} and, as in Lua, where the tables being walked would take more than
 * {@value LuaArgs#MAX_C_STACK} Lua stack slots (one per enclosing array, two per enclosing object): 7997 nested
 * arrays or 3999 nested objects when the depth limit allows.
 */
final class JsonEncoder {

    /** Stack slots {@code json_check_encode_depth} asks for at each table. */
    private static final int SLOTS_PER_TABLE_CHECK = 3;
    private static final byte[][] ESCAPES = escapes();

    private final JsonConfig config;
    private final ByteSink out = new ByteSink(64);

    private JsonEncoder(JsonConfig config) {
        this.config = config;
    }

    /** Returns the JSON text of {@code value}, or throws lua-cjson's error. */
    static LuaString encode(LuaValue value, JsonConfig config) {
        JsonEncoder encoder = new JsonEncoder(config);
        encoder.write(value);
        return encoder.out.toLuaString();
    }

    /** One table being written; {@code arrayLength} is 0 for an object. */
    private static final class Frame {
        final LuaTable table;
        final int arrayLength;
        final int stackSlots;
        int nextIndex = 1;
        LuaValue lastKey = LuaValue.NIL;

        Frame(LuaTable table, int arrayLength, int stackSlots) {
            this.table = table;
            this.arrayLength = arrayLength;
            this.stackSlots = stackSlots;
        }

        /** Stack slots in use while a child of this table is written: its key (objects) and the child. */
        int childSlots() {
            return stackSlots + (arrayLength > 0 ? 1 : 2);
        }
    }

    private void write(LuaValue root) {
        Deque<Frame> frames = new ArrayDeque<>();
        LuaValue pending = root;
        boolean hasPending = true;
        while (true) {
            if (hasPending) {
                if (pending.type() == LuaValue.TTABLE) {
                    int slots = frames.isEmpty() ? 1 : frames.peek().childSlots();
                    frames.push(openTable((LuaTable) pending, frames.size() + 1, slots));
                } else {
                    writeScalar(pending);
                }
                hasPending = false;
            }
            Frame frame = frames.peek();
            if (frame == null) {
                return;
            }
            if (frame.arrayLength > 0) {
                if (frame.nextIndex > frame.arrayLength) {
                    out.append(']');
                    frames.pop();
                    continue;
                }
                if (frame.nextIndex > 1) {
                    out.append(',');
                }
                pending = frame.table.rawget(frame.nextIndex++);
            } else {
                Varargs entry = frame.table.next(frame.lastKey);
                LuaValue key = entry.arg1();
                if (key.isnil()) {
                    out.append('}');
                    frames.pop();
                    continue;
                }
                if (!frame.lastKey.isnil()) {
                    out.append(',');
                }
                writeKey(key);
                frame.lastKey = key;
                pending = entry.arg(2);
            }
            hasPending = true;
        }
    }

    private Frame openTable(LuaTable table, int depth, int stackSlots) {
        if (depth > config.encodeMaxDepth || stackSlots + SLOTS_PER_TABLE_CHECK > LuaArgs.MAX_C_STACK) {
            throw LuaArgs.error("Cannot serialise, excessive nesting (" + depth + ")");
        }
        int length = arrayLength(table);
        out.append(length > 0 ? '[' : '{');
        return new Frame(table, Math.max(length, 0), stackSlots);
    }

    /** lua-cjson's {@code lua_array_length}: the array length, or a value {@code <= 0} for an object. */
    private int arrayLength(LuaTable table) {
        int max = 0;
        int items = 0;
        LuaValue key = LuaValue.NIL;
        while (true) {
            key = table.next(key).arg1();
            if (key.isnil()) {
                break;
            }
            if (key.type() != LuaValue.TNUMBER) {
                return -1;
            }
            double k = key.todouble();
            if (k == 0 || Math.floor(k) != k || k < 1) {
                return -1;
            }
            if (k > max) {
                max = CConversions.toInt32(k);
            }
            items++;
        }
        if (config.encodeSparseRatio > 0 && max > items * config.encodeSparseRatio && max > config.encodeSparseSafe) {
            if (!config.encodeSparseConvert) {
                throw cannotSerialise("table", "excessively sparse array");
            }
            return -1;
        }
        return max;
    }

    private void writeKey(LuaValue key) {
        switch (key.type()) {
            case LuaValue.TNUMBER:
                out.append('"');
                writeNumber(key.todouble());
                out.append('"');
                break;
            case LuaValue.TSTRING:
                writeString(key.checkstring());
                break;
            default:
                throw cannotSerialise(key.typename(), "table key must be a number or string");
        }
        out.append(':');
    }

    private void writeScalar(LuaValue value) {
        switch (value.type()) {
            case LuaValue.TSTRING:
                writeString(value.checkstring());
                break;
            case LuaValue.TNUMBER:
                writeNumber(value.todouble());
                break;
            case LuaValue.TBOOLEAN:
                out.appendAscii(value.toboolean() ? "true" : "false");
                break;
            case LuaValue.TNIL:
                out.appendAscii("null");
                break;
            default:
                if (value == CjsonLib.NULL) {
                    out.appendAscii("null");
                    break;
                }
                throw cannotSerialise(value.typename(), "type not supported");
        }
    }

    private void writeNumber(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            switch (config.encodeInvalidNumbers) {
                case JsonConfig.INVALID_NUMBERS_OFF:
                    throw cannotSerialise("number", "must not be NaN or Inf");
                case JsonConfig.INVALID_NUMBERS_NULL:
                    out.appendAscii("null");
                    return;
                default:
                    if (Double.isNaN(d)) {
                        out.appendAscii("nan");
                        return;
                    }
                    break;
            }
        }
        out.appendAscii(LuaNumberFormat.g(d, config.encodeNumberPrecision));
    }

    private void writeString(LuaString s) {
        out.append('"');
        byte[] b = s.m_bytes;
        for (int i = s.m_offset, end = s.m_offset + s.m_length; i < end; i++) {
            byte[] escape = ESCAPES[b[i] & 0xff];
            if (escape == null) {
                out.append(b[i]);
            } else {
                out.append(escape, 0, escape.length);
            }
        }
        out.append('"');
    }

    private static LuaError cannotSerialise(String type, String reason) {
        return LuaArgs.error("Cannot serialise " + type + ": " + reason);
    }

    private static byte[][] escapes() {
        byte[][] table = new byte[256][];
        for (int c = 0; c < 0x20; c++) {
            table[c] = ascii(String.format("\\u%04x", c));
        }
        table['\b'] = ascii("\\b");
        table['\t'] = ascii("\\t");
        table['\n'] = ascii("\\n");
        table['\f'] = ascii("\\f");
        table['\r'] = ascii("\\r");
        table['"'] = ascii("\\\"");
        table['\\'] = ascii("\\\\");
        table['/'] = ascii("\\/");
        table[0x7f] = ascii("\\u007f");
        return table;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
