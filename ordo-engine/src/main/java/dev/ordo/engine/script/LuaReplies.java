package dev.ordo.engine.script;

import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.number.Doubles;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Redis's conversions between replies and Lua values, both ways.
 *
 * <p>Reply to Lua ({@link Capture}, what {@code redis.call} returns), for a script in RESP2:
 * integer to number, bulk string to string, null to {@code false}, array to table, status to
 * {@code {ok=...}}, error to {@code {err=...}}. Under {@code redis.setresp(3)} also: null to
 * nil, map to {@code {map={...}}}, set to {@code {set={member=true}}}, double to {@code
 * {double=n}}, boolean to a Lua boolean, verbatim string to {@code {verbatim_string={format=,
 * string=}}}.
 *
 * <p>Lua to reply ({@link #write}, what a script returns): number to integer (truncated), string
 * to bulk string, {@code true} to 1, {@code false} and nil to null, a table with {@code err} or
 * {@code ok} to an error or status reply, {@code double map set verbatim_string} tables to their
 * RESP3 types, any other table to an array of its elements up to the first nil.
 */
public final class LuaReplies {
    static final LuaString OK = LuaValue.valueOf("ok");
    static final LuaString ERR = LuaValue.valueOf("err");
    private static final LuaString IGNORE_ERROR_STATS = LuaValue.valueOf("ignore_error_stats_update");
    private static final LuaString DOUBLE = LuaValue.valueOf("double");
    private static final LuaString MAP = LuaValue.valueOf("map");
    private static final LuaString SET = LuaValue.valueOf("set");
    private static final LuaString BIG_NUMBER = LuaValue.valueOf("big_number");
    private static final LuaString VERBATIM = LuaValue.valueOf("verbatim_string");
    private static final LuaString FORMAT = LuaValue.valueOf("format");
    private static final LuaString STRING = LuaValue.valueOf("string");
    private static final int MAX_DEPTH = 1000;

    private LuaReplies() {
    }

    /**
     * A Lua number as the integer Redis replies with: C's cast to long long on x86-64, which
     * truncates toward zero and gives -2^63 for NaN and for anything out of range (Java's cast
     * would saturate at 2^63 - 1 instead).
     */
    static long truncated(double d) {
        return d >= -0x1p63 && d < 0x1p63 ? (long) d : Long.MIN_VALUE;
    }

    /** An error reply as Lua sees it: {@code {err=text}}. */
    static LuaTable errorTable(String text) {
        LuaTable t = new LuaTable();
        t.rawset(ERR, LuaValue.valueOf(text));
        return t;
    }

    /**
     * The table {@code redis.error_reply(text)} returns, normalised as Redis does it: the first
     * word (after an optional {@code -}) is the error code when a space follows it, else the code
     * is {@code ERR} and the whole text is the message; the message loses CRs and LFs at both ends.
     * So {@code 'FOO'} gives {@code ERR FOO}, {@code '-MY err'} gives {@code MY err}.
     */
    static LuaTable errorReplyTable(String text) {
        String s = text.startsWith("-") ? text.substring(1) : text;
        int space = s.indexOf(' ');
        String code = space < 0 ? "ERR" : s.substring(0, space);
        String message = space < 0 ? s : s.substring(space + 1);
        int from = 0;
        int to = message.length();
        while (from < to && (message.charAt(from) == '\r' || message.charAt(from) == '\n')) {
            from++;
        }
        while (to > from && (message.charAt(to - 1) == '\r' || message.charAt(to - 1) == '\n')) {
            to--;
        }
        return errorTable(code + " " + message.substring(from, to));
    }

    /**
     * An error that was counted where it arose (a command's error seen by redis.call or
     * redis.pcall), marked as Redis marks it, with a field scripts can see: passing the table on
     * as the script's reply does not count the error again.
     */
    static LuaTable countedErrorTable(String text) {
        LuaTable t = errorTable(text);
        t.rawset(IGNORE_ERROR_STATS, LuaValue.TRUE);
        return t;
    }

    /** Whether {@code v} is an error table marked as counted already. */
    static boolean isCounted(LuaValue v) {
        return v != null && v.istable() && v.rawget(IGNORE_ERROR_STATS).toboolean();
    }

    /** A status reply as Lua sees it: {@code {ok=text}}. */
    static LuaTable statusTable(String text) {
        LuaTable t = new LuaTable();
        t.rawset(OK, LuaValue.valueOf(text));
        return t;
    }

    /**
     * Writes a script's result; {@code resp} is the script's protocol (booleans differ). Error
     * replies go through {@code errors}, which counts those not counted already.
     *
     * @param v the script's result
     * @param out where the reply goes
     * @param resp the script's protocol, 2 or 3
     * @param errors counts the error replies
     */
    public static void write(LuaValue v, ReplyWriter out, int resp, Dispatcher errors) {
        write(v, out, resp, 0, errors);
    }

    private static void write(LuaValue v, ReplyWriter out, int resp, int depth, Dispatcher errors) {
        switch (v.type()) {
            case LuaValue.TSTRING: {
                LuaString s = v.checkstring();
                out.bulk(s.m_bytes, s.m_offset, s.m_length);
                return;
            }
            case LuaValue.TNUMBER:
                out.integer(truncated(v.todouble()));
                return;
            case LuaValue.TBOOLEAN:
                if (resp == 3) {
                    out.bool(v.toboolean());
                } else if (v.toboolean()) {
                    out.integer(1);
                } else {
                    out.nullBulk();
                }
                return;
            case LuaValue.TTABLE:
                if (depth >= MAX_DEPTH) {
                    errors.replyError(out, "ERR reached lua stack limit");
                    return;
                }
                writeTable((LuaTable) v, out, resp, depth, errors);
                return;
            default:
                out.nullBulk();
        }
    }

    private static void writeTable(LuaTable t, ReplyWriter out, int resp, int depth, Dispatcher errors) {
        LuaValue err = t.rawget(ERR);
        if (err.type() == LuaValue.TSTRING) {
            if (isCounted(t)) {
                errors.replyCountedError(out, errorText(err.tojstring()));
            } else {
                errors.replyError(out, errorText(err.tojstring()));
            }
            return;
        }
        LuaValue ok = t.rawget(OK);
        if (ok.type() == LuaValue.TSTRING) {
            out.simpleString(ok.tojstring().replace('\r', ' ').replace('\n', ' '));
            return;
        }
        LuaValue d = t.rawget(DOUBLE);
        if (d.type() == LuaValue.TNUMBER) {
            out.doubleValue(d.todouble());
            return;
        }
        LuaValue big = t.rawget(BIG_NUMBER);
        if (big.type() == LuaValue.TSTRING) {
            out.bigNumber(big.tojstring().getBytes(StandardCharsets.UTF_8));
            return;
        }
        LuaValue map = t.rawget(MAP);
        if (map.istable()) {
            LuaTable m = (LuaTable) map;
            out.mapHeader(count(m));
            for (org.luaj.vm2.Varargs kv = m.next(LuaValue.NIL); !kv.arg1().isnil(); kv = m.next(kv.arg1())) {
                write(kv.arg1(), out, resp, depth + 1, errors);
                write(kv.arg(2), out, resp, depth + 1, errors);
            }
            return;
        }
        LuaValue set = t.rawget(SET);
        if (set.istable()) {
            LuaTable s = (LuaTable) set;
            out.setHeader(count(s));
            for (org.luaj.vm2.Varargs kv = s.next(LuaValue.NIL); !kv.arg1().isnil(); kv = s.next(kv.arg1())) {
                write(kv.arg1(), out, resp, depth + 1, errors);
            }
            return;
        }
        LuaValue verbatim = t.rawget(VERBATIM);
        if (verbatim.istable() && verbatim.rawget(FORMAT).isstring() && verbatim.rawget(STRING).isstring()) {
            LuaString text = verbatim.rawget(STRING).checkstring();
            LuaString format = verbatim.rawget(FORMAT).checkstring();
            out.verbatim(new String(format.m_bytes, format.m_offset, Math.min(3, format.m_length), StandardCharsets.ISO_8859_1),
                    Arrays.copyOfRange(text.m_bytes, text.m_offset, text.m_offset + text.m_length));
            return;
        }
        int n = 0;
        while (!t.rawget(n + 1).isnil()) {
            n++;
        }
        out.arrayHeader(n);
        for (int i = 1; i <= n; i++) {
            write(t.rawget(i), out, resp, depth + 1, errors);
        }
    }

    private static int count(LuaTable t) {
        int n = 0;
        for (LuaValue k = t.next(LuaValue.NIL).arg1(); !k.isnil(); k = t.next(k).arg1()) {
            n++;
        }
        return n;
    }

    /** An error text as Redis sends it: newlines become spaces. */
    static String errorText(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }

    /** Collects one command's reply as a Lua value, in the script's protocol. */
    static final class Capture implements ReplyWriter {
        private final Deque<Frame> open = new ArrayDeque<>();
        private int resp = 2;
        private LuaValue result;
        private boolean isError;

        private static final class Frame {
            final LuaTable table;
            final LuaTable target;
            final int kind;
            int remaining;
            int index;
            LuaValue pendingKey;

            Frame(LuaTable table, LuaTable target, int kind, int remaining) {
                this.table = table;
                this.target = target;
                this.kind = kind;
                this.remaining = remaining;
            }
        }

        private static final int ARRAY = 0;
        private static final int MAP_KIND = 1;
        private static final int SET_KIND = 2;
        /** An attribute's pairs, which Redis's Lua conversion reads and drops. */
        private static final int ATTRIBUTE_KIND = 3;

        void reset(int protocol) {
            resp = protocol;
            result = null;
            isError = false;
            open.clear();
        }

        /** The reply, once complete. */
        LuaValue result() {
            return result == null ? LuaValue.NIL : result;
        }

        /** Whether the (top-level) reply was an error. */
        boolean isError() {
            return isError;
        }

        @Override
        public int protocol() {
            return resp;
        }

        @Override
        public void simpleString(String status) {
            value(statusTable(status));
        }

        @Override
        public void error(String text) {
            if (open.isEmpty()) {
                isError = true;
            }
            value(countedErrorTable(text));
        }

        @Override
        public void integer(long value) {
            value(LuaValue.valueOf((double) value));
        }

        @Override
        public void bulk(byte[] value) {
            value(LuaString.valueUsing(value.clone()));
        }

        @Override
        public void bulk(byte[] buf, int off, int len) {
            value(LuaString.valueUsing(Arrays.copyOfRange(buf, off, off + len)));
        }

        @Override
        public void nullBulk() {
            value(resp == 3 ? LuaValue.NIL : LuaValue.FALSE);
        }

        @Override
        public void nullArray() {
            nullBulk();
        }

        @Override
        public void arrayHeader(int count) {
            aggregate(ARRAY, count);
        }

        @Override
        public void mapHeader(int pairs) {
            if (resp == 3) {
                aggregate(MAP_KIND, pairs * 2);
            } else {
                aggregate(ARRAY, pairs * 2);
            }
        }

        @Override
        public void setHeader(int count) {
            aggregate(resp == 3 ? SET_KIND : ARRAY, count);
        }

        @Override
        public void pushHeader(int count) {
            aggregate(ARRAY, count);
        }

        @Override
        public void attributeHeader(int pairs) {
            if (pairs > 0) {
                open.push(new Frame(null, null, ATTRIBUTE_KIND, 2 * pairs));
            }
        }

        /** RESP3: the table {@code {big_number=digits}}, as Redis gives a script; RESP2: a string. */
        @Override
        public void bigNumber(byte[] digits) {
            if (resp == 3) {
                LuaTable t = new LuaTable();
                t.rawset(BIG_NUMBER, LuaString.valueUsing(digits.clone()));
                value(t);
            } else {
                bulk(digits);
            }
        }

        @Override
        public void doubleValue(double value) {
            if (resp == 3) {
                LuaTable t = new LuaTable();
                t.rawset(DOUBLE, LuaValue.valueOf(value));
                value(t);
            } else {
                value(LuaValue.valueOf(Doubles.format(value)));
            }
        }

        @Override
        public void bool(boolean value) {
            if (resp == 3) {
                value(LuaValue.valueOf(value));
            } else {
                value(LuaValue.valueOf(value ? 1 : 0));
            }
        }

        @Override
        public void verbatim(String format, byte[] text) {
            if (resp == 3) {
                LuaTable inner = new LuaTable();
                inner.rawset(FORMAT, LuaValue.valueOf(format));
                inner.rawset(STRING, LuaString.valueUsing(text.clone()));
                LuaTable t = new LuaTable();
                t.rawset(VERBATIM, inner);
                value(t);
            } else {
                bulk(text);
            }
        }

        private void aggregate(int kind, int count) {
            LuaTable table = new LuaTable(kind == ARRAY ? count : 0, 0);
            LuaTable target = table;
            LuaValue wrapped = table;
            if (kind != ARRAY) {
                target = new LuaTable();
                LuaTable outer = new LuaTable();
                outer.rawset(kind == MAP_KIND ? MAP : SET, target);
                wrapped = outer;
            }
            if (count == 0) {
                value(wrapped);
                return;
            }
            value(wrapped);
            open.push(new Frame(table, target, kind, count));
        }

        private void value(LuaValue v) {
            Frame f = open.peek();
            if (f == null) {
                result = v;
                return;
            }
            if (f.kind == ATTRIBUTE_KIND) {
                // dropped
            } else if (f.kind == ARRAY) {
                f.table.rawset(++f.index, v);
            } else if (f.kind == SET_KIND) {
                f.target.rawset(v, LuaValue.TRUE);
            } else if (f.pendingKey == null) {
                f.pendingKey = v;
            } else {
                f.target.rawset(f.pendingKey, v);
                f.pendingKey = null;
            }
            if (--f.remaining == 0) {
                open.pop();
            }
        }
    }
}
