package dev.ordo.engine.zset;

import dev.ordo.engine.internal.Hashing;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.memory.Footprint;

import java.util.Arrays;

/**
 * Packed storage for the entries ({@link EntryLayout}: score, length, member) of one skiplist-encoded
 * sorted set, so that a member costs its bytes plus nine, not a Java object per member.
 *
 * <p>Entries are appended to byte-array chunks and named by a 32-bit address: the chunk index in
 * the high 16 bits, the offset in the low 16. Invariants:
 * <ul>
 *   <li>An address stays valid until its entry is freed or moved by {@link #compact}; the owner
 *       must then update every reference to it (hash index slot, tree leaf).</li>
 *   <li>Only the active chunk is appended to. It starts small and doubles in place up to the
 *       chunk size (64 KiB); addresses survive the copy because they hold (chunk, offset).</li>
 *   <li>An entry larger than an eighth of the chunk size gets a chunk of its own, sized exactly,
 *       and that chunk is released when the entry is freed.</li>
 *   <li>{@code live[c]} counts the bytes of entries not yet freed in chunk {@code c}. A sealed chunk
 *       whose live bytes fall under half of what it holds is queued for compaction: its live
 *       entries are copied to the active chunk and the chunk is released, so at most half of the
 *       sealed bytes are garbage and each compaction moves no more than the garbage it reclaims.</li>
 *   <li>Entries start at multiples of {@link #ALIGNMENT}, so an address's low 3 bits are zero
 *       (the index keeps tags there). No entry starts at offset 0xFFF8 of chunk 0xFFFF, so the
 *       index's markers -1 and -2 are never addresses.</li>
 * </ul>
 * Not thread-safe: only the thread that owns the sorted set may call it.
 */
final class MemberArena {
    static final int OFFSET_BITS = 16;
    static final int MAX_CHUNK_SIZE = 1 << OFFSET_BITS;
    static final int MAX_CHUNKS = 1 << 16;
    /** Entries start at multiples of 8, which leaves the low 3 address bits free for the index's tags. */
    static final int ALIGNMENT = 8;
    private static final int FIRST_CAPACITY = 256;

    /** Bytes per sealed chunk; entries larger than an eighth of it get a dedicated chunk. */
    private final int chunkSize;
    private final int dedicatedThreshold;

    private byte[][] chunks = new byte[4][];
    private int[] used = new int[4];
    private int[] live = new int[4];
    private boolean[] queued = new boolean[4];
    private int chunkSlots;
    private int[] freeSlots = new int[4];
    private int freeCount;
    private int active = -1;
    private int[] pending = new int[4];
    private int pendingCount;
    /** The bytes of the chunk arrays, kept as they are allocated, grown and released. */
    private long chunkBytes;

    MemberArena(int chunkSize) {
        this.chunkSize = chunkSize;
        this.dedicatedThreshold = chunkSize / 8;
    }

    /** Appends an entry and returns its address. */
    int append(double score, byte[] m, int off, int len) {
        int size = aligned(EntryLayout.entrySize(len));
        int c;
        if (size > dedicatedThreshold) {
            c = openChunk(size);
        } else {
            c = activeChunkWithRoom(size);
        }
        int at = used[c];
        EntryLayout.write(chunks[c], at, score, m, off, len);
        used[c] = at + size;
        live[c] += size;
        return (c << OFFSET_BITS) | at;
    }

    /**
     * Copies the entry at {@code addr} to the active chunk and returns the copy's address. The
     * original stays readable until the caller, having switched its references, frees it.
     */
    int copy(int addr) {
        byte[] src = chunk(addr);
        int at = offset(addr);
        int mo = EntryLayout.memberOffset(src, at);
        return append(EntryLayout.score(src, at), src, mo, EntryLayout.memberLength(src, at));
    }

    /** Marks the entry at {@code addr} as no longer referenced. */
    void free(int addr) {
        int c = addr >>> OFFSET_BITS;
        live[c] -= aligned(EntryLayout.sizeAt(chunks[c], offset(addr)));
        if (live[c] == 0 && c != active) {
            release(c);
        } else if (c != active && !queued[c] && live[c] < used[c] / 2) {
            queue(c);
        }
    }

    /** Returns the index of a chunk waiting for {@link #compact}, or -1 when none is. */
    int takePendingCompaction() {
        while (pendingCount > 0) {
            int c = pending[--pendingCount];
            if (queued[c]) {
                queued[c] = false;
                return c;
            }
        }
        return -1;
    }

    /**
     * Walks chunk {@code c} and hands every entry's address to {@code relocate}, which copies the
     * live ones (with {@link #copy}), switches its references and frees the originals; then
     * releases the chunk.
     */
    void compact(int c, AddressRelocator relocate) {
        byte[] chunk = chunks[c];
        int end = used[c];
        for (int at = 0; at < end && live[c] > 0; at += aligned(EntryLayout.sizeAt(chunk, at))) {
            relocate.relocateIfLive((c << OFFSET_BITS) | at);
        }
        if (chunks[c] != null) {
            release(c);
        }
    }

    /** Receives each entry address of a chunk being compacted. */
    interface AddressRelocator {
        /** Moves the entry at {@code addr} if it is still referenced; otherwise does nothing. */
        void relocateIfLive(int addr);
    }

