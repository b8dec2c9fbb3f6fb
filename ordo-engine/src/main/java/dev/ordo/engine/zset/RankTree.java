package dev.ordo.engine.zset;

import dev.ordo.engine.memory.Footprint;

import java.util.Arrays;

/**
 * The ordered index of a skiplist-encoded sorted set: a counted B+-tree over (score, member) keys
 * whose leaves hold scores and {@link MemberArena} addresses in packed parallel arrays.
 *
 * <p>Order: by score ({@code <} on doubles, so -0.0 equals 0.0 and NaN never occurs), then by
 * member bytes compared unsigned. Keys are unique because the member index rejects duplicates.
 *
 * <p>Invariants, checked by {@link #checkInvariants}:
 * <ul>
 *   <li>All leaves are at the same depth and linked in key order ({@code prev}/{@code next}).</li>
 *   <li>An inner node with children c0..ck holds separators s1..sk with
 *       keys(c{i-1}) &lt; s_i &lt;= keys(c_i). A separator is a copy (score, member bytes), never an
 *       arena address, so it stays valid when its entry is deleted or moved. When the scores on its
 *       two sides differ the member part is empty, which costs nothing.</li>
 *   <li>{@code counts[i]} is the number of entries under child i, so the rank of a key is the sum
 *       of the counts to the left of the path plus the position in the leaf.</li>
 *   <li>Every node but the root holds at least a quarter of its capacity, except that the first
 *       and last leaf may hold fewer (never zero): appends and prepends start them with one entry.
 *       A node that falls below borrows from or merges with a sibling, so the height is O(log N).</li>
 * </ul>
 * Insert, delete, rank, select-by-rank and counting entries below a bound are O(log N); walking M
 * entries from a position is O(M). Appending past the last key (or before the first) leaves the
 * full leaf full and starts a new one, so increasing scores pack leaves completely.
 * Not thread-safe: only the thread that owns the sorted set may call it.
 */
final class RankTree {
    private static final byte[] NO_MEMBER = new byte[0];
    /** Scores per cache line: forward scans test one per line before walking inside it. */
    private static final int STRIDE = 8;

    private final MemberArena arena;
    private final int leafCapacity;
    private final int innerCapacity;
    private final int leafMin;
    private final int innerMin;
    private Node root;
    private Leaf first;
    private Leaf last;
    private int size;
    /** Nodes in the tree, kept as they are created and dropped, so that {@link #allocatedBytes} is O(1). */
    private int leafCount;
    private int innerCount;

    /** The separator produced by the last split, for the caller one level up. */
    private double splitScore;
    private byte[] splitMember;

    RankTree(MemberArena arena, TreeShape shape) {
        this.arena = arena;
        this.leafCapacity = shape.leafCapacity();
        this.innerCapacity = shape.innerCapacity();
        this.leafMin = Math.max(1, leafCapacity / 4);
        this.innerMin = Math.max(2, innerCapacity / 4);
        Leaf leaf = newLeaf();
        root = leaf;
        first = leaf;
        last = leaf;
    }

    abstract static class Node {
        int size;
    }

    static final class Leaf extends Node {
        final double[] scores;
        final int[] addrs;
        Leaf prev;
        Leaf next;

        Leaf(int capacity) {
            scores = new double[capacity];
            addrs = new int[capacity];
        }
    }

    static final class Inner extends Node {
        final Node[] children;
        final int[] counts;
        final double[] sepScores;
        final byte[][] sepMembers;

        Inner(int capacity) {
            children = new Node[capacity];
            counts = new int[capacity];
            sepScores = new double[capacity];
            sepMembers = new byte[capacity][];
        }
    }

    /** A position in the leaf chain; walks in either direction. */
    static final class Cursor {
        Leaf leaf;
        int index;

        boolean valid() {
            return leaf != null;
        }

        double score() {
            return leaf.scores[index];
        }

        int address() {
            return leaf.addrs[index];
        }

        void next() {
            if (++index == leaf.size) {
                leaf = leaf.next;
                index = 0;
            }
        }

        void prev() {
            if (--index < 0) {
                leaf = leaf.prev;
                index = leaf == null ? 0 : leaf.size - 1;
            }
        }

        /** Moves to the previous entry when {@code reverse}, else to the next. */
        void step(boolean reverse) {
            if (reverse) {
                prev();
            } else {
                next();
            }
        }

