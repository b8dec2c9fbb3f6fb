package dev.ordo.engine.command;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.logging.Logger;

/**
 * INFO's error figures, counted as Redis counts them: {@code total_error_replies} and, per error
 * code, the {@code errorstat_<code>:count=N} lines of the errorstats section.
 *
 * <p>Every error reply is counted once, where it arises: a reply to a client, a command's error
 * inside a transaction or a script (even one that {@code pcall} swallows). A script that passes
 * such an error on does not count it again (see the scripting code's
 * {@code ignore_error_stats_update} mark).
 *
 * <p>The code is the text before the first space, looked for in the first 31 characters only;
 * without one the code is {@code ERR}. Codes are listed in byte order. Scripts can make up any
 * number of codes ({@code redis.error_reply}), so at most {@value #MAX_CODES} are kept, as Redis
 * 7.2 does: once that many exist, a new code is no longer added (known codes and the total go on
 * counting) until CONFIG RESETSTAT.
 *
 * <p>Errors also arise outside the engine lock (protocol errors, BUSY answers), so the methods
 * are synchronized.
 */
public final class ErrorStats {
    static final int MAX_CODES = 128;
    private static final int CODE_SEARCH = 31;
    private static final Logger LOG = Logger.getLogger(ErrorStats.class.getName());

    private final Map<String, long[]> byCode = new TreeMap<>();
    /** Written under this object's lock; read without it on every command. */
    private volatile long total;
    private boolean addingCodes = true;

    /**
     * Counts one error reply whose text (without the protocol's '-') is {@code text}.
     *
     * @param text the error, with its code
     */
    public synchronized void count(String text) {
        total++;
        String code = code(text);
        long[] n = byCode.get(code);
        if (n != null) {
            n[0]++;
        } else if (byCode.size() < MAX_CODES) {
            byCode.put(code, new long[] {1});
        } else if (addingCodes) {
            addingCodes = false;
            LOG.warning("Errorstats stopped adding new errors because the number of errors reached the limit of "
                    + MAX_CODES + " (scripts making up error codes?); CONFIG RESETSTAT starts again.");
        }
    }

    static String code(String text) {
        int space = text.indexOf(' ');
        return space >= 0 && space < CODE_SEARCH ? text.substring(0, space) : "ERR";
    }

    /**
     * Error replies counted in all (INFO's total_error_replies).
     *
     * @return the count
     */
    public long total() {
        return total;
    }

    /**
     * Calls {@code action} with each code and its count, codes in byte order.
     *
     * @param action called with each code and its count
     */
    public synchronized void forEach(BiConsumer<String, Long> action) {
        byCode.forEach((code, n) -> action.accept(code, n[0]));
    }

    /** CONFIG RESETSTAT. */
    public synchronized void reset() {
        byCode.clear();
        total = 0;
        addingCodes = true;
    }
}
