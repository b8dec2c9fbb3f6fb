package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * The set commands, with Redis 7.2's syntax, replies, error texts and encodings: SADD SREM SCARD
 * SISMEMBER SMISMEMBER SMEMBERS SRANDMEMBER SPOP SMOVE SSCAN SINTER SINTERCARD SINTERSTORE SUNION
 * SUNIONSTORE SDIFF SDIFFSTORE.
 *
 * <p>Results are built the way Redis builds them (a union starts as an empty intset and takes
 * members in input order, an intersection walks the smallest input), so the encoding and, for
 * small sets, the order of every reply match Redis. A set whose last member goes is deleted.
 * Replies Redis sends as sets (SMEMBERS, SPOP with a count, the algebra) use the RESP3 set type.
 * Read lookups count keyspace hits and misses; write lookups do not.
 */
final class SetCommands {
    /** Redis samples by removal when the count is within this factor of the set's size. */
    private static final int SRANDMEMBER_SUB_STRATEGY_MUL = 3;
    /** SPOP rebuilds the set from the survivors when they are this many times fewer than the popped. */
    private static final int SPOP_MOVE_STRATEGY_MUL = 5;

    private SetCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("sadd", SetCommands::sadd));
        t.register(Command.of("srem", SetCommands::srem));
        t.register(Command.of("scard", SetCommands::scard));
        t.register(Command.of("sismember", SetCommands::sismember));
        t.register(Command.of("smismember", SetCommands::smismember));
        t.register(Command.of("smembers", SetCommands::smembers));
        t.register(Command.of("srandmember", SetCommands::srandmember));
        t.register(Command.of("spop", SetCommands::spop));
        t.register(Command.of("smove", SetCommands::smove));
        t.register(Command.of("sscan", SetCommands::sscan));
        t.register(Command.of("sinter", SetCommands::sinter));
        t.register(Command.of("sintercard", SetCommands::sintercard));
        t.register(Command.of("sinterstore", SetCommands::sinterstore));
        t.register(Command.of("sunion", c -> unionOrDiff(c, false, false)));
        t.register(Command.of("sunionstore", c -> unionOrDiff(c, false, true)));
        t.register(Command.of("sdiff", c -> unionOrDiff(c, true, false)));
        t.register(Command.of("sdiffstore", c -> unionOrDiff(c, true, true)));
    }

    /** The live encoding limits from the configuration. */
    static SetValue.Limits limits(Call c) {
        Config config = c.context().config();
        return new SetValue.Limits(config.getLong("set-max-intset-entries"), config.getLong("set-max-listpack-entries"),
                config.getLong("set-max-listpack-value"));
    }

    // ------------------------------------------------------------------ single-set commands

    /** SADD key member [member ...]: the number of members added. */
    private static void sadd(Call c) {
        Key key = c.key(1);
        SetValue set = c.readForWrite(key, SetValue.class);
        SetValue.Limits limits = limits(c);
        int incoming = c.argc() - 2;
        boolean created = set == null;
        if (created) {
            set = SetValue.create(c.arg(2), incoming, limits);
        } else {
            set.prepareForAdds(incoming, limits);
        }
        long added = 0;
        for (int i = 2; i < c.argc(); i++) {
            if (set.add(c.arg(i), limits)) {
                added++;
            }
        }
        if (created) {
            c.db().add(key, set);
        } else if (added > 0) {
            c.db().touchModified(key);
        }
        if (added > 0) {
            c.notifyKeyspaceEvent(EventClass.SET, "sadd", key);
        }
        c.reply().integer(added);
    }

    /** SREM key member [member ...]: the number of members removed; the key goes with its last member. */
    private static void srem(Call c) {
        Key key = c.key(1);
        SetValue set = c.readForWrite(key, SetValue.class);
        long removed = 0;
        if (set != null) {
            for (int i = 2; i < c.argc() && set.size() > 0; i++) {
                if (set.remove(c.arg(i))) {
                    removed++;
                }
            }
            afterRemoval(c, key, set, removed > 0, "srem");
        }
        c.reply().integer(removed);
    }

    private static void scard(Call c) {
        SetValue set = c.read(c.key(1), SetValue.class);
        c.reply().integer(set == null ? 0 : set.size());
    }

    private static void sismember(Call c) {
        SetValue set = c.read(c.key(1), SetValue.class);
        c.reply().integer(set != null && set.contains(c.arg(2)) ? 1 : 0);
    }

    /** SMISMEMBER key member [member ...]: 1 or 0 per member; a missing key is an empty set. */
    private static void smismember(Call c) {
        SetValue set = c.read(c.key(1), SetValue.class);
        c.reply().arrayHeader(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            c.reply().integer(set != null && set.contains(c.arg(i)) ? 1 : 0);
        }
    }

    private static void smembers(Call c) {
        SetValue set = c.read(c.key(1), SetValue.class);
        replySet(c, set == null ? List.of() : set.members());
    }

    /**
     * SRANDMEMBER key [count]: one random member (nil for a missing key); with a count, that many
     * distinct members (the whole set when it is smaller), or with a negative count |count|
     * members drawn independently.
     */
    private static void srandmember(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        if (c.argc() == 2) {
            SetValue set = c.read(c.key(1), SetValue.class);
            if (set == null) {
                c.reply().nullBulk();
            } else {
                c.reply().bulk(set.random(c.keyspace().random()));
            }
            return;
        }
        long l = c.longArg(2);
        if (l == Long.MIN_VALUE) {
            throw new ErrorReply(Errors.RANDMEMBER_RANGE);
        }
        SetValue set = c.read(c.key(1), SetValue.class);
        long count = Math.abs(l);
        if (set == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        RandomGenerator random = c.keyspace().random();
        if (l < 0 || count == 1) {
            replyRandomWithRepeats(c, set, count, random);
        } else if (count >= set.size()) {
            replyArray(c, set.members());
        } else if (set.encoding() == SetValue.Encoding.LISTPACK) {
            replyArray(c, set.orderedSample((int) count, random));
        } else {
            replyArray(c, distinctSample(set, (int) count, random));
        }
    }

    /** |count| members drawn independently; a reply past what one array can count is refused. */
    private static void replyRandomWithRepeats(Call c, SetValue set, long count, RandomGenerator random) {
        if (count > ReplyWriter.MAX_RANDOM_REPLY) {
            throw new ErrorReply(Errors.OUT_OF_RANGE);
        }
        c.reply().arrayHeader((int) count);
        for (long i = 0; i < count; i++) {
            c.reply().bulk(set.random(random));
        }
    }

    /** {@code count} distinct members of a set larger than that, in no particular order. */
    private static List<byte[]> distinctSample(SetValue set, int count, RandomGenerator random) {
        if ((long) count * SRANDMEMBER_SUB_STRATEGY_MUL > set.size()) {
            List<byte[]> all = set.members();
            Collections.shuffle(all, new Random(random.nextLong()));
            return new ArrayList<>(all.subList(0, count));
        }
        Set<Key> picked = new LinkedHashSet<>();
        while (picked.size() < count) {
            picked.add(Key.of(set.random(random)));
        }
        List<byte[]> out = new ArrayList<>(count);
        picked.forEach(k -> out.add(k.bytes()));
        return out;
    }

    /** SPOP key [count]: removes and returns one random member, or a set of up to count members. */
    private static void spop(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        if (c.argc() == 3) {
            spopWithCount(c);
            return;
        }
        Key key = c.key(1);
        SetValue set = c.readForWrite(key, SetValue.class);
        if (set == null) {
            c.reply().nullBulk();
            return;
        }
        byte[] member = set.random(c.keyspace().random());
        set.remove(member);
        afterRemoval(c, key, set, true, "spop");
        c.propagate("SREM", key, member);
        c.reply().bulk(member);
    }

    private static void spopWithCount(Call c) {
        long count = Call.parseLong(c.arg(2), Errors.NOT_POSITIVE);
        if (count < 0) {
            throw new ErrorReply(Errors.NOT_POSITIVE);
        }
        Key key = c.key(1);
        SetValue set = c.readForWrite(key, SetValue.class);
        if (set == null || count == 0) {
            replySet(c, List.of());
            return;
        }
        if (count >= set.size()) {
            List<byte[]> all = union(new SetValue[] {set}, limits(c)).members();
            c.db().delete(key);
            c.notifyKeyspaceEvent(EventClass.SET, "spop", key);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
            c.propagate("DEL", key);
            replySet(c, all);
            return;
        }
        int n = (int) count;
        int remaining = set.size() - n;
        RandomGenerator random = c.keyspace().random();
        List<byte[]> popped;
        if ((long) remaining * SPOP_MOVE_STRATEGY_MUL > n) {
            popped = popEach(set, n, random);
            c.db().touchModified(key);
        } else {
            SetValue survivors = keepRandom(set, remaining, random, limits(c));
            popped = set.members();
            c.db().replaceKeepingTtl(key, survivors);
        }
        c.notifyKeyspaceEvent(EventClass.SET, "spop", key);
        c.propagateRemoval("SREM", key, popped);
        replySet(c, popped);
    }

    /** Removes {@code n} random members: in set order for a listpack (one walk), else one draw at a time. */
    private static List<byte[]> popEach(SetValue set, int n, RandomGenerator random) {
        if (set.encoding() == SetValue.Encoding.LISTPACK) {
            List<byte[]> popped = set.orderedSample(n, random);
            popped.forEach(set::remove);
            return popped;
        }
        List<byte[]> popped = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            byte[] m = set.random(random);
            set.remove(m);
            popped.add(m);
        }
        return popped;
    }

    /**
     * Moves {@code keep} random members of {@code set} into a new set and returns it, leaving the
     * members to pop in {@code set}. The new set starts as Redis starts it: an intset when the
     * source is one, else a listpack.
     */
    private static SetValue keepRandom(SetValue set, int keep, RandomGenerator random, SetValue.Limits limits) {
        boolean intset = set.encoding() == SetValue.Encoding.INTSET;
        SetValue survivors = SetValue.empty(intset ? SetValue.Encoding.INTSET : SetValue.Encoding.LISTPACK);
        for (byte[] m : popEach(set, keep, random)) {
            survivors.add(m, limits);
        }
        return survivors;
    }

    /**
     * SMOVE source destination member: 1 when the member was in the source (and now is in the
     * destination), else 0. A missing source answers 0 before any type check of the destination.
     */
    private static void smove(Call c) {
        Key srcKey = c.key(1);
        Key dstKey = c.key(2);
        byte[] member = c.arg(3);
        Object src = valueOf(c.db(), srcKey);
        Object dst = valueOf(c.db(), dstKey);
        if (src == null) {
            c.reply().integer(0);
            return;
        }
        if (!(src instanceof SetValue) || (dst != null && !(dst instanceof SetValue))) {
            throw new ErrorReply(Errors.WRONGTYPE);
        }
        SetValue from = (SetValue) src;
        if (src == dst) {
            c.reply().integer(from.contains(member) ? 1 : 0);
            return;
        }
        if (!from.remove(member)) {
            c.reply().integer(0);
            return;
        }
        afterRemoval(c, srcKey, from, true, "srem");
        SetValue.Limits limits = limits(c);
        if (dst == null) {
            SetValue to = SetValue.create(member, 1, limits);
            to.add(member, limits);
            c.db().add(dstKey, to);
            c.notifyKeyspaceEvent(EventClass.SET, "sadd", dstKey);
        } else if (((SetValue) dst).add(member, limits)) {
            c.db().touchModified(dstKey);
            c.notifyKeyspaceEvent(EventClass.SET, "sadd", dstKey);
        }
        c.reply().integer(1);
    }

    /** SSCAN key cursor [MATCH pattern] [COUNT count]; options are checked only for an existing set. */
    private static void sscan(Call c) {
        long cursor = ScanArgs.parseCursor(c.arg(2));
        SetValue set = c.read(c.key(1), SetValue.class);
        if (set == null) {
            ScanArgs.reply(c, 0, List.of());
            return;
        }
        ScanArgs args = ScanArgs.parse(c, 3, false);
        List<byte[]> found = new ArrayList<>();
        long next = set.scan(cursor, args.countForTable(), m -> {
            if (args.matches(m)) {
                found.add(m);
            }
        });
        ScanArgs.reply(c, next, found);
    }

    // ------------------------------------------------------------------ intersection

    private static void sinter(Call c) {
        SetValue[] sets = lookup(c, 1);
        List<byte[]> result = new ArrayList<>();
        if (!anyMissing(sets)) {
            intersect(bySize(sets), 0, result::add);
        }
        replySet(c, result);
    }

    /** SINTERCARD numkeys key [key ...] [LIMIT limit]: the intersection's size, counting stopped at limit (0: none). */
    private static void sintercard(Call c) {
        long numkeys = Call.parseLong(c.arg(1), Errors.NUMKEYS_NOT_POSITIVE);
        if (numkeys < 1) {
            throw new ErrorReply(Errors.NUMKEYS_NOT_POSITIVE);
        }
        if (numkeys > c.argc() - 2) {
            throw new ErrorReply(Errors.NUMKEYS_GREATER_THAN_ARGS);
        }
        long limit = 0;
        for (int j = 2 + (int) numkeys; j < c.argc(); j++) {
            if (c.argIs(j, "LIMIT") && j < c.argc() - 1) {
                limit = Call.parseLong(c.arg(++j), Errors.LIMIT_NEGATIVE);
                if (limit < 0) {
                    throw new ErrorReply(Errors.LIMIT_NEGATIVE);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        SetValue[] sets = lookup(c, 2, 2 + (int) numkeys);
        long[] count = {0};
        if (!anyMissing(sets)) {
            intersect(bySize(sets), limit, m -> count[0]++);
        }
        c.reply().integer(count[0]);
    }

    /**
     * SINTERSTORE destination key [key ...]: the result starts as an intset when the smallest input
     * is one, else as a listpack, and ends as an intset when all its members are integers and fit.
     */
    private static void sinterstore(Call c) {
        SetValue[] sets = lookup(c, 2);
        SetValue result = null;
        if (!anyMissing(sets)) {
            SetValue[] sorted = bySize(sets);
            SetValue.Limits limits = limits(c);
            boolean intset = sorted[0].encoding() == SetValue.Encoding.INTSET;
            SetValue dst = SetValue.empty(intset ? SetValue.Encoding.INTSET : SetValue.Encoding.LISTPACK);
            intersect(sorted, 0, m -> dst.add(m, limits));
            if (dst.size() > 0) {
                dst.compactToIntset(limits);
            }
            result = dst;
        }
        store(c, c.key(1), result, "sinterstore");
    }

    /**
     * Feeds {@code consumer} every member of the first (smallest) set found in all the others, in
     * that set's order, stopping after {@code limit} members (0: no limit).
     */
    private static void intersect(SetValue[] sorted, long limit, Consumer<byte[]> consumer) {
        long found = 0;
        for (byte[] m : sorted[0].members()) {
            if (inAllOthers(sorted, m)) {
                consumer.accept(m);
                if (limit > 0 && ++found >= limit) {
                    return;
                }
            }
        }
    }

    private static boolean inAllOthers(SetValue[] sorted, byte[] m) {
        for (int j = 1; j < sorted.length; j++) {
            if (sorted[j] != sorted[0] && !sorted[j].contains(m)) {
                return false;
            }
        }
        return true;
    }

    /** The sets by ascending size, ties in argument order. */
    private static SetValue[] bySize(SetValue[] sets) {
        SetValue[] sorted = sets.clone();
        Arrays.sort(sorted, Comparator.comparingInt(SetValue::size));
        return sorted;
    }

    // ------------------------------------------------------------------ union and difference

    /** SUNION / SDIFF key [key ...] and their STORE forms with a destination first. */
    private static void unionOrDiff(Call c, boolean diff, boolean store) {
        SetValue[] sets = lookup(c, store ? 2 : 1);
        SetValue.Limits limits = limits(c);
        SetValue result = diff ? difference(sets, limits) : union(sets, limits);
        if (store) {
            store(c, c.key(1), result, diff ? "sdiffstore" : "sunionstore");
        } else {
            replySet(c, result.members());
        }
    }

    /** The union, built as Redis builds it: an empty intset taking each input's members in order. */
    private static SetValue union(SetValue[] sets, SetValue.Limits limits) {
        SetValue dst = SetValue.empty(SetValue.Encoding.INTSET);
        for (SetValue s : sets) {
            if (s != null) {
                s.forEach(m -> dst.add(m, limits));
            }
        }
        return dst;
    }

    /**
     * The first set less the others. Like Redis, either walks the first set probing the others
     * (largest first), or copies it and removes the others' members, whichever is less work;
     * the choice shows in the result's encoding and order.
     */
    private static SetValue difference(SetValue[] sets, SetValue.Limits limits) {
        SetValue dst = SetValue.empty(SetValue.Encoding.INTSET);
        SetValue first = sets[0];
        if (first == null || containsSame(sets)) {
            return dst;
        }
        long probeWork = 0;
        long copyWork = 0;
        for (SetValue s : sets) {
            if (s != null) {
                probeWork += first.size();
                copyWork += s.size();
            }
        }
        if (probeWork / 2 <= copyWork) {
            SetValue[] others = Arrays.copyOfRange(sets, 1, sets.length);
            Arrays.sort(others, Comparator.comparingInt((SetValue s) -> s == null ? 0 : s.size()).reversed());
            first.forEach(m -> {
                if (!inAny(others, m)) {
                    dst.add(m, limits);
                }
            });
            return dst;
        }
        first.forEach(m -> dst.add(m, limits));
        for (int j = 1; j < sets.length && dst.size() > 0; j++) {
            if (sets[j] != null) {
                sets[j].forEach(dst::remove);
            }
        }
        return dst;
    }

    private static boolean containsSame(SetValue[] sets) {
        for (int j = 1; j < sets.length; j++) {
            if (sets[j] != null && sets[j] == sets[0]) {
                return true;
            }
        }
        return false;
    }

    private static boolean inAny(SetValue[] sets, byte[] m) {
        for (SetValue s : sets) {
            if (s != null && s.contains(m)) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ shared steps

    private static SetValue[] lookup(Call c, int first) {
        return lookup(c, first, c.argc());
    }

    /** The sets named by arguments [from, to), null for a missing key; WRONGTYPE for any other type. */
    private static SetValue[] lookup(Call c, int from, int to) {
        SetValue[] sets = new SetValue[to - from];
        for (int i = from; i < to; i++) {
            sets[i - from] = c.read(c.key(i), SetValue.class);
        }
        return sets;
    }

    private static boolean anyMissing(SetValue[] sets) {
        for (SetValue s : sets) {
            if (s == null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stores a non-empty result at {@code dst} (dropping its TTL), sending {@code event}, and
     * replies its size; an empty one deletes {@code dst} ("del" if it existed).
     */
    private static void store(Call c, Key dst, SetValue result, String event) {
        Database db = c.db();
        if (result != null && result.size() > 0) {
            db.set(dst, result);
            c.notifyKeyspaceEvent(EventClass.SET, event, dst);
            c.reply().integer(result.size());
        } else {
            if (db.delete(dst)) {
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", dst);
            }
            c.reply().integer(0);
        }
    }

    /**
     * After members left {@code set} ({@code changed}): sends {@code event}, then deletes a set
     * left empty ("del") or records that it changed.
     */
    private static void afterRemoval(Call c, Key key, SetValue set, boolean changed, String event) {
        if (changed) {
            c.notifyKeyspaceEvent(EventClass.SET, event, key);
        }
        if (set.size() == 0) {
            c.db().delete(key);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
        } else if (changed) {
            c.db().touchModified(key);
        }
    }

    /** The live value of {@code key} of any type, or null, without counting a hit or a miss. */
    private static Object valueOf(Database db, Key key) {
        Database.Entry e = db.entry(key);
        return e == null ? null : e.value();
    }

    private static void replySet(Call c, List<byte[]> members) {
        c.reply().setHeader(members.size());
        members.forEach(c.reply()::bulk);
    }

    private static void replyArray(Call c, List<byte[]> members) {
        c.reply().arrayHeader(members.size());
        members.forEach(c.reply()::bulk);
    }
}
