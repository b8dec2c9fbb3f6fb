package dev.ordo.patterns.store;

import java.io.Serial;

/** An error reply from the database, or a failure to reach it; the message is Redis's text. */
public final class StoreException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * An error whose message is {@code message} (Redis's text, for an error reply), caused by {@code cause} (may be null).
     *
     * @param message the error's text; for an error reply, the server's
     * @param cause what failed underneath, or null
     */
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * True for NOSCRIPT: the server does not know a script's SHA1 yet, and the adapter sends the source instead.
     *
     * @return whether the server did not know the script
     */
    public boolean isNoScript() {
        return getMessage() != null && getMessage().startsWith("NOSCRIPT");
    }
}
