package dev.ordo.engine.list;

import dev.ordo.engine.encoding.Listpack;
import dev.ordo.engine.encoding.Lzf;
import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.number.Decimal;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;

import java.util.Arrays;

/**
 * A list value with Redis 7.2's two encodings: {@code listpack} (one listpack) and
 * {@code quicklist} (a sequence of nodes, each a listpack or, for an element too large for a
 * node, a plain node holding just that element). Node bytes are Redis's own listpack layout
 * ({@link Listpack}), so memory is close to Redis's and an RDB quicklist is a copy of them.
 *
 * <p>Representation: {@code nodes[0, nodeCount)} in list order, with {@code info[i]} holding node
 * i's entry count and two flags, {@code PLAIN} and {@code COMPRESSED}. A packed node's array may
 * have capacity beyond its listpack's total size (room to grow); a plain node's array is exactly
 * the element; a compressed node's array is a u32 LE raw length followed by the LZF bytes of the
 * raw form (listpack or element), exactly sized.
 *
 * <p>Head pushes are staged. LPUSH would otherwise shift node 0's whole listpack (up to 8 KB by
 * default) for every element, as Redis's memmove does. Instead an element pushed at the head that
 * node 0 accepts (by Redis's own rule, counting what is staged) is encoded into node 0's spare
 * capacity, from the array's end backwards: {@code nodes[0][length - headStagedBytes, length)}
 * holds {@code headStaged} entries in list order, the most recent first. They count in node 0's
 * count and in {@code size}, and {@link #flushHead} moves them in front of node 0's entries with
 * one shift. Every public method flushes first, except {@link #prepareForAdds}, the plain getters,
 * and a push or pop at the tail when node 0 is not the tail node, so everything else sees plain
 * listpacks; the node layout is exactly that of pushing one element at a time (a property test
 * compares the two byte for byte). LPUSH then shifts node 0 once per growth of its array.
 *
 * <p>Invariants, checked by {@link #checkInvariants}:
 * <ul>
 *   <li>{@code size} is the sum of the node counts; no node is empty; a packed node's header and
 *       walk agree with its count.</li>
 *   <li>A listpack-encoded list has at most one node, packed and uncompressed.</li>
 *   <li>Only quicklist nodes at least {@code compressDepth} nodes from both ends are compressed
 *       (a node stays raw when LZF does not save 8 bytes, or it is under 48 bytes, as in Redis).</li>
 *   <li>Only the first and last node keep spare capacity.</li>
 *   <li>Staged head entries lie beyond node 0's listpack, walk to {@code headStaged} entries of
 *       {@code headStagedBytes} bytes, and are none unless node 0 is packed.</li>
 *   <li>{@code memory} equals the footprint recomputed from the arrays.</li>
 * </ul>
 *
 * <p>Encoding changes follow Redis 7.2: adds go from listpack to quicklist when the listpack's
 * bytes plus the added elements' lengths, or its count plus theirs, would pass the
 * {@code list-max-listpack-size} limit ({@link #prepareForAdds}); after removals a quicklist of a
 * single packed node goes back to listpack when it is within half the limit
 * ({@link #compactEncoding}). A quicklist keeps the limits it was created with.
 *
 * <p>Costs: push and pop at either end O(node bytes); index, set, insert O(nodes + node bytes),
 * walking node counts from the nearer end; range iteration decompresses each node once. Elements
 * are byte arrays copied in; arrays handed out are fresh. Not thread-safe.
 */
public final class ListValue implements Value {
    /** Redis's size limits for negative {@code list-max-listpack-size}: -1 is 4 KB ... -5 is 64 KB. */
    private static final int[] SIZE_LIMITS = {4096, 8192, 16384, 32768, 65536};
    /** A node's bytes never pass this when the limit is an entry count. */
    private static final int SIZE_SAFETY_LIMIT = 8192;
    /** What Redis adds to an element's length when estimating its entry size. */
    private static final int SIZE_ESTIMATE_OVERHEAD = 8;
    private static final int MIN_COMPRESS_BYTES = 48;
    private static final int MIN_COMPRESS_IMPROVE = 8;
    private static final int PLAIN = 1 << 29;
    private static final int COMPRESSED = 1 << 30;
    private static final int COUNT = PLAIN - 1;
    private static final long BASE = Footprint.object(2, 8 + 8 + 8 + 4 + 4 + 4 + 1);
    private static final ThreadLocal<Lzf> LZF = ThreadLocal.withInitial(Lzf::new);

    /** The encodings, named as OBJECT ENCODING reports them. */
    public enum Encoding {
        LISTPACK("listpack"), QUICKLIST("quicklist");

        private final String redisName;

        Encoding(String redisName) {
            this.redisName = redisName;
        }

        /** The name OBJECT ENCODING replies with. */
        public String redisName() {
            return redisName;
        }
    }

