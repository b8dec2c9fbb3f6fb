package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;
import dev.ordo.engine.memory.Footprint;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The member-to-entry hash index of a skiplist-encoded sorted set: an open-addressing table with
 * linear probing whose slots hold {@link MemberArena} addresses, four bytes per slot.
 *
 * <p>A slot is {@link #EMPTY}, {@link #TOMBSTONE} (a deleted entry; probes continue past it), or
 * an arena address with a 3-bit tag taken from the top of the member's hash in its low bits,
 * which the arena's 8-byte alignment leaves zero. A probe compares member bytes (a cache miss
 * into the arena) only when the tag matches, so a mismatching slot costs nothing but its read.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every live entry's address sits in exactly one slot, reachable from its home slot
 *       ({@code hash & mask}) without crossing an empty slot.</li>
 *   <li>The capacity is a power of two; live entries plus tombstones stay at or below
 *       {@link #MAX_LOAD_PERCENT}% of it (a rehash clears tombstones), and the table halves when
 *       under 1/8 full. A tombstone followed by an empty slot becomes empty at once.</li>
 *   <li>Hashes are not stored: they are recomputed from the arena's member bytes on rehash and
 *       scans, never on the lookup, insert or delete paths.</li>
 * </ul>
 * {@link #scanBucket} supports Redis's reverse-binary SCAN cursor: it visits the entries whose home
 * is one bucket, and a bucket of a smaller table is the union of buckets of a larger one, so a scan
 * returns every entry present throughout it at least once across resizes.
 */
final class MemberIndex {
    static final int EMPTY = -1;
    static final int TOMBSTONE = -2;
    static final int MAX_LOAD_PERCENT = 60;
    private static final int TAG_MASK = MemberArena.ALIGNMENT - 1;
    private static final int MIN_CAPACITY = 8;

    private final MemberArena arena;
    private final long seed;
    private int[] slots;
    private int mask;
    private int size;
    private int tombstones;
    private long lastHash;

    MemberIndex(MemberArena arena, long seed, int expectedSize) {
        this.arena = arena;
        this.seed = seed;
        allocate(capacityFor(expectedSize));
    }

    int size() {
        return size;
    }

    long hash(byte[] m, int off, int len) {
        return Hashing.hash(m, off, len, seed);
    }

    /**
     * Returns the slot holding the member, or {@code -(insertion slot) - 1} when it is absent;
     * the insertion slot is the first tombstone on the probe path, else the empty slot ending it.
     */
    int find(byte[] m, int off, int len, long hash) {
        lastHash = hash;
        int tag = tag(hash);
        int[] t = slots;
        int i = (int) hash & mask;
        int free = -1;
        while (true) {
            int v = t[i];
            if (v == EMPTY) {
                return -(free >= 0 ? free : i) - 1;
            }
            if (v == TOMBSTONE) {
                if (free < 0) {
                    free = i;
                }
            } else if ((v & TAG_MASK) == tag && arena.memberEquals(v & ~TAG_MASK, m, off, len)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    int addressAt(int slot) {
        return slots[slot] & ~TAG_MASK;
    }

    void setAddressAt(int slot, int addr) {
        slots[slot] = addr | (slots[slot] & TAG_MASK);
    }

    /** Stores {@code addr} at the insertion slot that the last {@link #find}, for its member, returned. */
    void insertAt(int missResult, int addr) {
        int slot = -missResult - 1;
        if (slots[slot] == TOMBSTONE) {
            tombstones--;
        }
        slots[slot] = addr | tag(lastHash);
        size++;
        if ((size + tombstones) * 100L > (long) slots.length * MAX_LOAD_PERCENT) {
            rehash(capacityFor(size));
        }
    }

    /** Empties {@code slot}, leaving a tombstone unless the probe chain ends right after it. */
    void removeAt(int slot) {
        int[] t = slots;
        size--;
        if (t[(slot + 1) & mask] != EMPTY) {
            t[slot] = TOMBSTONE;
            tombstones++;
        } else {
            t[slot] = EMPTY;
            for (int i = (slot - 1) & mask; t[i] == TOMBSTONE; i = (i - 1) & mask) {
                t[i] = EMPTY;
                tombstones--;
            }
        }
        if (slots.length > MIN_CAPACITY && size < slots.length / 8) {
            rehash(capacityFor(size));
        }
    }

    /** Returns the slot that holds {@code addr}, found through its member's hash, or -1. */
    int slotOfAddress(int addr) {
        int i = (int) arena.hash(addr, seed) & mask;
        for (int v = slots[i]; v != EMPTY; v = slots[i]) {
            if (v != TOMBSTONE && (v & ~TAG_MASK) == addr) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Number of buckets, a power of two: the SCAN cursor's modulus. */
    int buckets() {
        return slots.length;
    }

    /** Hands every address whose home bucket is {@code bucket} to {@code visit}. */
    void scanBucket(int bucket, IntConsumer visit) {
        for (int i = bucket, v = slots[i]; v != EMPTY; i = (i + 1) & mask, v = slots[i]) {
            if (v != TOMBSTONE && ((int) arena.hash(v & ~TAG_MASK, seed) & mask) == bucket) {
                visit.accept(v & ~TAG_MASK);
            }
        }
    }

    /** Returns the bytes of the slot table. */
    long allocatedBytes() {
        return Footprint.object(2, 28) + Footprint.array(4L * slots.length);
    }

    private static int tag(long hash) {
        return (int) (hash >>> 61);
    }

    private static int capacityFor(int entries) {
        long needed = Math.max(MIN_CAPACITY, (entries * 100L + MAX_LOAD_PERCENT - 1) / MAX_LOAD_PERCENT + 1);
        return (int) Math.min(1L << 30, Long.highestOneBit(needed - 1) << 1);
    }

    private void allocate(int capacity) {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        mask = capacity - 1;
        tombstones = 0;
    }

    private void rehash(int capacity) {
        int[] old = slots;
        allocate(capacity);
        for (int v : old) {
            if (v != EMPTY && v != TOMBSTONE) {
                int i = (int) arena.hash(v & ~TAG_MASK, seed) & mask;
                while (slots[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                slots[i] = v;
            }
        }
    }
}