    byte[] chunk(int addr) {
        return chunks[addr >>> OFFSET_BITS];
    }

    static int offset(int addr) {
        return addr & (MAX_CHUNK_SIZE - 1);
    }

    double score(int addr) {
        return EntryLayout.score(chunk(addr), offset(addr));
    }

    void setScore(int addr, double score) {
        EntryLayout.setScore(chunk(addr), offset(addr), score);
    }

    int memberLength(int addr) {
        return EntryLayout.memberLength(chunk(addr), offset(addr));
    }

    int memberOffset(int addr) {
        return EntryLayout.memberOffset(chunk(addr), offset(addr));
    }

    boolean memberEquals(int addr, byte[] m, int off, int len) {
        return EntryLayout.memberEquals(chunk(addr), offset(addr), m, off, len);
    }

    /** Compares the member at {@code addr} with {@code m[off, off+len)}. */
    int compareMember(int addr, byte[] m, int off, int len) {
        return EntryLayout.compareMember(chunk(addr), offset(addr), m, off, len);
    }

    /** Compares the members at two addresses, bytes unsigned. */
    int compareMembers(int a, int b) {
        byte[] cb = chunk(b);
        int ob = offset(b);
        return EntryLayout.compareMember(chunk(a), offset(a), cb, EntryLayout.memberOffset(cb, ob), EntryLayout.memberLength(cb, ob));
    }

    /** Returns a copy of the member at {@code addr}. */
    byte[] copyMember(int addr) {
        byte[] c = chunk(addr);
        int mo = EntryLayout.memberOffset(c, offset(addr));
        return Arrays.copyOfRange(c, mo, mo + EntryLayout.memberLength(c, offset(addr)));
    }

    long hash(int addr, long seed) {
        byte[] c = chunk(addr);
        int at = offset(addr);
        return Hashing.hash(c, EntryLayout.memberOffset(c, at), EntryLayout.memberLength(c, at), seed);
    }

    /** Returns the bytes of this arena's arrays (chunks, live or not, and bookkeeping), in O(1). */
    long allocatedBytes() {
        return Footprint.object(6, 32) + chunkBytes + Footprint.referenceArray(chunks.length) + 2 * Footprint.array(4L * used.length)
                + Footprint.array(queued.length) + Footprint.array(4L * freeSlots.length) + Footprint.array(4L * pending.length);
    }

    /** Throws {@link AssertionError} when the kept chunk figure differs from the chunks held. */
    void checkAccounting() {
        long bytes = 0;
        for (int c = 0; c < chunkSlots; c++) {
            if (chunks[c] != null) {
                bytes += Footprint.array(chunks[c].length);
            }
        }
        if (bytes != chunkBytes) {
            throw new AssertionError("chunks hold " + bytes + " bytes, counted " + chunkBytes);
        }
    }

    /** Returns the room an entry of {@code size} bytes takes: rounded up to {@link #ALIGNMENT}. */
    static int aligned(int size) {
        return (size + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /** Returns the bytes of entries not yet freed. */
    long liveBytes() {
        long total = 0;
        for (int c = 0; c < chunkSlots; c++) {
            total += live[c];
        }
        return total;
    }

    private int activeChunkWithRoom(int size) {
        if (active >= 0) {
            int need = used[active] + size;
            if (need <= chunks[active].length) {
                return active;
            }
            if (need <= chunkSize) {
                byte[] grown = Arrays.copyOf(chunks[active], Math.min(chunkSize, Math.max(need, 2 * chunks[active].length)));
                chunkBytes += Footprint.array(grown.length) - Footprint.array(chunks[active].length);
                chunks[active] = grown;
                return active;
            }
            seal(active);
        }
        active = openChunk(Math.min(chunkSize, Math.max(size, FIRST_CAPACITY)));
        return active;
    }

    private void seal(int c) {
        active = -1;
        if (live[c] == 0) {
            release(c);
        } else if (live[c] < used[c] / 2) {
            queue(c);
        }
    }

    private int openChunk(int capacity) {
        int c;
        if (freeCount > 0) {
            c = freeSlots[--freeCount];
        } else {
            if (chunkSlots == MAX_CHUNKS) {
                throw new ErrorReply(Errors.ZSET_TOO_LARGE);
            }
            c = chunkSlots++;
            if (c == chunks.length) {
                int n = Math.min(MAX_CHUNKS, c * 2);
                chunks = Arrays.copyOf(chunks, n);
                used = Arrays.copyOf(used, n);
                live = Arrays.copyOf(live, n);
                queued = Arrays.copyOf(queued, n);
            }
        }
        chunks[c] = new byte[capacity];
        chunkBytes += Footprint.array(capacity);
        used[c] = 0;
        live[c] = 0;
        return c;
    }

    private void release(int c) {
        chunkBytes -= Footprint.array(chunks[c].length);
        chunks[c] = null;
        used[c] = 0;
        live[c] = 0;
        queued[c] = false;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = c;
    }

    private void queue(int c) {
        queued[c] = true;
        if (pendingCount == pending.length) {
            pending = Arrays.copyOf(pending, pendingCount * 2);
        }
        pending[pendingCount++] = c;
    }
}
