package dev.ordo.engine.keyspace;

import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;
import dev.ordo.engine.zset.EntryVisitor;
import dev.ordo.engine.zset.ScoredMembers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * A set value with Redis 7.2's three encodings, which decide both memory use and iteration order:
 * {@code intset} (only canonical 64-bit integers, kept ascending), {@code listpack} (few, short
 * members, kept in insertion order) and {@code hashtable} (a {@link KeyTable}, whose SCAN cursor
 * survives resizes). Adding a member moves a set to a roomier encoding when the {@link Limits}
 * require it; removing never moves it back. Only commands that build a new set (SPOP's rebuild,
 * SINTERSTORE's result) pick a smaller encoding, as Redis does.
 *
 * <p>Invariants: exactly one of the three stores is in use, the one {@link #encoding()} names; an
 * intset's values are strictly ascending; a listpack holds no member twice.
 *
 * <p>Members are binary-safe byte arrays owned by the set once added: callers hand over arrays they
 * no longer change, and must not change the arrays they are given. The set also serves as an input
 * to the sorted-set algebra, every member scoring 1. Not thread-safe.
 */
public final class SetValue implements ScoredMembers, Value {
    private static final int MAX_INTSET_ENTRIES = 1 << 30;

    /** The encodings, named as OBJECT ENCODING reports them. */
    public enum Encoding {
        /** Sorted integers in one array, while every member is a 64-bit integer and they are few enough. */
        INTSET("intset"),
        /** Members in insertion order in one array, while they are few and short. */
        LISTPACK("listpack"),
        /** A hash table of the members. */
        HASHTABLE("hashtable");

        private final String redisName;

        Encoding(String redisName) {
            this.redisName = redisName;
        }

        /**
         * The name OBJECT ENCODING replies with.
         *
         * @return the name
         */
        public String redisName() {
            return redisName;
        }
    }

    /**
     * Redis's {@code set-max-intset-entries}, {@code set-max-listpack-entries} and
     * {@code set-max-listpack-value}, read when a set changes.
     */
    public record Limits(long intsetEntries, long listpackEntries, long listpackValue) {
        /** Redis's defaults. */
        public static final Limits DEFAULT = new Limits(512, 128, 64);

        /** The most members an intset holds: Redis caps the setting at 2^30. */
        long intsetMax() {
            return Math.min(intsetEntries, MAX_INTSET_ENTRIES);
        }
    }

    private Encoding encoding;
    private long[] ints;
    private int intCount;
    private ArrayList<byte[]> list;
    private KeyTable<Boolean> table;
    /** The bytes of the member arrays of a listpack or hashtable set, kept as members come and go. */
    private long memberBytes;

    private SetValue(Encoding encoding) {
        this.encoding = encoding;
        switch (encoding) {
            case INTSET:
                ints = new long[4];
                break;
            case LISTPACK:
                list = new ArrayList<>();
                break;
            default:
                table = new KeyTable<>();
        }
    }

    /**
     * An empty set in the given encoding (the start of a computed result).
     *
     * @param encoding the encoding
     * @return the empty set
     */
    public static SetValue empty(Encoding encoding) {
        return new SetValue(encoding);
    }

    /**
     * An empty set for a key about to receive about {@code sizeHint} members, the first being
     * {@code first}: intset when that is an integer and the hint fits, else listpack when the hint
     * fits, else hashtable.
     *
     * @param first the first member to be added
     * @param sizeHint about how many members will be added
     * @param limits the configuration's set limits
     * @return the empty set
     */
    public static SetValue create(byte[] first, long sizeHint, Limits limits) {
        if (isInteger(first, 0, first.length) && sizeHint <= limits.intsetEntries()) {
            return new SetValue(Encoding.INTSET);
        }
        return new SetValue(sizeHint <= limits.listpackEntries() ? Encoding.LISTPACK : Encoding.HASHTABLE);
    }

    /**
     * Converts to hashtable when {@code sizeHint} more members could not fit the current encoding.
     *
     * @param sizeHint how many members may be added
     * @param limits the configuration's set limits
     */
    public void prepareForAdds(long sizeHint, Limits limits) {
        if ((encoding == Encoding.LISTPACK && sizeHint > limits.listpackEntries())
                || (encoding == Encoding.INTSET && sizeHint > limits.intsetEntries())) {
            toHashtable();
        }
    }

    /**
     * The current encoding.
     *
     * @return the encoding
     */
    public Encoding encoding() {
        return encoding;
    }

    @Override
    public int size() {
        switch (encoding) {
            case INTSET:
                return intCount;
            case LISTPACK:
                return list.size();
            default:
                return table.size();
        }
    }

    /**
     * Adds {@code member} unless present, converting the encoding as {@code limits} demand; returns whether it was added.
     *
     * @param member the member
     * @param limits the configuration's set limits
     * @return whether it was added
     */
    public boolean add(byte[] member, Limits limits) {
        switch (encoding) {
            case INTSET:
                return addToIntset(member, limits);
            case LISTPACK:
                if (indexInList(member, 0, member.length) >= 0) {
                    return false;
                }
                if (list.size() < limits.listpackEntries() && member.length <= limits.listpackValue()) {
                    list.add(member);
                } else {
                    toHashtable();
                    table.put(Key.of(member), Boolean.TRUE);
                }
                memberBytes += Footprint.array(member.length);
                return true;
            default:
                if (table.put(Key.of(member), Boolean.TRUE) != null) {
                    return false;
                }
                memberBytes += Footprint.array(member.length);
                return true;
        }
    }

    /**
     * Removes {@code member}; returns whether it was present.
     *
     * @param member the member
     * @return whether it was present
     */
    public boolean remove(byte[] member) {
        switch (encoding) {
            case INTSET: {
                int i = intIndex(member, 0, member.length);
                if (i < 0) {
                    return false;
                }
                System.arraycopy(ints, i + 1, ints, i, intCount - i - 1);
                intCount--;
                return true;
            }
            case LISTPACK: {
                int i = indexInList(member, 0, member.length);
                if (i < 0) {
                    return false;
                }
                memberBytes -= Footprint.array(list.remove(i).length);
                return true;
            }
            default:
                if (table.remove(Key.of(member)) == null) {
                    return false;
                }
                memberBytes -= Footprint.array(member.length);
                return true;
        }
    }

    /**
     * Whether {@code member} is in the set.
     *
     * @param member the member
     * @return whether it is there
     */
    public boolean contains(byte[] member) {
        return contains(member, 0, member.length);
    }

    /**
     * Whether {@code m[off, off+len)} is a member.
     *
     * @param m the buffer holding the member
     * @param off where it starts
     * @param len its length
     * @return whether it is a member
     */
    public boolean contains(byte[] m, int off, int len) {
        switch (encoding) {
            case INTSET:
                return intIndex(m, off, len) >= 0;
            case LISTPACK:
                return indexInList(m, off, len) >= 0;
            default:
                byte[] b = off == 0 && len == m.length ? m : Arrays.copyOfRange(m, off, off + len);
                return table.get(Key.of(b)) != null;
        }
    }

    /**
     * Visits every member once in the encoding's order: ascending for intset, insertion order for listpack.
     *
     * @param visitor called with each member
     */
    public void forEach(Consumer<byte[]> visitor) {
        switch (encoding) {
            case INTSET:
                for (int i = 0; i < intCount; i++) {
                    visitor.accept(intBytes(ints[i]));
                }
                break;
            case LISTPACK:
                list.forEach(visitor);
                break;
            default:
                table.forEach((k, v) -> visitor.accept(k.bytes()));
        }
    }

    /**
     * The {@code index}-th smallest member of an intset-encoded set, as the number it spells
     * (0 &lt;= index &lt; size()): how a writer of the intset layout reads the values without
     * allocating their text.
     *
     * @param index the member's position, from 0
     * @return the member's value
     * @throws IllegalStateException when the set is not intset-encoded
     */
    public long intAt(int index) {
        if (encoding != Encoding.INTSET) {
            throw new IllegalStateException("not an intset: " + encoding.redisName());
        }
        if (index < 0 || index >= intCount) {
            throw new IndexOutOfBoundsException("index " + index + " of an intset of " + intCount);
        }
        return ints[index];
    }

    /**
     * The members in iteration order (see {@link #forEach}).
     *
     * @return the members
     */
    public List<byte[]> members() {
        List<byte[]> out = new ArrayList<>(size());
        forEach(out::add);
        return out;
    }

    /**
     * A member chosen uniformly at random; the set must not be empty.
     *
     * @param random the source of randomness
     * @return the member
     */
    public byte[] random(RandomGenerator random) {
        switch (encoding) {
            case INTSET:
                return intBytes(ints[random.nextInt(intCount)]);
            case LISTPACK:
                return list.get(random.nextInt(list.size()));
            default:
                return table.randomKey(random).bytes();
        }
    }

    /**
     * {@code count} distinct members chosen at random (0 &lt; count &lt; size), in iteration order:
     * how Redis samples a listpack, walking it once.
     *
     * @param count how many members
     * @param random the source of randomness
     * @return the members
     */
    public List<byte[]> orderedSample(int count, RandomGenerator random) {
        List<byte[]> all = members();
        List<byte[]> out = new ArrayList<>(count);
        int needed = count;
        for (int i = 0; i < all.size() && needed > 0; i++) {
            if (random.nextInt(all.size() - i) < needed) {
                out.add(all.get(i));
                needed--;
            }
        }
        return out;
    }

    /**
     * One SSCAN step: a hashtable set visits some members and returns the next cursor; the other
     * encodings visit every member and return 0.
     *
     * @param cursor where to resume, 0 to start
     * @param count about how many members to visit
     * @param visitor called with each member
     * @return the next cursor, 0 when the scan is done
     */
    public long scan(long cursor, int count, Consumer<byte[]> visitor) {
        if (encoding != Encoding.HASHTABLE) {
            forEach(visitor);
            return 0;
        }
        return table.scan(cursor, count, (k, v) -> visitor.accept(k.bytes()));
    }

    @Override
    public KeyType type() {
        return KeyType.SET;
    }

    @Override
    public String encodingName() {
        return encoding.redisName();
    }

    @Override
    public long weight() {
        return size() + 1L;
    }

    @Override
    public void digest(ValueDigest digest) {
        forEach(digest::element);
    }

    /** A copy in the same encoding, sharing the (immutable) member arrays. */
    @Override
    public SetValue copy() {
        SetValue c = new SetValue(encoding);
        switch (encoding) {
            case INTSET:
                c.ints = Arrays.copyOf(ints, Math.max(intCount, 1));
                c.intCount = intCount;
                break;
            case LISTPACK:
                c.list.addAll(list);
                break;
            default:
                table.forEach(c.table::put);
        }
        c.memberBytes = memberBytes;
        return c;
    }

    /**
     * Converts to intset when every member is an integer and they fit {@code limits}, as Redis does
     * with an intersection it stores; returns whether the set is an intset afterwards.
     *
     * @param limits the configuration's set limits
     * @return whether the set is now an intset
     */
    public boolean compactToIntset(Limits limits) {
        if (encoding == Encoding.INTSET) {
            return true;
        }
        if (size() > limits.intsetMax()) {
            return false;
        }
        List<byte[]> all = members();
        long[] values = new long[Math.max(all.size(), 1)];
        for (int i = 0; i < all.size(); i++) {
            byte[] m = all.get(i);
            if (!isInteger(m, 0, m.length)) {
                return false;
            }
            values[i] = toLong(m, 0, m.length);
        }
        Arrays.sort(values, 0, all.size());
        encoding = Encoding.INTSET;
        ints = values;
        intCount = all.size();
        list = null;
        table = null;
        memberBytes = 0;
        return true;
    }

    /**
     * {@inheritDoc} A listpack set's list is counted as if its array were exactly full (it holds
     * at most {@code set-max-listpack-entries} references).
     */
    @Override
    public long memoryUsage() {
        long own = Footprint.object(4, 12);
        switch (encoding) {
            case INTSET:
                return own + Footprint.array(8L * ints.length);
            case LISTPACK:
                return own + Footprint.object(1, 8) + Footprint.referenceArray(list.size()) + memberBytes;
            default:
                return own + table.allocatedBytes() + table.size() * Key.FOOTPRINT + memberBytes;
        }
    }

    @Override
    public void forEachEntry(EntryVisitor visitor) {
        forEach(m -> visitor.visit(m, 0, m.length, 1.0));
    }

    @Override
    public double score(byte[] m, int off, int len) {
        return contains(m, off, len) ? 1.0 : Double.NaN;
    }

    /**
     * Whether {@code b[off, off+len)} is a 64-bit integer written canonically (no '+', no leading zeros, not "-0").
     *
     * @param b the buffer
     * @param off where the text starts
     * @param len its length
     * @return whether it is a canonical integer
     */
    public static boolean isInteger(byte[] b, int off, int len) {
        if (len == 0 || len > 20) {
            return false;
        }
        int i = off;
        int end = off + len;
        if (b[i] == '-') {
            i++;
            if (i == end || b[i] == '0') {
                return false;
            }
        } else if (b[i] == '0') {
            return len == 1;
        }
        long v = 0;
        for (; i < end; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9 || v < (Long.MIN_VALUE + d) / 10) {
                return false;
            }
            v = v * 10 - d;
        }
        return b[off] == '-' || v != Long.MIN_VALUE;
    }

    private boolean addToIntset(byte[] member, Limits limits) {
        if (isInteger(member, 0, member.length)) {
            long v = toLong(member, 0, member.length);
            int i = Arrays.binarySearch(ints, 0, intCount, v);
            if (i >= 0) {
                return false;
            }
            insertInt(-i - 1, v);
            if (intCount > limits.intsetMax()) {
                toHashtable();
            }
            return true;
        }
        if (intCount < limits.listpackEntries() && member.length <= limits.listpackValue()
                && longestIntDigits() <= limits.listpackValue()) {
            toListpack();
            list.add(member);
        } else {
            toHashtable();
            table.put(Key.of(member), Boolean.TRUE);
        }
        memberBytes += Footprint.array(member.length);
        return true;
    }

    private void insertInt(int at, long v) {
        if (intCount == ints.length) {
            ints = Arrays.copyOf(ints, Math.max(4, intCount + (intCount >> 1)));
        }
        System.arraycopy(ints, at, ints, at + 1, intCount - at);
        ints[at] = v;
        intCount++;
    }

    private int longestIntDigits() {
        if (intCount == 0) {
            return 0;
        }
        return Math.max(Long.toString(ints[0]).length(), Long.toString(ints[intCount - 1]).length());
    }

    private int intIndex(byte[] m, int off, int len) {
        if (!isInteger(m, off, len)) {
            return -1;
        }
        int i = Arrays.binarySearch(ints, 0, intCount, toLong(m, off, len));
        return i >= 0 ? i : -1;
    }

    private int indexInList(byte[] m, int off, int len) {
        for (int i = 0; i < list.size(); i++) {
            byte[] e = list.get(i);
            if (e.length == len && Arrays.equals(e, 0, len, m, off, off + len)) {
                return i;
            }
        }
        return -1;
    }

    private void toListpack() {
        ArrayList<byte[]> l = new ArrayList<>(intCount + 1);
        forEach(l::add);
        memberBytes = sumOfArrays(l);
        encoding = Encoding.LISTPACK;
        list = l;
        ints = null;
        intCount = 0;
    }

    private void toHashtable() {
        KeyTable<Boolean> t = new KeyTable<>();
        long[] bytes = {0};
        forEach(m -> {
            t.put(Key.of(m), Boolean.TRUE);
            bytes[0] += Footprint.array(m.length);
        });
        memberBytes = bytes[0];
        encoding = Encoding.HASHTABLE;
        table = t;
        ints = null;
        intCount = 0;
        list = null;
    }

    private static long toLong(byte[] b, int off, int len) {
        boolean negative = b[off] == '-';
        long v = 0;
        for (int i = negative ? off + 1 : off; i < off + len; i++) {
            v = v * 10 - (b[i] - '0');
        }
        return negative ? v : -v;
    }

    private static byte[] intBytes(long v) {
        return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
    }

    private static long sumOfArrays(List<byte[]> members) {
        long bytes = 0;
        for (byte[] m : members) {
            bytes += Footprint.array(m.length);
        }
        return bytes;
    }
}