    /**
     * Redis's {@code list-max-listpack-size} (negative: -1..-5 a node size of 4..64 KB; positive:
     * entries per node) and {@code list-compress-depth} (raw nodes kept at each end; 0 = none
     * compressed), clamped as Redis clamps them.
     */
    public record Limits(int fill, int compressDepth, long packedThreshold) {
        /** Redis's packed_threshold by default (1 GB): then the node size decides which elements are plain. */
        public static final long DEFAULT_PACKED_THRESHOLD = 1L << 30;
        /** Redis's defaults. */
        public static final Limits DEFAULT = new Limits(-2, 0);

        public Limits {
            fill = Math.max(-5, Math.min(fill, 1 << 15));
            compressDepth = Math.max(0, Math.min(compressDepth, 0xFFFF));
        }

        /** The limits with the default packed threshold. */
        public Limits(int fill, int compressDepth) {
            this(fill, compressDepth, DEFAULT_PACKED_THRESHOLD);
        }

        /** The most bytes a node may take, or -1 when the limit is a count. */
        long sizeLimit() {
            return fill < 0 ? SIZE_LIMITS[-fill - 1] : -1;
        }

        /** The most entries a node may take when the limit is a count. */
        long countLimit() {
            return fill == 0 ? 1 : fill;
        }

        /** Whether a node of {@code bytes} bytes and {@code count} entries passes the limit. */
        boolean exceeded(long bytes, long count) {
            return ListValue.exceeded(fill, bytes, count);
        }
    }

    /** Whether a node of {@code bytes} bytes and {@code count} entries passes the limit {@code fill}. */
    private static boolean exceeded(int fill, long bytes, long count) {
        if (fill < 0) {
            return bytes > SIZE_LIMITS[-fill - 1];
        }
        return bytes > SIZE_SAFETY_LIMIT || count > (fill == 0 ? 1 : fill);
    }

    /** Receives elements without copying them: {@code b[off, off+len)} is valid during the call only. */
    @FunctionalInterface
    public interface ElementSink {
        void element(byte[] b, int off, int len);
    }

    private byte[][] nodes;
    private int[] info;
    private int nodeCount;
    private long size;
    private boolean quick;
    private int fill;
    private int depth;
    /** The packed threshold in force at the last add (Redis's is global and read at each add). */
    private long packedThreshold = Limits.DEFAULT_PACKED_THRESHOLD;
    private long memory;
    /** Entries pushed at the head that wait at the end of node 0's array (see the class comment). */
    private int headStaged;
    private int headStagedBytes;

    /** An empty list in the listpack encoding. */
    public ListValue() {
        nodes = new byte[1][];
        info = new int[1];
        memory = BASE + Footprint.referenceArray(1) + Footprint.array(4);
        Limits d = Limits.DEFAULT;
        fill = d.fill();
        depth = d.compressDepth();
    }

    /** The number of elements. */
    public long size() {
        return size;
    }

    public Encoding encoding() {
        return quick ? Encoding.QUICKLIST : Encoding.LISTPACK;
    }

    @Override
    public long memoryUsage() {
        return memory;
    }

    // ------------------------------------------------------------------ encoding changes

    /**
     * Converts a listpack to a quicklist with {@code limits} when adding {@code count} elements of
     * {@code bytes} total length could pass the limit (Redis checks before LPUSH/RPUSH, LINSERT,
     * LSET and a move's push, whether or not the add then happens).
     */
    public void prepareForAdds(long bytes, long count, Limits limits) {
        packedThreshold = limits.packedThreshold();
        if (quick) {
            return;
        }
        long lpBytes = nodeCount == 0 ? Listpack.EMPTY : Listpack.total(nodes[0]) + headStagedBytes;
        if (limits.exceeded(lpBytes + bytes, size + count)) {
            quick = true;
            fill = limits.fill();
            depth = limits.compressDepth();
        }
    }

    /** {@link #prepareForAdds} for one element. */
    public void prepareForAdd(byte[] element, Limits limits) {
        prepareForAdds(element.length, 1, limits);
    }

    /**
     * Converts a quicklist that is down to one packed node within half of {@code limits} back to
     * a listpack (Redis does this after every removal).
     */
    public void compactEncoding(Limits limits) {
        flushHead();
        if (!quick || nodeCount != 1 || (info[0] & PLAIN) != 0) {
            return;
        }
        long bytes = bytesOf(0);
        if (limits.fill() < 0 ? bytes > limits.sizeLimit() / 2 : size > limits.countLimit() / 2) {
            return;
        }
        open(0);
        quick = false;
    }

    // ------------------------------------------------------------------ reads

    /** The element at {@code index} (0-based, negative from the end), or null when out of range. */
    public byte[] get(long index) {
        flushHead();
        long i = index < 0 ? size + index : index;
        if (i < 0 || i >= size) {
            return null;
        }
        Cursor c = cursorAt(i);
        return c.value();
    }

