package dev.ordo.engine.persist.aof;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A command file is damaged at a byte where a complete, well-formed record had to be: a wrong
 * prefix byte, a bad number, a missing CRLF, an out-of-range count or length, EXEC without MULTI,
 * MULTI inside MULTI. A file that merely <em>ends</em> inside a record is not damaged but torn, and
 * {@link AofReader} reports that in its result instead of throwing.
 */
public final class AofFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The file, as given to the reader. Not serialised: paths are not serialisable. */
    private final transient Path file;
    /** The offset of the first byte that does not fit the format. */
    private final long offset;
    /** What was wrong there, without the file and offset. */
    private final String reason;
    /** The start of the damaged unit, or -1 when unknown. */
    private final long validUpTo;

    /**
     * Damage at {@code offset} with nothing known about where the valid prefix ends.
     *
     * @param file the file read
     * @param offset the offset of the first byte that does not fit the format
     * @param reason what was wrong there
     */
    public AofFormatException(Path file, long offset, String reason) {
        this(file, offset, reason, -1);
    }

    /**
     * Damage at byte {@code offset} of {@code file}; {@code validUpTo} is the start of the unit
     * (record, annotation line or MULTI block) that contains it, so every byte before it is made of
     * complete, well-formed units. -1 when unknown.
     *
     * @param file the file read
     * @param offset the offset of the first byte that does not fit the format
     * @param reason what was wrong there
     * @param validUpTo the start of the damaged unit
     */
    public AofFormatException(Path file, long offset, String reason, long validUpTo) {
        super(file + ": corrupt at byte offset " + offset + ": " + reason
                + (validUpTo >= 0 ? " (valid up to offset " + validUpTo + ")" : ""));
        this.file = file;
        this.offset = offset;
        this.reason = reason;
        this.validUpTo = validUpTo;
    }

    /**
     * The file, as given to the reader; null once deserialised.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    /**
     * The offset of the first byte that does not fit the format.
     *
     * @return the offset
     */
    public long offset() {
        return offset;
    }

    /**
     * What was wrong there, without the file and offset.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }

    /**
     * The start of the damaged unit: all before it is complete and well formed; -1 when unknown.
     *
     * @return the offset, or -1
     */
    public long validUpTo() {
        return validUpTo;
    }
}
