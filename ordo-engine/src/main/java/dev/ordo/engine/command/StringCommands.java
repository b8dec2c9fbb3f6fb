package dev.ordo.engine.command;

import dev.ordo.engine.number.LongDouble;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.memory.HeapBudget;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The string commands, with Redis 7.2's syntax, replies and error texts: GET, SET (NX XX GET EX
 * PX EXAT PXAT KEEPTTL), SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX, INCR,
 * DECR, INCRBY, DECRBY, INCRBYFLOAT, APPEND, STRLEN, GETRANGE (and its old name SUBSTR), SETRANGE,
 * LCS.
 *
 * <p>Each handler parses every argument and computes its result before it changes the keyspace
 * or replies. Storing a whole new value clears the key's TTL unless KEEPTTL asks otherwise;
 * changing a string (APPEND, SETRANGE, INCR and friends) keeps it. Reads count keyspace hits and
 * misses as Redis's read lookups do; write lookups do not.
 *
 * <p>INCRBYFLOAT computes in an exact emulation of the x87 80-bit long double Redis uses, so its
 * replies match Redis digit for digit. Beyond Redis: a string can never be longer than a Java
 * array allows ({@link StringValue#MAX_LENGTH}), which only matters if proto-max-bulk-len is
 * raised to 2 GB or more; past it APPEND and SETRANGE fail with the proto-max-bulk-len error.
 *
 * <p>LCS works in a table of (len1 + 1) * (len2 + 1) four-byte cells ({@link CommonSubsequence}),
 * refused as Redis refuses it when that passes proto-max-bulk-len, and also, with Redis's
 * allocation-failure error, when it passes the heap's share for one command's working memory
 * ({@link dev.ordo.engine.memory.HeapBudget#commandWorkingMemoryCap}) or a Java array's size.
 */
final class StringCommands {
    private static final int NX = 1;
    private static final int XX = 1 << 1;
    private static final int GET = 1 << 2;
    private static final int KEEPTTL = 1 << 3;
    private static final int PERSIST = 1 << 4;
    private static final int EX = 1 << 5;
    private static final int PX = 1 << 6;
    private static final int EXAT = 1 << 7;
    private static final int PXAT = 1 << 8;
    private static final int ANY_EXPIRY = EX | PX | EXAT | PXAT;
    private static final byte[] MATCHES = "matches".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LEN = "len".getBytes(StandardCharsets.US_ASCII);

    private StringCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("get", StringCommands::get));
        table.register(Command.of("set", StringCommands::set));
        table.register(Command.of("setnx", StringCommands::setnx));
        table.register(Command.of("setex", c -> setWithTimeout(c, EX, Errors.INVALID_EXPIRE_SETEX)));
        table.register(Command.of("psetex", c -> setWithTimeout(c, PX, Errors.INVALID_EXPIRE_PSETEX)));
        table.register(Command.of("getset", StringCommands::getset));
        table.register(Command.of("getdel", StringCommands::getdel));
        table.register(Command.of("getex", StringCommands::getex));
        table.register(Command.of("mget", StringCommands::mget));
        table.register(Command.of("mset", StringCommands::mset));
        table.register(Command.of("msetnx", StringCommands::msetnx));
        table.register(Command.of("incr", c -> incrBy(c, 1)));
        table.register(Command.of("decr", c -> incrBy(c, -1)));
        table.register(Command.of("incrby", c -> incrBy(c, c.longArg(2))));
        table.register(Command.of("decrby", StringCommands::decrby));
        table.register(Command.of("incrbyfloat", StringCommands::incrbyfloat));
        table.register(Command.of("append", StringCommands::append));
        table.register(Command.of("strlen", StringCommands::strlen));
        table.register(Command.of("getrange", StringCommands::getrange));
        table.register(Command.of("substr", StringCommands::getrange));
        table.register(Command.of("setrange", StringCommands::setrange));
        table.register(Command.of("lcs", StringCommands::lcs));
    }

    /** SET and GETEX options: the flags given, and where the expiry argument is (-1: none). */
    private static final class Options {
        int flags;
        int expiryArg = -1;

        boolean has(int flag) {
            return (flags & flag) != 0;
        }
    }

    private static void get(Call c) {
        reply(c, c.read(c.key(1), StringValue.class));
    }

    private static void set(Call c) {
        Options options = parseOptions(c, 3, true);
        long expireAt = expireAt(c, options, Errors.INVALID_EXPIRE_SET);
        Key key = c.key(1);
        StringValue old = options.has(GET) ? c.read(key, StringValue.class) : null;
        boolean stored = setIfAllowed(c, key, c.arg(2), options.flags, expireAt);
        if (stored && expireAt != Database.NO_EXPIRY) {
            c.propagateExpiring(key, "SET", key, c.arg(2), "PXAT", expireAt);
        }
        if (options.has(GET)) {
            reply(c, old);
        } else if (stored) {
            c.reply().simpleString("OK");
        } else {
            c.reply().nullBulk();
        }
    }

    private static void setnx(Call c) {
        c.reply().integer(setIfAllowed(c, c.key(1), c.arg(2), NX, Database.NO_EXPIRY) ? 1 : 0);
    }

    /** SETEX and PSETEX: key, timeout in the unit {@code unitFlag} names, value. */
    private static void setWithTimeout(Call c, int unitFlag, String invalidExpireError) {
        Options options = new Options();
        options.flags = unitFlag;
        options.expiryArg = 2;
        long expireAt = expireAt(c, options, invalidExpireError);
        setIfAllowed(c, c.key(1), c.arg(3), unitFlag, expireAt);
        c.propagateExpiring(c.key(1), "SET", c.key(1), c.arg(3), "PXAT", expireAt);
        c.reply().simpleString("OK");
    }

    /**
     * Stores {@code value} at {@code key} unless NX or XX in {@code flags} forbid it, keeping the
     * TTL with KEEPTTL and setting {@code expireAt} when it is not NO_EXPIRY; returns whether it
     * stored. Sends "set", then "expire" when it set one, as Redis does.
     */
    private static boolean setIfAllowed(Call c, Key key, byte[] value, int flags, long expireAt) {
        Database db = c.db();
        boolean exists = db.exists(key);
        if (((flags & NX) != 0 && exists) || ((flags & XX) != 0 && !exists)) {
            return false;
        }
        StringValue stored = new StringValue(value);
        if ((flags & KEEPTTL) != 0) {
            db.replaceKeepingTtl(key, stored);
        } else {
            db.set(key, stored);
        }
        c.notifyKeyspaceEvent(EventClass.STRING, "set", key);
        if (expireAt != Database.NO_EXPIRY) {
            db.setExpireAt(key, expireAt);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "expire", key);
            if (!db.exists(key)) {
                // Redis 7 stores the key with its past time and counts it as expired once reclaimed;
                // Ordo deletes it at once (as later Redis does) but counts it the same.
                c.keyspace().stats().expiredKeys++;
            }
        }
        return true;
    }

    /** GETSET: SET without options (the TTL goes), replying the old string; logged as that SET, as Redis does. */
    private static void getset(Call c) {
        Key key = c.key(1);
        StringValue old = c.read(key, StringValue.class);
        setIfAllowed(c, key, c.arg(2), 0, Database.NO_EXPIRY);
        c.propagate("SET", key, c.arg(2));
        reply(c, old);
    }

    private static void getdel(Call c) {
        Key key = c.key(1);
        StringValue value = c.read(key, StringValue.class);
        if (value != null) {
            c.db().delete(key);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
        }
        reply(c, value);
    }

    private static void getex(Call c) {
        Options options = parseOptions(c, 2, false);
        Key key = c.key(1);
        StringValue value = c.read(key, StringValue.class);
        if (value == null) {
            c.reply().nullBulk();
            return;
        }
        long expireAt = expireAt(c, options, Errors.INVALID_EXPIRE_GETEX);
        if (expireAt != Database.NO_EXPIRY) {
            boolean kept = c.db().setExpireAt(key, expireAt);
            c.propagateExpiring(key, "PEXPIREAT", key, expireAt);
            c.notifyKeyspaceEvent(EventClass.GENERIC, kept ? "expire" : "del", key);
        } else if (options.has(PERSIST) && c.db().persist(key)) {
            c.propagate("PERSIST", key);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "persist", key);
        }
        reply(c, value);
    }

    /**
     * Parses SET's options ({@code forSet}) or GETEX's from argument {@code from} on, accepting
     * repeats but not conflicting options, as Redis does; throws a syntax error otherwise.
     */
    private static Options parseOptions(Call c, int from, boolean forSet) {
        Options o = new Options();
        for (int j = from; j < c.argc(); j++) {
            int expiryFlag = expiryFlag(c, j);
            if (forSet && c.argIs(j, "NX") && !o.has(XX)) {
                o.flags |= NX;
            } else if (forSet && c.argIs(j, "XX") && !o.has(NX)) {
                o.flags |= XX;
            } else if (forSet && c.argIs(j, "GET")) {
                o.flags |= GET;
            } else if (forSet && c.argIs(j, "KEEPTTL") && !o.has(PERSIST | ANY_EXPIRY)) {
                o.flags |= KEEPTTL;
            } else if (!forSet && c.argIs(j, "PERSIST") && !o.has(KEEPTTL | ANY_EXPIRY)) {
                o.flags |= PERSIST;
            } else if (expiryFlag != 0 && !o.has(KEEPTTL | PERSIST | (ANY_EXPIRY & ~expiryFlag)) && j + 1 < c.argc()) {
                o.flags |= expiryFlag;
                o.expiryArg = ++j;
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        return o;
    }

    /** The expiry flag argument {@code j} names (EX, PX, EXAT, PXAT), or 0. */
    private static int expiryFlag(Call c, int j) {
        if (c.argIs(j, "EX")) {
            return EX;
        }
        if (c.argIs(j, "PX")) {
            return PX;
        }
        if (c.argIs(j, "EXAT")) {
            return EXAT;
        }
        return c.argIs(j, "PXAT") ? PXAT : 0;
    }

    /**
     * The absolute expiry in ms that the options ask for, or NO_EXPIRY without one. The time must
     * be positive and, once in ms and made absolute, still fit 64 bits; else {@code invalidError}.
     */
    private static long expireAt(Call c, Options o, String invalidError) {
        if (o.expiryArg < 0) {
            return Database.NO_EXPIRY;
        }
        long given = c.longArg(o.expiryArg);
        boolean seconds = o.has(EX | EXAT);
        if (given <= 0 || (seconds && given > Long.MAX_VALUE / 1000)) {
            throw new ErrorReply(invalidError);
        }
        long millis = seconds ? given * 1000 : given;
        if (o.has(EX | PX)) {
            if (millis > Long.MAX_VALUE - c.now()) {
                throw new ErrorReply(invalidError);
            }
            millis += c.now();
        }
        return millis;
    }

    private static void mget(Call c) {
        c.reply().arrayHeader(c.argc() - 1);
        for (int i = 1; i < c.argc(); i++) {
            Value value = c.db().get(c.key(i));
            reply(c, value instanceof StringValue ? (StringValue) value : null);
        }
    }

    private static void mset(Call c) {
        requirePairs(c);
        storeAll(c);
        c.reply().simpleString("OK");
    }

    private static void msetnx(Call c) {
        requirePairs(c);
        for (int i = 1; i < c.argc(); i += 2) {
            if (c.db().exists(c.key(i))) {
                c.reply().integer(0);
                return;
            }
        }
        storeAll(c);
        c.reply().integer(1);
    }

    /** Key-value pairs must come whole: Redis answers an odd count with the arity error. */
    private static void requirePairs(Call c) {
        if (c.argc() % 2 == 0) {
            throw new ErrorReply(Errors.wrongArity(c.command().fullName()));
        }
    }

    private static void storeAll(Call c) {
        for (int i = 1; i < c.argc(); i += 2) {
            c.db().set(c.key(i), new StringValue(c.arg(i + 1)));
            c.notifyKeyspaceEvent(EventClass.STRING, "set", c.key(i));
        }
    }

    private static void decrby(Call c) {
        long decrement = c.longArg(2);
        if (decrement == Long.MIN_VALUE) {
            throw new ErrorReply(Errors.DECR_OVERFLOW);
        }
        incrBy(c, -decrement);
    }

    /** Adds {@code delta} to the integer at argument 1 (0 when missing), keeping its TTL. */
    private static void incrBy(Call c, long delta) {
        Key key = c.key(1);
        StringValue current = c.readForWrite(key, StringValue.class);
        long value = current == null ? 0 : Call.parseLong(current.bytes(), Errors.NOT_INTEGER);
        long result;
        try {
            result = Math.addExact(value, delta);
        } catch (ArithmeticException e) {
            throw new ErrorReply(Errors.INCR_OVERFLOW);
        }
        c.db().replaceKeepingTtl(key, StringValue.of(result));
        c.notifyKeyspaceEvent(EventClass.STRING, "incrby", key);
        c.reply().integer(result);
    }

    private static void incrbyfloat(Call c) {
        Key key = c.key(1);
        StringValue current = c.readForWrite(key, StringValue.class);
        LongDouble value = current == null ? LongDouble.of(0) : LongDouble.parse(current.bytes());
        LongDouble increment = LongDouble.parse(c.arg(2));
        if (value == null || increment == null) {
            throw new ErrorReply(Errors.NOT_A_FLOAT);
        }
        LongDouble sum = value.add(increment);
        if (!sum.isFinite()) {
            throw new ErrorReply(Errors.INCR_NAN_OR_INF);
        }
        byte[] text = sum.toHumanString();
        c.db().replaceKeepingTtl(key, StringValue.text(text));
        c.notifyKeyspaceEvent(EventClass.STRING, "incrbyfloat", key);
        // As Redis: the result, not the increment, so that replaying never redoes float arithmetic.
        c.propagate("SET", key, text, "KEEPTTL");
        c.reply().bulk(text);
    }

    private static void append(Call c) {
        Key key = c.key(1);
        byte[] suffix = c.arg(2);
        StringValue current = c.readForWrite(key, StringValue.class);
        if (current == null) {
            c.db().add(key, new StringValue(suffix));
            c.notifyKeyspaceEvent(EventClass.STRING, "append", key);
            c.reply().integer(suffix.length);
            return;
        }
        checkLength(c, current.length(), suffix.length);
        current.append(suffix);
        c.db().touchModified(key);
        c.notifyKeyspaceEvent(EventClass.STRING, "append", key);
        c.reply().integer(current.length());
    }

    private static void strlen(Call c) {
        StringValue value = c.read(c.key(1), StringValue.class);
        c.reply().integer(value == null ? 0 : value.length());
    }

    /** GETRANGE with Redis 7.2's index rules: negative indexes count from the end and are clamped. */
    private static void getrange(Call c) {
        long start = c.longArg(2);
        long end = c.longArg(3);
        StringValue value = c.read(c.key(1), StringValue.class);
        int length = value == null ? 0 : value.length();
        if (length == 0 || (start < 0 && end < 0 && start > end)) {
            c.reply().bulk(new byte[0]);
            return;
        }
        long from = Math.max(0, start < 0 ? length + start : start);
        long to = Math.min(length - 1L, Math.max(0, end < 0 ? length + end : end));
        if (from > to) {
            c.reply().bulk(new byte[0]);
        } else {
            c.reply().bulk(value.buffer(), (int) from, (int) (to - from + 1));
        }
    }

    private static void setrange(Call c) {
        long offset = c.longArg(2);
        if (offset < 0) {
            throw new ErrorReply(Errors.OFFSET_OUT_OF_RANGE);
        }
        Key key = c.key(1);
        byte[] data = c.arg(3);
        StringValue current = c.readForWrite(key, StringValue.class);
        if (data.length == 0) {
            c.reply().integer(current == null ? 0 : current.length());
            return;
        }
        checkLength(c, offset, data.length);
        if (current == null) {
            StringValue created = StringValue.zeros((int) offset + data.length);
            created.writeAt((int) offset, data);
            c.db().add(key, created);
            c.notifyKeyspaceEvent(EventClass.STRING, "setrange", key);
            c.reply().integer(created.length());
            return;
        }
        current.writeAt((int) offset, data);
        c.db().touchModified(key);
        c.notifyKeyspaceEvent(EventClass.STRING, "setrange", key);
        c.reply().integer(current.length());
    }

    /**
     * LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN], checked in Redis's order: the
     * keys' types (a missing key is an empty string), the options, LEN with IDX, the table's size.
     */
    private static void lcs(Call c) {
        Value first = c.db().get(c.key(1));
        Value second = c.db().get(c.key(2));
        if ((first != null && !(first instanceof StringValue)) || (second != null && !(second instanceof StringValue))) {
            throw new ErrorReply(Errors.LCS_NOT_STRINGS);
        }
        boolean len = false;
        boolean idx = false;
        boolean withMatchLen = false;
        long minMatchLen = 0;
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "IDX")) {
                idx = true;
            } else if (c.argIs(j, "LEN")) {
                len = true;
            } else if (c.argIs(j, "WITHMATCHLEN")) {
                withMatchLen = true;
            } else if (c.argIs(j, "MINMATCHLEN") && j + 1 < c.argc()) {
                minMatchLen = c.longArg(++j);
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        if (len && idx) {
            throw new ErrorReply(Errors.LCS_LEN_AND_IDX);
        }
        StringValue a = first == null ? new StringValue(new byte[0]) : (StringValue) first;
        StringValue b = second == null ? new StringValue(new byte[0]) : (StringValue) second;
        checkLcsTable(c, a.length(), b.length());
        CommonSubsequence lcs = CommonSubsequence.find(a.buffer(), a.length(), b.buffer(), b.length(), !len);
        if (!idx) {
            if (len) {
                c.reply().integer(lcs.length());
            } else {
                c.reply().bulk(lcs.sequence());
            }
            return;
        }
        List<CommonSubsequence.Match> shown = new ArrayList<>();
        for (CommonSubsequence.Match m : lcs.matches()) {
            if (m.length() >= minMatchLen) {
                shown.add(m);
            }
        }
        ReplyWriter r = c.reply();
        r.mapHeader(2);
        r.bulk(MATCHES);
        r.arrayHeader(shown.size());
        for (CommonSubsequence.Match m : shown) {
            r.arrayHeader(withMatchLen ? 3 : 2);
            r.arrayHeader(2);
            r.integer(m.aStart());
            r.integer(m.aEnd());
            r.arrayHeader(2);
            r.integer(m.bStart());
            r.integer(m.bEnd());
            if (withMatchLen) {
                r.integer(m.length());
            }
        }
        r.bulk(LEN);
        r.integer(lcs.length());
    }

    /**
     * Refuses an LCS table for strings of these lengths past proto-max-bulk-len (Redis's rule and
     * error), or past one command's share of the heap or a Java array (Redis's allocation error).
     */
    private static void checkLcsTable(Call c, int aLength, int bLength) {
        long bytes = CommonSubsequence.tableBytes(aLength, bLength);
        if (bytes > c.context().config().getLong("proto-max-bulk-len")) {
            throw new ErrorReply(Errors.LCS_OVER_PROTO_MAX_BULK_LEN);
        }
        MaxMemory memory = c.context().maxMemory();
        HeapBudget budget = memory == null ? HeapBudget.ofThisJvm() : memory.budget();
        if (bytes > budget.commandWorkingMemoryCap() || bytes / Integer.BYTES > CommonSubsequence.MAX_CELLS) {
            throw new ErrorReply(Errors.LCS_ALLOCATION_FAILED);
        }
    }

    /** Throws the proto-max-bulk-len error unless {@code size + added} bytes are allowed. */
    private static void checkLength(Call c, long size, long added) {
        long limit = Math.min(c.context().config().getLong("proto-max-bulk-len"), StringValue.MAX_LENGTH);
        if (added > limit || size > limit - added) {
            throw new ErrorReply(Errors.STRING_TOO_LONG);
        }
    }

    /** Replies a string value, or the null bulk string for a missing one. */
    private static void reply(Call c, StringValue value) {
        if (value == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(value.buffer(), 0, value.length());
        }
    }
}
