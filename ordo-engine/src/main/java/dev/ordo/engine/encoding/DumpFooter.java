package dev.ordo.engine.encoding;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * The footer Redis puts after a DUMP or FUNCTION DUMP body, so payloads move between Ordo and
 * Redis:
 * <pre>
 *   0                  n        n+2                n+10
 *   +------------------+--------+------------------+
 *   | body             | version| CRC-64           |
 *   | RDB-encoded      | 2 bytes| 8 bytes          |
 *   |                  | LE     | LE, of [0, n+2)  |
 *   +------------------+--------+------------------+
 * </pre>
 * The version is the RDB version of the body's encoding: Ordo writes {@link #VERSION} (10, which
 * Redis 7.0 and 7.2 accept) and accepts up to {@link #MAX_READ_VERSION} (11, what Redis 7.2
 * writes). A payload counts as intact when it is at least 10 bytes long, its version is not newer
 * and its CRC-64 ({@link Crc64}) matches; nothing of it is read otherwise.
 */
public final class DumpFooter {
    /** The RDB version Ordo writes, in files and payloads. */
    public static final int VERSION = 10;
    /** The newest RDB version Ordo reads. */
    public static final int MAX_READ_VERSION = 11;
    private static final int LENGTH = 10;

    private DumpFooter() {
    }

    /** The payload of the body written to {@code body}: it, then the footer of {@link #VERSION}. */
    public static byte[] seal(ByteArrayOutputStream body) {
        return framed(body.toByteArray(), VERSION);
    }

    /** {@code body}, then the footer of RDB version {@code version}: the version and the CRC-64 of both. */
    public static byte[] framed(byte[] body, int version) {
        byte[] payload = Arrays.copyOf(body, body.length + LENGTH);
        payload[body.length] = (byte) version;
        payload[body.length + 1] = (byte) (version >>> 8);
        long crc = Crc64.of(payload, 0, body.length + 2);
        for (int i = 0; i < 8; i++) {
            payload[body.length + 2 + i] = (byte) (crc >>> (8 * i));
        }
        return payload;
    }

    /** The length of the body of an intact payload (see the class comment), or -1. */
    public static int bodyLength(byte[] payload) {
        if (payload.length < LENGTH) {
            return -1;
        }
        int n = payload.length - LENGTH;
        int version = (payload[n] & 0xFF) | (payload[n + 1] & 0xFF) << 8;
        long crc = 0;
        for (int i = 0; i < 8; i++) {
            crc |= (payload[n + 2 + i] & 0xFFL) << (8 * i);
        }
        return version <= MAX_READ_VERSION && crc == Crc64.of(payload, 0, n + 2) ? n : -1;
    }
}
