package dev.ordo.engine.command;

import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.number.LongDouble;
import dev.ordo.engine.zset.ListpackLimits;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The hash commands, with Redis 7.2's syntax, replies and error texts: HSET, HSETNX, HGET, HMGET,
 * HMSET, HDEL, HEXISTS, HLEN, HKEYS, HVALS, HGETALL, HINCRBY, HINCRBYFLOAT, HSTRLEN, HSCAN,
 * HRANDFIELD.
 *
 * <p>Each handler parses every argument and computes its result before it changes the keyspace
 * or replies. A write creates the hash when missing and deletes it when its last field goes. The
 * encoding follows Redis 7.2 (see {@link HashValue}): like Redis 7.2, and unlike 7.0, an HSET or
 * HMSET with more pairs than {@code hash-max-listpack-entries} converts to a hash table at once,
 * even when repeated fields leave fewer. Reads count keyspace hits and misses; writes do not.
 *
 * <p>Beyond Redis: the order of a hash-table-encoded hash (HGETALL, HKEYS, HSCAN) differs from
 * Redis's, whose dict order depends on its own hash function; and an HRANDFIELD reply of more
 * than {@link ReplyWriter#MAX_RANDOM_REPLY} elements, which Redis would try to build, is refused with
 * {@code ERR value is out of range}.
 */
final class HashCommands {

    private HashCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("hset", c -> hset(c, false)));
        table.register(Command.of("hmset", c -> hset(c, true)));
        table.register(Command.of("hsetnx", HashCommands::hsetnx));
        table.register(Command.of("hget", HashCommands::hget));
        table.register(Command.of("hmget", HashCommands::hmget));
        table.register(Command.of("hdel", HashCommands::hdel));
        table.register(Command.of("hexists", HashCommands::hexists));
        table.register(Command.of("hlen", HashCommands::hlen));
        table.register(Command.of("hstrlen", HashCommands::hstrlen));
        table.register(Command.of("hkeys", c -> listAll(c, true, false)));
        table.register(Command.of("hvals", c -> listAll(c, false, true)));
        table.register(Command.of("hgetall", c -> listAll(c, true, true)));
        table.register(Command.of("hincrby", HashCommands::hincrby));
        table.register(Command.of("hincrbyfloat", HashCommands::hincrbyfloat));
        table.register(Command.of("hscan", HashCommands::hscan));
        table.register(Command.of("hrandfield", HashCommands::hrandfield));
    }

    /** The listpack limits in force: {@code hash-max-listpack-entries} and {@code hash-max-listpack-value}. */
    private static ListpackLimits limits(Call c) {
        return c.context().config().hashListpackLimits();
    }

    /** The hash at argument 1 for writing: the existing one (WRONGTYPE if another type) or null. */
    private static HashValue forWrite(Call c) {
        return c.readForWrite(c.key(1), HashValue.class);
    }

    /** Records a write to {@code hash} at argument 1: adds it if {@code created}, else marks it modified. */
    private static void stored(Call c, HashValue hash, boolean created) {
        if (created) {
            c.db().add(c.key(1), hash);
        } else {
            c.db().touchModified(c.key(1));
        }
    }

    private static void hset(Call c, boolean legacyReply) {
        if (c.argc() % 2 != 0) {
            throw new ErrorReply(Errors.wrongArity(c.command().fullName()));
        }
        HashValue existing = forWrite(c);
        HashValue hash = existing == null ? new HashValue() : existing;
        ListpackLimits limits = limits(c);
        convertForArguments(c, hash, limits);
        int added = 0;
        for (int i = 2; i < c.argc(); i += 2) {
            added += hash.put(c.key(i), c.arg(i + 1), limits) ? 1 : 0;
        }
        stored(c, hash, existing == null);
        c.notifyKeyspaceEvent(EventClass.HASH, "hset", c.key(1));
        if (legacyReply) {
            c.reply().simpleString("OK");
        } else {
            c.reply().integer(added);
        }
    }

    /**
     * Converts a listpack hash up front, as Redis 7.2 does, when the command brings more pairs
     * than the entry limit or any field or value longer than the value limit.
     */
    private static void convertForArguments(Call c, HashValue hash, ListpackLimits limits) {
        if ((c.argc() - 2) / 2 > limits.maxEntries()) {
            hash.convertToHashtable();
            return;
        }
        for (int i = 2; i < c.argc(); i++) {
            if (c.arg(i).length > limits.maxValueBytes()) {
                hash.convertToHashtable();
                return;
            }
        }
    }

    private static void hsetnx(Call c) {
        HashValue existing = forWrite(c);
        Key field = c.key(2);
        if (existing != null && existing.contains(field)) {
            c.reply().integer(0);
            return;
        }
        HashValue hash = existing == null ? new HashValue() : existing;
        ListpackLimits limits = limits(c);
        convertForArguments(c, hash, limits);
        hash.put(field, c.arg(3), limits);
        stored(c, hash, existing == null);
        c.notifyKeyspaceEvent(EventClass.HASH, "hset", c.key(1));
        c.reply().integer(1);
    }

    private static void hget(Call c) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        replyValue(c, hash == null ? null : hash.get(c.key(2)));
    }

    private static void hmget(Call c) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        c.reply().arrayHeader(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            replyValue(c, hash == null ? null : hash.get(c.key(i)));
        }
    }

    private static void hdel(Call c) {
        HashValue hash = forWrite(c);
        if (hash == null) {
            c.reply().integer(0);
            return;
        }
        int removed = 0;
        for (int i = 2; i < c.argc(); i++) {
            removed += hash.remove(c.key(i)) ? 1 : 0;
        }
        if (hash.size() == 0) {
            c.db().delete(c.key(1));
        } else if (removed > 0) {
            c.db().touchModified(c.key(1));
        }
        if (removed > 0) {
            c.notifyKeyspaceEvent(EventClass.HASH, "hdel", c.key(1));
            if (hash.size() == 0) {
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", c.key(1));
            }
        }
        c.reply().integer(removed);
    }

    private static void hexists(Call c) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        c.reply().integer(hash != null && hash.contains(c.key(2)) ? 1 : 0);
    }

    private static void hlen(Call c) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        c.reply().integer(hash == null ? 0 : hash.size());
    }

    private static void hstrlen(Call c) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        byte[] value = hash == null ? null : hash.get(c.key(2));
        c.reply().integer(value == null ? 0 : value.length);
    }

    /** HKEYS, HVALS and HGETALL (a map reply) in the hash's order. */
    private static void listAll(Call c, boolean fields, boolean values) {
        HashValue hash = c.read(c.key(1), HashValue.class);
        int size = hash == null ? 0 : hash.size();
        if (fields && values) {
            c.reply().mapHeader(size);
        } else {
            c.reply().arrayHeader(size);
        }
        if (hash == null) {
            return;
        }
        hash.forEach((field, value) -> {
            if (fields) {
                c.reply().bulk(field.bytes());
            }
            if (values) {
                c.reply().bulk(value);
            }
        });
    }

    private static void hincrby(Call c) {
        long increment = c.longArg(3);
        HashValue existing = forWrite(c);
        Key field = c.key(2);
        byte[] old = existing == null ? null : existing.get(field);
        long value = old == null ? 0 : Call.parseLong(old, Errors.HASH_NOT_INTEGER);
        long result;
        try {
            result = Math.addExact(value, increment);
        } catch (ArithmeticException e) {
            throw new ErrorReply(Errors.INCR_OVERFLOW);
        }
        store(c, existing, field, Long.toString(result).getBytes(StandardCharsets.US_ASCII));
        c.notifyKeyspaceEvent(EventClass.HASH, "hincrby", c.key(1));
        c.reply().integer(result);
    }

    private static void hincrbyfloat(Call c) {
        LongDouble increment = LongDouble.parse(c.arg(3));
        if (increment == null) {
            throw new ErrorReply(Errors.NOT_A_FLOAT);
        }
        if (!increment.isFinite()) {
            throw new ErrorReply(Errors.HASH_INCR_NAN_OR_INF);
        }
        HashValue existing = forWrite(c);
        Key field = c.key(2);
        byte[] old = existing == null ? null : existing.get(field);
        LongDouble value = old == null ? LongDouble.of(0) : LongDouble.parse(old);
        if (value == null) {
            throw new ErrorReply(Errors.HASH_NOT_FLOAT);
        }
        LongDouble sum = value.add(increment);
        if (!sum.isFinite()) {
            throw new ErrorReply(Errors.INCR_NAN_OR_INF);
        }
        byte[] text = sum.toHumanString();
        store(c, existing, field, text);
        c.notifyKeyspaceEvent(EventClass.HASH, "hincrbyfloat", c.key(1));
        c.propagate("HSET", c.key(1), field, text); // the result, as Redis logs it
        c.reply().bulk(text);
    }

    /** Sets one field of the hash at argument 1, creating the hash when {@code existing} is null. */
    private static void store(Call c, HashValue existing, Key field, byte[] value) {
        HashValue hash = existing == null ? new HashValue() : existing;
        hash.put(field, value, limits(c));
        stored(c, hash, existing == null);
    }

    /** HSCAN key cursor [MATCH pattern] [COUNT count]; options are checked only for an existing hash. */
    private static void hscan(Call c) {
        long cursor = ScanArgs.parseCursor(c.arg(2));
        HashValue hash = c.read(c.key(1), HashValue.class);
        if (hash == null) {
            ScanArgs.reply(c, 0, List.of());
            return;
        }
        ScanArgs args = ScanArgs.parse(c, 3, false);
        List<byte[]> found = new ArrayList<>();
        long next = hash.scan(cursor, args.countForTable(), (field, value) -> {
            if (args.matches(field.bytes())) {
                found.add(field.bytes());
                found.add(value);
            }
        });
        ScanArgs.reply(c, next, found);
    }

    private static void hrandfield(Call c) {
        if (c.argc() == 2) {
            HashValue hash = c.read(c.key(1), HashValue.class);
            Key field = hash == null ? null : hash.randomField(c.keyspace().random());
            if (field == null) {
                c.reply().nullBulk();
            } else {
                c.reply().bulk(field.bytes());
            }
            return;
        }
        long count = c.longArg(2);
        if (count == Long.MIN_VALUE) {
            throw new ErrorReply(Errors.RANDMEMBER_RANGE);
        }
        if (c.argc() > 4 || (c.argc() == 4 && !c.argIs(3, "WITHVALUES"))) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        boolean withValues = c.argc() == 4;
        if (withValues && Math.abs(count) > Long.MAX_VALUE / 2) {
            throw new ErrorReply(Errors.OUT_OF_RANGE);
        }
        HashValue hash = c.read(c.key(1), HashValue.class);
        if (hash == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        List<Key> picked = count < 0 ? pickWithRepeats(c, hash, -count, withValues) : pickDistinct(c, hash, count);
        replyFields(c, hash, picked, withValues);
    }

    /** {@code count} fields drawn independently, so possibly repeated. */
    private static List<Key> pickWithRepeats(Call c, HashValue hash, long count, boolean withValues) {
        if (count > (withValues ? ReplyWriter.MAX_RANDOM_REPLY / 2 : ReplyWriter.MAX_RANDOM_REPLY)) {
            throw new ErrorReply(Errors.OUT_OF_RANGE);
        }
        RandomGenerator random = c.keyspace().random();
        List<Key> picked = new ArrayList<>((int) count);
        if (hash.isHashtable()) {
            for (long i = 0; i < count; i++) {
                picked.add(hash.randomField(random));
            }
            return picked;
        }
        List<Key> all = fields(hash);
        for (long i = 0; i < count; i++) {
            picked.add(all.get(random.nextInt(all.size())));
        }
        return picked;
    }

    /**
     * {@code count} distinct fields, or the whole hash in its order when it has no more. A small
     * share of a hash table is drawn by rejecting repeats, anything else by selection sampling,
     * which keeps the hash's order as Redis's listpack sampling does.
     */
    private static List<Key> pickDistinct(Call c, HashValue hash, long count) {
        if (count >= hash.size()) {
            return fields(hash);
        }
        RandomGenerator random = c.keyspace().random();
        int wanted = (int) count;
        if (hash.isHashtable() && count * 3 <= hash.size()) {
            Set<Key> distinct = new LinkedHashSet<>();
            while (distinct.size() < wanted) {
                distinct.add(hash.randomField(random));
            }
            return new ArrayList<>(distinct);
        }
        List<Key> all = fields(hash);
        List<Key> chosen = new ArrayList<>(wanted);
        for (int i = 0; chosen.size() < wanted; i++) {
            if (random.nextInt(all.size() - i) < wanted - chosen.size()) {
                chosen.add(all.get(i));
            }
        }
        return chosen;
    }

    private static List<Key> fields(HashValue hash) {
        List<Key> all = new ArrayList<>(hash.size());
        hash.forEach((field, value) -> all.add(field));
        return all;
    }

    /** Replies fields, with their values as RESP3 pairs or a flat RESP2 list when {@code withValues}. */
    private static void replyFields(Call c, HashValue hash, List<Key> picked, boolean withValues) {
        boolean pairs = withValues && c.reply().protocol() >= 3;
        c.reply().arrayHeader(withValues && !pairs ? picked.size() * 2 : picked.size());
        for (Key field : picked) {
            if (pairs) {
                c.reply().arrayHeader(2);
            }
            c.reply().bulk(field.bytes());
            if (withValues) {
                c.reply().bulk(hash.get(field));
            }
        }
    }

    /** Replies a field's value, or the null bulk string for a missing one. */
    private static void replyValue(Call c, byte[] value) {
        if (value == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(value);
        }
    }
}
