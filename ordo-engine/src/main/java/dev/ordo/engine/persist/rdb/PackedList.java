package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.number.Doubles;

import java.nio.charset.StandardCharsets;

/**
 * A validating cursor over the entries of a listpack or ziplist blob, the memory images Redis
 * stores small hashes, sets and sorted sets in. Every header field, entry length, back-length and
 * terminator is checked against the blob before it is trusted; a mismatch is an
 * {@link RdbException} at the offset of the blob's string in the file.
 *
 * <h2>Listpack</h2>
 * A 4-byte little-endian total size (the blob's length), a 2-byte little-endian entry count
 * (65535: too many to count, walk the entries), the entries, and the terminator 0xFF. An entry is
 * an encoding byte, its data, and a back-length: the size of encoding byte plus data, in 7-bit
 * groups, most significant first, every byte but the first with its top bit set (1 byte up to
 * 127, 2 below 16383, 3 below 2^21 - 1, 4 below 2^28 - 1, else 5). The encoding byte:
 * <ul>
 *   <li>{@code 0xxxxxxx}: the integer 0 to 127, no data.</li>
 *   <li>{@code 10xxxxxx}: a string of up to 63 bytes.</li>
 *   <li>{@code 110xxxxx} and one byte: a 13-bit signed integer (two's complement), high bits first.</li>
 *   <li>{@code 1110xxxx} and one byte: a string of up to 4095 bytes (length high bits first).</li>
 *   <li>{@code 0xF0} and a 4-byte little-endian length: a longer string.</li>
 *   <li>{@code 0xF1} / {@code 0xF2} / {@code 0xF3} / {@code 0xF4}: a 16 / 24 / 32 / 64-bit
 *       little-endian signed integer.</li>
 * </ul>
 *
 * <h2>Ziplist</h2>
 * A 4-byte little-endian total size, the 4-byte little-endian offset of the last entry (10 when
 * empty), a 2-byte little-endian entry count (65535: walk), the entries, and 0xFF. An entry is the
 * previous entry's size (1 byte below 254, else 0xFE and 4 bytes little-endian; 0 for the first),
 * an encoding and the data. Encodings: {@code 00xxxxxx} a string of up to 63 bytes;
 * {@code 01xxxxxx} and one byte a 14-bit length, high bits first; {@code 10......} and 4 bytes a
 * big-endian 32-bit length; {@code 0xFE} / {@code 0xC0} / {@code 0xF0} / {@code 0xD0} /
 * {@code 0xE0} an 8 / 16 / 24 / 32 / 64-bit little-endian signed integer; {@code 0xF1} to
 * {@code 0xFD} the integer 0 to 12 ({@code low 4 bits - 1}) with no data.
 */
final class PackedList {
    private static final int LISTPACK_HEADER = 6;
    private static final int ZIPLIST_HEADER = 10;
    private static final int UNKNOWN_COUNT = 0xFFFF;

    private final byte[] b;
    private final long fileOffset;
    private final boolean ziplist;
    private final int declared;
    private final int end;
    private int p;
    private int seen;
    private int previousSize;
    private int lastStart;

    /** Whether the current entry is an integer ({@link #intValue}) rather than a string ({@link #offset}, {@link #length}). */
    boolean isInt;
    long intValue;
    int offset;
    int length;

    private PackedList(byte[] b, long fileOffset, boolean ziplist, int declared, int first) {
        this.b = b;
        this.fileOffset = fileOffset;
        this.ziplist = ziplist;
        this.declared = declared;
        this.end = b.length - 1;
        this.p = first;
    }

    /** A cursor over a listpack; {@code fileOffset} is where its string starts in the file. */
    static PackedList listpack(byte[] b, long fileOffset) throws RdbException {
        if (b.length < LISTPACK_HEADER + 1) {
            throw new RdbException("malformed listpack: " + b.length + " bytes is shorter than a header and terminator", fileOffset);
        }
        long total = u32(b, 0);
        if (total != b.length) {
            throw new RdbException("malformed listpack: header says " + total + " bytes, the string holds " + b.length, fileOffset);
        }
        if ((b[b.length - 1] & 0xFF) != 0xFF) {
            throw new RdbException("malformed listpack: no terminator", fileOffset);
        }
        int count = u16(b, 4);
        return new PackedList(b, fileOffset, false, count == UNKNOWN_COUNT ? -1 : count, LISTPACK_HEADER);
    }

