package dev.ordo.engine.encoding;

import java.util.Arrays;

/**
 * LZF, the compression Redis applies to RDB strings (and FUNCTION DUMP code). The compressed
 * data is a sequence of items, each starting with a control byte {@code c}:
 * <ul>
 *   <li>{@code c < 32}: a literal run; the next {@code c + 1} bytes (1 to 32) are copied as they are.</li>
 *   <li>otherwise a back reference: {@code n = c >>> 5} (1 to 7); when {@code n == 7} one more byte is
 *       added to it. The next byte {@code d} completes the distance: {@code n + 2} bytes (3 to 264)
 *       are copied from {@code ((c & 31) << 8 | d) + 1} bytes (1 to 8192) behind the output end,
 *       byte by byte, so a reference may overlap the bytes it produces.</li>
 * </ul>
 * The format carries neither the original length nor a checksum; RDB stores both lengths in front
 * of the data. The worst-case expansion is one byte per 32 literals.
 *
 * <p>An instance is a compressor with a reusable hash table: not thread-safe. Its output is a
 * function of the input alone. Decompression is static and checks every bound, so corrupt input
 * is reported, never turned into an exception or an out-of-bounds write.
 */
public final class Lzf {
    private static final int MAX_LITERAL = 32;
    private static final int MAX_DISTANCE = 8192;
    private static final int MAX_MATCH = 264;
    private static final int MAX_HASH_BITS = 14;
    private static final int MIN_HASH_BITS = 6;

    /** Positions + 1 (0 = empty) of earlier 3-byte sequences, by hash. */
    private final int[] table = new int[1 << MAX_HASH_BITS];

    /**
     * Compresses {@code in[off, off+len)} into {@code out} from {@code outOff}, writing at most
     * {@code maxOut} bytes; returns the compressed length, or 0 when the result would not fit (then
     * {@code out}'s content in that range is undefined).
     */
    public int compress(byte[] in, int off, int len, byte[] out, int outOff, int maxOut) {
        if (len == 0 || maxOut <= 1) {
            return 0;
        }
        int bits = Math.max(MIN_HASH_BITS, Math.min(MAX_HASH_BITS, 32 - Integer.numberOfLeadingZeros(len)));
        int shift = 32 - bits;
        Arrays.fill(table, 0, 1 << bits, 0);
        int ip = off;
        int end = off + len;
        int op = outOff;
        int outEnd = outOff + maxOut;
        int ctrlAt = op++;
        int literals = 0;
        while (ip < end) {
            // The last two bytes cannot start a match (a match is at least 3 bytes): literals.
            int ref = -1;
            int distance = 0;
            if (ip + 2 < end) {
                int seq = (in[ip] & 0xFF) << 16 | (in[ip + 1] & 0xFF) << 8 | (in[ip + 2] & 0xFF);
                int h = (seq * 0x9E3779B1) >>> shift;
                ref = table[h] - 1 + off;
                table[h] = ip - off + 1;
                distance = ip - ref - 1;
            }
            if (ref >= off && distance < MAX_DISTANCE
                    && in[ref] == in[ip] && in[ref + 1] == in[ip + 1] && in[ref + 2] == in[ip + 2]) {
                int limit = Math.min(MAX_MATCH, end - ip);
                int matched = 3;
                while (matched < limit && in[ref + matched] == in[ip + matched]) {
                    matched++;
                }
                if (literals == 0) {
                    op--;
                } else {
                    out[ctrlAt] = (byte) (literals - 1);
                }
                int n = matched - 2;
                if (op + (n >= 7 ? 3 : 2) + 1 > outEnd) {
                    return 0;
                }
                if (n < 7) {
                    out[op++] = (byte) (n << 5 | distance >>> 8);
                } else {
                    out[op++] = (byte) (7 << 5 | distance >>> 8);
                    out[op++] = (byte) (n - 7);
                }
                out[op++] = (byte) distance;
                int next = ip + matched;
                for (int p = ip + 1; p < next && p + 2 < end; p++) {
                    int s = (in[p] & 0xFF) << 16 | (in[p + 1] & 0xFF) << 8 | (in[p + 2] & 0xFF);
                    table[(s * 0x9E3779B1) >>> shift] = p - off + 1;
                }
                ip = next;
                ctrlAt = op++;
                literals = 0;
            } else {
                if (op >= outEnd) {
                    return 0;
                }
                out[op++] = in[ip++];
                if (++literals == MAX_LITERAL) {
                    out[ctrlAt] = (byte) (MAX_LITERAL - 1);
                    literals = 0;
                    ctrlAt = op++;
                }
            }
        }
        if (literals == 0) {
            op--;
        } else {
            out[ctrlAt] = (byte) (literals - 1);
        }
        return op <= outEnd ? op - outOff : 0;
    }

