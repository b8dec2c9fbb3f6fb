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
     * version or checksum is wrong, with {@code Errors.BAD_DATA_FORMAT} when its content is, and
     * with {@code Errors.OOM} when decoding it would allocate more than {@code decodeBudget}
     * bytes beyond the payload (compressed strings expand up to 88 times), before allocating them.
     *
     * @param payload      the payload
     * @param decodeBudget the most decoding may allocate beyond the payload's own bytes
     * @return the value
     */
    Value restore(byte[] payload, long decodeBudget);
}
