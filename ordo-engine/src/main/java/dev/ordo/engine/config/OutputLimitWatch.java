package dev.ordo.engine.config;

import java.util.function.LongSupplier;

/**
 * Judges one client's unsent output against its class of {@code client-output-buffer-limit} as
 * time passes: broken at once at the hard limit, or once it has stayed at or over the soft
 * limit for more than the soft seconds (the time resets when it drops under). One per client,
 * called from one thread at a time.
 */
public final class OutputLimitWatch {
    /** When the output first stayed at or over the soft limit, in ms; 0 while under it. */
    private long overSoftSince;

    /** A watch of a client whose output has not been over the soft limit yet. */
    public OutputLimitWatch() {
    }

    /**
     * Whether {@code unsent} bytes now break {@code limit}. The clock is read only at or over the
     * soft limit: this runs after every command, and under the limit the time does not matter.
     *
     * @param limit  the client's class of limit
     * @param unsent its unsent output, in bytes
     * @param clock  the time now, in milliseconds
     * @return true when the client must be disconnected
     */
    public boolean breaks(OutputBufferLimits.Limit limit, long unsent, LongSupplier clock) {
        boolean hard = limit.hard() > 0 && unsent >= limit.hard();
        boolean soft = false;
        if (limit.soft() > 0 && unsent >= limit.soft()) {
            long nowMillis = clock.getAsLong();
            if (overSoftSince == 0) {
                overSoftSince = nowMillis;
            } else {
                soft = nowMillis - overSoftSince > limit.softSeconds() * 1000;
            }
        } else {
            overSoftSince = 0;
        }
        return hard || soft;
    }
}
