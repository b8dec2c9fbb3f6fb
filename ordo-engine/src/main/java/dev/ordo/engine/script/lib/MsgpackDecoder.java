package dev.ordo.engine.script.lib;

import java.util.ArrayDeque;
import java.util.Deque;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * {@code cmsgpack.unpack}'s reader for lua-cmsgpack 0.4.0: one top-level MessagePack object per
 * {@link #decodeNext(int)} call, from a cursor over a Lua string.
 *
 * <p>It reads nil, booleans, every int and uint format (uint 64 as a signed 64-bit value, as lua-cmsgpack on Lua 5.1
 * does), float 32/64, fixstr and str 8/16/32, and all array and map formats. bin, ext and 0xc1 are
 * {@code Bad data format in input.}; running out of bytes is {@code Missing bytes in input.}. A map key that is nil or
 * NaN raises Lua's {@code table index is nil}/{@code table index is NaN}.
 *
 * <p>Lua's stack limit is modelled rather than Java's: as in lua-cmsgpack each value needs a free Lua stack slot (else
 * {@code stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)}) and each array one
 * more ({@code stack overflow (in function mp_decode_to_lua_array)}), out of 8000, with one slot per decoded result,
 * two per open array (table and index) and one or two per open map (table, key). Containers are decoded with an
 * explicit stack, so nesting never overflows the Java stack.
 */
final class MsgpackDecoder {

    private static final String TOO_MANY_VALUES =
            "stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)";
    private static final String ARRAY_STACK = "stack overflow (in function mp_decode_to_lua_array)";

    private final byte[] data;
    private final int end;
    private int pos;

    /** Reads {@code s} from byte {@code offset}, which must be within it. */
    MsgpackDecoder(LuaString s, int offset) {
        this.data = s.m_bytes;
        this.end = s.m_offset + s.m_length;
        this.pos = s.m_offset + offset;
    }

    /** Bytes not yet read. */
    int left() {
        return end - pos;
    }

