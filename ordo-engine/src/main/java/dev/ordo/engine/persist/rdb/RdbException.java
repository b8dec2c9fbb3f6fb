package dev.ordo.engine.persist.rdb;

import java.io.IOException;

/**
 * An RDB file that cannot be read: truncated, failing its checksum, malformed, or holding data
 * Ordo does not support. {@link #offset()} is the byte offset in the file where the problem was
 * found (for a problem inside a compressed or packed value, where that value's string starts),
 * and the message names it too.
 */
public final class RdbException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long offset;

    public RdbException(String message, long offset) {
        super(message + " (at byte offset " + offset + ")");
        this.offset = offset;
    }

    /** The byte offset in the file where the problem was found. */
    public long offset() {
        return offset;
    }
}