    /**
     * The most bytes {@code compressedLength} bytes of valid LZF can expand to: every 3 input bytes
     * produce at most 264 output bytes.
     */
    public static long maxExpansion(long compressedLength) {
        return (compressedLength / 3 + 1) * MAX_MATCH;
    }

    /**
     * Decompresses {@code in[off, off+len)} into {@code out[outOff, outOff+outLen)}; returns whether
     * the input was well formed and produced exactly {@code outLen} bytes.
     */
    public static boolean decompress(byte[] in, int off, int len, byte[] out, int outOff, int outLen) {
        int ip = off;
        int end = off + len;
        int op = outOff;
        int outEnd = outOff + outLen;
        while (ip < end) {
            int ctrl = in[ip++] & 0xFF;
            if (ctrl < 32) {
                int n = ctrl + 1;
                if (op + n > outEnd || ip + n > end) {
                    return false;
                }
                System.arraycopy(in, ip, out, op, n);
                ip += n;
                op += n;
            } else {
                int n = ctrl >>> 5;
                if (n == 7) {
                    if (ip >= end) {
                        return false;
                    }
                    n += in[ip++] & 0xFF;
                }
                if (ip >= end) {
                    return false;
                }
                int ref = op - ((ctrl & 0x1F) << 8 | (in[ip++] & 0xFF)) - 1;
                n += 2;
                if (ref < outOff || op + n > outEnd) {
                    return false;
                }
                if (ref + n <= op) {
                    System.arraycopy(out, ref, out, op, n);
                    op += n;
                } else {
                    for (int i = 0; i < n; i++) {
                        out[op++] = out[ref++];
                    }
                }
            }
        }
        return op == outEnd;
    }

    /** Decompresses into a new array of {@code originalLength} bytes; null when the input is malformed. */
    public static byte[] decompress(byte[] in, int off, int len, int originalLength) {
        byte[] out = new byte[originalLength];
        return decompress(in, off, len, out, 0, originalLength) ? out : null;
    }

    /**
     * Like {@link #decompress(byte[], int, int, int)}, but the output array starts small and grows
     * as the input produces bytes, so a corrupt {@code originalLength} costs no more memory than
     * the input can expand to.
     */
    public static byte[] decompressGrowing(byte[] in, int off, int len, int originalLength) {
        byte[] out = new byte[(int) Math.min(originalLength, Math.max(64, 4L * len))];
        int ip = off;
        int end = off + len;
        int op = 0;
        while (ip < end) {
            int ctrl = in[ip++] & 0xFF;
            int n;
            int ref = -1;
            if (ctrl < 32) {
                n = ctrl + 1;
                if (ip + n > end) {
                    return null;
                }
            } else {
                n = ctrl >>> 5;
                if (n == 7) {
                    if (ip >= end) {
                        return null;
                    }
                    n += in[ip++] & 0xFF;
                }
                if (ip >= end) {
                    return null;
                }
                ref = op - ((ctrl & 0x1F) << 8 | (in[ip++] & 0xFF)) - 1;
                n += 2;
                if (ref < 0) {
                    return null;
                }
            }
            if (op + n > out.length) {
                if (op + n > originalLength) {
                    return null;
                }
                out = Arrays.copyOf(out, (int) Math.min(originalLength, Math.max(op + n, 2L * out.length)));
            }
            if (ref < 0) {
                System.arraycopy(in, ip, out, op, n);
                ip += n;
                op += n;
            } else if (ref + n <= op) {
                System.arraycopy(out, ref, out, op, n);
                op += n;
            } else {
                for (int i = 0; i < n; i++) {
                    out[op++] = out[ref++];
                }
            }
        }
        return op == originalLength ? out : null;
    }
}
