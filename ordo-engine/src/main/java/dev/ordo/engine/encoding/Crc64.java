package dev.ordo.engine.encoding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The CRC-64 variant Redis puts at the end of RDB files and DUMP / FUNCTION DUMP payloads
 * ("CRC-64/Jones" in Redis's naming): polynomial {@code 0xad93d23594c935a9} processed bit-reflected
 * (so the shift register uses {@code 0x95ac9329ac4bc9b5}), initial value 0, no final XOR. The check
 * value of the ASCII bytes {@code 123456789} is {@code 0xe9c6d914c4b8d9ca}. Files store it as 8
 * bytes, least significant first.
 *
 * <p>Computed by slicing-by-8: table {@code k} holds the CRC contribution of a byte followed by
 * {@code k} zero bytes, so one step folds eight input bytes with eight independent table lookups
 * instead of eight dependent ones. A CRC can be continued: {@code update(update(0, a), b)} equals
 * the CRC of {@code a} followed by {@code b}.
 */
public final class Crc64 {
    private static final long POLY_REFLECTED = 0x95AC9329AC4BC9B5L;
    /** Eight tables of 256 entries back to back: table k starts at {@code k * 256}. */
    private static final long[] TABLES = new long[8 * 256];
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLY_REFLECTED : crc >>> 1;
            }
            TABLES[i] = crc;
        }
        for (int k = 1; k < 8; k++) {
            for (int i = 0; i < 256; i++) {
                long prev = TABLES[(k - 1) * 256 + i];
                TABLES[k * 256 + i] = TABLES[(int) (prev & 0xFF)] ^ (prev >>> 8);
            }
        }
    }

    private Crc64() {
    }

    /** The CRC of {@code b[off, off+len)}. */
    public static long of(byte[] b, int off, int len) {
        return update(0, b, off, len);
    }

    /** Continues {@code crc} (the CRC of the bytes so far; 0 to start) over {@code b[off, off+len)}. */
    public static long update(long crc, byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        long c = crc;
        for (int stop = end - 7; i < stop; i += 8) {
            c ^= (long) LONG_LE.get(b, i);
            c = TABLES[7 * 256 + (int) (c & 0xFF)]
                    ^ TABLES[6 * 256 + (int) ((c >>> 8) & 0xFF)]
                    ^ TABLES[5 * 256 + (int) ((c >>> 16) & 0xFF)]
                    ^ TABLES[4 * 256 + (int) ((c >>> 24) & 0xFF)]
                    ^ TABLES[3 * 256 + (int) ((c >>> 32) & 0xFF)]
                    ^ TABLES[2 * 256 + (int) ((c >>> 40) & 0xFF)]
                    ^ TABLES[256 + (int) ((c >>> 48) & 0xFF)]
                    ^ TABLES[(int) (c >>> 56)];
        }
        for (; i < end; i++) {
            c = TABLES[(int) ((c ^ b[i]) & 0xFF)] ^ (c >>> 8);
        }
        return c;
    }
}