    /**
     * Sends the elements {@code [start, start+count)} (0-based, within the list) to {@code sink},
     * head to tail, decompressing each node once.
     */
    public void forEach(long start, long count, ElementSink sink) {
        flushHead();
        if (count <= 0) {
            return;
        }
        Cursor c = cursorAt(start);
        for (long n = 0; n < count; n++) {
            c.emit(sink);
            if (n + 1 < count) {
                c.forward();
            }
        }
    }

    /** Sends every element, head to tail. */
    public void forEach(ElementSink sink) {
        forEach(0, size, sink);
    }

    /**
     * Indexes of elements equal to {@code element} (LPOS): skips the first |rank| - 1 matches,
     * searching from the head when rank is positive and from the tail when negative; stops after
     * {@code count} matches (0 = no limit) or after comparing {@code maxlen} elements (0 = no
     * limit). Positions go to {@code out} in the order found.
     */
    public void positions(byte[] element, long rank, long count, long maxlen, java.util.function.LongConsumer out) {
        flushHead();
        if (size == 0) {
            return;
        }
        Listpack.Probe probe = new Listpack.Probe(element);
        boolean fromHead = rank > 0;
        long skip = Math.abs(rank) - 1;
        long found = 0;
        long limit = maxlen == 0 ? size : Math.min(maxlen, size);
        Cursor c = cursorAt(fromHead ? 0 : size - 1);
        for (long n = 0; n < limit; n++) {
            if (c.matches(probe)) {
                if (skip > 0) {
                    skip--;
                } else {
                    out.accept(fromHead ? n : size - 1 - n);
                    if (++found == count) {
                        return;
                    }
                }
            }
            if (n + 1 < limit) {
                if (fromHead) {
                    c.forward();
                } else {
                    c.backward();
                }
            }
        }
    }

    // ------------------------------------------------------------------ writes

    /** Adds {@code element} at the head or the tail (after {@link #prepareForAdds}). */
    public void push(byte[] element, boolean head) {
        if (nodeCount == 0) {
            insertNode(0, element);
        } else if (head) {
            pushHead(element);
        } else {
            if (nodeCount == 1) {
                flushHead();
            }
            insertInto(nodeCount - 1, info[nodeCount - 1] & COUNT, element);
        }
        size++;
    }

    /** Removes and returns the head or tail element, or null when empty. */
    public byte[] pop(boolean head) {
        if (head || nodeCount == 1) {
            flushHead();
        }
        if (size == 0) {
            return null;
        }
        int i = head ? 0 : nodeCount - 1;
        int n = info[i] & COUNT;
        if ((info[i] & (PLAIN | COMPRESSED)) == 0 && n > 1) {
            // The common case, straight from the end node's bytes: an end node is never
            // compressed, never trimmed, and keeps its place, so nothing around it needs settling.
            byte[] b = nodes[i];
            int p = head ? Listpack.HEADER : Listpack.prev(b, Listpack.end(b));
            byte[] v = Listpack.get(b, p);
            Listpack.cut(b, p, Listpack.next(b, p), n - 1);
            info[i]--;
            size--;
            return v;
        }
        long index = head ? 0 : size - 1;
        byte[] v = get(index);
        removeRange(index, 1);
        return v;
    }

    /** Replaces the element at {@code index} (within the list; after {@link #prepareForAdd}). */
    public void set(long index, byte[] element) {
        flushHead();
        Cursor c = cursorAt(index);
        int i = c.node;
        if (!c.plain && (!quick || (!large(element.length)
                && !exceeded(bytesOf(i) + element.length + SIZE_ESTIMATE_OVERHEAD, info[i] & COUNT)))) {
            int off = c.offset;
            byte[] b = open(i);
            int old = Listpack.entrySize(b, off);
            int now = Listpack.encodedSize(element);
            int count = info[i] & COUNT;
            b = room(i, now - old);
            Listpack.cut(b, off, off + old, count - 1);
            Listpack.open(b, off, now, count);
            Listpack.encode(element, b, off);
            settleAround(i);
            return;
        }
        removeRange(index, 1);
        insert(index, element);
    }

    /**
     * Inserts {@code element} before or after the first element equal to {@code pivot}; returns
     * false when there is none (after {@link #prepareForAdd}).
     */
    public boolean insert(byte[] pivot, byte[] element, boolean after) {
        long[] at = {-1};
        positions(pivot, 1, 1, 0, p -> at[0] = p);
        if (at[0] < 0) {
            return false;
        }
        insert(after ? at[0] + 1 : at[0], element);
        return true;
    }

    /** Inserts {@code element} so that it gets {@code index} (0..size). */
    void insert(long index, byte[] element) {
        flushHead();
        if (nodeCount == 0) {
            insertNode(0, element);
        } else if (index == size) {
            insertInto(nodeCount - 1, info[nodeCount - 1] & COUNT, element);
        } else {
            Cursor c = cursorAt(index);
            insertInto(c.node, c.ordinal, element);
        }
        size++;
    }

