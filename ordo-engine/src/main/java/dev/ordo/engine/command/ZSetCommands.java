package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.zset.AddResult;
import dev.ordo.engine.zset.Aggregate;
import dev.ordo.engine.zset.EntryVisitor;
import dev.ordo.engine.zset.LexRange;
import dev.ordo.engine.zset.ListpackLimits;
import dev.ordo.engine.zset.ScoreRange;
import dev.ordo.engine.zset.ScoredMembers;
import dev.ordo.engine.zset.ZAddOptions;
import dev.ordo.engine.zset.ZEntry;
import dev.ordo.engine.zset.ZSet;
import dev.ordo.engine.zset.ZSetAlgebra;
import dev.ordo.engine.zset.ZSetBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * The 35 sorted-set commands of Redis 7.2, over {@link ZSet}. Argument errors are checked in
 * Redis's order (options, then numbers and ranges, then the key's type), so that the same bad
 * command gets the same error from Ordo as from Redis.
 *
 * <p>Reply shapes: WITHSCORES results are a flat member, score list in RESP2 and an array of
 * [member, score] pairs in RESP3; ZPOPMIN/ZPOPMAX without a count reply one flat pair in both.
 */
final class ZSetCommands {
    private static final int MIN = 0;
    private static final int MAX = 1;

