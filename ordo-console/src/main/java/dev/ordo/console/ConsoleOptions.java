package dev.ordo.console;

import dev.ordo.patterns.registry.PatternRegistry;

import java.time.Duration;
import java.util.Objects;

/**
 * How a console behaves.
 *
 * @param writable whether write actions (edit a score, remove a member, retry or purge dead
 *                 letters) are allowed; read-only refuses them with 403
 * @param maxPage the most rows any one request returns (a page of a board, of dead letters, of
 *                keys); larger asks are refused, never served in part silently
 * @param sampleEvery how often the live feed reads the server's figures
 * @param history how many of those readings the overview keeps and charts
 * @param registryKey where the {@link PatternRegistry} the console finds patterns in lives
 */
public record ConsoleOptions(boolean writable, int maxPage, Duration sampleEvery, int history, String registryKey) {
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
     * @param registryKey where the pattern registry lives
     */
    public ConsoleOptions {
        if (maxPage < 1 || maxPage > MAX_PAGE) {
            throw new IllegalArgumentException("maxPage must be 1 to " + MAX_PAGE + ", got " + maxPage);
        }
        if (sampleEvery.toMillis() < 100) {
            throw new IllegalArgumentException("sampleEvery must be at least 100 ms, got " + sampleEvery);
        }
        Objects.requireNonNull(registryKey, "registryKey");
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
        return new ConsoleOptions(false, 500, Duration.ofSeconds(1), 600, PatternRegistry.KEY);
    }

    /**
     * These options with write actions allowed or not.
     *
     * @param on whether write actions are allowed
     * @return the new options
     */
    public ConsoleOptions withWritable(boolean on) {
        return new ConsoleOptions(on, maxPage, sampleEvery, history, registryKey);
    }

    /**
     * These options with at most {@code rows} rows a request.
     *
     * @param rows the most rows one request returns
     * @return the new options
     */
    public ConsoleOptions withMaxPage(int rows) {
        return new ConsoleOptions(writable, rows, sampleEvery, history, registryKey);
    }

    /**
     * These options with the pattern registry at {@code key}.
     *
     * @param key the registry's key
     * @return the new options
     */
    public ConsoleOptions withRegistryKey(String key) {
        return new ConsoleOptions(writable, maxPage, sampleEvery, history, key);
    }

    /**
     * These options reading the server every {@code every}.
     *
     * @param every the live feed's interval
     * @return the new options
     */
    public ConsoleOptions withSampleEvery(Duration every) {
        return new ConsoleOptions(writable, maxPage, every, history, registryKey);
    }
}
