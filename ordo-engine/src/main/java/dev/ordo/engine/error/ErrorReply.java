package dev.ordo.engine.error;

import java.io.Serial;

/**
 * A failure that a client sees as a Redis error reply. The message is the exact reply text,
 * including its code prefix (for example {@code ERR value is not a valid float}); the texts live
 * in {@code dev.ordo.engine.error.text.Errors}. Thrown before anything is changed, so a rejected command has no effect.
 * Carries no stack trace: it is a reply, not a bug report.
 */
public final class ErrorReply extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * Creates an error reply with the exact text a client receives.
     *
     * @param replyText the reply, with its code prefix (ERR, WRONGTYPE ...)
     */
    public ErrorReply(String replyText) {
        super(replyText, null, false, false);
    }
}