    /**
     * Removes elements equal to {@code element} (LREM): the first {@code count} from the head when
     * positive, from the tail when negative, all when 0; returns how many.
     */
    public long remove(byte[] element, long count) {
        flushHead();
        Listpack.Probe probe = new Listpack.Probe(element);
        long wanted = count == 0 ? Long.MAX_VALUE : Math.abs(count);
        boolean fromHead = count >= 0;
        long removed = 0;
        for (int k = 0; k < nodeCount && removed < wanted; ) {
            int nodesBefore = nodeCount;
            removed += removeMatches(fromHead ? k : nodeCount - 1 - k, probe, wanted - removed, fromHead);
            if (nodeCount == nodesBefore) {
                k++;
            }
        }
        size -= removed;
        settleBoundaries();
        return removed;
    }

    /** Keeps only {@code [start, start+count)} (LTRIM with a resolved range). */
    public void retain(long start, long count) {
        long tail = size - start - count;
        if (tail > 0) {
            removeRange(start + count, tail);
        }
        if (start > 0) {
            removeRange(0, start);
        }
    }

    /** Removes {@code count} elements from {@code start} (both within the list). */
    public void removeRange(long start, long count) {
        flushHead();
        if (count <= 0) {
            return;
        }
        NodeAt at = nodeAt(start);
        int i = at.node();
        int from = (int) (start - at.before());
        long left = count;
        while (left > 0) {
            int n = info[i] & COUNT;
            int take = (int) Math.min(left, n - from);
            if (take == n) {
                deleteNode(i);
            } else {
                byte[] b = open(i);
                int p = offsetOf(b, from, n);
                int q = p;
                for (int k = 0; k < take; k++) {
                    q = Listpack.next(b, q);
                }
                Listpack.cut(b, p, q, n - take);
                info[i] -= take;
                settleAround(i);
                i++;
            }
            left -= take;
            from = 0;
        }
        size -= count;
        settleBoundaries();
    }

    @Override
    public KeyType type() {
        return KeyType.LIST;
    }

    @Override
    public String encodingName() {
        return encoding().redisName();
    }

    @Override
    public long weight() {
        return size + 1;
    }

    @Override
    public void digest(ValueDigest digest) {
        forEach(digest::mix);
    }

    /** A deep copy (COPY), in the same encoding and with the same limits. */
    @Override
    public ListValue copy() {
        flushHead();
        ListValue c = new ListValue();
        c.nodes = new byte[nodes.length][];
        for (int i = 0; i < nodeCount; i++) {
            c.nodes[i] = nodes[i].clone();
        }
        c.info = info.clone();
        c.nodeCount = nodeCount;
        c.size = size;
        c.quick = quick;
        c.fill = fill;
        c.depth = depth;
        c.packedThreshold = packedThreshold;
        c.memory = memory;
        return c;
    }

    // ------------------------------------------------------------------ node access for persistence and DEBUG

    /** The number of nodes (1 for a non-empty listpack). */
    public int nodeCount() {
        flushHead();
        return nodeCount;
    }

    /** The limits this quicklist was created with (those of the defaults while it is a listpack). */
    public Limits nodeLimits() {
        return new Limits(fill, depth);
    }

    /** The sum of the nodes' uncompressed sizes (DEBUG OBJECT's ql_uncompressed_size). */
    public long uncompressedBytes() {
        flushHead();
        long total = 0;
        for (int i = 0; i < nodeCount; i++) {
            total += bytesOf(i);
        }
        return total;
    }

    /** Whether node {@code i} holds one element as it is, not a listpack. */
    public boolean isPlain(int i) {
        return (info[i] & PLAIN) != 0;
    }

    /** Whether node {@code i} is stored LZF-compressed. */
    public boolean isCompressed(int i) {
        return (info[i] & COMPRESSED) != 0;
    }

    /** The entry count of node {@code i}. */
    public int countOf(int i) {
        flushHead();
        return info[i] & COUNT;
    }

    /** The uncompressed bytes of node {@code i}: the listpack's total size, or the plain element's length. */
    public int rawSize(int i) {
        flushHead();
        return bytesOf(i);
    }

    /** Node i's uncompressed bytes as stored: staged head entries are not counted. */
    private int bytesOf(int i) {
        byte[] b = nodes[i];
        if ((info[i] & COMPRESSED) != 0) {
            return Listpack.total(b);
        }
        return (info[i] & PLAIN) != 0 ? b.length : Listpack.total(b);
    }

    /**
     * Node {@code i}'s uncompressed form (a listpack, possibly with spare capacity after its
     * total size, or a plain element); do not change it.
     */
    public byte[] rawNode(int i) {
        flushHead();
        return raw(i);
    }

    /** Node {@code i}'s LZF bytes when it is compressed: {@code [4, length)} of the returned array. */
    public byte[] compressedNode(int i) {
        flushHead();
        return nodes[i];
    }