    private ZSetCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("zadd", ZSetCommands::zadd));
        t.register(Command.of("zincrby", ZSetCommands::zincrby));
        t.register(Command.of("zcard", ZSetCommands::zcard));
        t.register(Command.of("zcount", ZSetCommands::zcount));
        t.register(Command.of("zlexcount", ZSetCommands::zlexcount));
        t.register(Command.of("zscore", ZSetCommands::zscore));
        t.register(Command.of("zmscore", ZSetCommands::zmscore));
        t.register(Command.of("zrank", c -> zrank(c, false)));
        t.register(Command.of("zrevrank", c -> zrank(c, true)));
        t.register(Command.of("zrem", ZSetCommands::zrem));
        t.register(Command.of("zremrangebyrank", ZSetCommands::zremrangebyrank));
        t.register(Command.of("zremrangebyscore", ZSetCommands::zremrangebyscore));
        t.register(Command.of("zremrangebylex", ZSetCommands::zremrangebylex));
        t.register(Command.of("zrange", c -> range(c, RangeQuery.Kind.AUTO, false, false)));
        t.register(Command.of("zrangestore", c -> range(c, RangeQuery.Kind.AUTO, false, true)));
        t.register(Command.of("zrevrange", c -> range(c, RangeQuery.Kind.RANK, true, false)));
        t.register(Command.of("zrangebyscore", c -> range(c, RangeQuery.Kind.SCORE, false, false)));
        t.register(Command.of("zrevrangebyscore", c -> range(c, RangeQuery.Kind.SCORE, true, false)));
        t.register(Command.of("zrangebylex", c -> range(c, RangeQuery.Kind.LEX, false, false)));
        t.register(Command.of("zrevrangebylex", c -> range(c, RangeQuery.Kind.LEX, true, false)));
        t.register(Command.of("zpopmin", c -> zpop(c, MIN)));
        t.register(Command.of("zpopmax", c -> zpop(c, MAX)));
        t.register(Command.of("bzpopmin", c -> bzpop(c, MIN)));
        t.register(Command.of("bzpopmax", c -> bzpop(c, MAX)));
        t.register(Command.of("zmpop", c -> zmpop(c, 1, false)));
        t.register(Command.of("bzmpop", c -> zmpop(c, 2, true)));
        t.register(Command.of("zrandmember", ZSetCommands::zrandmember));
        t.register(Command.of("zscan", ZSetCommands::zscan));
        t.register(Command.of("zunion", c -> algebra(c, Op.UNION, false)));
        t.register(Command.of("zinter", c -> algebra(c, Op.INTER, false)));
        t.register(Command.of("zdiff", c -> algebra(c, Op.DIFF, false)));
        t.register(Command.of("zunionstore", c -> algebra(c, Op.UNION, true)));
        t.register(Command.of("zinterstore", c -> algebra(c, Op.INTER, true)));
        t.register(Command.of("zdiffstore", c -> algebra(c, Op.DIFF, true)));
        t.register(Command.of("zintercard", ZSetCommands::zintercard));
    }

    // ------------------------------------------------------------------ writes

    /** ZADD key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]. */
    private static void zadd(Call c) {
        ZAddOptions options = ZAddOptions.NONE;
        int i = 2;
        for (; i < c.argc(); i++) {
            if (c.argIs(i, "NX")) {
                options = options.nx();
            } else if (c.argIs(i, "XX")) {
                options = options.xx();
            } else if (c.argIs(i, "GT")) {
                options = options.gt();
            } else if (c.argIs(i, "LT")) {
                options = options.lt();
            } else if (c.argIs(i, "CH")) {
                options = options.ch();
            } else if (c.argIs(i, "INCR")) {
                options = options.incr();
            } else {
                break;
            }
        }
        int elements = c.argc() - i;
        if (elements == 0 || elements % 2 != 0) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        int pairs = elements / 2;
        options.validate(pairs);
        double[] scores = new double[pairs];
        int longest = 0;
        for (int p = 0; p < pairs; p++) {
            scores[p] = c.doubleArg(i + 2 * p);
            longest = Math.max(longest, c.arg(i + 2 * p + 1).length);
        }
        Key key = c.key(1);
        ZSet z = c.readForWrite(key, ZSet.class);
        boolean created = false;
        if (z == null) {
            if (options.isXx()) {
                replyAddOutcome(c, options, 0, Double.NaN);
                return;
            }
            z = new ZSet(limits(c), pairs, longest);
            created = true;
        }
        long counted = 0;
        boolean changed = false;
        double incrResult = Double.NaN;
        for (int p = 0; p < pairs; p++) {
            byte[] member = c.arg(i + 2 * p + 1);
            if (options.isIncr()) {
                double before = z.score(member);
                incrResult = z.increment(member, scores[p], options);
                changed = !Double.isNaN(incrResult) && !(before == incrResult);
            } else {
                AddResult result = z.add(member, scores[p], options);
                counted += result.counts(options.isCh()) ? 1 : 0;
                changed |= result.counts(true);
            }
        }
        if (changed || created) {
            // As Redis: a ZADD that changed nothing neither touches WATCHed keys, nor is logged, nor is heard.
            finishWrite(c, key, z, created, changed ? (options.isIncr() ? "zincr" : "zadd") : null);
        }
        replyAddOutcome(c, options, counted, incrResult);
    }

    private static void replyAddOutcome(Call c, ZAddOptions options, long counted, double incrResult) {
        if (!options.isIncr()) {
            c.reply().integer(counted);
        } else if (Double.isNaN(incrResult)) {
            c.reply().nullBulk();
        } else {
            c.reply().doubleValue(incrResult);
        }
    }

    /** ZINCRBY key increment member. */
    private static void zincrby(Call c) {
        double delta = c.doubleArg(2);
        Key key = c.key(1);
        ZSet z = c.readForWrite(key, ZSet.class);
        boolean created = z == null;
        if (created) {
            z = new ZSet(limits(c), 1, c.arg(3).length);
        }
        double before = z.score(c.arg(3));
        double score = z.increment(c.arg(3), delta, ZAddOptions.NONE);
        if (created || before != score) {
            finishWrite(c, key, z, created, "zincr");
        }
        c.reply().doubleValue(score);
    }

    /** ZREM key member [member ...]. */
    private static void zrem(Call c) {
        Key key = c.key(1);
        ZSet z = c.readForWrite(key, ZSet.class);
        if (z == null) {
            c.reply().integer(0);
            return;
        }
        long removed = 0;
        for (int i = 2; i < c.argc(); i++) {
            if (z.remove(c.arg(i))) {
                removed++;
            }
        }
        if (removed > 0) {
            finishWrite(c, key, z, false, "zrem");
        }
        c.reply().integer(removed);
    }

    /** ZREMRANGEBYRANK key start stop. */
    private static void zremrangebyrank(Call c) {
        long start = c.longArg(2);
        long stop = c.longArg(3);
        removeRange(c, "zremrangebyrank", z -> z.removeRange(start, stop));
    }

    /** ZREMRANGEBYSCORE key min max. */
    private static void zremrangebyscore(Call c) {
        ScoreRange range = ScoreRange.parse(c.arg(2), c.arg(3));
        removeRange(c, "zremrangebyscore", z -> z.removeRangeByScore(range));
    }

    /** ZREMRANGEBYLEX key min max. */
    private static void zremrangebylex(Call c) {
        LexRange range = LexRange.parse(c.arg(2), c.arg(3));
        removeRange(c, "zremrangebylex", z -> z.removeRangeByLex(range));
    }

    private interface Removal {
        long apply(ZSet z);
    }

    private static void removeRange(Call c, String event, Removal removal) {
        Key key = c.key(1);
        ZSet z = c.readForWrite(key, ZSet.class);
        long removed = z == null ? 0 : removal.apply(z);
        if (removed > 0) {
            finishWrite(c, key, z, false, event);
        }
        c.reply().integer(removed);
    }

    /**
     * Stores a new set, deletes an emptied one, or records an in-place change; then sends
     * {@code event} (unless null) and, for a deleted set, "del", as Redis does.
     */
    private static void finishWrite(Call c, Key key, ZSet z, boolean created, String event) {
        Database db = c.db();
        boolean deleted = false;
        if (z.isEmpty()) {
            if (!created) {
                db.delete(key);
                deleted = true;
            }
        } else if (created) {
            db.add(key, z);
        } else {
            db.touchModified(key);
        }
        if (event != null) {
            c.notifyKeyspaceEvent(EventClass.ZSET, event, key);
        }
        if (deleted) {
            c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
        }
    }

    /**
     * Stores a STORE command's result at {@code destination} (dropping its TTL), sending
     * {@code event}; an empty result (null) deletes {@code destination} ("del" if it existed).
     */
    private static void storeResult(Call c, Key destination, ZSet result, String event) {
        if (result == null) {
            if (c.db().delete(destination)) {
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", destination);
            }
        } else {
            c.db().set(destination, result);
            c.notifyKeyspaceEvent(EventClass.ZSET, event, destination);
        }
    }

    // ------------------------------------------------------------------ reads

    /** ZCARD key. */
    private static void zcard(Call c) {
        ZSet z = c.read(c.key(1), ZSet.class);
        c.reply().integer(z == null ? 0 : z.size());
    }

    /** ZCOUNT key min max. */
    private static void zcount(Call c) {
        ScoreRange range = ScoreRange.parse(c.arg(2), c.arg(3));
        ZSet z = c.read(c.key(1), ZSet.class);
        c.reply().integer(z == null ? 0 : z.count(range));
    }

    /** ZLEXCOUNT key min max. */
    private static void zlexcount(Call c) {
        LexRange range = LexRange.parse(c.arg(2), c.arg(3));
        ZSet z = c.read(c.key(1), ZSet.class);
        c.reply().integer(z == null ? 0 : z.lexCount(range));
    }

    /** ZSCORE key member. */
    private static void zscore(Call c) {
        ZSet z = c.read(c.key(1), ZSet.class);
        double score = z == null ? Double.NaN : z.score(c.arg(2));
        if (Double.isNaN(score)) {
            c.reply().nullBulk();
        } else {
            c.reply().doubleValue(score);
        }
    }

    /** ZMSCORE key member [member ...]. */
    private static void zmscore(Call c) {
        ZSet z = c.read(c.key(1), ZSet.class);
        c.reply().arrayHeader(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            double score = z == null ? Double.NaN : z.score(c.arg(i));
            if (Double.isNaN(score)) {
                c.reply().nullBulk();
            } else {
                c.reply().doubleValue(score);
            }
        }
    }

    /** ZRANK / ZREVRANK key member [WITHSCORE]. */
    private static void zrank(Call c, boolean reverse) {
        if (c.argc() > 4 || (c.argc() == 4 && !c.argIs(3, "WITHSCORE"))) {
            throw new ErrorReply(c.argc() > 4 ? Errors.wrongArity(c.command().fullName()) : Errors.SYNTAX);
        }
        boolean withScore = c.argc() == 4;
        ZSet z = c.read(c.key(1), ZSet.class);
        ZSet.RankedScore ranked = z == null ? null : z.rankWithScore(c.arg(2), reverse);
        if (ranked == null) {
            if (withScore) {
                c.reply().nullArray();
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        if (withScore) {
            c.reply().arrayHeader(2);
            c.reply().integer(ranked.rank());
            c.reply().doubleValue(ranked.score());
        } else {
            c.reply().integer(ranked.rank());
        }
    }

    // ------------------------------------------------------------------ ranges

    /** A parsed ZRANGE-family request. */
    private static final class RangeQuery {
        enum Kind {
            AUTO, RANK, SCORE, LEX
        }

        Kind kind;
        boolean reverse;
        boolean withScores;
        long offset;
        long count = -1;
    }

    /**
     * ZRANGE, ZRANGESTORE, ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX: one parser and one
     * evaluation, as in Redis, so that option errors come out the same for every variant.
     */
    private static void range(Call c, RangeQuery.Kind kind, boolean reverse, boolean store) {
        int keyIndex = store ? 2 : 1;
        RangeQuery q = new RangeQuery();
        q.kind = kind;
        q.reverse = reverse;
        for (int j = keyIndex + 3; j < c.argc(); j++) {
            int left = c.argc() - 1 - j;
            if (!store && c.argIs(j, "WITHSCORES")) {
                q.withScores = true;
            } else if (c.argIs(j, "LIMIT") && left >= 2) {
                q.offset = c.longArg(j + 1);
                q.count = c.longArg(j + 2);
                j += 2;
            } else if (kind == RangeQuery.Kind.AUTO && c.argIs(j, "BYSCORE")) {
                q.kind = q.kind == RangeQuery.Kind.AUTO ? RangeQuery.Kind.SCORE : failSyntax();
            } else if (kind == RangeQuery.Kind.AUTO && c.argIs(j, "BYLEX")) {
                q.kind = q.kind == RangeQuery.Kind.AUTO ? RangeQuery.Kind.LEX : failSyntax();
            } else if (kind == RangeQuery.Kind.AUTO && !q.reverse && c.argIs(j, "REV")) {
                q.reverse = true;
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        // Redis tests the count, not the presence of LIMIT: "LIMIT 3 -1" on a rank range passes.
        if (q.count != -1 && (q.kind == RangeQuery.Kind.AUTO || q.kind == RangeQuery.Kind.RANK)) {
            throw new ErrorReply(Errors.LIMIT_NEEDS_BYSCORE_OR_BYLEX);
        }
        if (q.withScores && q.kind == RangeQuery.Kind.LEX) {
            throw new ErrorReply(Errors.WITHSCORES_WITH_BYLEX);
        }
        byte[] min = c.arg(keyIndex + 1);
        byte[] max = c.arg(keyIndex + 2);
        boolean swapped = q.reverse && (q.kind == RangeQuery.Kind.SCORE || q.kind == RangeQuery.Kind.LEX);
        if (swapped) {
            byte[] t = min;
            min = max;
            max = t;
        }
        SpanFinder finder = spanFinder(c, q, min, max);
        ZSet z = c.read(c.key(keyIndex), ZSet.class);
        ZSet.Span span = z == null ? ZSet.Span.EMPTY : finder.find(z);
        if (store) {
            storeSpan(c, c.key(1), z, span);
        } else {
            writeEntries(c.reply(), z, span, q.withScores);
        }
    }

    private static RangeQuery.Kind failSyntax() {
        throw new ErrorReply(Errors.SYNTAX);
    }

    private interface SpanFinder {
        ZSet.Span find(ZSet z);
    }

    /** Parses the range bounds (before the key is looked up, as Redis does) into a span finder. */
    private static SpanFinder spanFinder(Call c, RangeQuery q, byte[] min, byte[] max) {
        switch (q.kind) {
            case SCORE: {
                ScoreRange range = ScoreRange.parse(min, max);
                return z -> z.scoreSpan(range, q.reverse, q.offset, q.count);
            }
            case LEX: {
                LexRange range = LexRange.parse(min, max);
                return z -> z.lexSpan(range, q.reverse, q.offset, q.count);
            }
            default: {
                long start = Call.parseLong(min, Errors.NOT_INTEGER);
                long stop = Call.parseLong(max, Errors.NOT_INTEGER);
                return z -> z.indexSpan(start, stop, q.reverse);
            }
        }
    }

    private static void storeSpan(Call c, Key destination, ZSet source, ZSet.Span span) {
        ZSet result = null;
        if (span.size() > 0) {
            ZSetBuilder builder = new ZSetBuilder(limits(c), span.size());
            source.visit(span, builder::add);
            result = builder.build().asStored();
        }
        storeResult(c, destination, result, "zrangestore");
        c.reply().integer(span.size());
    }

    /** Writes a span's entries: members only, or with scores in the protocol's shape. */
    private static void writeEntries(ReplyWriter out, ZSet z, ZSet.Span span, boolean withScores) {
        int n = span.size();
        if (!withScores) {
            out.arrayHeader(n);
            if (n > 0) {
                z.visit(span, (buf, off, len, score) -> out.bulk(buf, off, len));
            }
            return;
        }
        boolean pairs = out.protocol() >= 3;
        out.arrayHeader(pairs ? n : 2 * n);
        if (n > 0) {
            z.visit(span, entryWriter(out, pairs));
        }
    }

    /** Writes each entry as member then score, wrapped in a 2-element array when {@code pairs}. */
    private static EntryVisitor entryWriter(ReplyWriter out, boolean pairs) {
        return (buf, off, len, score) -> {
            if (pairs) {
                out.arrayHeader(2);
            }
            out.bulk(buf, off, len);
            out.doubleValue(score);
        };
    }

    // ------------------------------------------------------------------ pops

    /** ZPOPMIN / ZPOPMAX key [count]. */
    private static void zpop(Call c, int where) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        boolean counted = c.argc() == 3;
        long count = 1;
        if (counted) {
            count = Call.parseLong(c.arg(2), Errors.NOT_POSITIVE);
            if (count < 0) {
                throw new ErrorReply(Errors.NOT_POSITIVE);
            }
        }
        Key key = c.key(1);
        ZSet z = c.readForWrite(key, ZSet.class);
        if (z == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        List<ZEntry> popped = pop(c, key, z, where, count);
        boolean pairs = counted && c.reply().protocol() >= 3;
        c.reply().arrayHeader(pairs ? popped.size() : 2 * popped.size());
        EntryVisitor writer = entryWriter(c.reply(), pairs);
        for (ZEntry e : popped) {
            writer.visit(e.member(), 0, e.member().length, e.score());
        }
    }

    /** Pops up to {@code count} entries from {@code z} (held at {@code key}), deleting the key when emptied. */
    private static List<ZEntry> pop(Call c, Key key, ZSet z, int where, long count) {
        List<ZEntry> popped = new ArrayList<>((int) Math.min(count, z.size()));
        if (where == MIN) {
            z.popMin(count, ZEntry.collectInto(popped));
        } else {
            z.popMax(count, ZEntry.collectInto(popped));
        }
        finishWrite(c, key, z, false, where == MIN ? "zpopmin" : "zpopmax");
        if (c.logsEffects()) {
            c.propagateRemoval("ZREM", key, popped.stream().map(ZEntry::member).toList());
        }
        return popped;
    }

    /** BZPOPMIN / BZPOPMAX key [key ...] timeout. */
    private static void bzpop(Call c, int where) {
        long timeout = c.timeoutMillisArg(c.argc() - 1);
        List<Key> keys = new ArrayList<>();
        for (int i = 1; i < c.argc() - 1; i++) {
            Key key = c.key(i);
            keys.add(key);
            ZSet z = c.mayServeFrom(key) ? c.readForWrite(key, ZSet.class) : null;
            if (z != null) {
                ZEntry e = pop(c, key, z, where, 1).get(0);
                c.reply().arrayHeader(3);
                c.reply().bulk(key.bytes());
                c.reply().bulk(e.member());
                c.reply().doubleValue(e.score());
                return;
            }
        }
        blockOrGiveUp(c, keys, timeout);
    }

    /** ZMPOP numkeys key [key ...] MIN|MAX [COUNT count], and BZMPOP timeout numkeys ... . */
    private static void zmpop(Call c, int numkeysIndex, boolean blocking) {
        MultiPopArgs<Integer> args = MultiPopArgs.parse(c, numkeysIndex, ZSetCommands::whereArg);
        int where = args.where();
        int whereIndex = args.whereIndex();
        // BZMPOP reads its timeout after the other arguments, as Redis does (its errors come first).
        long timeout = blocking ? c.timeoutMillisArg(1) : 0;
        long n = args.countOrOne();
        List<Key> keys = new ArrayList<>();
        for (int i = numkeysIndex + 1; i < whereIndex; i++) {
            Key key = c.key(i);
            keys.add(key);
            ZSet z = c.mayServeFrom(key) ? c.readForWrite(key, ZSet.class) : null;
            if (z != null) {
                List<ZEntry> popped = pop(c, key, z, where, n);
                c.reply().arrayHeader(2);
                c.reply().bulk(key.bytes());
                c.reply().arrayHeader(popped.size());
                EntryVisitor writer = entryWriter(c.reply(), true);
                for (ZEntry e : popped) {
                    writer.visit(e.member(), 0, e.member().length, e.score());
                }
                return;
            }
        }
        if (blocking) {
            blockOrGiveUp(c, keys, timeout);
        } else {
            c.reply().nullArray();
        }
    }

    private static int whereArg(Call c, int i) {
        if (c.argIs(i, "MIN")) {
            return MIN;
        }
        if (c.argIs(i, "MAX")) {
            return MAX;
        }
        throw new ErrorReply(Errors.SYNTAX);
    }

    /** Blocks when allowed (not in MULTI or a script), else replies with a null array as Redis does. */
    private static void blockOrGiveUp(Call c, List<Key> keys, long timeoutMillis) {
        if (c.blockingAllowed()) {
            c.block(keys, KeyType.ZSET, timeoutMillis);
        } else {
            c.reply().nullArray();
        }
    }

    // ------------------------------------------------------------------ random, scan

    /** ZRANDMEMBER key [count [WITHSCORES]]. */
    private static void zrandmember(Call c) {
        if (c.argc() == 2) {
            ZSet z = c.read(c.key(1), ZSet.class);
            if (z == null) {
                c.reply().nullBulk();
            } else {
                z.randomMembers(1, c.keyspace().random(), (buf, off, len, score) -> c.reply().bulk(buf, off, len));
            }
            return;
        }
        long count = c.longArg(2);
        if (count == Long.MIN_VALUE) {
            throw new ErrorReply(Errors.RANDMEMBER_RANGE);
        }
        if (c.argc() > 4 || (c.argc() == 4 && !c.argIs(3, "WITHSCORES"))) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        boolean withScores = c.argc() == 4;
        if (withScores && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
            throw new ErrorReply(Errors.OUT_OF_RANGE);
        }
        if (count < 0 && -count > (withScores ? ReplyWriter.MAX_RANDOM_REPLY / 2 : ReplyWriter.MAX_RANDOM_REPLY)) {
            throw new ErrorReply(Errors.OUT_OF_RANGE);
        }
        ZSet z = c.read(c.key(1), ZSet.class);
        if (z == null || count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        long n = count < 0 ? -count : Math.min(count, z.size());
        boolean pairs = withScores && c.reply().protocol() >= 3;
        c.reply().arrayHeader((int) (withScores && !pairs ? 2 * n : n));
        EntryVisitor writer = withScores ? entryWriter(c.reply(), pairs) : (buf, off, len, score) -> c.reply().bulk(buf, off, len);
        z.randomMembers(count, c.keyspace().random(), writer);
    }

    /** ZSCAN key cursor [MATCH pattern] [COUNT count]; options are checked only for an existing set. */
    private static void zscan(Call c) {
        long cursor = ScanArgs.parseCursor(c.arg(2));
        ZSet z = c.read(c.key(1), ZSet.class);
        if (z == null) {
            ScanArgs.reply(c, 0, List.of());
            return;
        }
        ScanArgs args = ScanArgs.parse(c, 3, false);
        List<byte[]> found = new ArrayList<>();
        long next = z.scan(cursor, args.countForTable(), (buf, off, len, score) -> {
            byte[] member = java.util.Arrays.copyOfRange(buf, off, off + len);
            if (args.matches(member)) {
                found.add(member);
                found.add(dev.ordo.engine.number.Doubles.formatBytes(score));
            }
        });
        ScanArgs.reply(c, next, found);
    }

    // ------------------------------------------------------------------ algebra

    private enum Op {
        UNION, INTER, DIFF
    }

    /**
     * ZUNION / ZINTER / ZDIFF numkeys key [key ...] [WEIGHTS w ...] [AGGREGATE SUM|MIN|MAX]
     * [WITHSCORES], and the STORE variants with a destination first and no WITHSCORES. Inputs may
     * be sorted sets or sets (members scoring 1); a missing key is an empty input.
     */
    private static void algebra(Call c, Op op, boolean store) {
        int numkeysIndex = store ? 2 : 1;
        long numkeys = c.longArg(numkeysIndex);
        if (numkeys < 1) {
            throw new ErrorReply(Errors.atLeastOneInputKey(c.command().fullName()));
        }
        if (numkeys > c.argc() - numkeysIndex - 1) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        int firstKey = numkeysIndex + 1;
        int n = (int) numkeys;
        List<ScoredMembers> inputs = inputs(c, firstKey, n);
        double[] weights = new double[n];
        java.util.Arrays.fill(weights, 1.0);
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        for (int j = firstKey + n; j < c.argc(); j++) {
            int left = c.argc() - 1 - j;
            if (op != Op.DIFF && c.argIs(j, "WEIGHTS") && left >= n) {
                for (int w = 0; w < n; w++) {
                    weights[w] = c.doubleArg(++j, Errors.WEIGHT_NOT_FLOAT);
                }
            } else if (op != Op.DIFF && c.argIs(j, "AGGREGATE") && left >= 1) {
                aggregate = aggregateArg(c, ++j);
            } else if (!store && c.argIs(j, "WITHSCORES")) {
                withScores = true;
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        ListpackLimits limits = limits(c);
        ZSet result = op == Op.UNION ? ZSetAlgebra.union(inputs, weights, aggregate, limits)
                : op == Op.INTER ? ZSetAlgebra.inter(inputs, weights, aggregate, limits)
                : ZSetAlgebra.diff(inputs, limits);
        if (store) {
            String event = op == Op.UNION ? "zunionstore" : op == Op.INTER ? "zinterstore" : "zdiffstore";
            storeResult(c, c.key(1), result.isEmpty() ? null : result.asStored(), event);
            c.reply().integer(result.size());
        } else {
            writeEntries(c.reply(), result, result.indexSpan(0, -1, false), withScores);
        }
    }

    private static Aggregate aggregateArg(Call c, int i) {
        if (c.argIs(i, "SUM")) {
            return Aggregate.SUM;
        }
        if (c.argIs(i, "MIN")) {
            return Aggregate.MIN;
        }
        if (c.argIs(i, "MAX")) {
            return Aggregate.MAX;
        }
        throw new ErrorReply(Errors.SYNTAX);
    }

    /** ZINTERCARD numkeys key [key ...] [LIMIT limit]. */
    private static void zintercard(Call c) {
        long numkeys = c.longArg(1);
        if (numkeys < 1) {
            throw new ErrorReply(Errors.atLeastOneInputKey("zintercard"));
        }
        if (numkeys > c.argc() - 2) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        int n = (int) numkeys;
        List<ScoredMembers> inputs = inputs(c, 2, n);
        long limit = 0;
        for (int j = 2 + n; j < c.argc(); j++) {
            if (c.argIs(j, "LIMIT") && j < c.argc() - 1) {
                limit = Call.parseLong(c.arg(++j), Errors.LIMIT_NEGATIVE);
                if (limit < 0) {
                    throw new ErrorReply(Errors.LIMIT_NEGATIVE);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        c.reply().integer(ZSetAlgebra.interCard(inputs, limit));
    }

    /** The algebra's inputs: sorted sets and sets; WRONGTYPE for anything else. */
    private static List<ScoredMembers> inputs(Call c, int first, int n) {
        List<ScoredMembers> inputs = new ArrayList<>(n);
        for (int i = first; i < first + n; i++) {
            Object v = c.db().get(c.key(i));
            if (v == null) {
                inputs.add(ScoredMembers.EMPTY);
            } else if (v instanceof ZSet z) {
                inputs.add(z);
            } else if (v instanceof SetValue s) {
                inputs.add(s);
            } else {
                throw new ErrorReply(Errors.WRONGTYPE);
            }
        }
        return inputs;
    }

    private static ListpackLimits limits(Call c) {
        return c.context().config().zsetListpackLimits();
    }
}