    /** A cursor over a ziplist; {@code fileOffset} is where its string starts in the file. */
    static PackedList ziplist(byte[] b, long fileOffset) throws RdbException {
        if (b.length < ZIPLIST_HEADER + 1) {
            throw new RdbException("malformed ziplist: " + b.length + " bytes is shorter than a header and terminator", fileOffset);
        }
        long total = u32(b, 0);
        if (total != b.length) {
            throw new RdbException("malformed ziplist: header says " + total + " bytes, the string holds " + b.length, fileOffset);
        }
        if ((b[b.length - 1] & 0xFF) != 0xFF) {
            throw new RdbException("malformed ziplist: no terminator", fileOffset);
        }
        int count = u16(b, 8);
        return new PackedList(b, fileOffset, true, count == UNKNOWN_COUNT ? -1 : count, ZIPLIST_HEADER);
    }

    /** The entry count the header declares, or -1 when it does not say. */
    int declaredCount() {
        return declared;
    }

    /** The number of entries walked so far. */
    int seen() {
        return seen;
    }

    /** Moves to the next entry; false at the terminator, once the entry count and (for a ziplist) the tail offset check out. */
    boolean next() throws RdbException {
        if (p == end) {
            if (declared >= 0 && seen != declared) {
                throw malformed("header declares " + declared + " entries, " + seen + " found");
            }
            if (ziplist) {
                long tail = u32(b, 4);
                if (tail != (seen == 0 ? ZIPLIST_HEADER : lastStart)) {
                    throw malformed("tail offset " + tail + " does not point at the last entry");
                }
            }
            return false;
        }
        if (ziplist) {
            nextZiplistEntry();
        } else {
            nextListpackEntry();
        }
        seen++;
        return true;
    }

    /** The current entry as bytes (an integer as its decimal spelling), in a new array. */
    byte[] bytes() {
        if (isInt) {
            return Long.toString(intValue).getBytes(StandardCharsets.US_ASCII);
        }
        byte[] out = new byte[length];
        System.arraycopy(b, offset, out, 0, length);
        return out;
    }

    /** The current entry as a sorted-set score. */
    double score() throws RdbException {
        double d = isInt ? (double) intValue : Doubles.parseStrict(b, offset, length);
        if (Double.isNaN(d)) {
            throw malformed("invalid score '" + new String(b, offset, length, StandardCharsets.ISO_8859_1) + "'");
        }
        return d;
    }

    RdbException malformed(String what) {
        return new RdbException("malformed " + (ziplist ? "ziplist" : "listpack") + " (entry " + seen + " at byte " + p
                + " of " + b.length + "): " + what, fileOffset);
    }

    private void nextListpackEntry() throws RdbException {
        int start = p;
        int e = b[p] & 0xFF;
        long size;
        if ((e & 0x80) == 0) {
            setInt(e);
            size = 1;
        } else if ((e & 0xC0) == 0x80) {
            size = 1 + string(start + 1, e & 0x3F);
        } else if ((e & 0xE0) == 0xC0) {
            require(start, 2);
            int v = (e & 0x1F) << 8 | (b[start + 1] & 0xFF);
            setInt(v >= 1 << 12 ? v - (1 << 13) : v);
            size = 2;
        } else if ((e & 0xF0) == 0xE0) {
            require(start, 2);
            size = 2 + string(start + 2, (e & 0x0F) << 8 | (b[start + 1] & 0xFF));
        } else {
            switch (e) {
                case 0xF0:
                    require(start, 5);
                    size = 5 + string(start + 5, u32(b, start + 1));
                    break;
                case 0xF1:
                    size = 1 + signedLE(start + 1, 2);
                    break;
                case 0xF2:
                    size = 1 + signedLE(start + 1, 3);
                    break;
                case 0xF3:
                    size = 1 + signedLE(start + 1, 4);
                    break;
                case 0xF4:
                    size = 1 + signedLE(start + 1, 8);
                    break;
                case 0xFF:
                    throw malformed("terminator before the end");
                default:
                    throw malformed("invalid entry encoding 0x" + Integer.toHexString(e));
            }
        }
        int backlen = backlenSize(size);
        require(start, size + backlen);
        long value = 0;
        for (int i = 0; i < backlen; i++) {
            int c = b[start + (int) size + i] & 0xFF;
            if ((i == 0) == ((c & 0x80) != 0)) {
                throw malformed("invalid back-length byte 0x" + Integer.toHexString(c));
            }
            value = value << 7 | (c & 0x7F);
        }
        if (value != size) {
            throw malformed("back-length " + value + " does not match the entry's size " + size);
        }
        p = start + (int) size + backlen;
    }

