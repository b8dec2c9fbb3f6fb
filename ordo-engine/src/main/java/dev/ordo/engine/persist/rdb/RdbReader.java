package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Lzf;
import dev.ordo.engine.encoding.Crc64;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.keyspace.SetValue;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.zset.ListpackLimits;
import dev.ordo.engine.zset.ZSet;
import dev.ordo.engine.zset.ZSetBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads an RDB file (versions 1 to 11: everything Redis 7.0 and 7.2 write for strings, hashes,
 * sets and sorted sets; the layout is described in {@link Rdb}) and hands what it finds to an
 * {@link RdbSink}. Any malformation, truncation, checksum mismatch or unsupported content (lists,
 * streams, modules, other value types) is an {@link RdbException} naming the byte offset. The
 * sink may have received entries before that: see {@link RdbSink} for why the caller discards them.
 *
 * <p>Value types read: 0 string (plain, integer-encoded, LZF); 2 set; 3 and 5 sorted set (text /
 * binary scores); 4 hash; 11 intset set (a blob: 4-byte little-endian element width 2, 4 or 8, a
 * 4-byte little-endian count, then the values little-endian, strictly ascending); 12 / 13 ziplist
 * sorted set / hash; 16 / 17 / 20 listpack hash / sorted set / set (see {@link PackedList}). The
 * opcodes AUX, SELECTDB, RESIZEDB, EXPIRETIME_MS, EXPIRETIME and FUNCTION2 are read; IDLE and FREQ
 * (eviction hints) are skipped; module data and the pre-release function format are rejected.
 * Expired keys are delivered like any other. Bytes after the checksum are ignored (and may have
 * been consumed from the stream).
 *
 * <p>Each value gets the encoding Redis gives it on loading, under {@code config}'s limits:
 * <ul>
 *   <li>strings: {@code int} for the canonical spelling of a 64-bit integer, else {@code embstr} up to
 *       44 bytes, else {@code raw};</li>
 *   <li>sorted sets: listpack when they have at most {@code zset-max-listpack-entries} members, none
 *       longer than {@code zset-max-listpack-value}, else skiplist (a listpack in the file that
 *       breaks the value limit becomes a skiplist, as Ordo's listpacks always respect the limits);</li>
 *   <li>hashes of type 4: as if the fields were set one by one (hashtable from the start when there
 *       are more than {@code hash-max-listpack-entries}); packed hashes keep the listpack unless they
 *       hold more than {@code hash-max-listpack-entries} fields;</li>
 *   <li>sets of type 2: intset while the members are integers and at most
 *       {@code set-max-intset-entries}, then listpack or hashtable as if the members were added one by
 *       one (Redis 7.2's rules); intsets stay intsets up to {@code set-max-intset-entries}; listpack
 *       sets stay listpacks up to {@code set-max-listpack-entries}.</li>
 * </ul>
 * Empty collections are skipped, as Redis skips them. A member or field that appears twice in one
 * value is an error.
 *
 * <p>No length is trusted before it is checked: counts and string lengths are compared with the
 * bytes left in the file when its size is known ({@link #read(Path, RdbSink, Config)}); from a
 * stream of unknown length, arrays grow only as data actually arrives, and an LZF string's output
 * grows only as its compressed data produces bytes. A corrupt length therefore ends in an
 * {@link RdbException}, never in an attempt to allocate what the file does not hold.
 */
public final class RdbReader {
    private static final int BUFFER_SIZE = 1 << 17;
    private static final int MAX_STRING = StringValue.MAX_LENGTH;
    private static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;
    /** The size hint for collections read from a stream of unknown length: they grow past it as needed. */
    private static final int STREAM_SIZE_HINT = 1 << 16;
    /** The first allocation for a long string read from a stream of unknown length. */
    private static final int STREAM_FIRST_CHUNK = 1 << 20;
    private static final int SCRATCH_LIMIT = 1 << 16;
    private static final int MAX_INTSET_ENTRIES = 1 << 30;
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final RdbSink sink;
    /** The file's length, or -1 when unknown. */
    private final long fileLength;
    private final ListpackLimits zsetLimits;
    private final ListpackLimits hashLimits;
    private final SetValue.Limits setLimits;
    private final ListValue.Limits listLimits;
    private final int databases;

    /** {@value #BUFFER_SIZE} bytes, less for a short input of known length (a DUMP payload), at least 512. */
    private final byte[] buf;
    private int pos;
    private int limit;
    /** The file offset of {@code buf[0]}. */
    private long base;
    /** The CRC of every byte before {@code buf[crcFrom]}, when computed here ({@link #checksum} is null). */
    private long crc;
    private int crcFrom;
    /**
     * What decoding a DUMP payload may still allocate beyond the payload's own bytes: each LZF
     * string's decoded length, and {@link #ELEMENT_COST} for each collection element (a node of a
     * list); unlimited for files, whose size the server's own data already bounds.
     */
    private long decodeBudget = Long.MAX_VALUE;
    /** The most one collection element costs once decoded: an entry object, its links and a small value. */
    static final long ELEMENT_COST = 64;
    /** The decode budget the reader started with, for the error. */
    private long decodeLimit = Long.MAX_VALUE;
    /** The file being read, when it is a file, and its checksum being computed on another thread. */
    private Path file;
    private FileChecksum checksum;
    private int version;

    /** The last string read by {@link #stringRef}: {@code strBuf[strOff, strOff+strLen)}, valid until the next read. */
    private byte[] strBuf;
    private int strOff;
    private int strLen;
    private byte[] scratch = new byte[64];

    private RdbReader(InputStream in, RdbSink sink, Config config, long fileLength) {
        this.in = in;
        this.sink = sink;
        this.fileLength = fileLength;
        this.buf = new byte[fileLength < 0 ? BUFFER_SIZE : (int) Math.max(512, Math.min(BUFFER_SIZE, fileLength))];
        this.zsetLimits = config.zsetListpackLimits();
        this.hashLimits = config.hashListpackLimits();
        this.setLimits = new SetValue.Limits(config.getLong("set-max-intset-entries"),
                config.getLong("set-max-listpack-entries"), config.getLong("set-max-listpack-value"));
        this.databases = config.getInt("databases");
        this.listLimits = config.listLimits();
    }

    /** Reads a whole RDB file from {@code in} (not closed) into {@code sink}. */
    public static void read(InputStream in, RdbSink sink, Config config) throws IOException {
        new RdbReader(in, sink, config, -1).run();
    }

    /**
     * Reads the RDB file {@code file} into {@code sink}; its size bounds every length in it. The
     * checksum of a file that ends right after its stored checksum, as every well-formed file
     * does, is computed on another thread while the file is parsed.
     */
    public static void read(Path file, RdbSink sink, Config config) throws IOException {
        long size = Files.size(file);
        FileChecksum checksum = FileChecksum.start(file, Math.max(0, size - 8));
        try (InputStream in = Files.newInputStream(file)) {
            RdbReader reader = new RdbReader(in, sink, config, size);
            reader.file = file;
            reader.checksum = checksum;
            reader.run();
        } finally {
            checksum.cancel();
        }
    }

    /**
     * Reads one value as DUMP's payload holds it, its type byte first, from {@code bytes[0, length)};
     * bytes after the value are ignored, as Redis ignores them. Null for an empty collection.
     */
    static Value readValue(byte[] bytes, int length, Config config, long decodeBudget) throws IOException {
        RdbReader reader = new RdbReader(new java.io.ByteArrayInputStream(bytes, 0, length), null, config, length);
        reader.decodeBudget = decodeBudget;
        reader.decodeLimit = decodeBudget;
        int type = reader.u8();
        if (!isSupported(type)) {
            throw new RdbException("unsupported value type " + type + " (" + Rdb.typeName(type) + ")", 0);
        }
        return reader.value(type);
    }

    /** Whether {@code firstBytes} start like an RDB file ({@code REDIS}). */
    public static boolean isRdb(byte[] firstBytes) {
        return firstBytes.length >= Rdb.MAGIC.length
                && Arrays.equals(firstBytes, 0, Rdb.MAGIC.length, Rdb.MAGIC, 0, Rdb.MAGIC.length);
    }

    private void run() throws IOException {
        header();
        int db = 0;
        long expireAt = -1;
        while (true) {
            long at = offset();
            int op = u8();
            switch (op) {
                case Rdb.OP_EXPIRETIME_MS:
                    expireAt = int64LE();
                    break;
                case Rdb.OP_EXPIRETIME:
                    expireAt = int32LE() * 1000L;
                    break;
                case Rdb.OP_IDLE:
                    readLength();
                    break;
                case Rdb.OP_FREQ:
                    u8();
                    break;
                case Rdb.OP_SELECTDB: {
                    long n = readLength();
                    if (n >= databases) {
                        throw new RdbException("database " + n + " does not exist: Ordo is configured with " + databases
                                + " databases", at);
                    }
                    db = (int) n;
                    break;
                }
                case Rdb.OP_RESIZEDB:
                    readLength();
                    readLength();
                    break;
                case Rdb.OP_AUX: {
                    byte[] name = readString();
                    byte[] value = readString();
                    sink.aux(new String(name, StandardCharsets.UTF_8), value);
                    break;
                }
                case Rdb.OP_FUNCTION2:
                    sink.function(readString());
                    break;
                case Rdb.OP_FUNCTION_PRE_GA:
                    throw new RdbException("functions in the pre-release format (opcode 0xF6) are not supported", at);
                case Rdb.OP_MODULE_AUX:
                    throw new RdbException("module data (opcode 0xF7) is not supported: the file was written by a server"
                            + " with modules loaded", at);
                case Rdb.OP_EOF:
                    end();
                    return;
                default: {
                    if (!isSupported(op)) {
                        throw new RdbException("unsupported value type " + op + " (" + Rdb.typeName(op)
                                + "): Ordo holds strings, hashes, sets and sorted sets only", at);
                    }
                    byte[] key = readString();
                    Value value = value(op);
                    if (value != null) {
                        sink.entry(db, Key.of(key), value, expireAt);
                    }
                    expireAt = -1;
                }
            }
        }
    }

    private void header() throws IOException {
        need(9);
        if (!Arrays.equals(buf, 0, Rdb.MAGIC.length, Rdb.MAGIC, 0, Rdb.MAGIC.length)) {
            throw new RdbException("not an RDB file: it does not start with REDIS", 0);
        }
        int v = 0;
        for (int i = 5; i < 9; i++) {
            int d = buf[i] - '0';
            if (d < 0 || d > 9) {
                throw new RdbException("not an RDB file: the version after REDIS is not 4 digits", 5);
            }
            v = v * 10 + d;
        }
        if (v < 1 || v > Rdb.MAX_READ_VERSION) {
            throw new RdbException("RDB version " + v + " is not supported (Ordo reads versions 1 to "
                    + Rdb.MAX_READ_VERSION + ")", 5);
        }
        version = v;
        pos = 9;
    }

    /** After the EOF opcode: checks the stored checksum (from version 5; 0 means none was computed). */
    private void end() throws IOException {
        foldCrc();
        if (version < 5) {
            return;
        }
        long at = offset();
        long stored = int64LE();
        if (stored == 0) {
            return;
        }
        long computed = checksum == null ? crc : at == fileLength - 8 ? checksum.await() : FileChecksum.of(file, at);
        if (stored != computed) {
            throw new RdbException(String.format("checksum mismatch: the file says %016x, its contents give %016x",
                    stored, computed), at);
        }
    }

    private static boolean isSupported(int type) {
        switch (type) {
            case Rdb.TYPE_STRING:
            case Rdb.TYPE_LIST:
            case Rdb.TYPE_LIST_ZIPLIST:
            case Rdb.TYPE_LIST_QUICKLIST:
            case Rdb.TYPE_LIST_QUICKLIST_2:
            case Rdb.TYPE_SET:
            case Rdb.TYPE_ZSET:
            case Rdb.TYPE_HASH:
            case Rdb.TYPE_ZSET_2:
            case Rdb.TYPE_SET_INTSET:
            case Rdb.TYPE_ZSET_ZIPLIST:
            case Rdb.TYPE_HASH_ZIPLIST:
            case Rdb.TYPE_HASH_LISTPACK:
            case Rdb.TYPE_ZSET_LISTPACK:
            case Rdb.TYPE_SET_LISTPACK:
                return true;
            default:
                return false;
        }
    }

    /** The value of a supported type, or null for an empty collection. */
    private Value value(int type) throws IOException {
        switch (type) {
            case Rdb.TYPE_STRING:
                return new StringValue(readString());
            case Rdb.TYPE_LIST:
                return readList();
            case Rdb.TYPE_LIST_ZIPLIST: {
                long at = offset();
                ListValue list = new ListValue();
                addAll(list, PackedList.ziplist(readString(), at));
                return finishList(list);
            }
            case Rdb.TYPE_LIST_QUICKLIST:
            case Rdb.TYPE_LIST_QUICKLIST_2:
                return readQuicklist(type == Rdb.TYPE_LIST_QUICKLIST_2);
            case Rdb.TYPE_SET:
                return readSet();
            case Rdb.TYPE_ZSET:
                return readZSet(false);
            case Rdb.TYPE_ZSET_2:
                return readZSet(true);
            case Rdb.TYPE_HASH:
                return readHash();
            case Rdb.TYPE_SET_INTSET:
                return readIntset();
            case Rdb.TYPE_ZSET_ZIPLIST:
            case Rdb.TYPE_ZSET_LISTPACK: {
                long at = offset();
                byte[] blob = readString();
                return packedZSet(type == Rdb.TYPE_ZSET_ZIPLIST ? PackedList.ziplist(blob, at) : PackedList.listpack(blob, at), blob);
            }
            case Rdb.TYPE_HASH_ZIPLIST:
            case Rdb.TYPE_HASH_LISTPACK: {
                long at = offset();
                byte[] blob = readString();
                return packedHash(type == Rdb.TYPE_HASH_ZIPLIST ? PackedList.ziplist(blob, at) : PackedList.listpack(blob, at));
            }
            default: {
                long at = offset();
                return packedSet(PackedList.listpack(readString(), at));
            }
        }
    }

    // ---- collections in the plain types

    private ListValue readList() throws IOException {
        long at = offset();
        int n = count(readLength(), 1, at, "list");
        ListValue list = new ListValue();
        for (int i = 0; i < n; i++) {
            byte[] e = readString();
            list.prepareForAdd(e, listLimits);
            list.push(e, false);
        }
        return finishList(list);
    }

    /**
     * A quicklist: nodes that are ziplists (type 14) or, in type 18, a container (plain or packed)
     * then a listpack or a plain element. A listpack node is validated and then kept as it is.
     */
    private ListValue readQuicklist(boolean withContainers) throws IOException {
        long at = offset();
        int nodes = count(readLength(), 1, at, "quicklist");
        ListValue list = new ListValue();
        for (int i = 0; i < nodes; i++) {
            long container = withContainers ? readLength() : Rdb.QUICKLIST_NODE_PACKED;
            long nodeAt = offset();
            byte[] blob = readString();
            if (container == Rdb.QUICKLIST_NODE_PLAIN) {
                list.appendNode(blob, 1, true, listLimits);
            } else if (container != Rdb.QUICKLIST_NODE_PACKED) {
                throw new RdbException("quicklist node container " + container + " is neither plain nor packed", nodeAt);
            } else if (!withContainers) {
                addAll(list, PackedList.ziplist(blob, nodeAt));
            } else {
                PackedList entries = PackedList.listpack(blob, nodeAt);
                while (entries.next()) {
                    // walked for validation only
                }
                if (entries.seen() > 0) {
                    list.appendNode(blob, entries.seen(), false, listLimits);
                }
            }
        }
        return finishList(list);
    }

    private void addAll(ListValue list, PackedList entries) throws RdbException {
        while (entries.next()) {
            byte[] e = entries.bytes();
            list.prepareForAdd(e, listLimits);
            list.push(e, false);
        }
    }

    /** The loaded list in the encoding Redis would give it, or null when it is empty. */
    private ListValue finishList(ListValue list) {
        if (list.size() == 0) {
            return null;
        }
        list.fitEncoding(listLimits);
        return list;
    }

    private SetValue readSet() throws IOException {
        long at = offset();
        int n = count(readLength(), 1, at, "set");
        if (n == 0) {
            return null;
        }
        SetValue set = SetValue.empty(n > Math.min(setLimits.intsetEntries(), MAX_INTSET_ENTRIES)
                ? SetValue.Encoding.HASHTABLE : SetValue.Encoding.INTSET);
        for (int i = 0; i < n; i++) {
            long memberAt = offset();
            if (!set.add(readString(), setLimits)) {
                throw new RdbException("set member appears twice", memberAt);
            }
        }
        return set;
    }

    private HashValue readHash() throws IOException {
        long at = offset();
        int n = count(readLength(), 2, at, "hash");
        if (n == 0) {
            return null;
        }
        HashValue hash = new HashValue();
        if (n > hashLimits.maxEntries()) {
            hash.convertToHashtable();
        }
        for (int i = 0; i < n; i++) {
            long fieldAt = offset();
            byte[] field = readString();
            byte[] value = readString();
            if (!hash.put(Key.of(field), value, hashLimits)) {
                throw new RdbException("hash field appears twice", fieldAt);
            }
        }
        return hash;
    }

    private ZSet readZSet(boolean binaryScores) throws IOException {
        long at = offset();
        int n = count(readLength(), binaryScores ? 9 : 2, at, "sorted set");
        if (n == 0) {
            return null;
        }
        ZSetBuilder builder = new ZSetBuilder(zsetLimits, sizeHint(n));
        for (int i = 0; i < n; i++) {
            long memberAt = offset();
            boolean added;
            if (binaryScores) {
                stringRef(8);
                double score = Double.longBitsToDouble(int64LE());
                if (Double.isNaN(score)) {
                    throw new RdbException("sorted set score is NaN", memberAt);
                }
                added = builder.add(strBuf, strOff, strLen, score);
            } else {
                byte[] member = readString();
                added = builder.add(member, textScore(memberAt));
            }
            if (!added) {
                throw new RdbException("sorted set member appears twice", memberAt);
            }
        }
        return builder.build().asStored();
    }

    /** A score of type 3: a one-byte length (253 NaN, 254 +inf, 255 -inf) and that much text. */
    private double textScore(long memberAt) throws IOException {
        int len = u8();
        switch (len) {
            case 253:
                throw new RdbException("sorted set score is NaN", memberAt);
            case 254:
                return Double.POSITIVE_INFINITY;
            case 255:
                return Double.NEGATIVE_INFINITY;
            default:
                need(len);
                double d = Doubles.parseStrict(buf, pos, len);
                if (Double.isNaN(d)) {
                    throw new RdbException("invalid sorted set score '" + new String(buf, pos, len, StandardCharsets.ISO_8859_1)
                            + "'", memberAt);
                }
                pos += len;
                return d;
        }
    }

    // ---- blobs

    private SetValue readIntset() throws IOException {
        long at = offset();
        byte[] blob = readString();
        if (blob.length < 8) {
            throw new RdbException("malformed intset: " + blob.length + " bytes is shorter than its header", at);
        }
        long width = PackedList.u32(blob, 0);
        long n = PackedList.u32(blob, 4);
        if (width != 2 && width != 4 && width != 8) {
            throw new RdbException("malformed intset: element width " + width + " is not 2, 4 or 8", at);
        }
        if (8 + width * n != blob.length) {
            throw new RdbException("malformed intset: " + n + " elements of " + width + " bytes do not fill its "
                    + blob.length + " bytes", at);
        }
        if (n == 0) {
            return null;
        }
        SetValue set = SetValue.empty(n > Math.min(setLimits.intsetEntries(), MAX_INTSET_ENTRIES)
                ? SetValue.Encoding.HASHTABLE : SetValue.Encoding.INTSET);
        long previous = 0;
        for (int i = 0; i < n; i++) {
            int p = 8 + i * (int) width;
            long v = 0;
            for (int j = (int) width - 1; j >= 0; j--) {
                v = v << 8 | (blob[p + j] & 0xFF);
            }
            int unused = 64 - 8 * (int) width;
            v = v << unused >> unused;
            if (i > 0 && v <= previous) {
                throw new RdbException("malformed intset: values are not strictly ascending", at);
            }
            previous = v;
            set.add(Long.toString(v).getBytes(StandardCharsets.US_ASCII), setLimits);
        }
        return set;
    }

    private ZSet packedZSet(PackedList list, byte[] blob) throws RdbException {
        int declared = list.declaredCount();
        ZSetBuilder builder = new ZSetBuilder(zsetLimits, declared >= 0 ? declared / 2 : 16);
        while (list.next()) {
            boolean memberIsInt = list.isInt;
            long memberInt = list.intValue;
            int memberOff = list.offset;
            int memberLen = list.length;
            if (!list.next()) {
                throw list.malformed("a member without a score");
            }
            double score = list.score();
            boolean added = memberIsInt
                    ? builder.add(Long.toString(memberInt).getBytes(StandardCharsets.US_ASCII), score)
                    : builder.add(blob, memberOff, memberLen, score);
            if (!added) {
                throw list.malformed("a member appears twice");
            }
        }
        return builder.size() == 0 ? null : builder.build();
    }

    private HashValue packedHash(PackedList list) throws RdbException {
        ListpackLimits keepListpack = ListpackLimits.of(hashLimits.maxEntries(), Integer.MAX_VALUE);
        HashValue hash = new HashValue();
        if (list.declaredCount() / 2 > hashLimits.maxEntries()) {
            hash.convertToHashtable();
        }
        while (list.next()) {
            byte[] field = list.bytes();
            if (!list.next()) {
                throw list.malformed("a field without a value");
            }
            if (!hash.put(Key.of(field), list.bytes(), keepListpack)) {
                throw list.malformed("a field appears twice");
            }
        }
        return hash.size() == 0 ? null : hash;
    }

    private SetValue packedSet(PackedList list) throws RdbException {
        SetValue.Limits keepListpack = new SetValue.Limits(setLimits.intsetEntries(), setLimits.listpackEntries(), Long.MAX_VALUE);
        SetValue set = SetValue.empty(list.declaredCount() > setLimits.listpackEntries()
                ? SetValue.Encoding.HASHTABLE : SetValue.Encoding.LISTPACK);
        while (list.next()) {
            if (!set.add(list.bytes(), keepListpack)) {
                throw list.malformed("a member appears twice");
            }
        }
        return set.size() == 0 ? null : set;
    }

    // ---- lengths and strings

    /** Checks an element count against what Ordo holds and (when known) what the rest of the file can hold. */
    private int count(long n, int minBytesEach, long at, String what) throws RdbException {
        if (n > MAX_ELEMENTS) {
            throw new RdbException(what + " of " + n + " elements is larger than Ordo can hold", at);
        }
        if (fileLength >= 0 && n * minBytesEach > fileLength - offset()) {
            throw new RdbException(what + " of " + n + " elements cannot fit in the " + (fileLength - offset())
                    + " bytes left in the file", at);
        }
        charge(n * ELEMENT_COST, at);
        return (int) n;
    }

    /** Takes {@code bytes} from the decode budget, before they are allocated. */
    private void charge(long bytes, long at) {
        if (bytes > decodeBudget) {
            throw new DecodeBudgetExceeded(decodeLimit, at);
        }
        decodeBudget -= bytes;
    }

    private int sizeHint(int n) {
        return fileLength >= 0 ? n : Math.min(n, STREAM_SIZE_HINT);
    }

    private long readLength() throws IOException {
        long at = offset();
        int first = u8();
        if (first >>> 6 == 3) {
            throw new RdbException("expected a length, found the string encoding byte 0x" + Integer.toHexString(first), at);
        }
        return lengthFrom(first, at);
    }

    /** The rest of a length whose first byte (not a string encoding) was {@code first}. */
    private long lengthFrom(int first, long at) throws IOException {
        switch (first >>> 6) {
            case Rdb.LEN_6BIT:
                return first & 0x3F;
            case Rdb.LEN_14BIT:
                return (first & 0x3F) << 8 | u8();
            default:
                if (first == Rdb.LEN_32BIT) {
                    need(4);
                    long v = (buf[pos] & 0xFFL) << 24 | (buf[pos + 1] & 0xFF) << 16 | (buf[pos + 2] & 0xFF) << 8 | (buf[pos + 3] & 0xFF);
                    pos += 4;
                    return v;
                }
                if (first == Rdb.LEN_64BIT) {
                    need(8);
                    long v = 0;
                    for (int i = 0; i < 8; i++) {
                        v = v << 8 | (buf[pos++] & 0xFF);
                    }
                    if (v < 0) {
                        throw new RdbException("length " + Long.toUnsignedString(v) + " is out of range", at);
                    }
                    return v;
                }
                throw new RdbException("invalid length encoding byte 0x" + Integer.toHexString(first), at);
        }
    }

    /** Reads a string into a new array that the caller owns. */
    private byte[] readString() throws IOException {
        stringRef(0);
        if (strBuf != buf && strBuf != scratch && strOff == 0 && strLen == strBuf.length) {
            return strBuf;
        }
        return Arrays.copyOfRange(strBuf, strOff, strOff + strLen);
    }

    /**
     * Reads a string into {@link #strBuf}: when it is stored plainly and fits, a window of the read
     * buffer, with {@code trailing} more bytes buffered behind it so that reading them does not
     * move the window.
     */
    private void stringRef(int trailing) throws IOException {
        long at = offset();
        int first = u8();
        if (first >>> 6 == 3) {
            encodedString(first & 0x3F, at);
            return;
        }
        long len = lengthFrom(first, at);
        checkStringLength(len, at);
        window((int) len, trailing);
    }

    /**
     * Points {@link #strBuf} at the next {@code n} bytes: a window of the read buffer when they
     * fit with {@code trailing} more bytes behind them, else a fresh array.
     */
    private void window(int n, int trailing) throws IOException {
        if (n + trailing <= buf.length) {
            need(n + trailing);
            strBuf = buf;
            strOff = pos;
            pos += n;
        } else {
            strBuf = readBytes(n);
            strOff = 0;
        }
        strLen = n;
    }

    private void encodedString(int encoding, long at) throws IOException {
        switch (encoding) {
            case Rdb.ENC_INT8:
                decimal((byte) u8());
                return;
            case Rdb.ENC_INT16: {
                need(2);
                int v = (short) ((buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8);
                pos += 2;
                decimal(v);
                return;
            }
            case Rdb.ENC_INT32:
                decimal(int32LE());
                return;
            case Rdb.ENC_LZF:
                lzfString(at);
                return;
            default:
                throw new RdbException("unknown string encoding " + encoding, at);
        }
    }

    /** Puts the decimal spelling of {@code v} in the scratch buffer. */
    private void decimal(long v) {
        int i = 20;
        long x = v < 0 ? v : -v;
        do {
            scratch[--i] = (byte) ('0' - x % 10);
            x /= 10;
        } while (x != 0);
        if (v < 0) {
            scratch[--i] = '-';
        }
        strBuf = scratch;
        strOff = i;
        strLen = 20 - i;
    }

    private void lzfString(long at) throws IOException {
        long compressedLength = readLength();
        long length = readLength();
        checkStringLength(compressedLength, at);
        if (length > MAX_STRING || length > Lzf.maxExpansion(compressedLength)) {
            throw new RdbException("LZF string claims " + length + " bytes from " + compressedLength
                    + " compressed bytes", at);
        }
        charge(length, at);
        int n = (int) compressedLength;
        window(n, 0);
        byte[] src = strBuf;
        int srcOff = strOff;
        int out = (int) length;
        if (out <= SCRATCH_LIMIT) {
            if (scratch.length < out) {
                scratch = new byte[Math.max(out, Math.min(2 * scratch.length, SCRATCH_LIMIT))];
            }
            if (!Lzf.decompress(src, srcOff, n, scratch, 0, out)) {
                throw new RdbException("corrupt LZF-compressed string", at);
            }
            strBuf = scratch;
        } else {
            strBuf = Lzf.decompressGrowing(src, srcOff, n, out);
            if (strBuf == null) {
                throw new RdbException("corrupt LZF-compressed string", at);
            }
        }
        strOff = 0;
        strLen = out;
    }

    private void checkStringLength(long len, long at) throws RdbException {
        if (len > MAX_STRING) {
            throw new RdbException("string of " + len + " bytes is longer than Ordo can hold", at);
        }
        if (fileLength >= 0 && len > fileLength - offset()) {
            throw new RdbException("string of " + len + " bytes runs past the end of the file (" + (fileLength - offset())
                    + " bytes left)", at);
        }
    }

    // ---- buffered input with a running CRC

    private long offset() {
        return base + pos;
    }

    private int u8() throws IOException {
        if (pos == limit) {
            fill(1);
        }
        return buf[pos++] & 0xFF;
    }

    private int int32LE() throws IOException {
        need(4);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16 | (buf[pos + 3] & 0xFF) << 24;
        pos += 4;
        return v;
    }

    private long int64LE() throws IOException {
        need(8);
        long v = (long) LONG_LE.get(buf, pos);
        pos += 8;
        return v;
    }

    /** Makes at least {@code n} (at most the buffer's size) unread bytes available in the buffer. */
    private void need(int n) throws IOException {
        if (limit - pos < n) {
            fill(n);
        }
    }

    private void fill(int n) throws IOException {
        foldCrc();
        int rest = limit - pos;
        System.arraycopy(buf, pos, buf, 0, rest);
        base += pos;
        pos = 0;
        limit = rest;
        crcFrom = 0;
        while (limit < n) {
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                throw new RdbException("the file ends early: " + (n - limit) + " more bytes were expected", base + limit);
            }
            limit += r;
        }
    }

    /** Reads {@code n} bytes into a new array, past the buffer for the part it does not hold. */
    private byte[] readBytes(int n) throws IOException {
        byte[] out = new byte[fileLength >= 0 ? n : Math.min(n, STREAM_FIRST_CHUNK)];
        int got = Math.min(n, limit - pos);
        System.arraycopy(buf, pos, out, 0, got);
        pos += got;
        if (got == n) {
            return out;
        }
        foldCrc();
        base += limit;
        pos = 0;
        limit = 0;
        crcFrom = 0;
        while (got < n) {
            if (got == out.length) {
                out = Arrays.copyOf(out, (int) Math.min(n, 2L * out.length));
            }
            int r = in.read(out, got, out.length - got);
            if (r < 0) {
                throw new RdbException("the file ends early: " + (n - got) + " more bytes were expected", base);
            }
            if (checksum == null) {
                crc = Crc64.update(crc, out, got, r);
            }
            got += r;
            base += r;
        }
        return out;
    }

    private void foldCrc() {
        if (checksum == null) {
            crc = Crc64.update(crc, buf, crcFrom, pos - crcFrom);
        }
        crcFrom = pos;
    }
}
