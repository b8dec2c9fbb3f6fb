package dev.ordo.engine.command;

/**
 * INFO's {@code instantaneous_ops_per_sec}, {@code instantaneous_input_kbps} and {@code
 * instantaneous_output_kbps}, computed as Redis does (trackInstantaneousMetric): every {@link
 * #SAMPLE_PERIOD_MILLIS} a sample of how fast a counter grew since the previous sample, per
 * second, kept in a ring of 16; a figure is the integer mean of the ring, so it covers the last
 * 1.6 seconds. A counter that went down (reset, or the network server closed) counts as no growth.
 * Not thread-safe: the engine samples and reads it under its lock.
 */
public final class InstantaneousMetrics {
    /** How often the engine takes a sample. */
    public static final long SAMPLE_PERIOD_MILLIS = 100;
    private static final int SAMPLES = 16;

    private final Metric commands = new Metric();
    private final Metric input = new Metric();
    private final Metric output = new Metric();

    /**
     * Records one sample of each counter, read at {@code nowMillis}.
     *
     * @param nowMillis the time of the sample, in ms
     * @param totalCommands the commands processed so far
     * @param transport the transport's byte counters
     */
    public void sample(long nowMillis, long totalCommands, TransportStats transport) {
        commands.track(nowMillis, totalCommands);
        input.track(nowMillis, transport.inputBytes());
        output.track(nowMillis, transport.outputBytes());
    }

    /**
     * Commands per second.
     *
     * @return the rate
     */
    public long opsPerSec() {
        return commands.mean();
    }

    /**
     * Network input in KiB per second.
     *
     * @return the rate
     */
    public double inputKbps() {
        return input.mean() / 1024.0;
    }

    /**
     * Network output in KiB per second.
     *
     * @return the rate
     */
    public double outputKbps() {
        return output.mean() / 1024.0;
    }

    /**
     * Forgets every sample; the counters start again from 0 at {@code nowMillis} (CONFIG RESETSTAT).
     *
     * @param nowMillis the time, in ms
     */
    public void reset(long nowMillis) {
        commands.reset(nowMillis);
        input.reset(nowMillis);
        output.reset(nowMillis);
    }

    /** One counter's ring of per-second rates. */
    private static final class Metric {
        private final long[] samples = new long[SAMPLES];
        private int next;
        private boolean started;
        private long lastMillis;
        private long lastReading;

        void track(long nowMillis, long reading) {
            if (started) {
                long elapsed = nowMillis - lastMillis;
                long growth = reading - lastReading;
                samples[next] = elapsed > 0 && growth > 0 ? growth * 1000 / elapsed : 0;
                next = (next + 1) % SAMPLES;
            }
            started = true;
            lastMillis = nowMillis;
            lastReading = reading;
        }

        long mean() {
            long sum = 0;
            for (long s : samples) {
                sum += s;
            }
            return sum / SAMPLES;
        }

        void reset(long nowMillis) {
            java.util.Arrays.fill(samples, 0);
            next = 0;
            started = true;
            lastMillis = nowMillis;
            lastReading = 0;
        }
    }
}
