package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;

/**
 * Builds a sorted set from members that arrive in any order (the algebra's accumulator, a range
 * stored elsewhere, a snapshot being loaded): members go to an arena and a hash index first, are
 * sorted once at the end, and the result starts in whichever encoding fits, with packed leaves.
 * One use only: {@link #build()} hands the storage over.
 */
public final class ZSetBuilder {
    private final ListpackLimits limits;
    private final TreeShape shape;
    private MemberArena arena;
    private MemberIndex index;
    private int longest;

    /** Starts a builder; {@code expectedSize} sizes the index. */
    public ZSetBuilder(ListpackLimits limits, int expectedSize) {
        this(limits, expectedSize, TreeShape.DEFAULT);
    }

    ZSetBuilder(ListpackLimits limits, int expectedSize, TreeShape shape) {
        this.limits = limits;
        this.shape = shape;
        this.arena = new MemberArena(shape.chunkSize());
        this.index = new MemberIndex(arena, Hashing.SEED, expectedSize);
    }

    /** Adds the member unless present; returns whether it was added. */
    public boolean add(byte[] member, double score) {
        return add(member, 0, member.length, score);
    }

    /** Adds {@code m[off, off+len)} unless present; returns whether it was added. */
    public boolean add(byte[] m, int off, int len, double score) {
        long hash = index.hash(m, off, len);
        int slot = index.find(m, off, len, hash);
        if (slot >= 0) {
            return false;
        }
        index.insertAt(slot, arena.append(score, m, off, len));
        longest = Math.max(longest, len);
        return true;
    }

    /** Adds the member, or folds {@code score} into its score with {@code aggregate}. */
    public void aggregate(byte[] m, int off, int len, double score, Aggregate aggregate) {
        long hash = index.hash(m, off, len);
        int slot = index.find(m, off, len, hash);
        if (slot >= 0) {
            int addr = index.addressAt(slot);
            arena.setScore(addr, aggregate.combine(arena.score(addr), score));
        } else {
            index.insertAt(slot, arena.append(score, m, off, len));
            longest = Math.max(longest, len);
        }
    }

    /** The number of distinct members so far. */
    public int size() {
        return index.size();
    }

    /** Returns the finished set; the builder may not be used afterwards. */
    public ZSet build() {
        if (index == null) {
            throw new IllegalStateException("build() was already called");
        }
        int n = index.size();
        int[] addrs = new int[n];
        index.addresses(addrs);
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

    /** Sorts the parallel arrays by (score, member) with a stable bottom-up merge sort. */
    private static void sortByKey(double[] scores, int[] addrs, int n, MemberArena arena) {
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

    private static boolean before(double s1, int a1, double s2, int a2, MemberArena arena) {
        if (s1 != s2) {
            return s1 < s2;
        }
        return arena.compareMember(a1, arena.chunk(a2), arena.memberOffset(a2), arena.memberLength(a2)) < 0;
    }
}
