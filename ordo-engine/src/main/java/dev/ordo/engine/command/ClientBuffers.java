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

    /** Input received and not yet parsed (qbuf). */
    default long queryBuffer() {
        return 0;
    }

    /** Room left in the input buffer (qbuf-free). */
    default long queryBufferFree() {
        return 0;
    }

    /** A command's arguments parsed so far, and commands parsed but waiting their turn (argv-mem). */
    default long argvMemory() {
        return 0;
    }

    /** The reply buffer's size (rbs). */
    default long replyBufferSize() {
        return 0;
    }

    /** Bytes in the reply buffer (obl). */
    default long replyBufferUsed() {
        return 0;
    }

    /** Reply blocks waiting beyond the reply buffer (oll). */
    default long outputListLength() {
        return 0;
    }

    /** Reply bytes not yet sent, beyond the reply buffer: spilled or queued in the transport (omem). */
    default long outputMemory() {
        return 0;
    }

    /** Everything the connection holds, the transaction queue aside (tot-mem less multi-mem). */
    default long totalMemory() {
        return 0;
    }
}