    /**
     * Appends a node read from a file: a listpack of {@code count} entries (the array is taken
     * over; the caller has validated it) or a plain element. The list becomes a quicklist with
     * {@code limits}; {@link #fitEncoding} picks the final encoding once every node is in.
     */
    public void appendNode(byte[] bytes, int count, boolean plain, Limits limits) {
        flushHead();
        if (!quick) {
            quick = true;
            fill = limits.fill();
            depth = limits.compressDepth();
        }
        makeNodeSlot(nodeCount);
        setNode(nodeCount - 1, bytes, plain ? PLAIN | 1 : count);
        size += count;
        settleAround(nodeCount - 2);
        settleAround(nodeCount - 1);
        settleBoundaries();
    }

    /**
     * After loading: a quicklist of one packed node within {@code limits} becomes a listpack, as
     * Redis's loader converts it.
     */
    public void fitEncoding(Limits limits) {
        flushHead();
        if (quick && nodeCount == 1 && (info[0] & PLAIN) == 0 && !limits.exceeded(bytesOf(0), size)) {
            open(0);
            quick = false;
        }
    }

    // ------------------------------------------------------------------ internals

    /** Whether a node of {@code bytes} bytes and {@code count} entries passes this quicklist's limit. */
    private boolean exceeded(long bytes, long count) {
        return exceeded(fill, bytes, count);
    }

    /**
     * Whether an element of {@code length} bytes gets a plain node of its own: from a threshold
     * DEBUG QUICKLIST-PACKED-THRESHOLD set, else beyond what a node may hold. (Read on every
     * push, so from the fields rather than a {@link Limits}.)
     */
    private boolean large(long length) {
        if (packedThreshold != Limits.DEFAULT_PACKED_THRESHOLD) {
            return length >= packedThreshold;
        }
        return length > (fill < 0 ? SIZE_LIMITS[-fill - 1] : SIZE_SAFETY_LIMIT);
    }

    /** Node i's uncompressed bytes, decompressing into a new array when needed (the node stays as it is). */
    private byte[] raw(int i) {
        byte[] b = nodes[i];
        if ((info[i] & COMPRESSED) == 0) {
            return b;
        }
        byte[] out = Lzf.decompress(b, 4, b.length - 4, Listpack.total(b));
        if (out == null) {
            throw new IllegalStateException("corrupt compressed list node");
        }
        return out;
    }

    /** Node i, decompressed in place, ready to change. */
    private byte[] open(int i) {
        if ((info[i] & COMPRESSED) != 0) {
            setNode(i, raw(i), info[i] & ~COMPRESSED);
        }
        return nodes[i];
    }

    /** Node i's packed bytes with room for {@code extra} more bytes (i must be open). */
    private byte[] room(int i, int extra) {
        byte[] b = nodes[i];
        int need = Listpack.total(b) + Math.max(0, extra);
        if (need <= b.length) {
            return b;
        }
        int cap = need;
        if (i == 0 || i == nodeCount - 1) {
            long limit = quick ? (fill < 0 ? SIZE_LIMITS[-fill - 1] : SIZE_SAFETY_LIMIT) + 64 : Integer.MAX_VALUE - 64;
            cap = (int) Math.max(need, Math.min((long) b.length * 2, limit));
        }
        byte[] grown = Arrays.copyOf(b, cap);
        setNode(i, grown, info[i]);
        return grown;
    }

    private void setNode(int i, byte[] bytes, int newInfo) {
        byte[] old = nodes[i];
        if (old != null) {
            memory -= Footprint.array(old.length);
        }
        memory += Footprint.array(bytes.length);
        nodes[i] = bytes;
        info[i] = newInfo;
    }

    /** Opens a slot at {@code i} (null node). */
    private void makeNodeSlot(int i) {
        if (nodeCount == nodes.length) {
            int cap = Math.max(4, nodes.length + (nodes.length >> 1));
            memory += Footprint.referenceArray(cap) - Footprint.referenceArray(nodes.length)
                    + Footprint.array(4L * cap) - Footprint.array(4L * info.length);
            nodes = Arrays.copyOf(nodes, cap);
            info = Arrays.copyOf(info, cap);
        }
        System.arraycopy(nodes, i, nodes, i + 1, nodeCount - i);
        System.arraycopy(info, i, info, i + 1, nodeCount - i);
        nodes[i] = null;
        info[i] = 0;
        nodeCount++;
    }

    private void deleteNode(int i) {
        memory -= Footprint.array(nodes[i].length);
        System.arraycopy(nodes, i + 1, nodes, i, nodeCount - i - 1);
        System.arraycopy(info, i + 1, info, i, nodeCount - i - 1);
        nodeCount--;
        nodes[nodeCount] = null;
        info[nodeCount] = 0;
        if (nodeCount > 0) {
            settleAround(Math.min(i, nodeCount - 1));
            if (i > 0) {
                settleAround(i - 1);
            }
            settleBoundaries();
        }
    }

