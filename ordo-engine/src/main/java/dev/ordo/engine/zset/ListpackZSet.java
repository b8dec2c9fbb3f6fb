package dev.ordo.engine.zset;

import dev.ordo.engine.memory.Footprint;

import java.util.Arrays;

/**
 * The {@code listpack} encoding: every entry ({@link EntryLayout}) back to back in one byte array,
 * in ascending (score, member) order. Small sets only, so every operation is a linear walk over a
 * few cache lines; a set leaves this encoding when it outgrows {@link ListpackLimits}.
 *
 * <p>Invariants: {@code buf[0, used)} holds exactly {@code size} complete entries in strictly
 * ascending key order; bytes past {@code used} are scratch. A handle is an entry's byte offset.
 */
final class ListpackZSet extends ZSetStore {
    private static final byte[] EMPTY = new byte[0];

    private byte[] buf;
    private int used;
    private int size;

    /**
     * An empty set sized for {@code expectedBytes} of entries, exactly: most small sets never grow
     * past what they were created with (a rate-limit window, a one-member set), so no slack is kept.
     */
    ListpackZSet(int expectedBytes) {
        buf = expectedBytes == 0 ? EMPTY : new byte[expectedBytes];
    }

    /** Builds the encoding from entries (score, member) already in ascending key order. */
    ListpackZSet(byte[] packed, int used, int size) {
        this.buf = packed;
        this.used = used;
        this.size = size;
    }

    /** A copy that shares no bytes with this one. */
    ListpackZSet copy() {
        return new ListpackZSet(Arrays.copyOf(buf, used), used, size);
    }

    @Override
    Encoding encoding() {
        return Encoding.LISTPACK;
    }

    @Override
    int size() {
        return size;
    }

