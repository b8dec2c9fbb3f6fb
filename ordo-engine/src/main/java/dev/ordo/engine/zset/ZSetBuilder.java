package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;

import java.util.Arrays;

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
    /** The members' addresses in the order they arrived, so that input already in order needs no sort. */
    private int[] arrival;
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
        this.arrival = new int[Math.max(16, Math.min(expectedSize, 1 << 16))];
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
        insert(slot, m, off, len, score);
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
        return index.size();
    }

    /** Returns the finished set; the builder may not be used afterwards. */
    public ZSet build() {
        if (index == null) {
            throw new IllegalStateException("build() was already called");
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
}