        /** A cursor at the same position. */
        Cursor copy() {
            Cursor c = new Cursor();
            c.leaf = leaf;
            c.index = index;
            return c;
        }
    }

    /** A monotone predicate over keys: true for a prefix of the order ("below the bound"). */
    interface Bound {
        /** Tests a separator key. */
        boolean below(double score, byte[] member, int off, int len);

        /** Tests a stored entry; member bytes are read from the arena only if needed. */
        boolean below(double score, int addr, MemberArena arena);

        /** The number of entries of {@code tree} for which this bound holds. */
        default int countIn(RankTree tree) {
            return tree.countBelow(this);
        }
    }

    int size() {
        return size;
    }

    // ---------------------------------------------------------------- insert

    /** Inserts the entry at {@code addr}, whose key must not be present. */
    void insert(double score, int addr) {
        Node right = insert(root, score, addr);
        if (right != null) {
            Inner top = newInner();
            top.children[0] = root;
            top.counts[0] = countOf(root);
            top.children[1] = right;
            top.counts[1] = countOf(right);
            top.sepScores[1] = splitScore;
            top.sepMembers[1] = splitMember;
            top.size = 2;
            root = top;
        }
        size++;
    }

    private Node insert(Node node, double s, int addr) {
        if (node instanceof Leaf leaf) {
            int pos = lowerBound(leaf, s, addr);
            if (leaf.size < leafCapacity) {
                insertInLeaf(leaf, pos, s, addr);
                return null;
            }
            return splitLeaf(leaf, pos, s, addr);
        }
        Inner inner = (Inner) node;
        int i = childIndex(inner, s, addr);
        if (inner.children[i] instanceof Leaf leaf && leaf.size == leafCapacity && spillToSibling(inner, i, leaf, s, addr)) {
            i = childIndex(inner, s, addr);
        }
        inner.counts[i]++;
        Node right = insert(inner.children[i], s, addr);
        if (right == null) {
            return null;
        }
        inner.counts[i] = countOf(inner.children[i]);
        return insertChild(inner, i + 1, right, countOf(right), splitScore, splitMember);
    }

    /**
     * Makes room in the full leaf {@code parent.children[i]} by moving part of it into a sibling
     * with room, rather than splitting: leaves stay fuller (about four fifths instead of two
     * thirds under random inserts). Not done where an append or prepend will start a new leaf.
     */
    private boolean spillToSibling(Inner parent, int i, Leaf leaf, double s, int addr) {
        int n = leaf.size;
        if ((leaf == last && keyBefore(leaf.scores[n - 1], leaf.addrs[n - 1], s, addr))
                || (leaf == first && keyBefore(s, addr, leaf.scores[0], leaf.addrs[0]))) {
            return false;
        }
        if (i + 1 < parent.size && parent.children[i + 1] instanceof Leaf right && right.size < leafCapacity) {
            int k = Math.max(1, (leafCapacity - right.size) / 2);
            moveEntries(leaf, n - k, right, 0, k);
            parent.counts[i] -= k;
            parent.counts[i + 1] += k;
            parent.sepScores[i + 1] = right.scores[0];
            parent.sepMembers[i + 1] = separatorMember(leaf, right);
            return true;
        }
        if (i > 0 && parent.children[i - 1] instanceof Leaf left && left.size < leafCapacity) {
            int k = Math.max(1, (leafCapacity - left.size) / 2);
            moveEntries(leaf, 0, left, left.size, k);
            parent.counts[i] -= k;
            parent.counts[i - 1] += k;
            parent.sepScores[i] = leaf.scores[0];
            parent.sepMembers[i] = separatorMember(left, leaf);
            return true;
        }
        return false;
    }

    private static void insertInLeaf(Leaf leaf, int pos, double s, int addr) {
        int tail = leaf.size - pos;
        System.arraycopy(leaf.scores, pos, leaf.scores, pos + 1, tail);
        System.arraycopy(leaf.addrs, pos, leaf.addrs, pos + 1, tail);
        leaf.scores[pos] = s;
        leaf.addrs[pos] = addr;
        leaf.size++;
    }

