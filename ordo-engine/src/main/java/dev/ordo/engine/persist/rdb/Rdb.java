package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.DumpFooter;

/**
 * The facts of Redis's RDB file format that {@link RdbWriter} and {@link RdbReader} share.
 *
 * <h2>File layout</h2>
 * The 9 ASCII bytes {@code REDIS} and a 4-digit version ({@code 0010} for Redis 7.0, {@code 0011}
 * for 7.2), then a sequence of items, each starting with one byte: an opcode (0xF5 and up) or the
 * type of a key-value entry (below 0xF5). {@code EOF} (0xFF) ends the items; since version 5 eight
 * bytes follow it, the CRC-64 ({@link dev.ordo.engine.encoding.Crc64}) of everything before them, least significant byte
 * first; all zero means "not computed" and is not checked.
 * <ul>
 *   <li>{@code AUX} 0xFA: two strings, a header field's name and value.</li>
 *   <li>{@code SELECTDB} 0xFE: a length, the database the following entries belong to (0 until one appears).</li>
 *   <li>{@code RESIZEDB} 0xFB: two lengths, how many keys and how many expiring keys that database holds (a sizing hint).</li>
 *   <li>{@code EXPIRETIME_MS} 0xFC: 8 bytes little-endian, the next entry's expiry in Unix milliseconds.</li>
 *   <li>{@code EXPIRETIME} 0xFD: 4 bytes little-endian (signed), the same in seconds (old files).</li>
 *   <li>{@code IDLE} 0xF8 (a length) and {@code FREQ} 0xF9 (one byte): the next entry's LRU / LFU
 *       eviction hints, written under an LRU or LFU maxmemory policy.</li>
 *   <li>{@code FUNCTION2} 0xF5: a string, one function library's code.</li>
 *   <li>{@code FUNCTION} 0xF6 (a 7.0 release-candidate format) and {@code MODULE_AUX} 0xF7 (module data).</li>
 * </ul>
 * An entry is its type byte, the key (a string) and the value in the type's format.
 *
 * <h2>Lengths</h2>
 * The top two bits of the first byte choose the form: {@code 00} the low 6 bits are the length;
 * {@code 01} the low 6 bits and the next byte, big-endian, 14 bits; {@code 10} with the first byte
 * 0x80 a 32-bit and with 0x81 a 64-bit big-endian length in the following bytes; {@code 11} marks
 * a specially encoded string, its kind in the low 6 bits.
 *
 * <h2>Strings</h2>
 * A length and that many bytes; or {@code 0xC0}, {@code 0xC1}, {@code 0xC2}: a decimal integer
 * stored as a signed 1-, 2- or 4-byte little-endian number (Redis uses them only for strings of at
 * most 11 bytes that are the canonical spelling of such a number); or {@code 0xC3}: LZF
 * ({@link dev.ordo.engine.encoding.Lzf}), then the compressed length, the original length and the compressed bytes.
 *
 * <h2>Value types</h2>
 * 0 string; 2 set: a length, then the members; 3 sorted set: a length, then per member the member
 * and its score as text behind a one-byte length (253 NaN, 254 +inf, 255 -inf); 5 sorted set:
 * the same with 8-byte little-endian IEEE doubles as scores; 4 hash: a length, then field, value
 * pairs; 11 a set as an intset blob; 12 / 13 a sorted set / hash as a ziplist blob; 16 / 17 / 20
 * a hash / sorted set / set as a listpack blob (20 appears from version 11). A blob is a string
 * holding the structure's memory image; its layouts are described in {@link PackedList} and
 * {@link RdbReader}. Pairs in a blob alternate member / score or field / value.
 */
final class Rdb {
    static final byte[] MAGIC = {'R', 'E', 'D', 'I', 'S'};
    static final int VERSION = DumpFooter.VERSION;
    /** The newest version whose supported types Ordo can read (Redis 7.2's). */
    static final int MAX_READ_VERSION = DumpFooter.MAX_READ_VERSION;

    static final int OP_FUNCTION2 = 0xF5;
    static final int OP_FUNCTION_PRE_GA = 0xF6;
    static final int OP_MODULE_AUX = 0xF7;
    static final int OP_IDLE = 0xF8;
    static final int OP_FREQ = 0xF9;
    static final int OP_AUX = 0xFA;
    static final int OP_RESIZEDB = 0xFB;
    static final int OP_EXPIRETIME_MS = 0xFC;
    static final int OP_EXPIRETIME = 0xFD;
    static final int OP_SELECTDB = 0xFE;
    static final int OP_EOF = 0xFF;

    static final int TYPE_STRING = 0;
    static final int TYPE_LIST = 1;
    static final int TYPE_LIST_ZIPLIST = 10;
    static final int TYPE_LIST_QUICKLIST = 14;
    static final int TYPE_LIST_QUICKLIST_2 = 18;
    /** A QUICKLIST_2 node's container: one element as it is. */
    static final int QUICKLIST_NODE_PLAIN = 1;
    /** A QUICKLIST_2 node's container: a listpack. */
    static final int QUICKLIST_NODE_PACKED = 2;
    static final int TYPE_SET = 2;
    static final int TYPE_ZSET = 3;
    static final int TYPE_HASH = 4;
    static final int TYPE_ZSET_2 = 5;
    static final int TYPE_SET_INTSET = 11;
    static final int TYPE_ZSET_ZIPLIST = 12;
    static final int TYPE_HASH_ZIPLIST = 13;
    static final int TYPE_HASH_LISTPACK = 16;
    static final int TYPE_ZSET_LISTPACK = 17;
    static final int TYPE_SET_LISTPACK = 20;

    static final int LEN_6BIT = 0;
    static final int LEN_14BIT = 1;
    static final int LEN_32BIT = 0x80;
    static final int LEN_64BIT = 0x81;
    static final int ENC_INT8 = 0;
    static final int ENC_INT16 = 1;
    static final int ENC_INT32 = 2;
    static final int ENC_LZF = 3;

    /** Strings of at most this many bytes are tried as integers (the longest int32 spelling is 11 bytes). */
    static final int MAX_INT_STRING = 11;
    /** Strings longer than this are tried with LZF when compression is on. */
    static final int MIN_COMPRESS = 20;

    private Rdb() {
    }

    /** A readable name for a value type byte, for error messages. */
    static String typeName(int type) {
        switch (type) {
            case 0: return "string";
            case 1: return "list";
            case 2: return "set";
            case 3: return "sorted set";
            case 4: return "hash";
            case 5: return "sorted set (binary scores)";
            case 6: return "module value (pre-release format)";
            case 7: return "module value";
            case 9: return "hash (zipmap)";
            case 10: return "list (ziplist)";
            case 11: return "set (intset)";
            case 12: return "sorted set (ziplist)";
            case 13: return "hash (ziplist)";
            case 14: return "list (quicklist)";
            case 15: return "stream";
            case 16: return "hash (listpack)";
            case 17: return "sorted set (listpack)";
            case 18: return "list (quicklist, version 2)";
            case 19: return "stream (version 2)";
            case 20: return "set (listpack)";
            case 21: return "stream (version 3)";
            default: return "unknown";
        }
    }
}
