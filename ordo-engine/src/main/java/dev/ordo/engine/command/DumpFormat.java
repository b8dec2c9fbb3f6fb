package dev.ordo.engine.command;

import dev.ordo.engine.value.Value;

/**
 * DUMP's and RESTORE's view of the payload format (Redis's: the value as an RDB file holds it,
 * the RDB version and a CRC-64), which the persistence layer implements and the engine wires, so
 * that commands do not depend on the file format. Called under the engine lock.
 */
public interface DumpFormat {
    /**
     * The payload DUMP returns for {@code value}.
     *
     * @param value the value
     * @return the payload
     */
    byte[] dump(Value value);

    /**
     * The value a RESTORE payload holds, in the encoding Redis gives it on loading; throws
     * {@link dev.ordo.engine.error.ErrorReply} with {@code Errors.DUMP_PAYLOAD} when the payload's
     * version or checksum is wrong, with {@code Errors.BAD_DATA_FORMAT} when its content is.
     *
     * @param payload the payload
     * @return the value
     */
    Value restore(byte[] payload);
}