    /** Inserts a new node at {@code i} holding only {@code element}. */
    private void insertNode(int i, byte[] element) {
        makeNodeSlot(i);
        if (quick && large(element.length)) {
            setNode(i, element.clone(), PLAIN | 1);
        } else {
            int n = Listpack.encodedSize(element);
            byte[] b = Listpack.empty(Listpack.EMPTY + n);
            Listpack.open(b, Listpack.HEADER, n, 1);
            Listpack.encode(element, b, Listpack.HEADER);
            setNode(i, b, 1);
        }
        settleAround(i - 1);
        settleAround(i);
        settleAround(i + 1);
        settleBoundaries();
    }

    /** Whether {@code element} may go into node i (Redis's rule, with its size estimate). */
    private boolean allowsInsert(int i, byte[] element) {
        if (!quick) {
            return true;
        }
        if ((info[i] & PLAIN) != 0 || large(element.length)) {
            return false;
        }
        long bytes = bytesOf(i) + (i == 0 ? headStagedBytes : 0);
        return !exceeded(bytes + element.length + SIZE_ESTIMATE_OVERHEAD, (info[i] & COUNT) + 1);
    }

    /** Inserts {@code element} before entry {@code k} of node i ({@code k == count} appends). */
    private void insertInto(int i, int k, byte[] element) {
        int n = info[i] & COUNT;
        if (allowsInsert(i, element)) {
            insertEntry(i, k, element);
        } else if (k == 0 && i > 0 && allowsInsert(i - 1, element)) {
            insertEntry(i - 1, info[i - 1] & COUNT, element);
        } else if (k == n && i + 1 < nodeCount && allowsInsert(i + 1, element)) {
            insertEntry(i + 1, 0, element);
        } else if (k == 0) {
            insertNode(i, element);
        } else if (k == n) {
            insertNode(i + 1, element);
        } else {
            split(i, k);
            if (allowsInsert(i, element)) {
                insertEntry(i, k, element);
            } else if (allowsInsert(i + 1, element)) {
                insertEntry(i + 1, 0, element);
            } else {
                insertNode(i + 1, element);
            }
        }
    }

    /**
     * Adds {@code element} at the head: staged in node 0's spare capacity when node 0 takes it
     * and has the room, else flushed and inserted as before (see the class comment).
     */
    private void pushHead(byte[] element) {
        if (allowsInsert(0, element)) {
            byte[] b = nodes[0];
            int n = Listpack.encodedSize(element);
            int at = b.length - headStagedBytes - n;
            if (at >= Listpack.total(b)) {
                Listpack.encode(element, b, at);
                headStagedBytes += n;
                headStaged++;
                info[0]++;
                return;
            }
        }
        flushHead();
        insertInto(0, 0, element);
    }

    /** Moves the staged head entries into node 0's listpack, in front of its entries: one shift. */
    private void flushHead() {
        int s = headStagedBytes;
        if (s == 0) {
            return;
        }
        byte[] b = nodes[0];
        byte[] staged = Arrays.copyOfRange(b, b.length - s, b.length);
        int total = Listpack.total(b);
        System.arraycopy(b, Listpack.HEADER, b, Listpack.HEADER + s, total - Listpack.HEADER);
        System.arraycopy(staged, 0, b, Listpack.HEADER, s);
        Listpack.setTotal(b, total + s);
        Listpack.setCount(b, info[0] & COUNT);
        headStaged = 0;
        headStagedBytes = 0;
    }

    private void insertEntry(int i, int k, byte[] element) {
        byte[] b = open(i);
        int n = info[i] & COUNT;
        int size = Listpack.encodedSize(element);
        b = room(i, size);
        int p = offsetOf(b, k, n);
        Listpack.open(b, p, size, n + 1);
        Listpack.encode(element, b, p);
        info[i]++;
        settleAround(i);
    }

    /** Splits packed node i before entry k (0 < k < count) into two nodes. */
    private void split(int i, int k) {
        byte[] b = open(i);
        int n = info[i] & COUNT;
        int p = offsetOf(b, k, n);
        int end = Listpack.end(b);
        byte[] right = Listpack.empty(Listpack.HEADER + (end - p) + 1);
        Listpack.open(right, Listpack.HEADER, end - p, n - k);
        System.arraycopy(b, p, right, Listpack.HEADER, end - p);
        Listpack.cut(b, p, end, k);
        setNode(i, Arrays.copyOf(b, Listpack.total(b)), k);
        makeNodeSlot(i + 1);
        setNode(i + 1, right, n - k);
        settleAround(i);
        settleAround(i + 1);
        settleBoundaries();
    }

