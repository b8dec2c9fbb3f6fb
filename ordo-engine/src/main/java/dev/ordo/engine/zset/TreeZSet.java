package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;
import dev.ordo.engine.memory.Footprint;

/**
 * The {@code skiplist} encoding: {@link MemberArena} stores each entry once, {@link MemberIndex}
 * maps members to arena addresses (O(1) score lookup), and {@link RankTree} orders the addresses
 * (O(log N) rank, select and insert). The index and the tree always hold exactly the same set of
 * live addresses; the arena's score and the tree leaf's score of an entry are always equal.
 * A handle is an index slot.
 */
final class TreeZSet extends ZSetStore {
    /** How many entries ahead of the one being visited a range walk loads (see {@link #touch}). */
    private static final int LOOKAHEAD = 64;

    private final MemberArena arena;
    private final MemberIndex index;
    private final RankTree tree;
    /** Where range walks leave what {@link #touch} read, so the compiler keeps those loads. */
    private int touched;

    TreeZSet(int expectedSize, TreeShape shape) {
        arena = new MemberArena(shape.chunkSize());
        index = new MemberIndex(arena, Hashing.SEED, expectedSize);
        tree = new RankTree(arena, shape);
    }

    /** Builds the skiplist encoding from an accumulator whose entries are final; takes ownership. */
    TreeZSet(MemberArena arena, MemberIndex index, double[] sortedScores, int[] sortedAddrs, TreeShape shape) {
        this.arena = arena;
        this.index = index;
        this.tree = new RankTree(arena, shape);
        tree.bulkLoad(sortedScores, sortedAddrs, index.size());
    }

    @Override
    Encoding encoding() {
        return Encoding.SKIPLIST;
    }

    @Override
    int size() {
        return tree.size();
    }

    @Override
    int find(byte[] m, int off, int len) {
        return index.find(m, off, len, index.hash(m, off, len));
    }

    @Override
    double scoreAt(int handle) {
        return arena.score(index.addressAt(handle));
    }

    @Override
    void insert(byte[] m, int off, int len, double score, int missToken) {
        int addr = arena.append(score, m, off, len);
        index.insertAt(missToken, addr);
        tree.insert(score, addr);
    }

    @Override
    void updateAt(int handle, double newScore) {
        int addr = index.addressAt(handle);
        tree.updateScore(arena.score(addr), addr, newScore);
        arena.setScore(addr, newScore);
    }

    @Override
    void deleteAt(int handle) {
        int addr = index.addressAt(handle);
        tree.remove(arena.score(addr), addr);
        index.removeAt(handle);
        arena.free(addr);
        compactPending();
    }

    @Override
    int rankAt(int handle) {
        int addr = index.addressAt(handle);
        return tree.rank(arena.score(addr), addr);
    }

    @Override
    int countBelow(RankTree.Bound bound) {
        return bound.countIn(tree);
    }

    @Override
    void visit(int from, int to, boolean reverse, EntryVisitor visitor) {
        if (from >= to) {
            return;
        }
        RankTree.Cursor c = new RankTree.Cursor();
        tree.seek(reverse ? to - 1 : from, c);
        RankTree.Cursor ahead = c.copy();
        int n = to - from;
        int sum = 0;
        for (int k = 0; k < n; k += LOOKAHEAD) {
            int batch = Math.min(LOOKAHEAD, n - k);
            for (int j = 0; j < batch; j++) {
                sum += touch(ahead.address());
                ahead.step(reverse);
            }
            for (int j = 0; j < batch; j++) {
                emit(c.address(), c.score(), visitor);
                c.step(reverse);
            }
        }
        touched = sum;
    }

    /**
     * Loads the first byte of the entry at {@code addr}. The arena holds entries in insertion order,
     * not key order, so each entry of a range is a cache miss of its own; loaded a few entries
     * ahead of the one being visited, they overlap instead of following one another.
     */
    private int touch(int addr) {
        byte[] chunk = arena.chunk(addr);
        int at = MemberArena.offset(addr);
        // An entry of a typical member (up to 15 bytes) spans 24 bytes, which may straddle two cache lines.
        return chunk[at] + chunk[Math.min(at + 23, chunk.length - 1)];
    }

    @Override
    void deleteRange(int from, int to) {
        int n = to - from;
        if (n <= 0) {
            return;
        }
        int[] addrs = new int[n];
        double[] scores = new double[n];
        RankTree.Cursor c = new RankTree.Cursor();
        tree.seek(from, c);
        for (int i = 0; i < n; i++, c.next()) {
            addrs[i] = c.address();
            scores[i] = c.score();
        }
        for (int i = 0; i < n; i++) {
            tree.remove(scores[i], addrs[i]);
            index.removeAt(index.slotOfAddress(addrs[i]));
            arena.free(addrs[i]);
        }
        compactPending();
    }

    @Override
    long scan(long cursor, int count, EntryVisitor visitor) {
        int buckets = index.buckets();
        long mask = buckets - 1L;
        long v = cursor;
        int[] emitted = {0};
        int budget = Math.max(count, 1) * 10;
        do {
            index.scanBucket((int) (v & mask), addr -> {
                emit(addr, arena.score(addr), visitor);
                emitted[0]++;
            });
            v |= ~mask;
            v = Long.reverse(Long.reverse(v) + 1);
        } while (v != 0 && emitted[0] < count && --budget > 0);
        return v;
    }

    @Override
    long allocatedBytes() {
        return Footprint.object(3, 4) + arena.allocatedBytes() + index.allocatedBytes() + tree.allocatedBytes();
    }

    @Override
    void checkInvariants() {
        tree.checkInvariants();
        arena.checkAccounting();
        if (index.size() != tree.size()) {
            throw new AssertionError("index holds " + index.size() + " members, tree " + tree.size());
        }
        RankTree.Cursor c = new RankTree.Cursor();
        if (tree.size() > 0) {
            tree.seek(0, c);
        }
        for (int i = 0; i < tree.size(); i++, c.next()) {
            int addr = c.address();
            byte[] m = arena.copyMember(addr);
            int slot = find(m, 0, m.length);
            if (slot < 0 || index.addressAt(slot) != addr) {
                throw new AssertionError("tree entry " + i + " is not the index's entry for its member");
            }
        }
        long live = arena.liveBytes();
        long expected = 0;
        for (int i = 0; i < tree.size(); i++) {
            tree.seek(i, c);
            expected += MemberArena.aligned(EntryLayout.entrySize(arena.memberLength(c.address())));
        }
        if (live != expected) {
            throw new AssertionError("arena counts " + live + " live bytes, entries hold " + expected);
        }
    }

    private void emit(int addr, double score, EntryVisitor visitor) {
        byte[] chunk = arena.chunk(addr);
        int at = MemberArena.offset(addr);
        visitor.visit(chunk, EntryLayout.memberOffset(chunk, at), EntryLayout.memberLength(chunk, at), score);
    }

    private void compactPending() {
        int c;
        while ((c = arena.takePendingCompaction()) >= 0) {
            arena.compact(c, this::relocateIfLive);
        }
    }

    private void relocateIfLive(int addr) {
        int slot = index.slotOfAddress(addr);
        if (slot < 0) {
            return;
        }
        int copy = arena.copy(addr);
        tree.relocate(arena.score(addr), addr, copy);
        index.setAddressAt(slot, copy);
        arena.free(addr);
    }
}
