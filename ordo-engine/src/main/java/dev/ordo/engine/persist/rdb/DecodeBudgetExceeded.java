package dev.ordo.engine.persist.rdb;

/**
 * A DUMP payload would decode into more memory than its reader was allowed: its LZF strings
 * expand (up to 88 times) and its collections' elements become objects. Unchecked, so it passes
 * the format's own error handling untouched and RESTORE answers it as out of memory rather than
 * as bad data.
 */
public final class DecodeBudgetExceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DecodeBudgetExceeded(long budget, long offset) {
        super("the payload decodes into more than the " + budget + " bytes it may take (at byte offset " + offset + ")", null, false, false);
    }
}