    /** Removes matches of {@code probe} from node i, at most {@code max}, nearest the given end first; returns how many. */
    private int removeMatches(int i, Listpack.Probe probe, long max, boolean fromHead) {
        if ((info[i] & PLAIN) != 0) {
            byte[] v = raw(i);
            if (probe.matches(v)) {
                deleteNode(i);
                return 1;
            }
            return 0;
        }
        byte[] b = raw(i);
        int n = info[i] & COUNT;
        int[] hits = new int[n];
        int h = 0;
        for (int p = Listpack.HEADER, k = 0; k < n; p = Listpack.next(b, p), k++) {
            if (Listpack.matches(b, p, probe)) {
                hits[h++] = k;
            }
        }
        if (h == 0) {
            return 0;
        }
        int take = (int) Math.min(h, max);
        int firstHit = fromHead ? 0 : h - take;
        if (take == n) {
            deleteNode(i);
            return take;
        }
        b = open(i);
        int out = Listpack.HEADER;
        int next = firstHit;
        for (int p = Listpack.HEADER, k = 0; k < n; k++) {
            int q = Listpack.next(b, p);
            if (next < firstHit + take && hits[next] == k) {
                next++;
            } else {
                if (out != p) {
                    System.arraycopy(b, p, b, out, q - p);
                }
                out += q - p;
            }
            p = q;
        }
        b[out] = (byte) 0xFF;
        Listpack.setCount(b, n - take);
        Listpack.setTotal(b, out + 1);
        info[i] -= take;
        settleAround(i);
        return take;
    }

    /** The offset of entry k of a listpack of n entries, walking from the nearer end. */
    private static int offsetOf(byte[] b, int k, int n) {
        if (k <= n / 2) {
            int p = Listpack.HEADER;
            for (int j = 0; j < k; j++) {
                p = Listpack.next(b, p);
            }
            return p;
        }
        int p = Listpack.end(b);
        for (int j = n; j > k; j--) {
            p = Listpack.prev(b, p);
        }
        return p;
    }

    private boolean shouldCompress(int i) {
        return quick && depth > 0 && i >= depth && i < nodeCount - depth;
    }

    /** Brings node i (if it exists) to its required state: compressed or not, and without spare capacity when inner. */
    private void settleAround(int i) {
        if (i < 0 || i >= nodeCount) {
            return;
        }
        boolean compressed = (info[i] & COMPRESSED) != 0;
        if (!shouldCompress(i)) {
            if (compressed) {
                open(i);
            }
            trimIfInner(i);
            return;
        }
        if (compressed) {
            return;
        }
        trimIfInner(i);
        byte[] b = nodes[i];
        int rawLen = (info[i] & PLAIN) != 0 ? b.length : Listpack.total(b);
        if (rawLen < MIN_COMPRESS_BYTES) {
            return;
        }
        byte[] out = new byte[4 + rawLen];
        int n = LZF.get().compress(b, 0, rawLen, out, 4, rawLen - MIN_COMPRESS_IMPROVE - 1);
        if (n == 0 || n + MIN_COMPRESS_IMPROVE >= rawLen) {
            return;
        }
        byte[] blob = Arrays.copyOf(out, 4 + n);
        blob[0] = (byte) rawLen;
        blob[1] = (byte) (rawLen >>> 8);
        blob[2] = (byte) (rawLen >>> 16);
        blob[3] = (byte) (rawLen >>> 24);
        setNode(i, blob, info[i] | COMPRESSED);
    }

    private void trimIfInner(int i) {
        if (i == 0 || i == nodeCount - 1 || (info[i] & (PLAIN | COMPRESSED)) != 0) {
            return;
        }
        byte[] b = nodes[i];
        int total = Listpack.total(b);
        if (b.length > total) {
            setNode(i, Arrays.copyOf(b, total), info[i]);
        }
    }

    /** Settles the nodes whose place relative to the compression depth or the ends may have changed. */
    private void settleBoundaries() {
        settleAround(0);
        settleAround(nodeCount - 1);
        if (quick && depth > 0) {
            settleAround(depth - 1);
            settleAround(depth);
            settleAround(nodeCount - depth - 1);
            settleAround(nodeCount - depth);
        }
    }

    /** A node and the number of elements before it. */
    private record NodeAt(int node, long before) {
    }

    /** The node holding element {@code index} (within the list), walking the counts from the nearer end. */
    private NodeAt nodeAt(long index) {
        int i;
        long before;
        if (index < size / 2) {
            i = 0;
            before = 0;
            while (before + (info[i] & COUNT) <= index) {
                before += info[i] & COUNT;
                i++;
            }
        } else {
            i = nodeCount - 1;
            before = size - (info[i] & COUNT);
            while (before > index) {
                i--;
                before -= info[i] & COUNT;
            }
        }
        return new NodeAt(i, before);
    }

    private Cursor cursorAt(long index) {
        Cursor c = new Cursor();
        NodeAt at = nodeAt(index);
        int i = at.node();
        c.load(i);
        c.ordinal = (int) (index - at.before());
        if (!c.plain) {
            c.offset = offsetOf(c.bytes, c.ordinal, info[i] & COUNT);
        }
        return c;
    }