    private void nextZiplistEntry() throws RdbException {
        int start = p;
        int first = b[p] & 0xFF;
        int header;
        long prev;
        if (first < 0xFE) {
            prev = first;
            header = 1;
        } else if (first == 0xFE) {
            require(start, 5);
            prev = u32(b, start + 1);
            header = 5;
        } else {
            throw malformed("terminator before the end");
        }
        if (prev != previousSize) {
            throw malformed("previous-entry size " + prev + ", the previous entry has " + previousSize);
        }
        int at = start + header;
        require(at, 1);
        int e = b[at] & 0xFF;
        long size;
        switch (e >>> 6) {
            case 0:
                size = 1 + string(at + 1, e & 0x3F);
                break;
            case 1:
                require(at, 2);
                size = 2 + string(at + 2, (e & 0x3F) << 8 | (b[at + 1] & 0xFF));
                break;
            case 2: {
                require(at, 5);
                long len = (long) (b[at + 1] & 0xFF) << 24 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 8 | (b[at + 4] & 0xFF);
                size = 5 + string(at + 5, len);
                break;
            }
            default:
                if (e == 0xFE) {
                    size = 1 + signedLE(at + 1, 1);
                } else if (e == 0xC0) {
                    size = 1 + signedLE(at + 1, 2);
                } else if (e == 0xF0) {
                    size = 1 + signedLE(at + 1, 3);
                } else if (e == 0xD0) {
                    size = 1 + signedLE(at + 1, 4);
                } else if (e == 0xE0) {
                    size = 1 + signedLE(at + 1, 8);
                } else if (e >= 0xF1 && e <= 0xFD) {
                    setInt((e & 0x0F) - 1);
                    size = 1;
                } else {
                    throw malformed("invalid entry encoding 0x" + Integer.toHexString(e));
                }
        }
        long total = header + size;
        require(start, total);
        previousSize = (int) total;
        lastStart = start;
        p = start + (int) total;
    }

    /** Makes the current entry the string {@code b[at, at+len)}; returns {@code len}. */
    private long string(int at, long len) throws RdbException {
        if (at > end || len > end - at) {
            throw malformed("string of " + len + " bytes runs past the end");
        }
        isInt = false;
        offset = at;
        length = (int) len;
        return len;
    }

    /** Makes the current entry the {@code n}-byte little-endian signed integer at {@code at}; returns {@code n}. */
    private long signedLE(int at, int n) throws RdbException {
        if (at > end || n > end - at) {
            throw malformed("integer runs past the end");
        }
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        int unused = 64 - 8 * n;
        setInt(v << unused >> unused);
        return n;
    }

    private void setInt(long v) {
        isInt = true;
        intValue = v;
    }

    /** Checks that {@code n} bytes from {@code at} lie before the terminator. */
    private void require(int at, long n) throws RdbException {
        if (n > end - at) {
            throw malformed("entry runs past the end");
        }
    }

    private static int backlenSize(long size) {
        if (size <= 127) {
            return 1;
        }
        if (size < 16383) {
            return 2;
        }
        if (size < (1 << 21) - 1) {
            return 3;
        }
        if (size < (1 << 28) - 1) {
            return 4;
        }
        return 5;
    }

    static long u32(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24;
    }

    static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }
}
