package dev.ordo.engine.keyspace;

import java.util.random.RandomGenerator;

/**
 * Redis's LFU access counter (OBJECT FREQ, {@code redis-cli --hotkeys}), kept in a key's access
 * field while an LFU maxmemory policy is selected, in Redis's layout: bits 8 to 23 hold the minute
 * (mod 2^16) the counter was last brought up to date, bits 0 to 7 the counter itself.
 *
 * <p>A new key starts at {@value #INIT}. An access first takes one off for each
 * {@code lfu-decay-time} minutes since the last update, then adds one with probability
 * {@code 1 / ((counter - 5) * lfu-log-factor + 1)} (so roughly logarithmically in the number of
 * accesses), saturating at 255. Switching policy reinterprets the field, as in Redis ("LRU and LFU
 * data will take some time to adjust").
 */
public final class Lfu {
    /** A new key's counter (Redis's LFU_INIT_VAL). */
    public static final int INIT = 5;

    /** What LFU counting reads from the configuration, live. */
    public interface Settings {
        /** Counting is off: the field holds the last access time. */
        Settings OFF = new Settings() {
            @Override
            public boolean active() {
                return false;
            }

            @Override
            public long logFactor() {
                return 10;
            }

            @Override
            public long decayTime() {
                return 1;
            }
        };

        /**
         * Whether an LFU maxmemory policy is selected.
         *
         * @return whether LFU counting is on
         */
        boolean active();

        /**
         * {@code lfu-log-factor}.
         *
         * @return the factor
         */
        long logFactor();

        /**
         * {@code lfu-decay-time}, in minutes; 0 never decays.
         *
         * @return the minutes
         */
        long decayTime();
    }

    private Lfu() {
    }

    /** The field of a key created at {@code nowMillis}. */
    static long created(long nowMillis) {
        return withCounter(INIT, nowMillis);
    }

    /** The field holding {@code counter} (0 to 255), brought up to date at {@code nowMillis} (RESTORE ... FREQ). */
    static long withCounter(int counter, long nowMillis) {
        return minutes(nowMillis) << 8 | counter;
    }

    /** The field after an access at {@code nowMillis}: decayed, then perhaps incremented. */
    static long accessed(long field, long nowMillis, Settings settings, RandomGenerator random) {
        long counter = counter(field, nowMillis, settings.decayTime());
        if (counter < 255) {
            double base = Math.max(0, counter - INIT);
            if (random.nextDouble() < 1.0 / (base * settings.logFactor() + 1)) {
                counter++;
            }
        }
        return minutes(nowMillis) << 8 | counter;
    }

    /**
     * The counter the field holds at {@code nowMillis}, decayed but not stored back (OBJECT FREQ).
     *
     * @param field the access field
     * @param nowMillis the current time, in ms
     * @param decayTime {@code lfu-decay-time}, in minutes
     * @return the counter, 0 to 255
     */
    public static long counter(long field, long nowMillis, long decayTime) {
        long last = field >>> 8 & 0xFFFF;
        long counter = field & 0xFF;
        long now = minutes(nowMillis);
        long elapsed = now >= last ? now - last : 65535 - last + now;
        long periods = decayTime > 0 ? elapsed / decayTime : 0;
        return periods > counter ? 0 : counter - periods;
    }

    private static long minutes(long millis) {
        return millis / 60_000 & 0xFFFF;
    }
}
