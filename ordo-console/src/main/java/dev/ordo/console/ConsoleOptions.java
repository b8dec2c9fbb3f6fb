package dev.ordo.console;

import java.time.Duration;

/**
 * How a console behaves.
 *
 * @param writable whether write actions (edit a score, remove a member, retry or purge dead
 *                 letters) are allowed; read-only refuses them with 403
 * @param maxPage the most rows any one request returns (a page of a board, of dead letters, of
 *                keys); larger asks are refused, never served in part silently
 * @param sampleEvery how often the live feed reads the server's figures
 * @param history how many of those readings the overview keeps and charts
 */
public record ConsoleOptions(boolean writable, int maxPage, Duration sampleEvery, int history) {
    /** The most rows a request may ask for, whatever the options say. */
    public static final int MAX_PAGE = 1000;

    /**
     * Refuses a page limit outside 1 to {@link #MAX_PAGE}, a sample interval under 100 ms, and a
     * history outside 1 to 86,400 readings.
     *
     * @param writable whether write actions are allowed
     * @param maxPage the most rows one request returns
     * @param sampleEvery how often the live feed reads the server's figures
     * @param history how many readings the overview keeps
     */
    public ConsoleOptions {
        if (maxPage < 1 || maxPage > MAX_PAGE) {
            throw new IllegalArgumentException("maxPage must be 1 to " + MAX_PAGE + ", got " + maxPage);
        }
        if (sampleEvery.toMillis() < 100) {
            throw new IllegalArgumentException("sampleEvery must be at least 100 ms, got " + sampleEvery);
        }
        if (history < 1 || history > 86_400) {
            throw new IllegalArgumentException("history must be 1 to 86400 readings, got " + history);
        }
    }

    /**
     * Read-only, pages of at most 500 rows, a reading a second and ten minutes of them.
     *
     * @return the defaults
     */
    public static ConsoleOptions readOnly() {
        return new ConsoleOptions(false, 500, Duration.ofSeconds(1), 600);
    }

    /**
     * These options with write actions allowed or not.
     *
     * @param on whether write actions are allowed
     * @return the new options
     */
    public ConsoleOptions withWritable(boolean on) {
        return new ConsoleOptions(on, maxPage, sampleEvery, history);
    }
}
