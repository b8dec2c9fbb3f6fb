package dev.ordo.engine.zset;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The member-to-entry hash index of a skiplist-encoded sorted set: an open-addressing table of
 * {@link MemberArena} addresses with linear probing, so a member costs four bytes per slot here.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Every live entry's address sits in exactly one slot, reachable from its home slot
 *       ({@code hash & mask}) without crossing an empty slot. Deletion shifts later entries back
 *       (no tombstones), which keeps that true.</li>
 *   <li>The capacity is a power of two; the load stays at or below {@link #MAX_LOAD_PERCENT}% and
 *       the table halves when it falls under 1/8 full, so lookups touch about two slots.</li>
 *   <li>Hashes are not stored: they are recomputed from the arena's member bytes on resize,
 *       deletion shifts and scans.</li>
 * </ul>
 * {@link #scanBucket} supports Redis's reverse-binary SCAN cursor: it visits the entries whose home
 * is one bucket, and a bucket of a smaller table is the union of buckets of a larger one, so a scan
 * returns every entry present throughout it at least once across resizes.
 */
final class MemberIndex {
    static final int EMPTY = -1;
    static final int MAX_LOAD_PERCENT = 60;
    private static final int MIN_CAPACITY = 8;

    private final MemberArena arena;
    private final long seed;
    private int[] slots;
    private int mask;
    private int size;

    MemberIndex(MemberArena arena, long seed, int expectedSize) {
        this.arena = arena;
        this.seed = seed;
        allocate(capacityFor(expectedSize));
    }

    int size() {
        return size;
    }

    long hash(byte[] m, int off, int len) {
        return MemberHash.hash(m, off, len, seed);
    }

    /** Returns the slot holding the member, or {@code -(insertion slot) - 1} when it is absent. */
    int find(byte[] m, int off, int len, long hash) {
        int[] t = slots;
        int i = (int) hash & mask;
        while (true) {
            int addr = t[i];
            if (addr == EMPTY) {
                return -i - 1;
            }
            if (arena.memberEquals(addr, m, off, len)) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    int addressAt(int slot) {
        return slots[slot];
    }

    void setAddressAt(int slot, int addr) {
        slots[slot] = addr;
    }

    /** Stores {@code addr} at the insertion slot that {@link #find} returned for its member. */
    void insertAt(int missResult, int addr) {
        slots[-missResult - 1] = addr;
        size++;
        if (size * 100L > (long) slots.length * MAX_LOAD_PERCENT) {
            rehash(slots.length * 2);
        }
    }

    /** Empties {@code slot} and shifts the rest of its probe chain back. */
    void removeAt(int slot) {
        int[] t = slots;
        int hole = slot;
        int i = slot;
        while (true) {
            i = (i + 1) & mask;
            int addr = t[i];
            if (addr == EMPTY) {
                break;
            }
            int home = (int) arena.hash(addr, seed) & mask;
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                t[hole] = addr;
                hole = i;
            }
        }
        t[hole] = EMPTY;
        size--;
        if (slots.length > MIN_CAPACITY && size < slots.length / 8) {
            rehash(capacityFor(size));
        }
    }

    /** Returns the slot that holds {@code addr}, found through its member's hash, or -1. */
    int slotOfAddress(int addr) {
        int i = (int) arena.hash(addr, seed) & mask;
        while (slots[i] != EMPTY) {
            if (slots[i] == addr) {
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
        int i = bucket;
        while (slots[i] != EMPTY) {
            int addr = slots[i];
            if (((int) arena.hash(addr, seed) & mask) == bucket) {
                visit.accept(addr);
            }
            i = (i + 1) & mask;
        }
    }

    /** Writes every stored address into {@code out}, in slot order, and returns how many. */
    int addresses(int[] out) {
        int n = 0;
        for (int addr : slots) {
            if (addr != EMPTY) {
                out[n++] = addr;
            }
        }
        return n;
    }

    /** Returns the bytes of the slot table. */
    long allocatedBytes() {
        return 16L + 4L * slots.length;
    }

    private static int capacityFor(int entries) {
        long needed = Math.max(MIN_CAPACITY, (entries * 100L + MAX_LOAD_PERCENT - 1) / MAX_LOAD_PERCENT + 1);
        return (int) Math.min(1L << 30, Long.highestOneBit(needed - 1) << 1);
    }

    private void allocate(int capacity) {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        mask = capacity - 1;
    }

    private void rehash(int capacity) {
        int[] old = slots;
        allocate(capacity);
        for (int addr : old) {
            if (addr != EMPTY) {
                int i = (int) arena.hash(addr, seed) & mask;
                while (slots[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                slots[i] = addr;
            }
        }
    }
}
