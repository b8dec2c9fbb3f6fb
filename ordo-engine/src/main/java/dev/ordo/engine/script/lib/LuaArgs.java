package dev.ordo.engine.script.lib;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Lua 5.1's {@code lauxlib} argument checks for the libraries in this package, with Lua's texts ({@code bad argument
 * #2 to 'pack' (number expected, got nil)}) rather than LuaJ's, and Lua 5.1's coercions: numbers become strings with
 * {@code %.14g}, numeric strings become numbers, and {@code luaL_checkinteger} truncates as C's cast does on x86-64.
 * The function name in messages is the name the library registered, where Lua would use the name at the call site
 * ({@code ?} when a function is called through {@code pcall}). Messages are Java strings, which LuaJ turns into UTF-8,
 * so a byte of 0x80 or more that a message quotes outside valid UTF-8 comes out re-encoded.
 */
public final class LuaArgs {

    /**
     * Lua 5.1's {@code LUAI_MAXCSTACK}: the most stack slots one C function may use. The libraries count the slots
     * lua-cjson and lua-cmsgpack would use and fail where they would, which also bounds how deep they nest.
     */
    static final int MAX_C_STACK = 8000;

    private LuaArgs() {
    }

    /** Returns {@code luaL_error}'s error: LuaJ adds the calling Lua function's position, as Lua does. */
    static LuaError error(String message) {
        return new LuaError(message);
    }

    /** Returns an error raised by Lua's VM inside a C function (e.g. {@code table index is nil}): no position. */
    static LuaError vmError(String message) {
        return new LuaError(LuaValue.valueOf(message));
    }

    /** Returns {@code luaL_argerror}'s error for argument {@code narg} of function {@code fname}. */
    static LuaError argError(int narg, String fname, String extraMessage) {
        return new LuaError("bad argument #" + narg + " to '" + fname + "' (" + extraMessage + ")");
    }

    /** Returns {@code luaL_typerror}'s error: {@code <expected> expected, got <type of the argument or no value>}. */
    static LuaError typeError(Varargs args, int narg, String fname, String expected) {
        return argError(narg, fname, expected + " expected, got " + typeName(args, narg));
    }

    /** Returns {@code luaL_typename} of argument {@code narg}: its type name, or {@code no value} when absent. */
    static String typeName(Varargs args, int narg) {
        return isNone(args, narg) ? "no value" : args.arg(narg).typename();
    }

    /** Whether argument {@code narg} is absent ({@code lua_isnone}). */
    static boolean isNone(Varargs args, int narg) {
        return narg > args.narg();
    }

    /** Whether argument {@code narg} is absent or nil ({@code lua_isnoneornil}). */
    static boolean isNoneOrNil(Varargs args, int narg) {
        return isNone(args, narg) || args.arg(narg).isnil();
    }

    /**
     * Returns {@code lua_tonumber} of {@code v}: a number, or a string that Lua 5.1's {@code luaO_str2d} reads
     * completely (as {@code strtod} reads it, white space around it allowed, up to its first NUL byte); otherwise
     * null. LuaJ's own coercion differs, e.g. it reads {@code "-"} as 0.
     */
    public static Double toNumber(LuaValue v) {
        if (v.type() == LuaValue.TNUMBER) {
            return v.todouble();
        }
        if (v.type() != LuaValue.TSTRING) {
            return null;
        }
        LuaString s = v.checkstring();
        int end = s.m_offset;
        int limit = s.m_offset + s.m_length;
        while (end < limit && s.m_bytes[end] != 0) {
            end++;
        }
        int i = skipSpace(s.m_bytes, s.m_offset, end);
        CStrtod strtod = new CStrtod(s.m_bytes, end);
        if (!strtod.parse(i) || skipSpace(s.m_bytes, strtod.end(), end) != end) {
            return null;
        }
        return strtod.value();
    }

    private static int skipSpace(byte[] b, int from, int end) {
        int i = from;
        while (i < end && (b[i] == ' ' || (b[i] >= '\t' && b[i] <= '\r'))) {
            i++;
        }
        return i;
    }

    /** Returns {@code luaL_checknumber}: a number or numeric string argument as a double. */
    static double checkNumber(Varargs args, int narg, String fname) {
        Double n = toNumber(args.arg(narg));
        if (n == null) {
            throw typeError(args, narg, fname, "number");
        }
        return n;
    }

    /** Returns {@code luaL_checkinteger}: the number truncated toward zero as x86-64's {@code (long)} cast does. */
    static long checkInteger(Varargs args, int narg, String fname) {
        return CConversions.toInt64(checkNumber(args, narg, fname));
    }

    /** Returns {@code luaL_optinteger}: {@code def} when the argument is absent or nil. */
    static long optInteger(Varargs args, int narg, String fname, long def) {
        return isNoneOrNil(args, narg) ? def : checkInteger(args, narg, fname);
    }

    /** Returns {@code luaL_checklstring}: a string, or a number converted with {@code %.14g}. */
    static LuaString checkString(Varargs args, int narg, String fname) {
        LuaString s = toLuaString(args.arg(narg));
        if (s == null) {
            throw typeError(args, narg, fname, "string");
        }
        return s;
    }

    /**
     * Returns the bytes of {@code s} as a Java string for an error message: decoded as UTF-8 when they are valid
     * UTF-8 (LuaJ encodes messages back as UTF-8, so these keep their bytes), else one char per byte. LuaJ's own
     * {@code tojstring} fails on some invalid UTF-8.
     */
    static String messageText(LuaString s) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(s.m_bytes, s.m_offset, s.m_length))
                    .toString();
        } catch (CharacterCodingException e) {
            return new String(s.m_bytes, s.m_offset, s.m_length, StandardCharsets.ISO_8859_1);
        }
    }

    /** Returns {@code lua_tolstring} of {@code v}: the string itself, a number as {@code %.14g}, otherwise null. */
    static LuaString toLuaString(LuaValue v) {
        if (v.type() == LuaValue.TSTRING) {
            return v.checkstring();
        }
        if (v.type() == LuaValue.TNUMBER) {
            return LuaString.valueOf(LuaNumberFormat.g14(v.todouble()));
        }
        return null;
    }
}
