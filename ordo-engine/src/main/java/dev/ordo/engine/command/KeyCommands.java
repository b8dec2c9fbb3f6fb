package dev.ordo.engine.command;

import dev.ordo.engine.value.Value;
import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.keyspace.Lfu;
import dev.ordo.engine.keyspace.StringValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The commands on keys and databases, whatever their values, with Redis 7.2's syntax, replies and
 * error texts: DEL UNLINK EXISTS TYPE TOUCH, the EXPIRE and TTL families and PERSIST, KEYS SCAN
 * RANDOMKEY DBSIZE, RENAME RENAMENX COPY MOVE, DUMP RESTORE, FLUSHDB FLUSHALL SWAPDB, OBJECT and MEMORY USAGE.
 *
 * <p>Each handler parses every argument and computes its result before it changes the keyspace
 * or replies. Expired keys count as absent everywhere (a DBSIZE may still count one that nobody
 * has touched, as Redis's does). Read lookups count keyspace hits and misses (TYPE, EXISTS, TTL
 * and OBJECT without refreshing the access time); write lookups do not. A renamed or moved key keeps its TTL and its value object; a
 * copied one gets a deep copy in the same encoding. Also home of the SCAN-family helpers (cursor
 * parsing, MATCH / COUNT / TYPE options, the reply) shared with SSCAN.
 */
final class KeyCommands {
    private static final int NX = 1;
    private static final int XX = 1 << 1;
    private static final int GT = 1 << 2;
    private static final int LT = 1 << 3;
    /** Redis's shared integer objects, reported with this refcount: 0 to 9999. */
    private static final long SHARED_INTEGERS = 10_000;
    private static final long SHARED_REFCOUNT = Integer.MAX_VALUE;

