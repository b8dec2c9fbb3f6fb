package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;

import java.util.Arrays;

/**
 * Builds a sorted set from members that arrive in any order (the algebra's accumulator, a range
 * stored elsewhere, a snapshot being loaded): members go to an arena and a hash index first, are
 * sorted once at the end, and the result starts in whichever encoding fits, with packed leaves.
 *
 * <p>Small sets that arrive in ascending order (a listpack-encoded set in a snapshot, a range) take
 * a shorter road: while every member keeps the order and the set still fits the listpack limits,
 * entries are written straight into the finished listpack, with a small open-addressing table of
 * entry offsets to refuse duplicates. The first member that breaks either rule moves what was
 * written into the arena and index, and building goes on the general way.
 * One use only: {@link #build()} hands the storage over.
 */
public final class ZSetBuilder {
    private final ListpackLimits limits;
    private final TreeShape shape;
    private final int expectedSize;
    /** The ascending run being written as a listpack, or null once building goes the general way. */
    private SortedRun run;
    private MemberArena arena;
    private MemberIndex index;
    /** The members' addresses in the order they arrived, so that input already in order needs no sort. */
    private int[] arrival;
    private int longest;
    private boolean built;

    /** Starts a builder; {@code expectedSize} sizes the index. */
    public ZSetBuilder(ListpackLimits limits, int expectedSize) {
        this(limits, expectedSize, TreeShape.DEFAULT);
    }

    ZSetBuilder(ListpackLimits limits, int expectedSize, TreeShape shape) {
        this.limits = limits;
        this.shape = shape;
        this.expectedSize = expectedSize;
        if (expectedSize <= limits.maxEntries()) {
            run = new SortedRun(expectedSize);
        } else {
            generalWay();
        }
    }

    /** Leaves the ascending run (if any): its entries move to the arena and index, in arrival order. */
    private void generalWay() {
        arena = new MemberArena(shape.chunkSize());
        index = new MemberIndex(arena, Hashing.SEED, expectedSize);
        arrival = new int[Math.max(16, Math.min(expectedSize, 1 << 16))];
        SortedRun r = run;
        run = null;
        if (r != null) {
            for (int at = 0; at < r.used; at += EntryLayout.sizeAt(r.buf, at)) {
                int mo = EntryLayout.memberOffset(r.buf, at);
                int len = EntryLayout.memberLength(r.buf, at);
                insert(index.find(r.buf, mo, len, index.hash(r.buf, mo, len)), r.buf, mo, len, EntryLayout.score(r.buf, at));
            }
        }
    }

    /** Adds the member unless present; returns whether it was added. */
    public boolean add(byte[] member, double score) {
        return add(member, 0, member.length, score);
    }

    /** Adds {@code m[off, off+len)} unless present; returns whether it was added. */
    public boolean add(byte[] m, int off, int len, double score) {
        checkNotBuilt();
        if (run != null) {
            int outcome = run.add(m, off, len, score, limits);
            if (outcome != SortedRun.LEAVE) {
                return outcome == SortedRun.ADDED;
            }
            generalWay();
        }
        long hash = index.hash(m, off, len);
        int slot = index.find(m, off, len, hash);
        if (slot >= 0) {
            return false;
        }
        insert(slot, m, off, len, score);
        return true;
    }

    /** Adds the member, or folds {@code score} into its score with {@code aggregate}. */
    public void aggregate(byte[] m, int off, int len, double score, Aggregate aggregate) {
        checkNotBuilt();
        if (run != null) {
            generalWay();
        }
        long hash = index.hash(m, off, len);
        int slot = index.find(m, off, len, hash);
        if (slot >= 0) {
            int addr = index.addressAt(slot);
            arena.setScore(addr, aggregate.combine(arena.score(addr), score));
        } else {
            insert(slot, m, off, len, score);
        }
    }

    private void insert(int slot, byte[] m, int off, int len, double score) {
        int addr = arena.append(score, m, off, len);
        index.insertAt(slot, addr);
        int n = index.size() - 1;
        if (n == arrival.length) {
            arrival = Arrays.copyOf(arrival, 2 * n);
        }
        arrival[n] = addr;
        longest = Math.max(longest, len);
    }

    /** The number of distinct members so far. */
    public int size() {
        return run != null ? run.count : index.size();
    }

    private void checkNotBuilt() {
        if (built) {
            throw new IllegalStateException("build() was already called");
        }
    }