    private Leaf splitLeaf(Leaf leaf, int pos, double s, int addr) {
        boolean appending = pos == leaf.size && leaf == last;
        Leaf right = newLeaf();
        right.prev = leaf;
        right.next = leaf.next;
        if (leaf.next != null) {
            leaf.next.prev = right;
        } else {
            last = right;
        }
        leaf.next = right;
        if (appending) {
            insertInLeaf(right, 0, s, addr);
        } else if (pos == 0 && leaf == first) {
            moveEntries(leaf, 0, right, 0, leaf.size);
            insertInLeaf(leaf, 0, s, addr);
        } else {
            int mid = leafCapacity / 2;
            moveEntries(leaf, mid, right, 0, leaf.size - mid);
            if (pos <= mid) {
                insertInLeaf(leaf, pos, s, addr);
            } else {
                insertInLeaf(right, pos - mid, s, addr);
            }
        }
        setSplitSeparator(leaf, right);
        return right;
    }

    /** Moves entries [from, size) of {@code src} to {@code dst} at {@code at}; dst must have room. */
    private static void moveEntries(Leaf src, int from, Leaf dst, int at, int count) {
        System.arraycopy(dst.scores, at, dst.scores, at + count, dst.size - at);
        System.arraycopy(dst.addrs, at, dst.addrs, at + count, dst.size - at);
        System.arraycopy(src.scores, from, dst.scores, at, count);
        System.arraycopy(src.addrs, from, dst.addrs, at, count);
        System.arraycopy(src.scores, from + count, src.scores, from, src.size - from - count);
        System.arraycopy(src.addrs, from + count, src.addrs, from, src.size - from - count);
        dst.size += count;
        src.size -= count;
    }

    private void setSplitSeparator(Leaf left, Leaf right) {
        splitScore = right.scores[0];
        splitMember = separatorMember(left, right);
    }

    /** The member part of the separator between two adjacent, non-empty leaves. */
    private byte[] separatorMember(Leaf left, Leaf right) {
        return left.scores[left.size - 1] < right.scores[0] ? NO_MEMBER : arena.copyMember(right.addrs[0]);
    }

    private Node insertChild(Inner inner, int at, Node child, int count, double sepScore, byte[] sepMember) {
        if (inner.size < innerCapacity) {
            openChildSlot(inner, at);
            setChild(inner, at, child, count, sepScore, sepMember);
            return null;
        }
        Inner right = newInner();
        int mid = innerCapacity / 2;
        int moved = inner.size - mid;
        System.arraycopy(inner.children, mid, right.children, 0, moved);
        System.arraycopy(inner.counts, mid, right.counts, 0, moved);
        System.arraycopy(inner.sepScores, mid, right.sepScores, 0, moved);
        System.arraycopy(inner.sepMembers, mid, right.sepMembers, 0, moved);
        Arrays.fill(inner.children, mid, inner.size, null);
        Arrays.fill(inner.sepMembers, mid, inner.size, null);
        inner.size = mid;
        right.size = moved;
        if (at <= mid) {
            openChildSlot(inner, at);
            setChild(inner, at, child, count, sepScore, sepMember);
        } else {
            openChildSlot(right, at - mid);
            setChild(right, at - mid, child, count, sepScore, sepMember);
        }
        splitScore = right.sepScores[0];
        splitMember = right.sepMembers[0];
        right.sepMembers[0] = null;
        return right;
    }

    private static void openChildSlot(Inner n, int at) {
        int tail = n.size - at;
        System.arraycopy(n.children, at, n.children, at + 1, tail);
        System.arraycopy(n.counts, at, n.counts, at + 1, tail);
        System.arraycopy(n.sepScores, at, n.sepScores, at + 1, tail);
        System.arraycopy(n.sepMembers, at, n.sepMembers, at + 1, tail);
        n.size++;
    }

    private static void setChild(Inner n, int at, Node child, int count, double sepScore, byte[] sepMember) {
        n.children[at] = child;
        n.counts[at] = count;
        n.sepScores[at] = sepScore;
        n.sepMembers[at] = sepMember;
    }

    // ---------------------------------------------------------------- delete

    /** Removes the entry with key (score, member of {@code addr}), which must be present. */
    void remove(double score, int addr) {
        remove(root, score, addr);
        size--;
        if (root instanceof Inner inner && inner.size == 1) {
            root = inner.children[0];
            innerCount--;
        }
    }

    /** Returns whether {@code node} fell under its minimum fill. */
    private boolean remove(Node node, double s, int addr) {
        if (node instanceof Leaf leaf) {
            int pos = lowerBound(leaf, s, addr);
            removeFromLeaf(leaf, pos, 1);
            return leaf.size < leafMin;
        }
        Inner inner = (Inner) node;
        int i = childIndex(inner, s, addr);
        inner.counts[i]--;
        if (remove(inner.children[i], s, addr)) {
            rebalance(inner, i);
        }
        return inner.size < innerMin;
    }

