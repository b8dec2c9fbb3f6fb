package dev.ordo.engine.zset;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The byte layout of one sorted-set entry, shared by the listpack encoding (entries back to back
 * in score order) and the skiplist encoding's {@link MemberArena} (entries in insertion order).
 *
 * <pre>
 *  offset 0                8                 8 + v             8 + v + n
 *         +----------------+-----------------+-----------------+
 *         | score          | member length n | member bytes    |
 *         | IEEE-754 bits, | unsigned varint,| any byte values,|
 *         | little-endian  | v = 1..5 bytes  | \0 included     |
 *         +----------------+-----------------+-----------------+
 * </pre>
 *
 * The varint stores 7 bits per byte, least significant group first; a set high bit means another
 * byte follows. Members of up to 127 bytes therefore cost one length byte. An entry is complete
 * once all 8 + v + n bytes are written; entries are only ever read at offsets the owner wrote.
 */
final class EntryLayout {
    static final int SCORE_BYTES = Double.BYTES;
    static final int MAX_VARINT_BYTES = 5;

    private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private EntryLayout() {
    }

    /** Returns the number of bytes an entry with a member of {@code memberLength} bytes occupies. */
    static int entrySize(int memberLength) {
        return SCORE_BYTES + varintSize(memberLength) + memberLength;
    }

    /** Writes a complete entry at {@code at} and returns its size; the caller ensures room. */
    static int write(byte[] buf, int at, double score, byte[] member, int off, int len) {
        DOUBLE.set(buf, at, score);
        int p = writeVarint(buf, at + SCORE_BYTES, len);
        System.arraycopy(member, off, buf, p, len);
        return p + len - at;
    }

    /** Returns the score of the entry at {@code at}. */
    static double score(byte[] buf, int at) {
        return (double) DOUBLE.get(buf, at);
    }

    /** Overwrites the score of the entry at {@code at}. */
    static void setScore(byte[] buf, int at, double score) {
        DOUBLE.set(buf, at, score);
    }

    /** Returns the member length of the entry at {@code at}. */
    static int memberLength(byte[] buf, int at) {
        int p = at + SCORE_BYTES;
        int b = buf[p];
        if (b >= 0) {
            return b;
        }
        int value = b & 0x7F;
        int shift = 7;
        do {
            b = buf[++p];
            value |= (b & 0x7F) << shift;
            shift += 7;
        } while (b < 0);
        return value;
    }

    /** Returns the offset of the first member byte of the entry at {@code at}. */
    static int memberOffset(byte[] buf, int at) {
        int p = at + SCORE_BYTES;
        while (buf[p] < 0) {
            p++;
        }
        return p + 1;
    }

    /** Returns the size of the entry at {@code at}. */
    static int sizeAt(byte[] buf, int at) {
        int len = memberLength(buf, at);
        return SCORE_BYTES + varintSize(len) + len;
    }

    /** Compares the member of the entry at {@code at} with {@code m[off, off+len)}, bytes unsigned. */
    static int compareMember(byte[] buf, int at, byte[] m, int off, int len) {
        int mo = memberOffset(buf, at);
        int ml = memberLength(buf, at);
        return Arrays.compareUnsigned(buf, mo, mo + ml, m, off, off + len);
    }

    /** Returns whether the member of the entry at {@code at} equals {@code m[off, off+len)}. */
    static boolean memberEquals(byte[] buf, int at, byte[] m, int off, int len) {
        int ml = memberLength(buf, at);
        if (ml != len) {
            return false;
        }
        int mo = memberOffset(buf, at);
        return Arrays.equals(buf, mo, mo + ml, m, off, off + len);
    }

    static int varintSize(int value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    private static int writeVarint(byte[] buf, int at, int value) {
        while ((value & ~0x7F) != 0) {
            buf[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buf[at++] = (byte) value;
        return at;
    }
}
