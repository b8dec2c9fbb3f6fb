package dev.ordo.engine.command;

import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.zset.Encoding;
import dev.ordo.engine.zset.ZSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * SORT and SORT_RO over lists, sets and sorted sets, with Redis 7.2's rules:
 * <ul>
 *   <li>Options in any order: ASC, DESC, ALPHA, LIMIT offset count, BY pattern, GET pattern (any
 *       number), STORE destination (SORT only). A LIMIT that is not two integers answers the
 *       integer error; anything else unknown is a syntax error. Both come before WRONGTYPE.</li>
 *   <li>Patterns: the first {@code *} is replaced by the element; {@code key->field} after the
 *       star reads a hash field; {@code #} (GET only) is the element itself. A pattern without
 *       a star names no key (GET answers nil); a key of another type reads as missing.</li>
 *   <li>BY without a star means no sorting: a list keeps its order (DESC walks it from the tail),
 *       a sorted set its rank order (DESC reversed), both with LIMIT taken directly; a set keeps
 *       its iteration order, except when storing or inside a script, where it is sorted ALPHA so
 *       that the result does not depend on the encoding.</li>
 *   <li>Numeric sorting reads each weight (the element, or what BY finds; missing is 0) as C's
 *       {@code strtod} over the whole string; one that is not a number fails the command. Equal
 *       weights order by the elements' bytes. ALPHA compares bytes; with BY, missing weights come
 *       first. DESC reverses the comparison. Weights compare as C compares doubles (-0 equals 0).
 *       Elements whose ALPHA weights from BY are equal keep their source order: Redis leaves
 *       their order to its sort, which keeps it too without LIMIT, and not always with one.</li>
 *   <li>BY and GET patterns name keys only their values spell, so a user whose selector does not
 *       read every key gets Redis's ACL error for them.</li>
 *   <li>STORE writes the result as a list (a nil GET as an empty string), or deletes the
 *       destination when the result is empty, and answers the element count; the event is
 *       {@code sortstore} (or {@code del}).</li>
 * </ul>
 * Like Redis, SORT and SORT_RO move a listpack sorted set to the skiplist encoding for good
 * (OBJECT ENCODING shows it); nothing else sees a change. Byte comparison stands in for Redis's {@code strcoll}, which is the same in the C and C.UTF-8
 * locales.
 */
final class SortCommands {
    private SortCommands() {
    }

    static void register(CommandTable t) {
        t.register(Command.of("sort", c -> sort(c, false)));
        t.register(Command.of("sort_ro", c -> sort(c, true)));
    }

    /** One element to sort, with its weight: a number, or (ALPHA with BY) the bytes BY found. */
    private static final class Item {
        final byte[] element;
        double score;
        byte[] by;

        Item(byte[] element) {
            this.element = element;
        }
    }

    private static void sort(Call c, boolean readOnly) {
        boolean desc = false;
        boolean alpha = false;
        boolean dontSort = false;
        long limitStart = 0;
        long limitCount = -1;
        byte[] by = null;
        Key store = null;
        List<byte[]> gets = new ArrayList<>();
        Acl acl = c.context().acl();
        boolean readsEveryKey = acl == null || acl.readsEveryKey(c.session().user(), c.command(), c.args());
        for (int j = 2; j < c.argc(); j++) {
            int left = c.argc() - j - 1;
            if (c.argIs(j, "asc")) {
                desc = false;
            } else if (c.argIs(j, "desc")) {
                desc = true;
            } else if (c.argIs(j, "alpha")) {
                alpha = true;
            } else if (c.argIs(j, "limit") && left >= 2) {
                limitStart = c.longArg(j + 1);
                limitCount = c.longArg(j + 2);
                j += 2;
            } else if (!readOnly && c.argIs(j, "store") && left >= 1) {
                store = c.key(++j);
            } else if (c.argIs(j, "by") && left >= 1) {
                by = c.arg(++j);
                if (indexOf(by, (byte) '*', 0) < 0) {
                    dontSort = true;
                } else if (!readsEveryKey) {
                    throw new ErrorReply("ERR BY option of SORT denied due to insufficient ACL permissions.");
                }
            } else if (c.argIs(j, "get") && left >= 1) {
                if (!readsEveryKey) {
                    throw new ErrorReply("ERR GET option of SORT denied due to insufficient ACL permissions.");
                }
                gets.add(c.arg(++j));
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        Value source = c.db().get(c.key(1));
        if (source != null && !(source instanceof ListValue || source instanceof SetValue || source instanceof ZSet)) {
            throw new ErrorReply(Errors.WRONGTYPE);
        }
        if (source instanceof ZSet zset && zset.encoding() == Encoding.LISTPACK) {
            zset.convertToSkiplist();
            c.db().reencoded(c.key(1));
        }
        if (dontSort && source instanceof SetValue && (store != null || c.session().isScriptClient())) {
            dontSort = false;
            alpha = true;
            by = null;
        }
        long length = source == null ? 0 : source instanceof ListValue l ? l.size()
                : source instanceof SetValue s ? s.size() : ((ZSet) source).size();
        long start = Math.max(limitStart, 0);
        long end = limitCount < 0 ? length - 1 : start + limitCount - 1;
        if (start >= length) {
            start = length - 1;
            end = length - 2;
        }
        end = Math.min(end, length - 1);
        List<Item> items = new ArrayList<>();
        if (dontSort && source instanceof ListValue list) {
            long count = end - start + 1;
            long from = desc ? length - start - count : start;
            list.forEach(from, count, (b, off, len) -> items.add(new Item(Arrays.copyOfRange(b, off, off + len))));
            if (desc) {
                java.util.Collections.reverse(items);
            }
            end -= start;
            start = 0;
        } else if (dontSort && source instanceof ZSet zset) {
            if (end >= start) {
                zset.range(start, end, desc, (b, off, len, score) -> items.add(new Item(Arrays.copyOfRange(b, off, off + len))));
            }
            end -= start;
            start = 0;
        } else if (source instanceof ListValue list) {
            list.forEach((b, off, len) -> items.add(new Item(Arrays.copyOfRange(b, off, off + len))));
        } else if (source instanceof SetValue set) {
            set.forEach(member -> items.add(new Item(member)));
        } else if (source instanceof ZSet zset) {
            zset.forEachEntry((b, off, len, score) -> items.add(new Item(Arrays.copyOfRange(b, off, off + len))));
        }
        if (!dontSort) {
            sortItems(c, items, by, alpha, desc);
        }
        // Streamed, never gathered: a GET per element multiplies what one command may produce.
        long count = Math.max(0, end - start + 1) * Math.max(1, gets.size());
        if (store == null) {
            if (count > Integer.MAX_VALUE) {
                throw new ErrorReply("ERR SORT reply too long");
            }
            c.reply().arrayHeader((int) count);
            emit(c, items, start, end, gets, b -> {
                if (b == null) {
                    c.reply().nullBulk();
                } else {
                    c.reply().bulk(b);
                }
            });
        } else {
            store(c, store, items, start, end, gets, count);
        }
    }

    /** Sends the elements (or, with GET, what each pattern names for them) of {@code items[start, end]} to {@code sink}. */
    private static void emit(Call c, List<Item> items, long start, long end, List<byte[]> gets, Consumer<byte[]> sink) {
        for (long i = start; i <= end; i++) {
            Item item = items.get((int) i);
            if (gets.isEmpty()) {
                sink.accept(item.element);
            }
            for (byte[] get : gets) {
                sink.accept(lookup(c, get, item.element));
            }
        }
    }

    private static void sortItems(Call c, List<Item> items, byte[] by, boolean alpha, boolean desc) {
        for (Item item : items) {
            byte[] weight = by == null ? item.element : lookup(c, by, item.element);
            if (weight == null) {
                continue;
            }
            if (alpha) {
                item.by = by == null ? null : weight;
            } else {
                item.score = Doubles.parseSortWeight(weight);
                if (Double.isNaN(item.score)) {
                    throw new ErrorReply("ERR One or more scores can't be converted into double");
                }
            }
        }
        Comparator<Item> order;
        if (!alpha) {
            order = (a, b) -> a.score < b.score ? -1 : a.score > b.score ? 1 : Arrays.compareUnsigned(a.element, b.element);
        } else if (by != null) {
            order = Comparator.comparing(i -> i.by, Comparator.nullsFirst(Arrays::compareUnsigned));
        } else {
            order = Comparator.comparing(i -> i.element, Arrays::compareUnsigned);
        }
        items.sort(desc ? order.reversed() : order);
    }

    /** What {@code pattern} names for {@code element}: the element itself, a string, a hash field, or null. */
    private static byte[] lookup(Call c, byte[] pattern, byte[] element) {
        if (pattern.length == 1 && pattern[0] == '#') {
            return element;
        }
        int star = indexOf(pattern, (byte) '*', 0);
        if (star < 0) {
            return null;
        }
        int arrow = indexOfArrow(pattern, star + 1);
        boolean field = arrow >= 0 && arrow + 2 < pattern.length;
        int keyEnd = field ? arrow : pattern.length;
        byte[] name = new byte[star + element.length + keyEnd - star - 1];
        System.arraycopy(pattern, 0, name, 0, star);
        System.arraycopy(element, 0, name, star, element.length);
        System.arraycopy(pattern, star + 1, name, star + element.length, keyEnd - star - 1);
        Value value = c.db().get(Key.of(name));
        if (field) {
            return value instanceof HashValue h ? h.get(Key.of(Arrays.copyOfRange(pattern, arrow + 2, pattern.length))) : null;
        }
        return value instanceof StringValue s ? s.bytes() : null;
    }

    private static void store(Call c, Key destination, List<Item> items, long start, long end, List<byte[]> gets, long count) {
        if (count == 0) {
            if (c.db().delete(destination)) {
                c.notifyKeyspaceEvent(EventClass.GENERIC, "del", destination);
            }
        } else {
            ListValue list = new ListValue();
            ListValue.Limits limits = c.context().config().listLimits();
            emit(c, items, start, end, gets, element -> {
                byte[] e = element == null ? new byte[0] : element;
                list.prepareForAdd(e, limits);
                list.push(e, false);
            });
            c.db().set(destination, list);
            c.notifyKeyspaceEvent(EventClass.LIST, "sortstore", destination);
        }
        c.reply().integer(count);
    }

    private static int indexOf(byte[] b, byte wanted, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfArrow(byte[] b, int from) {
        for (int i = from; i + 1 < b.length; i++) {
            if (b[i] == '-' && b[i + 1] == '>') {
                return i;
            }
        }
        return -1;
    }
}