    private static void removeFromLeaf(Leaf leaf, int pos, int count) {
        int tail = leaf.size - pos - count;
        System.arraycopy(leaf.scores, pos + count, leaf.scores, pos, tail);
        System.arraycopy(leaf.addrs, pos + count, leaf.addrs, pos, tail);
        leaf.size -= count;
    }

    /** Restores the minimum fill of child {@code i} by borrowing from or merging with a sibling. */
    private void rebalance(Inner parent, int i) {
        if (parent.size < 2) {
            return;
        }
        int left = i > 0 ? i - 1 : i;
        int right = left + 1;
        if (parent.children[left] instanceof Leaf l) {
            rebalanceLeaves(parent, right, l, (Leaf) parent.children[right]);
        } else {
            rebalanceInners(parent, right, (Inner) parent.children[left], (Inner) parent.children[right]);
        }
    }

    private void rebalanceLeaves(Inner parent, int right, Leaf l, Leaf r) {
        int total = l.size + r.size;
        if (total <= leafCapacity) {
            moveEntries(r, 0, l, l.size, r.size);
            l.next = r.next;
            if (r.next != null) {
                r.next.prev = l;
            } else {
                last = l;
            }
            parent.counts[right - 1] = l.size;
            removeChild(parent, right);
            leafCount--;
            return;
        }
        int target = total / 2;
        if (l.size < target) {
            moveEntries(r, 0, l, l.size, target - l.size);
        } else {
            moveEntries(l, target, r, 0, l.size - target);
        }
        parent.counts[right - 1] = l.size;
        parent.counts[right] = r.size;
        parent.sepScores[right] = r.scores[0];
        parent.sepMembers[right] = separatorMember(l, r);
    }

    private void rebalanceInners(Inner parent, int right, Inner l, Inner r) {
        if (l.size + r.size <= innerCapacity) {
            r.sepScores[0] = parent.sepScores[right];
            r.sepMembers[0] = parent.sepMembers[right];
            System.arraycopy(r.children, 0, l.children, l.size, r.size);
            System.arraycopy(r.counts, 0, l.counts, l.size, r.size);
            System.arraycopy(r.sepScores, 0, l.sepScores, l.size, r.size);
            System.arraycopy(r.sepMembers, 0, l.sepMembers, l.size, r.size);
            l.size += r.size;
            parent.counts[right - 1] += parent.counts[right];
            removeChild(parent, right);
            innerCount--;
            return;
        }
        int target = (l.size + r.size) / 2;
        while (l.size < target) {
            rotateLeft(parent, right, l, r);
        }
        while (l.size > target) {
            rotateRight(parent, right, l, r);
        }
    }

    /** Moves the first child of {@code r} to the end of {@code l} through the parent's separator. */
    private static void rotateLeft(Inner parent, int right, Inner l, Inner r) {
        int c = r.counts[0];
        setChild(l, l.size, r.children[0], c, parent.sepScores[right], parent.sepMembers[right]);
        l.size++;
        parent.sepScores[right] = r.sepScores[1];
        parent.sepMembers[right] = r.sepMembers[1];
        removeChild(r, 0);
        r.sepMembers[0] = null;
        parent.counts[right - 1] += c;
        parent.counts[right] -= c;
    }

    /** Moves the last child of {@code l} to the front of {@code r} through the parent's separator. */
    private static void rotateRight(Inner parent, int right, Inner l, Inner r) {
        int last = l.size - 1;
        int c = l.counts[last];
        openChildSlot(r, 0);
        setChild(r, 0, l.children[last], c, 0, null);
        r.sepScores[1] = parent.sepScores[right];
        r.sepMembers[1] = parent.sepMembers[right];
        parent.sepScores[right] = l.sepScores[last];
        parent.sepMembers[right] = l.sepMembers[last];
        l.children[last] = null;
        l.sepMembers[last] = null;
        l.size--;
        parent.counts[right - 1] -= c;
        parent.counts[right] += c;
    }

    private static void removeChild(Inner n, int at) {
        int tail = n.size - at - 1;
        System.arraycopy(n.children, at + 1, n.children, at, tail);
        System.arraycopy(n.counts, at + 1, n.counts, at, tail);
        System.arraycopy(n.sepScores, at + 1, n.sepScores, at, tail);
        System.arraycopy(n.sepMembers, at + 1, n.sepMembers, at, tail);
        n.size--;
        n.children[n.size] = null;
        n.sepMembers[n.size] = null;
    }

