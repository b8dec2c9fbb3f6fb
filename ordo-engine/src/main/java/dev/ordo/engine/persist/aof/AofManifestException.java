package dev.ordo.engine.persist.aof;

import java.io.IOException;
import java.nio.file.Path;

/** A manifest that cannot be trusted: a malformed line (named by its number), or a list of files that breaks the layout's rules. */
public final class AofManifestException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final int line;
    private final String reason;

    /**
     * @param line the 1-based line number, or 0 when the problem is the manifest as a whole (for
     *             example one that lists no base and no incremental file)
     */
    public AofManifestException(Path file, int line, String reason) {
        super(file + (line > 0 ? ": line " + line : "") + ": " + reason);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    public Path file() {
        return file;
    }

    /** The 1-based line number, 0 for the whole manifest. */
    public int line() {
        return line;
    }

    public String reason() {
        return reason;
    }
}
