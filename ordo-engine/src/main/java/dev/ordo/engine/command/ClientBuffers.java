package dev.ordo.engine.command;

/**
 * What a client's connection holds in memory, as CLIENT LIST and CLIENT INFO show it. The
 * transport keeps the figures; they may be read from any thread and lag a little behind the
 * connection's own thread. Embedded clients hold no buffers ({@link #NONE}).
 */
public interface ClientBuffers {
    /** A client without buffers. */
    ClientBuffers NONE = new ClientBuffers() {
    };

    /**
     * Input received and not yet parsed (qbuf).
     *
     * @return the bytes
     */
    default long queryBuffer() {
        return 0;
    }

    /**
     * Room left in the input buffer (qbuf-free).
     *
     * @return the bytes
     */
    default long queryBufferFree() {
        return 0;
    }

    /**
     * A command's arguments parsed so far, and commands parsed but waiting their turn (argv-mem).
     *
     * @return the bytes
     */
    default long argvMemory() {
        return 0;
    }

    /**
     * The reply buffer's size (rbs).
     *
     * @return the bytes
     */
    default long replyBufferSize() {
        return 0;
    }

    /**
     * Bytes in the reply buffer (obl).
     *
     * @return the bytes
     */
    default long replyBufferUsed() {
        return 0;
    }

    /**
     * Reply blocks waiting beyond the reply buffer (oll).
     *
     * @return the number of blocks
     */
    default long outputListLength() {
        return 0;
    }

    /**
     * Reply bytes not yet sent, beyond the reply buffer: spilled or queued in the transport (omem).
     *
     * @return the bytes
     */
    default long outputMemory() {
        return 0;
    }

    /**
     * Everything the connection holds, the transaction queue aside (tot-mem less multi-mem).
     *
     * @return the bytes
     */
    default long totalMemory() {
        return 0;
    }
}