    // ---------------------------------------------------------------- lookups

    /** Returns the 0-based rank of the present key (score, member of {@code addr}). */
    int rank(double score, int addr) {
        int rank = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int i = childIndex(inner, score, addr);
            rank += sumCounts(inner, i);
            node = inner.children[i];
        }
        return rank + lowerBound((Leaf) node, score, addr);
    }

    /**
     * Positions {@code cursor} at the entry of 0-based {@code rank} (which must be in range). In
     * each node the counts are walked from the nearer end, so the last entries (ZREVRANGE 0 9, a
     * board's top) cost a step or two per level, not a walk across every child.
     */
    void seek(int rank, Cursor cursor) {
        Node node = root;
        int total = size;
        while (node instanceof Inner inner) {
            int[] counts = inner.counts;
            int i;
            if (rank < total >>> 1) {
                i = 0;
                while (rank >= counts[i]) {
                    rank -= counts[i++];
                }
            } else {
                i = inner.size - 1;
                int after = total - 1 - rank;
                while (after >= counts[i]) {
                    after -= counts[i--];
                }
                rank = counts[i] - 1 - after;
            }
            total = counts[i];
            node = inner.children[i];
        }
        cursor.leaf = (Leaf) node;
        cursor.index = rank;
    }

    /** Returns the number of entries for which {@code bound} holds (they form a prefix). */
    int countBelow(Bound bound) {
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int n = inner.size;
            int i = 1;
            while (i < n) {
                byte[] sm = inner.sepMembers[i];
                if (!bound.below(inner.sepScores[i], sm, 0, sm.length)) {
                    break;
                }
                count += inner.counts[i - 1];
                i++;
            }
            node = inner.children[i - 1];
        }
        Leaf leaf = (Leaf) node;
        int i = 0;
        while (i < leaf.size && bound.below(leaf.scores[i], leaf.addrs[i], arena)) {
            i++;
        }
        return count + i;
    }

    /**
     * The number of entries scored below {@code limit} (at most {@code limit} when {@code
     * inclusive}): {@link #countBelow} for a bound decided by the score alone, which compares
     * scores only, one per cache line where it can ({@link #firstNotBelow}).
     */
    int countScoresBelow(double limit, boolean inclusive) {
        if (inclusive && limit == Double.POSITIVE_INFINITY) {
            return size;
        }
        // score <= x is score < nextUp(x) for every x but +inf, handled above.
        double bound = inclusive ? Math.nextUp(limit) : limit;
        int count = 0;
        Node node = root;
        while (node instanceof Inner inner) {
            int i = firstNotBelow(inner.sepScores, 1, inner.size, bound);
            count += sumCounts(inner, i - 1);
            node = inner.children[i - 1];
        }
        return count + firstNotBelow(((Leaf) node).scores, 0, node.size, bound);
    }

    /** Replaces the address of the present key (score, member at {@code oldAddr}) with {@code newAddr}. */
    void relocate(double score, int oldAddr, int newAddr) {
        Cursor c = find(score, oldAddr);
        c.leaf.addrs[c.index] = newAddr;
    }

    /**
     * Changes the score of the present key (oldScore, member at {@code addr}) to {@code newScore}:
     * within its leaf when the new score lies strictly inside the leaf's scores (ZINCRBY's usual
     * small step; one descent instead of three, and no count changes), in place when the entry keeps
     * its position, else by removal and insertion.
     */
    void updateScore(double oldScore, int addr, double newScore) {
        Cursor c = find(oldScore, addr);
        Leaf leaf = c.leaf;
        int i = c.index;
        if (leaf.scores[0] < newScore && newScore < leaf.scores[leaf.size - 1]) {
            moveWithinLeaf(leaf, i, newScore, addr);
            return;
        }
        if (i > 0 && i < leaf.size - 1
                && keyBefore(leaf.scores[i - 1], leaf.addrs[i - 1], newScore, addr)
                && keyBefore(newScore, addr, leaf.scores[i + 1], leaf.addrs[i + 1])) {
            leaf.scores[i] = newScore;
            return;
        }
        remove(oldScore, addr);
        insert(newScore, addr);
    }

    /**
     * Moves the entry at position {@code i} of {@code leaf} to where {@code newScore} puts it in
     * the same leaf. Only for a new score strictly between the leaf's first and last scores: the
     * key then stays above the separator before the leaf and below the one after it, and the
     * leaf keeps its size, so no separator and no count on the path changes.
     */
    private void moveWithinLeaf(Leaf leaf, int i, double newScore, int addr) {
        double[] scores = leaf.scores;
        int[] addrs = leaf.addrs;
        int n = leaf.size;
        System.arraycopy(scores, i + 1, scores, i, n - 1 - i);
        System.arraycopy(addrs, i + 1, addrs, i, n - 1 - i);
        leaf.size = n - 1;
        int j = lowerBound(leaf, newScore, addr);
        System.arraycopy(scores, j, scores, j + 1, n - 1 - j);
        System.arraycopy(addrs, j, addrs, j + 1, n - 1 - j);
        scores[j] = newScore;
        addrs[j] = addr;
        leaf.size = n;
    }

    private Cursor find(double score, int addr) {
        Node node = root;
        while (node instanceof Inner inner) {
            node = inner.children[childIndex(inner, score, addr)];
        }
        Cursor c = new Cursor();
        c.leaf = (Leaf) node;
        c.index = lowerBound(c.leaf, score, addr);
        return c;
    }

    /** Whether key (s1, member at a1) orders strictly before key (s2, member at a2). */
    private boolean keyBefore(double s1, int a1, double s2, int a2) {
        if (s1 != s2) {
            return s1 < s2;
        }
        return arena.compareMembers(a1, a2) < 0;
    }

    /**
     * The first position in {@code leaf} whose key is not below (s, member at addr). The scores are
     * scanned forward rather than binary searched: their loads are independent and sequential, so
     * a cold leaf costs about one memory round trip instead of one per probe.
     *
     * <p>Only a tie needs members, and each member read is a cache miss into the arena, so the run
     * of entries scored {@code s} is first searched for {@code addr} itself: an entry in the tree
     * (ZREM, ZINCRBY's removal, ZRANK) is found by its address without reading a member (keys are
     * unique, so where it stands is its lower bound). A key not in the tree is placed in the run by
     * binary search over members.
     */
    private int lowerBound(Leaf leaf, double s, int addr) {
        double[] scores = leaf.scores;
        int[] addrs = leaf.addrs;
        int n = leaf.size;
        int lo = firstNotBelow(scores, 0, n, s);
        int hi = lo;
        while (hi < n && scores[hi] == s) {
            if (addrs[hi] == addr) {
                return hi;
            }
            hi++;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (arena.compareMembers(addrs[mid], addr) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The child of {@code inner} whose key range holds (s, member at addr): the last one whose
     * separator is at most the key. Scanned forward for the same reason as {@link #lowerBound}.
     */
    private int childIndex(Inner inner, double s, int addr) {
        double[] seps = inner.sepScores;
        int n = inner.size;
        int i = firstNotBelow(seps, 1, n, s);
        while (i < n && seps[i] == s && separatorAtMost(inner.sepMembers[i], addr)) {
            i++;
        }
        return i - 1;
    }

    /**
     * The first index in [from, n) of ascending {@code a} whose value is not below {@code s}, or n:
     * tests one value per cache line, then walks inside the line that holds the boundary.
     */
    private static int firstNotBelow(double[] a, int from, int n, double s) {
        int i = from;
        while (i + STRIDE <= n && a[i + STRIDE - 1] < s) {
            i += STRIDE;
        }
        while (i < n && a[i] < s) {
            i++;
        }
        return i;
    }

    /** Whether a separator's member part is at most the member at {@code addr} (scores equal). */
    private boolean separatorAtMost(byte[] sepMember, int addr) {
        return arena.compareMember(addr, sepMember, 0, sepMember.length) >= 0;
    }

    private static int sumCounts(Inner inner, int end) {
        int sum = 0;
        int[] counts = inner.counts;
        for (int j = 0; j < end; j++) {
            sum += counts[j];
        }
        return sum;
    }

    private static int countOf(Node node) {
        if (node instanceof Leaf leaf) {
            return leaf.size;
        }
        Inner inner = (Inner) node;
        return sumCounts(inner, inner.size);
    }

    // ---------------------------------------------------------------- bulk load and checks

    /**
     * Builds the tree from entries already in strictly ascending key order, with full leaves.
     * The tree must be empty.
     */
    void bulkLoad(double[] scores, int[] addrs, int n) {
        if (n == 0) {
            return;
        }
        int leaves = (n + leafCapacity - 1) / leafCapacity;
        Node[] level = new Node[leaves];
        Leaf prev = null;
        leafCount = 0;
        innerCount = 0;
        for (int k = 0; k < leaves; k++) {
            int from = k * leafCapacity;
            int count = Math.min(leafCapacity, n - from);
            Leaf leaf = newLeaf();
            System.arraycopy(scores, from, leaf.scores, 0, count);
            System.arraycopy(addrs, from, leaf.addrs, 0, count);
            leaf.size = count;
            leaf.prev = prev;
            if (prev != null) {
                prev.next = leaf;
            }
            prev = leaf;
            level[k] = leaf;
        }
        balanceTail(level, leaves);
        first = (Leaf) level[0];
        last = prev;
        int levelSize = leaves;
        while (levelSize > 1) {
            int parents = (levelSize + innerCapacity - 1) / innerCapacity;
            Node[] up = new Node[parents];
            for (int p = 0; p < parents; p++) {
                Inner inner = newInner();
                int from = p * innerCapacity;
                int count = Math.min(innerCapacity, levelSize - from);
                for (int j = 0; j < count; j++) {
                    Node child = level[from + j];
                    inner.children[j] = child;
                    inner.counts[j] = countOf(child);
                    if (j > 0) {
                        Leaf leftmost = leftmostLeaf(child);
                        inner.sepScores[j] = leftmost.scores[0];
                        inner.sepMembers[j] = separatorMember(leftmost.prev, leftmost);
                    }
                }
                inner.size = count;
                up[p] = inner;
            }
            balanceTail(up, parents);
            level = up;
            levelSize = parents;
        }
        root = level[0];
        size = n;
    }

    /** Evens out the last two nodes of a freshly built level so the last one is not underfull. */
    private void balanceTail(Node[] level, int count) {
        if (count < 2) {
            return;
        }
        Node a = level[count - 2];
        Node b = level[count - 1];
        if (a instanceof Leaf la) {
            Leaf lb = (Leaf) b;
            if (lb.size < leafMin) {
                int target = (la.size + lb.size) / 2;
                moveEntries(la, target, lb, 0, la.size - target);
            }
        } else {
            Inner ia = (Inner) a;
            Inner ib = (Inner) b;
            if (ib.size < innerMin) {
                int move = ia.size - (ia.size + ib.size) / 2;
                int from = ia.size - move;
                System.arraycopy(ib.children, 0, ib.children, move, ib.size);
                System.arraycopy(ib.counts, 0, ib.counts, move, ib.size);
                System.arraycopy(ib.sepScores, 0, ib.sepScores, move, ib.size);
                System.arraycopy(ib.sepMembers, 0, ib.sepMembers, move, ib.size);
                System.arraycopy(ia.children, from, ib.children, 0, move);
                System.arraycopy(ia.counts, from, ib.counts, 0, move);
                System.arraycopy(ia.sepScores, from, ib.sepScores, 0, move);
                System.arraycopy(ia.sepMembers, from, ib.sepMembers, 0, move);
                Leaf oldFirst = leftmostLeaf(ib.children[move]);
                ib.sepScores[move] = oldFirst.scores[0];
                ib.sepMembers[move] = separatorMember(oldFirst.prev, oldFirst);
                ib.sepMembers[0] = null;
                Arrays.fill(ia.children, from, ia.size, null);
                Arrays.fill(ia.sepMembers, from, ia.size, null);
                ia.size = from;
                ib.size += move;
            }
        }
    }

    private static Leaf leftmostLeaf(Node node) {
        while (node instanceof Inner inner) {
            node = inner.children[0];
        }
        return (Leaf) node;
    }

    /**
     * Returns the bytes held by the tree's nodes and their arrays, in O(1). The member copies in
     * separators are left out: a separator has one only where equal scores straddle two leaves, so
     * they add at most one member per leaf (1/48 of the members or fewer at the least fill).
     */
    long allocatedBytes() {
        return Footprint.object(5, 36) + leafCount * leafBytes(leafCapacity) + innerCount * innerBytes(innerCapacity);
    }

    private static long leafBytes(int capacity) {
        return Footprint.object(4, 4) + Footprint.array(8L * capacity) + Footprint.array(4L * capacity);
    }

    private static long innerBytes(int capacity) {
        return Footprint.object(4, 4) + 2 * Footprint.referenceArray(capacity) + Footprint.array(4L * capacity)
                + Footprint.array(8L * capacity);
    }

    private Leaf newLeaf() {
        leafCount++;
        return new Leaf(leafCapacity);
    }

    private Inner newInner() {
        innerCount++;
        return new Inner(innerCapacity);
    }

    /** Verifies every invariant in the class header; throws {@link AssertionError} on a violation. */
    void checkInvariants() {
        int counted = checkNode(root, 0, null, null, true, new int[] {-1});
        check(counted == size, "size " + size + " but tree holds " + counted);
        int[] nodes = countNodes(root, new int[2]);
        check(nodes[0] == leafCount && nodes[1] == innerCount,
                "counted " + leafCount + " leaves and " + innerCount + " inner nodes, but the tree holds " + nodes[0] + " and " + nodes[1]);
        Leaf prev = null;
        int walked = 0;
        for (Leaf leaf = first; leaf != null; leaf = leaf.next) {
            check(leaf.prev == prev, "broken prev link");
            if (prev != null && prev.size > 0 && leaf.size > 0) {
                check(keyBefore(prev.scores[prev.size - 1], prev.addrs[prev.size - 1], leaf.scores[0], leaf.addrs[0]),
                        "leaves out of order");
            }
            walked += leaf.size;
            prev = leaf;
        }
        check(prev == last, "last leaf is not the end of the chain");
        check(walked == size, "leaf chain holds " + walked + " entries, expected " + size);
    }

    private int checkNode(Node node, int depth, double[] lowScore, byte[] lowMember, boolean isRoot, int[] leafDepth) {
        if (node instanceof Leaf leaf) {
            if (leafDepth[0] < 0) {
                leafDepth[0] = depth;
            }
            check(leafDepth[0] == depth, "leaves at different depths");
            boolean edge = leaf == first || leaf == last;
            check(isRoot || leaf.size >= leafMin || (edge && leaf.size > 0), "underfull leaf: " + leaf.size);
            for (int i = 0; i < leaf.size; i++) {
                check(!Double.isNaN(leaf.scores[i]), "NaN score");
                check(Double.doubleToRawLongBits(arena.score(leaf.addrs[i])) == Double.doubleToRawLongBits(leaf.scores[i]),
                        "leaf score disagrees with arena");
                if (i > 0) {
                    check(keyBefore(leaf.scores[i - 1], leaf.addrs[i - 1], leaf.scores[i], leaf.addrs[i]), "leaf out of order");
                }
            }
            if (lowScore != null && leaf.size > 0) {
                check(separatorAtMost(lowScore[0], lowMember, leaf.scores[0], leaf.addrs[0]), "separator above its subtree");
            }
            return leaf.size;
        }
        Inner inner = (Inner) node;
        check(isRoot ? inner.size >= 2 : inner.size >= innerMin, "underfull inner node: " + inner.size);
        int total = 0;
        for (int i = 0; i < inner.size; i++) {
            double[] ls = lowScore;
            byte[] lm = lowMember;
            if (i > 0) {
                ls = new double[] {inner.sepScores[i]};
                lm = inner.sepMembers[i];
                Leaf before = rightmostLeaf(inner.children[i - 1]);
                if (before.size > 0) {
                    check(!separatorAtMost(ls[0], lm, before.scores[before.size - 1], before.addrs[before.size - 1]),
                            "separator not above the left subtree");
                }
            }
            int c = checkNode(inner.children[i], depth + 1, ls, lm, false, leafDepth);
            check(c == inner.counts[i], "count " + inner.counts[i] + " but subtree holds " + c);
            total += c;
        }
        return total;
    }

    /** Whether separator (ss, sm) &lt;= entry (s, member at addr). */
    private boolean separatorAtMost(double ss, byte[] sm, double s, int addr) {
        if (ss != s) {
            return ss < s;
        }
        return arena.compareMember(addr, sm, 0, sm.length) >= 0;
    }

    /** Adds the leaves under {@code node} to {@code counts[0]} and the inner nodes to {@code counts[1]}. */
    private static int[] countNodes(Node node, int[] counts) {
        if (node instanceof Inner inner) {
            counts[1]++;
            for (int i = 0; i < inner.size; i++) {
                countNodes(inner.children[i], counts);
            }
        } else {
            counts[0]++;
        }
        return counts;
    }

    private static Leaf rightmostLeaf(Node node) {
        while (node instanceof Inner inner) {
            node = inner.children[inner.size - 1];
        }
        return (Leaf) node;
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