    /** Signals a truncated object; caught by {@link #decodeNext(int)} and reported as lua-cmsgpack does. */
    private static final class Truncated extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Truncated() {
            super(null, null, false, false);
        }
    }

    /** Signals an unknown type byte; caught by {@link #decodeNext(int)} and reported as lua-cmsgpack does. */
    private static final class BadFormat extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadFormat() {
            super(null, null, false, false);
        }
    }

    /** One open container; a map alternates between expecting a key and a value. */
    private static final class Frame {
        final LuaTable table;
        final boolean map;
        final int baseSlots;
        long remaining;
        int index = 1;
        boolean expectingValue;
        LuaValue key;

        Frame(LuaTable table, boolean map, long remaining, int baseSlots) {
            this.table = table;
            this.map = map;
            this.remaining = remaining;
            this.baseSlots = baseSlots;
        }

        /** Lua stack slots in use while this container's next element is decoded. */
        int slotsForNext() {
            return baseSlots + (map && !expectingValue ? 1 : 2);
        }
    }

    /** Decodes the next top-level object, with {@code slots} Lua stack slots already in use; requires left() > 0. */
    LuaValue decodeNext(int slots) {
        try {
            return decode(slots);
        } catch (Truncated e) {
            throw LuaArgs.error("Missing bytes in input.");
        } catch (BadFormat e) {
            throw LuaArgs.error("Bad data format in input.");
        }
    }

    private LuaValue decode(int startSlots) {
        Deque<Frame> frames = new ArrayDeque<>();
        int slots = startSlots;
        while (true) {
            need(1);
            checkStack(slots, TOO_MANY_VALUES);
            int type = data[pos] & 0xff;
            LuaValue value;
            long containerSize = -1;
            boolean map = false;
            if (type <= 0x7f) {
                pos++;
                value = LuaValue.valueOf(type);
            } else if (type >= 0xe0) {
                pos++;
                value = LuaValue.valueOf((byte) type);
            } else if (type >= 0xa0 && type <= 0xbf) {
                value = readString(1, type & 0x1f);
            } else if (type >= 0x90 && type <= 0x9f) {
                pos++;
                containerSize = type & 0x0f;
                value = null;
            } else if (type >= 0x80 && type <= 0x8f) {
                pos++;
                containerSize = type & 0x0f;
                map = true;
                value = null;
            } else {
                switch (type) {
                    case 0xc0:
                        pos++;
                        value = LuaValue.NIL;
                        break;
                    case 0xc2:
                        pos++;
                        value = LuaValue.FALSE;
                        break;
                    case 0xc3:
                        pos++;
                        value = LuaValue.TRUE;
                        break;
                    case 0xcc:
                        value = LuaValue.valueOf((int) readUnsigned(1));
                        break;
                    case 0xcd:
                        value = LuaValue.valueOf((int) readUnsigned(2));
                        break;
                    case 0xce:
                        value = LuaValue.valueOf((double) readUnsigned(4));
                        break;
                    case 0xcf:
                    case 0xd3:
                        value = LuaValue.valueOf((double) readUnsigned(8));
                        break;
                    case 0xd0:
                        value = LuaValue.valueOf((byte) readUnsigned(1));
                        break;
                    case 0xd1:
                        value = LuaValue.valueOf((short) readUnsigned(2));
                        break;
                    case 0xd2:
                        value = LuaValue.valueOf((int) readUnsigned(4));
                        break;
                    case 0xca:
                        value = LuaValue.valueOf((double) Float.intBitsToFloat((int) readUnsigned(4)));
                        break;
                    case 0xcb:
                        value = LuaValue.valueOf(Double.longBitsToDouble(readUnsigned(8)));
                        break;
                    case 0xd9:
                        need(2);
                        value = readString(2, data[pos + 1] & 0xff);
                        break;
                    case 0xda:
                        need(3);
                        value = readString(3, peekUnsigned(2));
                        break;
                    case 0xdb:
                        need(5);
                        value = readString(5, peekUnsigned(4));
                        break;
                    case 0xdc:
                        containerSize = readUnsigned(2);
                        value = null;
                        break;
                    case 0xdd:
                        containerSize = readUnsigned(4);
                        value = null;
                        break;
                    case 0xde:
                        containerSize = readUnsigned(2);
                        map = true;
                        value = null;
                        break;
                    case 0xdf:
                        containerSize = readUnsigned(4);
                        map = true;
                        value = null;
                        break;
                    default:
                        throw new BadFormat();
                }
            }
            if (value == null) {
                LuaTable table = new LuaTable();
                if (!map) {
                    checkStack(slots + 1, ARRAY_STACK);
                }
                if (containerSize > 0) {
                    Frame frame = new Frame(table, map, containerSize, slots);
                    frames.push(frame);
                    slots = frame.slotsForNext();
                    continue;
                }
                value = table;
            }
            // A value is complete: store it in its container, closing containers that end here.
            while (true) {
                Frame frame = frames.peek();
                if (frame == null) {
                    return value;
                }
                if (!frame.map) {
                    frame.table.rawset(frame.index++, value);
                } else if (!frame.expectingValue) {
                    frame.key = value;
                    frame.expectingValue = true;
                    slots = frame.slotsForNext();
                    break;
                } else {
                    setField(frame.table, frame.key, value);
                    frame.expectingValue = false;
                }
                if (--frame.remaining == 0) {
                    frames.pop();
                    value = frame.table;
                    continue;
                }
                slots = frame.slotsForNext();
                break;
            }
        }
    }

    private static void setField(LuaTable table, LuaValue key, LuaValue value) {
        if (key.isnil()) {
            throw LuaArgs.vmError("table index is nil");
        }
        if (key.type() == LuaValue.TNUMBER && Double.isNaN(key.todouble())) {
            throw LuaArgs.vmError("table index is NaN");
        }
        table.rawset(key, value);
    }

    /** {@code luaL_checkstack(L, 1, ...)} with {@code slots} in use, against Lua 5.1's 8000-slot limit. */
    private static void checkStack(int slots, String message) {
        if (slots + 1 > LuaArgs.MAX_C_STACK) {
            throw LuaArgs.error(message);
        }
    }

    private void need(long count) {
        if (end - pos < count) {
            throw new Truncated();
        }
    }

    /** Reads the type byte and the big-endian unsigned value in the {@code size} bytes after it. */
    private long readUnsigned(int size) {
        need(1 + size);
        pos++;
        long value = peekAt(pos, size);
        pos += size;
        return value;
    }

    /** The big-endian unsigned value in the {@code size} bytes after the type byte, without consuming anything. */
    private long peekUnsigned(int size) {
        return peekAt(pos + 1, size);
    }

    private long peekAt(int from, int size) {
        long value = 0;
        for (int i = 0; i < size; i++) {
            value = (value << 8) | (data[from + i] & 0xff);
        }
        return value;
    }

    private LuaString readString(int headerSize, long length) {
        need(headerSize + length);
        int from = pos + headerSize;
        pos = from + (int) length;
        return LuaString.valueOf(data, from, (int) length);
    }
}