    private static final List<String> OBJECT_HELP = List.of(
            "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "ENCODING <key>",
            "    Return the kind of internal representation used in order to store the value",
            "    associated with a <key>.",
            "FREQ <key>",
            "    Return the access frequency index of the <key>. The returned integer is",
            "    proportional to the logarithm of the recent access frequency of the key.",
            "IDLETIME <key>",
            "    Return the idle time of the <key>, that is the approximated number of",
            "    seconds elapsed since the last access to the key.",
            "REFCOUNT <key>",
            "    Return the number of references of the value associated with the specified",
            "    <key>.",
            "HELP",
            "    Prints this help.");
    private KeyCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("del", KeyCommands::del));
        t.register(Command.of("unlink", KeyCommands::del));
        t.register(Command.of("exists", KeyCommands::exists));
        t.register(Command.of("type", KeyCommands::type));
        t.register(Command.of("touch", KeyCommands::touch));
        t.register(Command.of("expire", c -> expire(c, true, false)));
        t.register(Command.of("pexpire", c -> expire(c, false, false)));
        t.register(Command.of("expireat", c -> expire(c, true, true)));
        t.register(Command.of("pexpireat", c -> expire(c, false, true)));
        t.register(Command.of("ttl", c -> ttl(c, false, false)));
        t.register(Command.of("pttl", c -> ttl(c, true, false)));
        t.register(Command.of("expiretime", c -> ttl(c, false, true)));
        t.register(Command.of("pexpiretime", c -> ttl(c, true, true)));
        t.register(Command.of("persist", KeyCommands::persist));
        t.register(Command.of("keys", KeyCommands::keys));
        t.register(Command.of("scan", KeyCommands::scan));
        t.register(Command.of("randomkey", KeyCommands::randomkey));
        t.register(Command.of("rename", c -> rename(c, false)));
        t.register(Command.of("renamenx", c -> rename(c, true)));
        t.register(Command.of("copy", KeyCommands::copy));
        t.register(Command.of("move", KeyCommands::move));
        t.register(Command.of("dump", KeyCommands::dump));
        t.register(Command.of("restore", KeyCommands::restore));
        t.register(Command.of("dbsize", c -> c.reply().integer(c.db().size())));
        t.register(Command.of("flushdb", c -> flush(c, false)));
        t.register(Command.of("flushall", c -> flush(c, true)));
        t.register(Command.of("swapdb", KeyCommands::swapdb));
        t.register(Command.of("object", c -> { })
                .with(Command.of("encoding", KeyCommands::objectEncoding))
                .with(Command.of("freq", KeyCommands::objectFreq))
                .with(Command.of("idletime", KeyCommands::objectIdletime))
                .with(Command.of("refcount", KeyCommands::objectRefcount))
                .with(Command.of("help", c -> c.replyLines(OBJECT_HELP))));
    }

    // ------------------------------------------------------------------ existence

    /** DEL / UNLINK key [key ...]: the number of keys deleted (expired ones do not count). */
    private static void del(Call c) {
        long deleted = 0;
        for (int i = 1; i < c.argc(); i++) {
            if (c.db().delete(c.key(i))) {
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", c.key(i));
                deleted++;
            }
        }
        c.reply().integer(deleted);
    }

    /** EXISTS key [key ...]: how many of the arguments exist, a key named twice counting twice. */
    private static void exists(Call c) {
        long found = 0;
        for (int i = 1; i < c.argc(); i++) {
            if (readNoTouch(c, c.key(i)) != null) {
                found++;
            }
        }
        c.reply().integer(found);
    }

    /** TOUCH key [key ...]: how many exist; each one's access time is refreshed. */
    private static void touch(Call c) {
        long found = 0;
        for (int i = 1; i < c.argc(); i++) {
            if (c.db().get(c.key(i)) != null) {
                found++;
            }
        }
        c.reply().integer(found);
    }

    /** TYPE key: the type's name as a status reply, {@code none} for a missing key. */
    private static void type(Call c) {
        Database.Entry e = readNoTouch(c, c.key(1));
        c.reply().simpleString(e == null ? "none" : e.value().type().redisName());
    }

    // ------------------------------------------------------------------ expiry

    /**
     * EXPIRE / PEXPIRE / EXPIREAT / PEXPIREAT key time [NX|XX|GT|LT]: 1 when the expiry was set
     * (a time not in the future deletes the key), 0 when the key is missing or a condition fails.
     * Options are checked before the time, as Redis does.
     */
    private static void expire(Call c, boolean seconds, boolean absolute) {
        int flags = expireFlags(c);
        long when = c.longArg(2);
        String invalid = invalidExpireError(c.command().name());
        if (seconds) {
            if (when > Long.MAX_VALUE / 1000 || when < Long.MIN_VALUE / 1000) {
                throw new ErrorReply(invalid);
            }
            when *= 1000;
        }
        long base = absolute ? 0 : c.now();
        if (when > Long.MAX_VALUE - base) {
            throw new ErrorReply(invalid);
        }
        when += base;
        Key key = c.key(1);
        Database.Entry e = c.db().entryForWrite(key); // a write lookup, refreshing the access time as Redis does
        if (e == null || !expiryConditionHolds(flags, e.expireAt(), when)) {
            c.reply().integer(0);
            return;
        }
        boolean kept = c.db().setExpireAt(key, when);
        c.propagateExpiring(key, "PEXPIREAT", key, when);
        c.notifyKeyspaceEvent(EventClass.GENERIC, kept ? "expire" : "del", key);
        c.reply().integer(1);
    }

    /** PERSIST key: 1 when the key's expiry was removed, 0 when it had none or is missing. */
    private static void persist(Call c) {
        Key key = c.key(1);
        boolean removed = c.db().persist(key);
        if (removed) {
            c.notifyKeyspaceEvent(EventClass.GENERIC, "persist", key);
        }
        c.reply().integer(removed ? 1 : 0);
    }

    /** Parses NX XX GT LT (any case, repeats allowed) from argument 3 on. */
    private static int expireFlags(Call c) {
        int flags = 0;
        for (int i = 3; i < c.argc(); i++) {
            if (c.argIs(i, "NX")) {
                flags |= NX;
            } else if (c.argIs(i, "XX")) {
                flags |= XX;
            } else if (c.argIs(i, "GT")) {
                flags |= GT;
            } else if (c.argIs(i, "LT")) {
                flags |= LT;
            } else {
                throw new ErrorReply(Errors.unsupportedOption(c.argString(i)));
            }
        }
        if ((flags & NX) != 0 && (flags & (XX | GT | LT)) != 0) {
            throw new ErrorReply(Errors.EXPIRE_NX_AND_OTHERS);
        }
        if ((flags & GT) != 0 && (flags & LT) != 0) {
            throw new ErrorReply(Errors.EXPIRE_GT_AND_LT);
        }
        return flags;
    }

    /** Whether the new expiry {@code when} passes the options given the current one (-1: none, which GT treats as infinite). */
    private static boolean expiryConditionHolds(int flags, long current, long when) {
        boolean none = current == Database.NO_EXPIRY;
        if ((flags & NX) != 0 && !none) {
            return false;
        }
        if ((flags & XX) != 0 && none) {
            return false;
        }
        if ((flags & GT) != 0 && (none || when <= current)) {
            return false;
        }
        return (flags & LT) == 0 || none || when < current;
    }

    private static String invalidExpireError(String command) {
        switch (command) {
            case "expire":
                return Errors.INVALID_EXPIRE_EXPIRE;
            case "pexpire":
                return Errors.INVALID_EXPIRE_PEXPIRE;
            case "expireat":
                return Errors.INVALID_EXPIRE_EXPIREAT;
            default:
                return Errors.INVALID_EXPIRE_PEXPIREAT;
        }
    }

    /**
     * TTL / PTTL / EXPIRETIME / PEXPIRETIME key: -2 for a missing key, -1 without expiry, else the
     * time left (or the absolute time), in milliseconds or in seconds rounded half up (without
     * overflow, even for an expiry near the end of time).
     */
    private static void ttl(Call c, boolean millis, boolean absolute) {
        Database.Entry e = readNoTouch(c, c.key(1));
        if (e == null) {
            c.reply().integer(-2);
            return;
        }
        if (e.expireAt() == Database.NO_EXPIRY) {
            c.reply().integer(-1);
            return;
        }
        long ms = Math.max(0, absolute ? e.expireAt() : e.expireAt() - c.now());
        c.reply().integer(millis ? ms : ms / 1000 + (ms % 1000 + 500) / 1000);
    }

    // ------------------------------------------------------------------ enumeration

    /** KEYS pattern: every live key matching the glob, in table order. */
    private static void keys(Call c) {
        byte[] pattern = c.arg(1);
        boolean all = pattern.length == 1 && pattern[0] == '*';
        List<byte[]> found = new ArrayList<>();
        c.db().forEach((k, e) -> {
            if (all || Glob.matches(pattern, k.bytes(), false)) {
                found.add(k.bytes());
            }
        });
        c.reply().arrayHeader(found.size());
        found.forEach(c.reply()::bulk);
    }

    /** SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]: one step of a resumable walk over the keys. */
    private static void scan(Call c) {
        long cursor = ScanArgs.parseCursor(c.arg(1));
        ScanArgs args = ScanArgs.parse(c, 2, true);
        List<byte[]> found = new ArrayList<>();
        long next = c.db().scan(cursor, args.countForTable(), (k, e) -> {
            if (args.matches(k.bytes()) && args.typeMatches(e.value())) {
                found.add(k.bytes());
            }
        });
        ScanArgs.reply(c, next, found);
    }

    private static void randomkey(Call c) {
        Key k = c.db().randomKey(c.keyspace().random());
        if (k == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(k.bytes());
        }
    }

    // ------------------------------------------------------------------ renaming, copying, moving

    /** RENAME / RENAMENX source destination: the value, its TTL and its access field move to the new name. */
    private static void rename(Call c, boolean nx) {
        Database db = c.db();
        Key src = c.key(1);
        Key dst = c.key(2);
        Database.Entry e = db.entryForWrite(src);
        if (e == null) {
            throw new ErrorReply(Errors.NO_SUCH_KEY);
        }
        if (src.equals(dst)) {
            replyRenamed(c, nx, !nx);
            return;
        }
        if (nx && db.exists(dst)) {
            c.reply().integer(0);
            return;
        }
        db.delete(dst);
        db.delete(src);
        db.addMoved(dst, e);
        c.notifyKeyspaceEvent(EventClass.GENERIC, "rename_from", src);
        c.notifyKeyspaceEvent(EventClass.GENERIC, "rename_to", dst);
        replyRenamed(c, nx, true);
    }

    private static void replyRenamed(Call c, boolean nx, boolean renamed) {
        if (nx) {
            c.reply().integer(renamed ? 1 : 0);
        } else {
            c.reply().simpleString("OK");
        }
    }

    /** COPY source destination [DB index] [REPLACE]: 1 when a deep copy (with the TTL) was stored, else 0. */
    private static void copy(Call c) {
        int dbIndex = c.session().db();
        boolean replace = false;
        for (int j = 3; j < c.argc(); j++) {
            if (c.argIs(j, "REPLACE")) {
                replace = true;
            } else if (c.argIs(j, "DB") && j + 1 < c.argc()) {
                dbIndex = dbIndexArg(c, ++j);
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        Database src = c.db();
        Database dst = c.keyspace().db(dbIndex);
        Key srcKey = c.key(1);
        Key dstKey = c.key(2);
        if (src == dst && srcKey.equals(dstKey)) {
            throw new ErrorReply(Errors.SAME_OBJECT);
        }
        Value value = src.get(srcKey);
        if (value == null || (dst.exists(dstKey) && !replace)) {
            c.reply().integer(0);
            return;
        }
        Value copy = value.copy();
        long expireAt = src.expireAt(srcKey);
        dst.delete(dstKey);
        dst.add(dstKey, copy);
        if (expireAt != Database.NO_EXPIRY) {
            dst.setExpireAt(dstKey, expireAt);
        }
        c.keyspace().notifyKeyspaceEvent(EventClass.GENERIC, "copy_to", dstKey, dbIndex);
        c.reply().integer(1);
    }

    /** MOVE key db: 1 when the key (with its TTL and access field) moved to the other database, 0 when missing or taken there. */
    private static void move(Call c) {
        int dbIndex = dbIndexArg(c, 2);
        Database src = c.db();
        Database dst = c.keyspace().db(dbIndex);
        if (src == dst) {
            throw new ErrorReply(Errors.SAME_OBJECT);
        }
        Key key = c.key(1);
        Database.Entry e = src.entryForWrite(key);
        if (e == null || dst.exists(key)) {
            c.reply().integer(0);
            return;
        }
        src.delete(key);
        dst.addMoved(key, e);
        c.notifyKeyspaceEvent(EventClass.GENERIC, "move_from", key);
        c.keyspace().notifyKeyspaceEvent(EventClass.GENERIC, "move_to", key, dbIndex);
        c.reply().integer(1);
    }

    /** DUMP key: the value in Redis's payload format ({@link DumpFormat}), or a null reply for a missing key. */
    private static void dump(Call c) {
        Value value = c.db().get(c.key(1));
        if (value == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(c.context().dumpFormat().dump(value));
        }
    }

    /**
     * RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]: creates the key
     * from DUMP's payload, in Redis's order of checks (options, an existing key without REPLACE, the
     * TTL, then the payload), none of which changes anything. A payload that would decode into
     * more than the heap's data limit has left (its compressed strings expand up to 88 times) is
     * refused with OOM before the memory is taken; Redis has no such check. A TTL of 0 means
     * none; a time already passed stores nothing, but REPLACE still deletes the old key (logged as DEL). A relative TTL
     * is logged as the absolute one with ABSTTL.
     */
    private static void restore(Call c) {
        boolean replace = false;
        boolean absTtl = false;
        long idleSeconds = -1;
        long freq = -1;
        for (int j = 4; j < c.argc(); j++) {
            boolean hasValue = j + 1 < c.argc();
            if (c.argIs(j, "REPLACE")) {
                replace = true;
            } else if (c.argIs(j, "ABSTTL")) {
                absTtl = true;
            } else if (c.argIs(j, "IDLETIME") && hasValue && freq == -1) {
                idleSeconds = c.longArg(++j);
                if (idleSeconds < 0) {
                    throw new ErrorReply(Errors.RESTORE_IDLETIME);
                }
            } else if (c.argIs(j, "FREQ") && hasValue && idleSeconds == -1) {
                freq = c.longArg(++j);
                if (freq < 0 || freq > 255) {
                    throw new ErrorReply(Errors.RESTORE_FREQ);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        Key key = c.key(1);
        Database db = c.db();
        if (!replace && db.entryForWrite(key) != null) {
            throw new ErrorReply(Errors.BUSYKEY);
        }
        long ttl = c.longArg(2);
        if (ttl < 0) {
            throw new ErrorReply(Errors.RESTORE_TTL);
        }
        // Decoding may allocate what the heap's data limit still allows: never the heap itself.
        MaxMemory memory = c.context().maxMemory();
        long decodeBudget = memory == null ? Long.MAX_VALUE : Math.max(0, memory.budget().implicitMaxmemory() - memory.used());
        Value value = c.context().dumpFormat().restore(c.arg(3), decodeBudget);
        boolean deleted = replace && db.delete(key);
        long expireAt = ttl == 0 ? Database.NO_EXPIRY : absTtl ? ttl : c.now() + Math.min(ttl, Long.MAX_VALUE - c.now());
        if (expireAt != Database.NO_EXPIRY && expireAt <= c.now()) {
            if (deleted) {
                c.propagate("DEL", key);
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
            }
            c.reply().simpleString("OK");
            return;
        }
        db.addRestored(key, value, expireAt, idleSeconds, (int) freq);
        if (expireAt != Database.NO_EXPIRY && !absTtl && c.logsEffects()) {
            Object[] effect = new Object[c.argc() + 1];
            System.arraycopy(c.args(), 0, effect, 0, c.argc());
            effect[2] = expireAt;
            effect[c.argc()] = "ABSTTL";
            c.propagate(effect);
        }
        c.notifyKeyspaceEvent(EventClass.GENERIC, "restore", key);
        c.reply().simpleString("OK");
    }

    /** A database index argument as COPY and MOVE read it: a 32-bit integer naming an existing database. */
    private static int dbIndexArg(Call c, int i) {
        long index = c.longArg(i);
        if (index < Integer.MIN_VALUE || index > Integer.MAX_VALUE) {
            throw new ErrorReply(Errors.INT_OUT_OF_RANGE);
        }
        if (index < 0 || index >= c.keyspace().databases()) {
            throw new ErrorReply(Errors.DB_INDEX);
        }
        return (int) index;
    }

    // ------------------------------------------------------------------ databases

    /** FLUSHDB / FLUSHALL [ASYNC|SYNC]: both modes empty the databases at once. */
    private static void flush(Call c, boolean all) {
        if (c.argc() > 2 || (c.argc() == 2 && !c.argIs(1, "ASYNC") && !c.argIs(1, "SYNC"))) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        if (all) {
            c.keyspace().flushAll();
        } else {
            c.db().clear();
        }
        c.reply().simpleString("OK");
    }

    /** SWAPDB index1 index2: exchanges the contents of two databases. */
    private static void swapdb(Call c) {
        long a = swapIndex(c.arg(1), Errors.INVALID_FIRST_DB);
        long b = swapIndex(c.arg(2), Errors.INVALID_SECOND_DB);
        int n = c.keyspace().databases();
        if (a < 0 || a >= n || b < 0 || b >= n) {
            throw new ErrorReply(Errors.DB_INDEX);
        }
        c.keyspace().swap((int) a, (int) b);
        c.reply().simpleString("OK");
    }

    private static long swapIndex(byte[] arg, String error) {
        long v = Call.parseLong(arg, error);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new ErrorReply(error);
        }
        return v;
    }

    // ------------------------------------------------------------------ introspection

    /** OBJECT ENCODING key: the internal representation's name, or nil. */
    private static void objectEncoding(Call c) {
        Database.Entry e = objectLookup(c);
        if (e == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().bulk(e.value().encodingName().getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * OBJECT REFCOUNT key: Redis shares the integers 0 to 9999 stored as strings, reporting
     * INT_MAX for them, unless an LRU or LFU policy with a maxmemory keeps them apart; else 1.
     */
    private static void objectRefcount(Call c) {
        Database.Entry e = objectLookup(c);
        if (e == null) {
            c.reply().nullBulk();
            return;
        }
        c.reply().integer(isSharedInteger(c, e.value()) ? SHARED_REFCOUNT : 1);
    }

    private static boolean isSharedInteger(Call c, Value value) {
        if (!"int".equals(value.encodingName())) {
            return false;
        }
        String policy = c.context().config().get("maxmemory-policy");
        boolean evictsByUse = policy.endsWith("lru") || policy.endsWith("lfu");
        if (evictsByUse && c.context().config().getLong("maxmemory") != 0) {
            return false;
        }
        long v = Long.parseLong(new String(((StringValue) value).bytes(), StandardCharsets.US_ASCII));
        return v >= 0 && v < SHARED_INTEGERS;
    }

    /** OBJECT IDLETIME key: whole seconds since the last access; refused under an LFU policy. */
    private static void objectIdletime(Call c) {
        Database.Entry e = objectLookup(c);
        if (e == null) {
            c.reply().nullBulk();
            return;
        }
        if (lfuPolicy(c)) {
            throw new ErrorReply(Errors.LFU_SELECTED_NO_IDLETIME);
        }
        c.reply().integer(idleSeconds(c, e));
    }

    /** OBJECT FREQ key: the LFU counter ({@link Lfu}), decayed to now; refused unless an LFU policy is selected. */
    private static void objectFreq(Call c) {
        Database.Entry e = objectLookup(c);
        if (e == null) {
            c.reply().nullBulk();
            return;
        }
        if (!lfuPolicy(c)) {
            throw new ErrorReply(Errors.LFU_NOT_SELECTED);
        }
        c.reply().integer(Lfu.counter(e.lastAccess(), c.now(), c.context().config().lfuSettings().decayTime()));
    }

    /** Idle time at Redis's LRU clock resolution of one second. */
    private static long idleSeconds(Call c, Database.Entry e) {
        return Math.max(0, c.now() / 1000 - e.lastAccess() / 1000);
    }

    private static boolean lfuPolicy(Call c) {
        return c.context().config().lfuSettings().active();
    }

    /**
     * A read lookup that counts a keyspace hit or miss (and sends "keymiss") but leaves the access
     * time alone (Redis's LOOKUP_NOTOUCH).
     */
    private static Database.Entry readNoTouch(Call c, Key key) {
        return lookupNoTouch(c, key, true);
    }

    /** OBJECT's lookup of its key: as {@link #readNoTouch}, but a miss sends no event (Redis's LOOKUP_NONOTIFY). */
    private static Database.Entry objectLookup(Call c) {
        return lookupNoTouch(c, c.key(2), false);
    }

    private static Database.Entry lookupNoTouch(Call c, Key key, boolean notifyMiss) {
        Database.Entry e = c.db().entry(key);
        Keyspace.Stats stats = c.keyspace().stats();
        if (e == null) {
            stats.keyspaceMisses++;
            if (notifyMiss) {
                c.notifyKeyspaceEvent(EventClass.KEY_MISS, "keymiss", key);
            }
        } else {
            stats.keyspaceHits++;
        }
        return e;
    }

    // ------------------------------------------------------------------ the SCAN family
}