    /** Returns the finished set; the builder may not be used afterwards. */
    public ZSet build() {
        checkNotBuilt();
        built = true;
        if (run != null) {
            SortedRun r = run;
            run = null;
            return new ZSet(limits, shape, new ListpackZSet(Arrays.copyOf(r.buf, Math.max(r.used, 1)), r.used, r.count));
        }
        int n = index.size();
        int[] addrs = arrival.length == n ? arrival : Arrays.copyOf(arrival, n);
        arrival = null;
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
            scores[i] = arena.score(addrs[i]);
        }
        sortByKey(scores, addrs, n, arena);
        ZSetStore store = limits.fits(n, longest) ? packed(scores, addrs, n) : new TreeZSet(arena, index, scores, addrs, shape);
        arena = null;
        index = null;
        return new ZSet(limits, shape, store);
    }

    private ListpackZSet packed(double[] scores, int[] addrs, int n) {
        int bytes = 0;
        for (int i = 0; i < n; i++) {
            bytes += EntryLayout.entrySize(arena.memberLength(addrs[i]));
        }
        byte[] buf = new byte[Math.max(bytes, 1)];
        int at = 0;
        for (int i = 0; i < n; i++) {
            byte[] chunk = arena.chunk(addrs[i]);
            at += EntryLayout.write(buf, at, scores[i], chunk, arena.memberOffset(addrs[i]), arena.memberLength(addrs[i]));
        }
        return new ListpackZSet(buf, at, n);
    }

    /**
     * Sorts the parallel arrays by (score, member) with a stable bottom-up merge sort. Input that
     * is already in order, or in reverse order, costs one pass: snapshots list members ascending
     * (Ordo's) or descending (Redis's), and loading them is the common case.
     */
    private static void sortByKey(double[] scores, int[] addrs, int n, MemberArena arena) {
        if (inOrder(scores, addrs, n, arena, false)) {
            return;
        }
        if (inOrder(scores, addrs, n, arena, true)) {
            for (int i = 0, j = n - 1; i < j; i++, j--) {
                double ts = scores[i];
                scores[i] = scores[j];
                scores[j] = ts;
                int ta = addrs[i];
                addrs[i] = addrs[j];
                addrs[j] = ta;
            }
            return;
        }
        double[] s = scores;
        int[] a = addrs;
        double[] ts = new double[n];
        int[] ta = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    if (i < mid && (j >= hi || !before(s[j], a[j], s[i], a[i], arena))) {
                        ts[k] = s[i];
                        ta[k] = a[i++];
                    } else {
                        ts[k] = s[j];
                        ta[k] = a[j++];
                    }
                }
            }
            double[] swapS = s;
            s = ts;
            ts = swapS;
            int[] swapA = a;
            a = ta;
            ta = swapA;
        }
        if (s != scores) {
            System.arraycopy(s, 0, scores, 0, n);
            System.arraycopy(a, 0, addrs, 0, n);
        }
    }

    /** Whether the entries are strictly ascending (or, when {@code reversed}, strictly descending). Members are distinct. */
    private static boolean inOrder(double[] scores, int[] addrs, int n, MemberArena arena, boolean reversed) {
        for (int i = 1; i < n; i++) {
            boolean ascending = before(scores[i - 1], addrs[i - 1], scores[i], addrs[i], arena);
            if (ascending == reversed) {
                return false;
            }
        }
        return true;
    }

    private static boolean before(double s1, int a1, double s2, int a2, MemberArena arena) {
        if (s1 != s2) {
            return s1 < s2;
        }
        return arena.compareMember(a1, arena.chunk(a2), arena.memberOffset(a2), arena.memberLength(a2)) < 0;
    }

    /**
     * Entries written back to back in the listpack layout while they arrive in strictly ascending
     * (score, member) order and fit the listpack limits, with an open-addressing table (offset + 1
     * per slot, at most half full) that finds a member already written.
     */
    private static final class SortedRun {
        static final int ADDED = 0;
        static final int DUPLICATE = 1;
        static final int LEAVE = 2;

        byte[] buf;
        int used;
        int count;
        private int lastAt = -1;
        private int[] slots;

        SortedRun(int expectedSize) {
            int n = Math.max(expectedSize, 4);
            buf = new byte[n * 16];
            slots = new int[Integer.highestOneBit(n * 2 - 1) << 1];
        }

        int add(byte[] m, int off, int len, double score, ListpackLimits limits) {
            long hash = Hashing.hash(m, off, len, Hashing.SEED);
            int mask = slots.length - 1;
            int i = (int) hash & mask;
            for (int at; (at = slots[i] - 1) >= 0; i = (i + 1) & mask) {
                if (EntryLayout.memberEquals(buf, at, m, off, len)) {
                    return DUPLICATE;
                }
            }
            if (count == limits.maxEntries() || len > limits.maxValueBytes() || !afterLast(m, off, len, score)) {
                return LEAVE;
            }
            int size = EntryLayout.entrySize(len);
            if (used + size > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, used + size));
            }
            EntryLayout.write(buf, used, score, m, off, len);
            slots[i] = used + 1;
            lastAt = used;
            used += size;
            if (++count * 2 > slots.length) {
                rehash();
            }
            return ADDED;
        }

        private boolean afterLast(byte[] m, int off, int len, double score) {
            if (lastAt < 0) {
                return true;
            }
            double last = EntryLayout.score(buf, lastAt);
            return last < score || (last == score && EntryLayout.compareMember(buf, lastAt, m, off, len) < 0);
        }

        private void rehash() {
            int[] old = slots;
            slots = new int[old.length * 2];
            int mask = slots.length - 1;
            for (int slot : old) {
                if (slot != 0) {
                    int at = slot - 1;
                    int mo = EntryLayout.memberOffset(buf, at);
                    int i = (int) Hashing.hash(buf, mo, EntryLayout.memberLength(buf, at), Hashing.SEED) & mask;
                    while (slots[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    slots[i] = slot;
                }
            }
        }
    }
}
