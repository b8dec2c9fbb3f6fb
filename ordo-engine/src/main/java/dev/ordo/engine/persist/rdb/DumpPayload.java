package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.value.Value;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * The payload of DUMP / RESTORE and FUNCTION DUMP / FUNCTION RESTORE, in Redis's layout, so
 * payloads move between Ordo and Redis:
 * <pre>
 *   0                  n        n+2                n+10
 *   +------------------+--------+------------------+
 *   | body             | version| CRC-64           |
 *   | RDB-encoded      | 2 bytes| 8 bytes          |
 *   |                  | LE     | LE, of [0, n+2)  |
 *   +------------------+--------+------------------+
 * </pre>
 * For DUMP the body is one value as an RDB file holds it without its key: the type byte, then the
 * value ({@link RdbWriter} writes it, {@link RdbReader} reads it; bytes after the value are
 * ignored, as Redis ignores them). For FUNCTION DUMP it is a sequence of function records. The
 * version is the RDB version of the body's encoding: Ordo writes {@link Rdb#VERSION} (10, which
 * Redis 7.0 and 7.2 accept) and accepts up to {@link Rdb#MAX_READ_VERSION} (11, what Redis 7.2
 * writes). A payload counts as intact when it is at least 10 bytes long, its version is not newer
 * and its CRC-64 ({@link Crc64}) matches; nothing of it is read otherwise.
 */
public final class DumpPayload {
    private static final int FOOTER = 10;

    private DumpPayload() {
    }

    /** DUMP's payload for {@code value}; {@code compress} is {@code rdbcompression}. */
    public static byte[] of(Value value, boolean compress) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        RdbWriter writer = RdbWriter.forValues(out, compress);
        writer.entry(null, value, -1);
        writer.flush();
        return seal(out);
    }

    /** Appends the version and the CRC-64 to the body written to {@code body} and returns the payload. */
    public static byte[] seal(ByteArrayOutputStream body) {
        body.write(Rdb.VERSION & 0xFF);
        body.write(Rdb.VERSION >>> 8);
        byte[] b = body.toByteArray();
        long crc = Crc64.of(b, 0, b.length);
        byte[] payload = Arrays.copyOf(b, b.length + 8);
        for (int i = 0; i < 8; i++) {
            payload[b.length + i] = (byte) (crc >>> (8 * i));
        }
        return payload;
    }

    /** The length of the body of an intact payload (see the class comment), or -1. */
    public static int bodyLength(byte[] payload) {
        if (payload.length < FOOTER) {
            return -1;
        }
        int n = payload.length - FOOTER;
        int version = (payload[n] & 0xFF) | (payload[n + 1] & 0xFF) << 8;
        long crc = 0;
        for (int i = 0; i < 8; i++) {
            crc |= (payload[n + 2 + i] & 0xFFL) << (8 * i);
        }
        return version <= Rdb.MAX_READ_VERSION && crc == Crc64.of(payload, 0, n + 2) ? n : -1;
    }

    /**
     * The value in the body of an intact DUMP payload whose body is {@code bodyLength} bytes, in
     * the encoding Redis gives it on loading under {@code config}'s limits. Throws
     * {@link RdbException} when the body holds no value Ordo stores: malformed, truncated, an
     * empty collection, or a type Ordo does not have.
     */
    public static Value read(byte[] payload, int bodyLength, Config config) throws RdbException {
        Value value;
        try {
            value = RdbReader.readValue(payload, bodyLength, config);
        } catch (RdbException e) {
            throw e;
        } catch (IOException e) {
            throw new RdbException("unreadable value: " + e.getMessage(), 0);
        }
        if (value == null) {
            throw new RdbException("an empty collection", 1);
        }
        return value;
    }
}
