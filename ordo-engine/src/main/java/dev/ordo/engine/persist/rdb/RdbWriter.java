package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Lzf;
import dev.ordo.engine.encoding.Crc64;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.zset.Encoding;
import dev.ordo.engine.zset.EntryVisitor;
import dev.ordo.engine.zset.ZSet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Writes an RDB file of version 10, the format Redis 7.0 writes, which Redis 7.0 and later load
 * (the layout is described in {@link Rdb}). Streams: values go through one 64 KB buffer that is
 * checksummed and handed to the output stream whenever it fills, so memory use does not grow with
 * the data set.
 *
 * <p>Call {@link #header} once, then any sequence of {@link #function}, {@link #selectDb} and
 * {@link #entry}, then {@link #finish} once. Each value is written as Redis 7.0 writes it, in a
 * type that follows its in-memory encoding:
 * <ul>
 *   <li>strings: type 0;</li>
 *   <li>listpack sorted sets: type 17, one string holding a listpack of member, score, member,
 *       score ... in ascending (score, member) order ({@link ListpackEncoder} describes the
 *       entries and how scores are stored);</li>
 *   <li>listpack hashes: type 16, a listpack of field, value, ... in the hash's order;</li>
 *   <li>intset sets: type 11, one string holding the intset: the element width in bytes (uint32
 *       little-endian: 2, 4 or 8, the smallest that holds every member), the element count
 *       (uint32 little-endian), then the values ascending, each little-endian in that width;</li>
 *   <li>the other encodings in the portable types: skiplist sorted sets as type 5 (binary double
 *       scores, ascending), hashtable hashes as type 4, listpack and hashtable sets as type 2
 *       (members in iteration order, so a listpack's order survives; Redis 7.0 has no listpack
 *       sets, and version 10 files no type 20). The reader (Redis's or {@link RdbReader}) picks
 *       each such value's encoding from its size, as Redis does.</li>
 * </ul>
 * A packed value that would pass 1 GB (possible only under raised encoding limits) is written in
 * its portable type instead; readers give it the same encoding. Every string, keys and members
 * included, is written as Redis writes it: as a 1-, 2- or 4-byte integer when it is the canonical
 * spelling of one, else LZF-compressed when compression is on, it is longer than 20 bytes and that
 * saves at least 4 bytes, else as is. A blob (listpack, intset) is never integer-encoded but is
 * compressed by the same rule, as Redis does. Empty collections are skipped (Redis never has
 * them; its loader would report them).
 *
 * <p>Memory: a blob is built in one reusable scratch buffer, then copied into the output buffer;
 * apart from that nothing is copied. Writing a small value allocates nothing once the buffers
 * have grown (a blob or string over 64 KB that is compressed gets a temporary output array).
 *
 * <p>The output stream's {@link IOException}s surface as {@link UncheckedIOException}, the cause
 * being the original. Not thread-safe; does not close the stream.
 */
public final class RdbWriter {
    private static final int BUFFER_SIZE = 1 << 16;
    /** Room for a string's header: a type byte, an LZF marker and two 9-byte lengths. */
    private static final int MAX_HEADER = 20;
    private static final long NOT_AN_INT = Long.MIN_VALUE;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int INTSET_HEADER = 8;

    private final OutputStream out;
    private final boolean compress;
    private final boolean checksum;
    private final boolean packed;
    private final ListpackEncoder listpack;
    private final EntryVisitor plainZSetEntry = this::zsetEntry;
    private final EntryVisitor packedZSetEntry = this::packedZSetEntry;
    private final BiConsumer<Key, byte[]> plainHashEntry = this::hashEntry;
    private final BiConsumer<Key, byte[]> packedHashEntry = this::packedHashEntry;
    private final Consumer<byte[]> setMember = this::string;
    private final byte[] buf;
    private final Lzf lzf;
    private byte[] compressed = new byte[256];
    private int pos;
    private long flushed;
    private long crc;
    private State state = State.NEW;

    private enum State {
        NEW, OPEN, FINISHED
    }

    /**
     * A writer to {@code out}. {@code compress} is Redis's {@code rdbcompression}: LZF for strings
     * over 20 bytes when it helps. {@code checksum} is {@code rdbchecksum}: when false the file ends
     * with 8 zero bytes, which readers take as "not computed".
     */
    public RdbWriter(OutputStream out, boolean compress, boolean checksum) {
        this(out, compress, checksum, ListpackEncoder.MAX_BYTES);
    }

    /**
     * As {@link #RdbWriter(OutputStream, boolean, boolean)}, with packed values limited to
     * {@code maxBlobBytes} (at most 1 GB): larger ones are written in their portable types. With 0
     * every collection is written in its portable type (2, 4, 5), as Ordo did before it wrote
     * blobs: a baseline for measurements, and the fallback made testable.
     */
    RdbWriter(OutputStream out, boolean compress, boolean checksum, int maxBlobBytes) {
        this(out, compress, checksum, maxBlobBytes, BUFFER_SIZE);
    }

    private RdbWriter(OutputStream out, boolean compress, boolean checksum, int maxBlobBytes, int bufferSize) {
        this.buf = new byte[bufferSize];
        this.out = out;
        this.compress = compress;
        this.checksum = checksum;
        this.listpack = new ListpackEncoder(maxBlobBytes);
        this.packed = maxBlobBytes > 0;
        this.lzf = compress ? new Lzf() : null;
    }

    /**
     * A writer of bare values for DUMP's payload ({@link DumpPayload}): no header and no checksum;
     * {@link #entry} is called with a null key and no expiry, then {@link #flush}.
     */
    static RdbWriter forValues(OutputStream out, boolean compress) {
        RdbWriter w = new RdbWriter(out, compress, false, ListpackEncoder.MAX_BYTES, 512);
        w.state = State.OPEN;
        return w;
    }

    /** Writes the magic, the version and one AUX field per map entry, in the map's order. */
    public void header(Map<String, String> aux) {
        if (state != State.NEW) {
            throw new IllegalStateException("header() must be the first call, and only one");
        }
        state = State.OPEN;
        writeBytes(Rdb.MAGIC, 0, Rdb.MAGIC.length);
        byte[] version = String.format("%04d", Rdb.VERSION).getBytes(StandardCharsets.US_ASCII);
        writeBytes(version, 0, version.length);
        for (Map.Entry<String, String> field : aux.entrySet()) {
            byte1(Rdb.OP_AUX);
            string(field.getKey().getBytes(StandardCharsets.UTF_8));
            string(field.getValue().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Writes one function library (FUNCTION2 opcode and its code). */
    public void function(byte[] libraryCode) {
        requireOpen();
        byte1(Rdb.OP_FUNCTION2);
        string(libraryCode);
    }

    /**
     * Starts (or returns to) database {@code db}, announcing that it holds {@code keys} keys of
     * which {@code expires} have an expiry (a sizing hint for the reader).
     */
    public void selectDb(int db, long keys, long expires) {
        requireOpen();
        if (db < 0 || keys < 0 || expires < 0) {
            throw new IllegalArgumentException("negative database, key count or expiry count");
        }
        byte1(Rdb.OP_SELECTDB);
        length(db);
        byte1(Rdb.OP_RESIZEDB);
        length(keys);
        length(expires);
    }

    /**
     * Writes a key of the current database with its value (a {@link StringValue}, {@link HashValue},
     * {@link SetValue} or {@link ZSet}) and its expiry in Unix milliseconds, or -1 for none. With a
     * null key (and no expiry) only the value is written, its type byte first, as DUMP's payload holds it.
     */
    public void entry(Key key, Value value, long expireAtMillis) {
        requireOpen();
        if (value instanceof ZSet z) {
            if (z.size() == 0) {
                return;
            }
            if (packed && z.encoding() == Encoding.LISTPACK) {
                listpack.reset();
                z.forEachEntry(packedZSetEntry);
                if (packedBlob(Rdb.TYPE_ZSET_LISTPACK, key, expireAtMillis, listpack.finish())) {
                    return;
                }
            }
            prefix(Rdb.TYPE_ZSET_2, key, expireAtMillis);
            length(z.size());
            z.forEachEntry(plainZSetEntry);
        } else if (value instanceof StringValue s) {
            prefix(Rdb.TYPE_STRING, key, expireAtMillis);
            string(s.buffer(), 0, s.length());
        } else if (value instanceof HashValue h) {
            if (h.size() == 0) {
                return;
            }
            if (packed && !h.isHashtable()) {
                listpack.reset();
                h.forEach(packedHashEntry);
                if (packedBlob(Rdb.TYPE_HASH_LISTPACK, key, expireAtMillis, listpack.finish())) {
                    return;
                }
            }
            prefix(Rdb.TYPE_HASH, key, expireAtMillis);
            length(h.size());
            h.forEach(plainHashEntry);
        } else if (value instanceof SetValue set) {
            if (set.size() == 0) {
                return;
            }
            if (packed && set.encoding() == SetValue.Encoding.INTSET
                    && packedBlob(Rdb.TYPE_SET_INTSET, key, expireAtMillis, intset(set))) {
                return;
            }
            prefix(Rdb.TYPE_SET, key, expireAtMillis);
            length(set.size());
            set.forEach(setMember);
        } else if (value instanceof ListValue list) {
            if (list.size() == 0) {
                return;
            }
            prefix(Rdb.TYPE_LIST_QUICKLIST_2, key, expireAtMillis);
            length(list.nodeCount());
            for (int i = 0; i < list.nodeCount(); i++) {
                length(list.isPlain(i) ? Rdb.QUICKLIST_NODE_PLAIN : Rdb.QUICKLIST_NODE_PACKED);
                if (list.isCompressed(i)) {
                    // Already LZF in memory: written as it is, as Redis writes its compressed nodes.
                    byte[] lzfBytes = list.compressedNode(i);
                    ensure(MAX_HEADER);
                    buf[pos++] = (byte) (0xC0 | Rdb.ENC_LZF);
                    length(lzfBytes.length - 4);
                    length(list.rawSize(i));
                    writeBytes(lzfBytes, 4, lzfBytes.length - 4);
                } else {
                    string(list.rawNode(i), 0, list.rawSize(i));
                }
            }
        } else {
            throw new IllegalArgumentException("not a keyspace value: " + value);
        }
    }

    /** Writes EOF and the checksum, and flushes the stream. No call may follow. */
    public void finish() {
        requireOpen();
        byte1(Rdb.OP_EOF);
        flushBuffer();
        long sum = checksum ? crc : 0;
        for (int i = 0; i < 8; i++) {
            buf[i] = (byte) (sum >>> (8 * i));
        }
        try {
            out.write(buf, 0, 8);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flushed += 8;
        state = State.FINISHED;
    }

    /** Passes the buffered bytes on to the stream (a background save hands them to the file between steps). */
    public void flush() {
        requireOpen();
        flushBuffer();
    }

    /** The bytes written so far, including those still in the buffer. */
    public long bytesWritten() {
        return flushed + pos;
    }

    private void requireOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException(state == State.NEW ? "header() was not called" : "finish() was called");
        }
    }

    private void prefix(int type, Key key, long expireAtMillis) {
        if (expireAtMillis != -1) {
            ensure(9);
            buf[pos++] = (byte) Rdb.OP_EXPIRETIME_MS;
            putLongLE(expireAtMillis);
        }
        byte1(type);
        if (key != null) {
            string(key.bytes());
        }
    }

    private void zsetEntry(byte[] member, int off, int len, double score) {
        string(member, off, len);
        ensure(8);
        putLongLE(Double.doubleToRawLongBits(score));
    }

    private void packedZSetEntry(byte[] member, int off, int len, double score) {
        listpack.addString(member, off, len);
        listpack.addScore(score);
    }

    private void hashEntry(Key field, byte[] value) {
        string(field.bytes());
        string(value);
    }

    private void packedHashEntry(Key field, byte[] value) {
        listpack.addString(field.bytes());
        listpack.addString(value);
    }

    /**
     * Builds the intset image of {@code set} (intset-encoded, not empty) in the scratch buffer;
     * returns its size, or -1 when it would pass the blob size limit.
     */
    private int intset(SetValue set) {
        int n = set.size();
        long min = set.intAt(0);
        long max = set.intAt(n - 1);
        int width = min >= Short.MIN_VALUE && max <= Short.MAX_VALUE ? 2
                : min >= Integer.MIN_VALUE && max <= Integer.MAX_VALUE ? 4 : 8;
        long bytes = INTSET_HEADER + (long) n * width;
        if (bytes > listpack.maxBytes()) {
            return -1;
        }
        byte[] b = listpack.scratch((int) bytes);
        INT_LE.set(b, 0, width);
        INT_LE.set(b, 4, n);
        int p = INTSET_HEADER;
        switch (width) {
            case 2:
                for (int i = 0; i < n; i++, p += 2) {
                    SHORT_LE.set(b, p, (short) set.intAt(i));
                }
                break;
            case 4:
                for (int i = 0; i < n; i++, p += 4) {
                    INT_LE.set(b, p, (int) set.intAt(i));
                }
                break;
            default:
                for (int i = 0; i < n; i++, p += 8) {
                    LONG_LE.set(b, p, set.intAt(i));
                }
        }
        return (int) bytes;
    }

    /**
     * Writes an entry of {@code type} whose value is the blob {@code scratch[0, size)}; returns
     * false, having written nothing, when {@code size} is -1 (the blob was too large).
     */
    private boolean packedBlob(int type, Key key, long expireAtMillis, int size) {
        if (size < 0) {
            listpack.shrink();
            return false;
        }
        prefix(type, key, expireAtMillis);
        byte[] blob = listpack.buffer();
        if (!(compress && size > Rdb.MIN_COMPRESS && writeCompressed(blob, 0, size))) {
            length(size);
            writeBytes(blob, 0, size);
        }
        listpack.shrink();
        return true;
    }

    private void string(byte[] s) {
        string(s, 0, s.length);
    }

    /** Writes an RDB string: integer-encoded, LZF-compressed or plain, as the class comment says. */
    private void string(byte[] s, int off, int len) {
        if (len <= Rdb.MAX_INT_STRING && len > 0) {
            long v = canonicalInt(s, off, len);
            if (v != NOT_AN_INT) {
                writeInt((int) v);
                return;
            }
        }
        if (compress && len > Rdb.MIN_COMPRESS && writeCompressed(s, off, len)) {
            return;
        }
        length(len);
        writeBytes(s, off, len);
    }

    /** The int32 that {@code s[off, off+len)} spells canonically (no '+', no leading zero, no "-0"), or {@link #NOT_AN_INT}. */
    private static long canonicalInt(byte[] s, int off, int len) {
        int i = off;
        int end = off + len;
        if (s[i] > '9' || (s[i] < '0' && s[i] != '-')) {
            return NOT_AN_INT;
        }
        boolean negative = s[i] == '-';
        if (negative && ++i == end) {
            return NOT_AN_INT;
        }
        if (s[i] == '0' && (negative || end - i > 1)) {
            return NOT_AN_INT;
        }
        long v = 0;
        for (; i < end; i++) {
            int d = s[i] - '0';
            if (d < 0 || d > 9) {
                return NOT_AN_INT;
            }
            v = v * 10 + d;
        }
        v = negative ? -v : v;
        return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? v : NOT_AN_INT;
    }

    private void writeInt(int v) {
        ensure(5);
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            buf[pos++] = (byte) (0xC0 | Rdb.ENC_INT8);
            buf[pos++] = (byte) v;
        } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            buf[pos++] = (byte) (0xC0 | Rdb.ENC_INT16);
            buf[pos++] = (byte) v;
            buf[pos++] = (byte) (v >>> 8);
        } else {
            buf[pos++] = (byte) (0xC0 | Rdb.ENC_INT32);
            for (int i = 0; i < 4; i++) {
                buf[pos++] = (byte) (v >>> (8 * i));
            }
        }
    }

    /** Writes {@code s} LZF-compressed when that takes at most {@code len - 4} bytes; returns whether it did. */
    private boolean writeCompressed(byte[] s, int off, int len) {
        int max = len - 4;
        byte[] target = compressed;
        if (target.length < max) {
            target = new byte[max];
            if (max <= BUFFER_SIZE) {
                compressed = target;
            }
        }
        int n = lzf.compress(s, off, len, target, 0, max);
        if (n == 0) {
            return false;
        }
        ensure(MAX_HEADER);
        buf[pos++] = (byte) (0xC0 | Rdb.ENC_LZF);
        length(n);
        length(len);
        writeBytes(target, 0, n);
        return true;
    }

    private void length(long len) {
        ensure(9);
        if (len < 1 << 6) {
            buf[pos++] = (byte) len;
        } else if (len < 1 << 14) {
            buf[pos++] = (byte) (Rdb.LEN_14BIT << 6 | (int) (len >>> 8));
            buf[pos++] = (byte) len;
        } else if (len <= 0xFFFF_FFFFL) {
            buf[pos++] = (byte) Rdb.LEN_32BIT;
            for (int shift = 24; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (len >>> shift);
            }
        } else {
            buf[pos++] = (byte) Rdb.LEN_64BIT;
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[pos++] = (byte) (len >>> shift);
            }
        }
    }

    private void byte1(int b) {
        ensure(1);
        buf[pos++] = (byte) b;
    }

    private void putLongLE(long v) {
        LONG_LE.set(buf, pos, v);
        pos += 8;
    }

    private void writeBytes(byte[] b, int off, int len) {
        if (len <= buf.length - pos) {
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
            return;
        }
        flushBuffer();
        if (len < buf.length) {
            System.arraycopy(b, off, buf, 0, len);
            pos = len;
            return;
        }
        if (checksum) {
            crc = Crc64.update(crc, b, off, len);
        }
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flushed += len;
    }

    private void ensure(int n) {
        if (buf.length - pos < n) {
            flushBuffer();
        }
    }

    private void flushBuffer() {
        if (pos == 0) {
            return;
        }
        if (checksum) {
            crc = Crc64.update(crc, buf, 0, pos);
        }
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        flushed += pos;
        pos = 0;
    }
}