    @Override
    int find(byte[] m, int off, int len) {
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at)) {
            if (EntryLayout.memberEquals(buf, at, m, off, len)) {
                return at;
            }
        }
        return -1;
    }

    @Override
    double scoreAt(int handle) {
        return EntryLayout.score(buf, handle);
    }

    @Override
    void insert(byte[] m, int off, int len, double score, int missToken) {
        int entry = EntryLayout.entrySize(len);
        ensureCapacity(used + entry);
        int at = insertionPoint(score, m, off, len, -1);
        System.arraycopy(buf, at, buf, at + entry, used - at);
        EntryLayout.write(buf, at, packed(score), m, off, len);
        used += entry;
        size++;
    }

    @Override
    void updateAt(int handle, double score) {
        double newScore = packed(score);
        int entry = EntryLayout.sizeAt(buf, handle);
        int mo = EntryLayout.memberOffset(buf, handle);
        int ml = EntryLayout.memberLength(buf, handle);
        int target = insertionPoint(newScore, buf, mo, ml, handle);
        if (target == handle || target == handle + entry) {
            EntryLayout.setScore(buf, handle, newScore);
            return;
        }
        ensureCapacity(used + entry);
        System.arraycopy(buf, handle, buf, used, entry);
        EntryLayout.setScore(buf, used, newScore);
        if (target < handle) {
            System.arraycopy(buf, target, buf, target + entry, handle - target);
            System.arraycopy(buf, used, buf, target, entry);
        } else {
            System.arraycopy(buf, handle + entry, buf, handle, target - handle - entry);
            System.arraycopy(buf, used, buf, target - entry, entry);
        }
    }

    /**
     * The score as this encoding keeps it. Redis's listpack stores an integral score as an integer,
     * so a negative zero reads back as 0 (a skiplist keeps it, and ZSCORE shows {@code -0}).
     */
    private static double packed(double score) {
        return score == 0 ? 0.0 : score;
    }

    /** Turns any negative zero score into 0, as packing a set into a listpack does in Redis. */
    void packZeros() {
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at)) {
            EntryLayout.setScore(buf, at, packed(EntryLayout.score(buf, at)));
        }
    }

    @Override
    void deleteAt(int handle) {
        int entry = EntryLayout.sizeAt(buf, handle);
        System.arraycopy(buf, handle + entry, buf, handle, used - handle - entry);
        used -= entry;
        size--;
    }

    @Override
    int rankAt(int handle) {
        int rank = 0;
        for (int at = 0; at < handle; at += EntryLayout.sizeAt(buf, at)) {
            rank++;
        }
        return rank;
    }

    @Override
    int countBelow(RankTree.Bound bound) {
        int rank = 0;
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at), rank++) {
            int mo = EntryLayout.memberOffset(buf, at);
            if (!bound.below(EntryLayout.score(buf, at), buf, mo, EntryLayout.memberLength(buf, at))) {
                break;
            }
        }
        return rank;
    }

    @Override
    void visit(int from, int to, boolean reverse, EntryVisitor visitor) {
        if (from >= to) {
            return;
        }
        int at = offsetOfRank(from);
        if (!reverse) {
            for (int r = from; r < to; r++, at += EntryLayout.sizeAt(buf, at)) {
                emit(at, visitor);
            }
            return;
        }
        int[] offsets = new int[to - from];
        for (int i = 0; i < offsets.length; i++, at += EntryLayout.sizeAt(buf, at)) {
            offsets[i] = at;
        }
        for (int i = offsets.length - 1; i >= 0; i--) {
            emit(offsets[i], visitor);
        }
    }

    @Override
    void deleteRange(int from, int to) {
        if (from >= to) {
            return;
        }
        int start = offsetOfRank(from);
        int end = start;
        for (int r = from; r < to; r++) {
            end += EntryLayout.sizeAt(buf, end);
        }
        System.arraycopy(buf, end, buf, start, used - end);
        used -= end - start;
        size -= to - from;
    }

    @Override
    long scan(long cursor, int count, EntryVisitor visitor) {
        visit(0, size, false, visitor);
        return 0;
    }

    @Override
    long allocatedBytes() {
        return Footprint.object(1, 12) + Footprint.array(buf.length);
    }

    @Override
    void checkInvariants() {
        int n = 0;
        int prev = -1;
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at), n++) {
            if (Double.isNaN(EntryLayout.score(buf, at))) {
                throw new AssertionError("NaN score at " + at);
            }
            if (prev >= 0 && !before(prev, at)) {
                throw new AssertionError("entries out of order at " + at);
            }
            prev = at;
        }
        if (n != size) {
            throw new AssertionError("listpack holds " + n + " entries, size says " + size);
        }
    }

    /** Returns the largest member length, to decide whether a converted set still fits. */
    int longestMember() {
        int longest = 0;
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at)) {
            longest = Math.max(longest, EntryLayout.memberLength(buf, at));
        }
        return longest;
    }

    /** Copies every entry, in order, into a new skiplist encoding. */
    TreeZSet toTree(TreeShape shape) {
        TreeZSet tree = new TreeZSet(size + 1, shape);
        for (int at = 0; at < used; at += EntryLayout.sizeAt(buf, at)) {
            int mo = EntryLayout.memberOffset(buf, at);
            int ml = EntryLayout.memberLength(buf, at);
            tree.insert(buf, mo, ml, EntryLayout.score(buf, at), tree.find(buf, mo, ml));
        }
        return tree;
    }

    private int offsetOfRank(int rank) {
        int at = 0;
        for (int r = 0; r < rank; r++) {
            at += EntryLayout.sizeAt(buf, at);
        }
        return at;
    }

    /** The offset where key (s, m) belongs, skipping the entry at {@code skip} (-1: none). */
    private int insertionPoint(double s, byte[] m, int off, int len, int skip) {
        int at = 0;
        while (at < used) {
            if (at != skip) {
                double es = EntryLayout.score(buf, at);
                if (es > s || (es == s && EntryLayout.compareMember(buf, at, m, off, len) > 0)) {
                    return at;
                }
            }
            at += EntryLayout.sizeAt(buf, at);
        }
        return at;
    }

    private boolean before(int a, int b) {
        double sa = EntryLayout.score(buf, a);
        double sb = EntryLayout.score(buf, b);
        if (sa != sb) {
            return sa < sb;
        }
        int mo = EntryLayout.memberOffset(buf, b);
        return EntryLayout.compareMember(buf, a, buf, mo, EntryLayout.memberLength(buf, b)) < 0;
    }

    private void emit(int at, EntryVisitor visitor) {
        visitor.visit(buf, EntryLayout.memberOffset(buf, at), EntryLayout.memberLength(buf, at), EntryLayout.score(buf, at));
    }

    private void ensureCapacity(int needed) {
        if (needed > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(needed, buf.length + (buf.length >> 1)));
        }
    }
}
