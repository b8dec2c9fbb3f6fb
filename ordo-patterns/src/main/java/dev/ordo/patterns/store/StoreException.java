package dev.ordo.patterns.store;

import java.io.Serial;

/** An error reply from the database, or a failure to reach it; the message is Redis's text. */
public final class StoreException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    /** True for NOSCRIPT: the server does not know a script's SHA1 yet. */
    boolean noScript() {
        return getMessage() != null && getMessage().startsWith("NOSCRIPT");
    }
}
