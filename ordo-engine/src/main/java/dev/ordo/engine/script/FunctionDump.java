package dev.ordo.engine.script;

import dev.ordo.engine.encoding.DumpFooter;
import dev.ordo.engine.encoding.Lzf;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * FUNCTION DUMP's payload in Redis's format, so dumps move between Ordo and Redis 7: for each
 * library the RDB function opcode {@code 0xF5} and the library code as an RDB string, framed as
 * {@link DumpFooter} describes (RDB version, CRC-64). Ordo writes plain strings; it reads plain,
 * integer-free and LZF-compressed ones (Redis compresses code over 20 bytes).
 */
final class FunctionDump {
    static final int OPCODE_FUNCTION2 = 0xF5;

    private FunctionDump() {
    }

    static byte[] dump(List<byte[]> libraryCodes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] code : libraryCodes) {
            out.write(OPCODE_FUNCTION2);
            writeLength(out, code.length);
            out.writeBytes(code);
        }
        return DumpFooter.seal(out);
    }

    /** The library codes in a payload, or null when its version or checksum is wrong or it is malformed. */
    static List<byte[]> restore(byte[] payload) {
        int footer = DumpFooter.bodyLength(payload);
        if (footer < 0) {
            return null;
        }
        List<byte[]> codes = new ArrayList<>();
        int[] pos = {0};
        while (pos[0] < footer) {
            if ((payload[pos[0]++] & 0xFF) != OPCODE_FUNCTION2) {
                return null;
            }
            byte[] code = readString(payload, pos, footer);
            if (code == null) {
                return null;
            }
            codes.add(code);
        }
        return codes;
    }

    private static void writeLength(ByteArrayOutputStream out, long len) {
        if (len < 64) {
            out.write((int) len);
        } else if (len < 16384) {
            out.write(0x40 | (int) (len >>> 8));
            out.write((int) len & 0xFF);
        } else {
            out.write(0x80);
            for (int s = 24; s >= 0; s -= 8) {
                out.write((int) (len >>> s) & 0xFF);
            }
        }
    }

    /** An RDB length, or -1; {@code encoded[0]} tells whether it was a special encoding (its type then). */
    private static long readLength(byte[] b, int[] pos, int end, int[] encoded) {
        if (pos[0] >= end) {
            return -1;
        }
        int first = b[pos[0]++] & 0xFF;
        encoded[0] = -1;
        switch (first >>> 6) {
            case 0:
                return first & 0x3F;
            case 1:
                return pos[0] < end ? ((first & 0x3F) << 8) | (b[pos[0]++] & 0xFF) : -1;
            case 2: {
                int n = first == 0x80 ? 4 : first == 0x81 ? 8 : -1;
                if (n < 0 || pos[0] + n > end) {
                    return -1;
                }
                long v = 0;
                for (int i = 0; i < n; i++) {
                    v = (v << 8) | (b[pos[0]++] & 0xFF);
                }
                return v;
            }
            default:
                encoded[0] = first & 0x3F;
                return 0;
        }
    }

    private static byte[] readString(byte[] b, int[] pos, int end) {
        int[] encoded = new int[1];
        long len = readLength(b, pos, end, encoded);
        if (encoded[0] == 3) {
            long compressed = readLength(b, pos, end, new int[1]);
            long original = readLength(b, pos, end, new int[1]);
            if (compressed < 0 || original < 0 || pos[0] + compressed > end
                    || original > Math.min(Integer.MAX_VALUE - 8, Lzf.maxExpansion(compressed))) {
                return null;
            }
            byte[] out = Lzf.decompress(b, pos[0], (int) compressed, (int) original);
            pos[0] += (int) compressed;
            return out;
        }
        if (encoded[0] >= 0 || len < 0 || pos[0] + len > end) {
            return null;
        }
        byte[] s = java.util.Arrays.copyOfRange(b, pos[0], pos[0] + (int) len);
        pos[0] += (int) len;
        return s;
    }
}