    /** A read position: a node's raw bytes and an entry in them. */
    private final class Cursor {
        int node;
        byte[] bytes;
        boolean plain;
        int offset;
        int ordinal;
        /** Decimal digits of an integer entry, for {@link ElementSink}s. */
        byte[] digits;

        void load(int i) {
            node = i;
            bytes = raw(i);
            plain = (info[i] & PLAIN) != 0;
        }

        void forward() {
            if (ordinal + 1 < (info[node] & COUNT)) {
                offset = Listpack.next(bytes, offset);
                ordinal++;
            } else {
                load(node + 1);
                offset = Listpack.HEADER;
                ordinal = 0;
            }
        }

        void backward() {
            if (ordinal > 0) {
                offset = Listpack.prev(bytes, offset);
                ordinal--;
            } else {
                load(node - 1);
                ordinal = (info[node] & COUNT) - 1;
                offset = plain ? 0 : Listpack.prev(bytes, Listpack.end(bytes));
            }
        }

        byte[] value() {
            return plain ? bytes.clone() : Listpack.get(bytes, offset);
        }

        boolean matches(Listpack.Probe probe) {
            return plain ? probe.matches(bytes) : Listpack.matches(bytes, offset, probe);
        }

        void emit(ElementSink sink) {
            int shortLength;
            if (plain) {
                sink.element(bytes, 0, bytes.length);
            } else if ((shortLength = Listpack.shortStringLength(bytes, offset)) >= 0) {
                sink.element(bytes, offset + 1, shortLength);
            } else if (Listpack.isInt(bytes, offset)) {
                if (digits == null) {
                    digits = new byte[20];
                }
                sink.element(digits, 0, Decimal.write(Listpack.intValue(bytes, offset), digits, 0));
            } else {
                sink.element(bytes, Listpack.stringOffset(bytes, offset), Listpack.stringLength(bytes, offset));
            }
        }
    }

    // ------------------------------------------------------------------ checks

    /** Checks every invariant in the class comment; throws IllegalStateException on the first broken one. */
    public void checkInvariants() {
        long total = 0;
        long mem = BASE + Footprint.referenceArray(nodes.length) + Footprint.array(4L * info.length);
        if (!quick && nodeCount > 1) {
            fail("listpack with " + nodeCount + " nodes");
        }
        if ((headStaged != 0 || headStagedBytes != 0) && (nodeCount == 0 || (info[0] & (PLAIN | COMPRESSED)) != 0)) {
            fail("staged head entries without a packed node 0");
        }
        for (int i = 0; i < nodeCount; i++) {
            int n = info[i] & COUNT;
            mem += Footprint.array(nodes[i].length);
            if (n == 0) {
                fail("empty node " + i);
            }
            total += n;
            boolean compressed = (info[i] & COMPRESSED) != 0;
            if (compressed && !shouldCompress(i)) {
                fail("node " + i + " compressed within the depth");
            }
            if (!quick && (compressed || (info[i] & PLAIN) != 0)) {
                fail("listpack node is " + ((info[i] & PLAIN) != 0 ? "plain" : "compressed"));
            }
            if ((info[i] & PLAIN) != 0) {
                if (n != 1) {
                    fail("plain node " + i + " counts " + n);
                }
                continue;
            }
            byte[] b = raw(i);
            if (!compressed && i != 0 && i != nodeCount - 1 && b.length != Listpack.total(b)) {
                fail("inner node " + i + " has spare capacity");
            }
            if (i == 0 && headStagedBytes > 0) {
                n -= headStaged;
                int staged = 0;
                int q = b.length - headStagedBytes;
                if (q < Listpack.total(b)) {
                    fail("staged head entries overlap node 0's listpack");
                }
                while (q < b.length) {
                    q = Listpack.next(b, q);
                    staged++;
                }
                if (q != b.length || staged != headStaged) {
                    fail("staged head entries walk " + staged + " to " + q + ", expected " + headStaged + " to " + b.length);
                }
            } else if (i == 0 && headStaged != 0) {
                fail(headStaged + " staged head entries in 0 bytes");
            }
            int walked = 0;
            int p = Listpack.HEADER;
            while ((b[p] & 0xFF) != 0xFF) {
                p = Listpack.next(b, p);
                walked++;
            }
            if (p != Listpack.end(b) || walked != n || Listpack.headerCount(b) != Math.min(n, Listpack.UNKNOWN_COUNT)) {
                fail("node " + i + " counts " + n + ", walks " + walked + ", header " + Listpack.headerCount(b));
            }
        }
        if (total != size) {
            fail("size " + size + ", nodes hold " + total);
        }
        if (mem != memory) {
            fail("memory " + memory + ", recomputed " + mem);
        }
    }

    private static void fail(String what) {
        throw new IllegalStateException(what);
    }
}
