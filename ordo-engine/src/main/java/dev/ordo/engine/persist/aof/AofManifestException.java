package dev.ordo.engine.persist.aof;

import java.io.IOException;
import java.nio.file.Path;

/** A manifest that cannot be trusted: a malformed line (named by its number), or a list of files that breaks the layout's rules. */
public final class AofManifestException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** The 1-based line number, or 0 for the whole manifest. */
    private final int line;
    /** What is wrong, without the file and line. */
    private final String reason;

    /**
     * A manifest that cannot be trusted, and why.
     *
     * @param file the manifest
     * @param line the 1-based line number, or 0 when the problem is the manifest as a whole (for
     *             example one that lists no base and no incremental file)
     * @param reason what is wrong
     */
    public AofManifestException(Path file, int line, String reason) {
        super(file + (line > 0 ? ": line " + line : "") + ": " + reason);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    /**
     * The manifest; null once deserialised.
     *
     * @return the manifest's path
     */
    public Path file() {
        return file;
    }

    /**
     * The 1-based line number, 0 for the whole manifest.
     *
     * @return the line number
     */
    public int line() {
        return line;
    }

    /**
     * What is wrong, without the file and line.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
