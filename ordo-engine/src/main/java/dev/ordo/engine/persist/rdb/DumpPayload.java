package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.encoding.DumpFooter;
import dev.ordo.engine.value.Value;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * DUMP's payload for one value and RESTORE's reading of it: the body is the value as an RDB file
 * holds it without its key (the type byte, then the value; {@link RdbWriter} writes it,
 * {@link RdbReader} reads it; bytes after the value are ignored, as Redis ignores them), framed
 * by {@link DumpFooter} (RDB version and CRC-64).
 */
public final class DumpPayload {
    private DumpPayload() {
    }

    /** DUMP's payload for {@code value}; {@code compress} is {@code rdbcompression}. */
    public static byte[] of(Value value, boolean compress) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        RdbWriter writer = RdbWriter.forValues(out, compress);
        writer.entry(null, value, -1);
        writer.flush();
        return DumpFooter.seal(out);
    }

    /**
     * The value in the body of an intact DUMP payload whose body is {@code bodyLength} bytes, in
     * the encoding Redis gives it on loading under {@code config}'s limits. Throws
     * {@link RdbException} when the body holds no value Ordo stores: malformed, truncated, an
     * empty collection, or a type Ordo does not have; {@link DecodeBudgetExceeded} as soon as
     * decoding would allocate more than {@code decodeBudget} bytes beyond the payload.
     */
    public static Value read(byte[] payload, int bodyLength, Config config, long decodeBudget) throws RdbException {
        Value value;
        try {
            value = RdbReader.readValue(payload, bodyLength, config, decodeBudget);
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
