package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.value.KeyType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The 22 list commands of Redis 7.2, over {@link ListValue}. Arguments are checked in Redis's
 * order (numbers and options first or after the key lookup, as each Redis command does), so the
 * same bad command gets the same error, and nothing changes before every argument is valid.
 *
 * <p>Encodings change as in Redis: before an add a listpack becomes a quicklist when the added
 * lengths could pass {@code list-max-listpack-size}; after a removal a small quicklist becomes a
 * listpack again. Blocking pops and moves wait through the engine's blocked clients, the same
 * queue the blocking sorted-set pops use, and are logged as their non-blocking forms.
 */
final class ListCommands {
    private static final boolean HEAD = true;
    private static final boolean TAIL = false;

    private ListCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("lpush", c -> push(c, HEAD, false)));
        t.register(Command.of("rpush", c -> push(c, TAIL, false)));
        t.register(Command.of("lpushx", c -> push(c, HEAD, true)));
        t.register(Command.of("rpushx", c -> push(c, TAIL, true)));
        t.register(Command.of("linsert", ListCommands::linsert));
        t.register(Command.of("llen", ListCommands::llen));
        t.register(Command.of("lindex", ListCommands::lindex));
        t.register(Command.of("lset", ListCommands::lset));
        t.register(Command.of("lrange", ListCommands::lrange));
        t.register(Command.of("ltrim", ListCommands::ltrim));
        t.register(Command.of("lrem", ListCommands::lrem));
        t.register(Command.of("lpos", ListCommands::lpos));
        t.register(Command.of("lpop", c -> pop(c, HEAD)));
        t.register(Command.of("rpop", c -> pop(c, TAIL)));
        t.register(Command.of("lmpop", c -> lmpop(c, 1, false)));
        t.register(Command.of("rpoplpush", c -> move(c, TAIL, HEAD, -1)));
        t.register(Command.of("lmove", c -> move(c, side(c, 3), side(c, 4), -1)));
        t.register(Command.of("blpop", c -> bpop(c, HEAD)));
        t.register(Command.of("brpop", c -> bpop(c, TAIL)));
        t.register(Command.of("brpoplpush", c -> move(c, TAIL, HEAD, 3)));
        t.register(Command.of("blmove", c -> move(c, side(c, 3), side(c, 4), 5)));
        t.register(Command.of("blmpop", c -> lmpop(c, 2, true)));
    }

    // ------------------------------------------------------------------ pushes and changes

    /** LPUSH / RPUSH / LPUSHX / RPUSHX key element [element ...]. */
    private static void push(Call c, boolean head, boolean onlyIfExists) {
        Key key = c.key(1);
        Database.Entry entry = c.entryForWrite(key, ListValue.class);
        if (entry == null && onlyIfExists) {
            c.reply().integer(0);
            return;
        }
        ListValue list = entry == null ? new ListValue() : (ListValue) entry.value();
        long bytes = 0;
        for (int i = 2; i < c.argc(); i++) {
            bytes += c.arg(i).length;
        }
        list.prepareForAdds(bytes, c.argc() - 2L, limits(c));
        for (int i = 2; i < c.argc(); i++) {
            list.push(c.arg(i), head);
        }
        stored(c, key, list, entry);
        c.notifyKeyspaceEvent(EventClass.LIST, head ? "lpush" : "rpush", key);
        c.reply().integer(list.size());
    }

    /** LINSERT key BEFORE|AFTER pivot element. */
    private static void linsert(Call c) {
        boolean after;
        if (c.argIs(2, "AFTER")) {
            after = true;
        } else if (c.argIs(2, "BEFORE")) {
            after = false;
        } else {
            throw new ErrorReply(Errors.SYNTAX);
        }
        Key key = c.key(1);
        ListValue list = c.readForWrite(key, ListValue.class);
        if (list == null) {
            c.reply().integer(0);
            return;
        }
        byte[] element = c.arg(4);
        // Redis converts before looking for the pivot, whether or not it is found.
        list.prepareForAdd(element, limits(c));
        if (!list.insert(c.arg(3), element, after)) {
            c.reply().integer(-1);
            return;
        }
        c.db().touchModified(key);
        c.notifyKeyspaceEvent(EventClass.LIST, "linsert", key);
        c.reply().integer(list.size());
    }

    /** LSET key index element. */
    private static void lset(Call c) {
        Key key = c.key(1);
        ListValue list = c.readForWrite(key, ListValue.class);
        if (list == null) {
            throw new ErrorReply(Errors.NO_SUCH_KEY);
        }
        long index = c.longArg(2);
        byte[] element = c.arg(3);
        list.prepareForAdd(element, limits(c));
        long i = index < 0 ? list.size() + index : index;
        if (i < 0 || i >= list.size()) {
            throw new ErrorReply(Errors.INDEX_OUT_OF_RANGE);
        }
        list.set(i, element);
        list.compactEncoding(limits(c));
        c.db().touchModified(key);
        c.notifyKeyspaceEvent(EventClass.LIST, "lset", key);
        c.reply().simpleString("OK");
    }

    /** LTRIM key start stop. */
    private static void ltrim(Call c) {
        long start = c.longArg(2);
        long stop = c.longArg(3);
        Key key = c.key(1);
        ListValue list = c.readForWrite(key, ListValue.class);
        if (list == null) {
            c.reply().simpleString("OK");
            return;
        }
        long[] range = range(start, stop, list.size());
        if (range == null) {
            list.removeRange(0, list.size());
        } else {
            list.retain(range[0], range[1]);
        }
        c.notifyKeyspaceEvent(EventClass.LIST, "ltrim", key);
        removed(c, key, list);
        c.reply().simpleString("OK");
    }

    /** LREM key count element. */
    private static void lrem(Call c) {
        long count = c.longArg(2);
        Key key = c.key(1);
        ListValue list = c.readForWrite(key, ListValue.class);
        if (list == null) {
            c.reply().integer(0);
            return;
        }
        long removed = list.remove(c.arg(3), count);
        if (removed > 0) {
            c.notifyKeyspaceEvent(EventClass.LIST, "lrem", key);
            removed(c, key, list);
        }
        c.reply().integer(removed);
    }

    // ------------------------------------------------------------------ reads

    /** LLEN key. */
    private static void llen(Call c) {
        ListValue list = c.read(c.key(1), ListValue.class);
        c.reply().integer(list == null ? 0 : list.size());
    }

    /** LINDEX key index. */
    private static void lindex(Call c) {
        ListValue list = c.read(c.key(1), ListValue.class);
        if (list == null) {
            c.reply().nullBulk();
            return;
        }
        byte[] v = list.get(c.longArg(2));
        if (v == null) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(v);
        }
    }

    /** LRANGE key start stop, streamed from the nodes. */
    private static void lrange(Call c) {
        long start = c.longArg(2);
        long stop = c.longArg(3);
        ListValue list = c.read(c.key(1), ListValue.class);
        long[] range = list == null ? null : range(start, stop, list.size());
        if (range == null) {
            c.reply().arrayHeader(0);
            return;
        }
        ReplyWriter out = c.reply();
        out.arrayHeader((int) range[1]);
        list.forEach(range[0], range[1], out::bulk);
    }

    /**
     * Redis's LRANGE / LTRIM range rule: negative indexes count from the end, start is clamped at 0
     * and stop at the last element; returns {start, count}, or null for an empty range.
     */
    private static long[] range(long start, long stop, long size) {
        long s = start < 0 ? Math.max(0, size + start) : start;
        long e = stop < 0 ? size + stop : Math.min(stop, size - 1);
        if (s > e || s >= size) {
            return null;
        }
        return new long[] {s, e - s + 1};
    }

    /** LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]. */
    private static void lpos(Call c) {
        long rank = 1;
        long count = -1;
        long maxlen = 0;
        for (int i = 3; i < c.argc(); i++) {
            boolean more = i + 1 < c.argc();
            if (more && c.argIs(i, "RANK")) {
                rank = c.longArg(++i);
                if (rank == Long.MIN_VALUE) {
                    throw new ErrorReply(Errors.RANDMEMBER_RANGE);
                }
                if (rank == 0) {
                    throw new ErrorReply(Errors.LPOS_RANK_ZERO);
                }
            } else if (more && c.argIs(i, "COUNT")) {
                count = Call.parseLong(c.arg(++i), Errors.LPOS_COUNT_NEGATIVE);
                if (count < 0) {
                    throw new ErrorReply(Errors.LPOS_COUNT_NEGATIVE);
                }
            } else if (more && c.argIs(i, "MAXLEN")) {
                maxlen = Call.parseLong(c.arg(++i), Errors.LPOS_MAXLEN_NEGATIVE);
                if (maxlen < 0) {
                    throw new ErrorReply(Errors.LPOS_MAXLEN_NEGATIVE);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        ListValue list = c.read(c.key(1), ListValue.class);
        if (list == null) {
            if (count == -1) {
                c.reply().nullBulk();
            } else {
                c.reply().arrayHeader(0);
            }
            return;
        }
        long[][] found = {new long[count == -1 ? 1 : (int) Math.min(Math.max(count, 1), 64)]};
        int[] n = {0};
        list.positions(c.arg(2), rank, count == -1 ? 1 : count, maxlen, p -> {
            if (n[0] == found[0].length) {
                found[0] = Arrays.copyOf(found[0], found[0].length * 2);
            }
            found[0][n[0]++] = p;
        });
        if (count == -1) {
            if (n[0] == 0) {
                c.reply().nullBulk();
            } else {
                c.reply().integer(found[0][0]);
            }
            return;
        }
        c.reply().arrayHeader(n[0]);
        for (int i = 0; i < n[0]; i++) {
            c.reply().integer(found[0][i]);
        }
    }

    // ------------------------------------------------------------------ pops and moves

    /** LPOP / RPOP key [count]. */
    private static void pop(Call c, boolean head) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.wrongArity(c.command().name()));
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
        ListValue list = c.readForWrite(key, ListValue.class);
        if (list == null) {
            if (counted) {
                c.reply().nullArray();
            } else {
                c.reply().nullBulk();
            }
            return;
        }
        if (count == 0) {
            c.reply().arrayHeader(0);
            return;
        }
        if (!counted) {
            byte[] v = list.pop(head);
            popped(c, key, list, head, 1);
            c.reply().bulk(v);
            return;
        }
        replyElements(c, popFrom(c, key, list, head, count));
    }

    /**
     * Pops up to {@code count} elements from {@code list} (held at {@code key}), in pop order,
     * with the event, the key's deletion when emptied and the effect (LPOP/RPOP key count).
     */
    private static List<byte[]> popFrom(Call c, Key key, ListValue list, boolean head, long count) {
        int n = (int) Math.min(count, list.size());
        List<byte[]> popped = new ArrayList<>(n);
        long start = head ? 0 : list.size() - n;
        list.forEach(start, n, (b, off, len) -> popped.add(Arrays.copyOfRange(b, off, off + len)));
        if (!head) {
            java.util.Collections.reverse(popped);
        }
        list.removeRange(start, n);
        popped(c, key, list, head, n);
        return popped;
    }

    /** After {@code n} elements were popped from {@code list} at {@code key}: the event, the key's change or removal, the effect. */
    private static void popped(Call c, Key key, ListValue list, boolean head, int n) {
        c.notifyKeyspaceEvent(EventClass.LIST, head ? "lpop" : "rpop", key);
        removed(c, key, list);
        c.propagate(head ? "LPOP" : "RPOP", key, n);
    }

    private static void replyElements(Call c, List<byte[]> elements) {
        c.reply().arrayHeader(elements.size());
        elements.forEach(c.reply()::bulk);
    }

    /** BLPOP / BRPOP key [key ...] timeout. */
    private static void bpop(Call c, boolean head) {
        long timeout = c.timeoutMillisArg(c.argc() - 1);
        List<Key> keys = new ArrayList<>();
        for (int i = 1; i < c.argc() - 1; i++) {
            Key key = c.key(i);
            keys.add(key);
            ListValue list = c.mayServeFrom(key) ? c.readForWrite(key, ListValue.class) : null;
            if (list != null) {
                byte[] v = popFrom(c, key, list, head, 1).get(0);
                c.reply().arrayHeader(2);
                c.reply().bulk(key.bytes());
                c.reply().bulk(v);
                return;
            }
        }
        blockOrGiveUp(c, keys, timeout, false);
    }

    /** LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count], and BLMPOP timeout numkeys ... . */
    private static void lmpop(Call c, int numkeysIndex, boolean blocking) {
        MultiPopArgs<Boolean> args = MultiPopArgs.parse(c, numkeysIndex, ListCommands::side);
        boolean head = args.where();
        int whereIndex = args.whereIndex();
        long timeout = blocking ? c.timeoutMillisArg(1) : 0;
        List<Key> keys = new ArrayList<>();
        for (int i = numkeysIndex + 1; i < whereIndex; i++) {
            Key key = c.key(i);
            keys.add(key);
            ListValue list = c.mayServeFrom(key) ? c.readForWrite(key, ListValue.class) : null;
            if (list != null) {
                List<byte[]> popped = popFrom(c, key, list, head, args.countOrOne());
                c.reply().arrayHeader(2);
                c.reply().bulk(key.bytes());
                replyElements(c, popped);
                return;
            }
        }
        if (blocking) {
            blockOrGiveUp(c, keys, timeout, false);
        } else {
            c.reply().nullArray();
        }
    }

    /**
     * LMOVE / RPOPLPUSH source destination (and BLMOVE / BRPOPLPUSH with the timeout at
     * {@code timeoutIndex}, -1 for none): pops from the source, pushes to the destination, replies
     * with the element. Logged as LMOVE with the sides.
     */
    private static void move(Call c, boolean from, boolean to, int timeoutIndex) {
        long timeout = timeoutIndex < 0 ? 0 : c.timeoutMillisArg(timeoutIndex);
        Key source = c.key(1);
        Key destination = c.key(2);
        ListValue src = c.mayServeFrom(source) ? c.readForWrite(source, ListValue.class) : null;
        if (src == null) {
            if (timeoutIndex < 0) {
                c.reply().nullBulk();
            } else {
                blockOrGiveUp(c, List.of(source), timeout, true);
            }
            return;
        }
        Database.Entry dstEntry = c.entryForWrite(destination, ListValue.class);
        ListValue dst = dstEntry == null ? new ListValue() : (ListValue) dstEntry.value();
        byte[] v = src.pop(from);
        dst.prepareForAdd(v, limits(c));
        dst.push(v, to);
        stored(c, destination, dst, dstEntry);
        c.notifyKeyspaceEvent(EventClass.LIST, to ? "lpush" : "rpush", destination);
        c.notifyKeyspaceEvent(EventClass.LIST, from ? "lpop" : "rpop", source);
        removed(c, source, src);
        c.propagate("LMOVE", source, destination, from ? "LEFT" : "RIGHT", to ? "LEFT" : "RIGHT");
        c.reply().bulk(v);
    }

    /** LEFT or RIGHT at argument {@code i}: whether it is the head. */
    private static boolean side(Call c, int i) {
        if (c.argIs(i, "LEFT")) {
            return HEAD;
        }
        if (c.argIs(i, "RIGHT")) {
            return TAIL;
        }
        throw new ErrorReply(Errors.SYNTAX);
    }

    /**
     * Blocks when allowed (not in MULTI or a script), else replies as Redis does when it may not
     * block: a null bulk for the moves, a null array for the pops.
     */
    private static void blockOrGiveUp(Call c, List<Key> keys, long timeoutMillis, boolean move) {
        if (c.blockingAllowed()) {
            c.block(keys, KeyType.LIST, timeoutMillis);
        } else if (move) {
            c.reply().nullBulk();
        } else {
            c.reply().nullArray();
        }
    }

    // ------------------------------------------------------------------ keyspace upkeep

    /**
     * After an add: stores a new list at {@code key} ({@code entry} null), or records the change
     * of the existing one held by {@code entry} (from {@link Call#entryForWrite} in this command).
     */
    private static void stored(Call c, Key key, ListValue list, Database.Entry entry) {
        if (entry == null) {
            c.db().add(key, list);
        } else {
            c.db().touchModified(key, entry);
        }
    }

    /** After a removal: deletes an emptied list (with its "del" event), else lets it shrink back to a listpack. */
    private static void removed(Call c, Key key, ListValue list) {
        if (list.size() == 0) {
            c.db().delete(key);
            c.notifyKeyspaceEvent(EventClass.GENERIC, "del", key);
        } else {
            list.compactEncoding(limits(c));
            c.db().touchModified(key);
        }
    }

    private static ListValue.Limits limits(Call c) {
        return c.context().config().listLimits();
    }
}
