package dev.ordo.engine.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The latency monitor (LATENCY): per event class, named as Redis names them ({@code command},
 * {@code fast-command}, {@code expire-cycle}, {@code eviction-cycle}, {@code aof-write},
 * {@code aof-fsync-always}), the spikes that lasted at
 * least {@code latency-monitor-threshold} milliseconds. A threshold of 0 (the default) records
 * nothing; what was recorded stays until LATENCY RESET.
 *
 * <p>Invariants of each event's series: a ring of {@link #SAMPLES} slots where {@code next} is
 * the slot the next sample takes and the one before it holds the newest; a slot whose time is 0
 * was never used; no two used slots share a second (a spike in the second of the newest sample
 * raises that sample to the larger latency instead of taking a slot); {@code allTimeMax} is at
 * least every latency ever recorded, evicted ones included. Times are unix seconds from the
 * keyspace's clock. Thread-safe: the append-only file's writers record from their own threads;
 * a reader's successive calls may see events added in between, never removed (only RESET,
 * under the engine lock, removes).
 */
public final class LatencyMonitor {
    /** The samples each event keeps, as Redis keeps. */
    static final int SAMPLES = 160;

    /** One second's worst spike: when (unix seconds) and how long (ms). */
    record Sample(long timeSeconds, long millis) {
    }

    /** The figures LATENCY DOCTOR reports for one event, in ms; period is seconds since the oldest sample (at least 1). */
    record Stats(int samples, long average, long meanDeviation, long min, long max, long period) {
    }

    /** One event's ring of samples. */
    private static final class Series {
        final long[] times = new long[SAMPLES];
        final long[] millis = new long[SAMPLES];
        int next;
        long allTimeMax;

        void add(long second, long latency) {
            allTimeMax = Math.max(allTimeMax, latency);
            int newest = (next + SAMPLES - 1) % SAMPLES;
            if (times[newest] == second) {
                millis[newest] = Math.max(millis[newest], latency);
                return;
            }
            times[next] = second;
            millis[next] = latency;
            next = (next + 1) % SAMPLES;
        }

        List<Sample> history() {
            List<Sample> out = new ArrayList<>();
            for (int k = 0; k < SAMPLES; k++) {
                int slot = (next + k) % SAMPLES;
                if (times[slot] != 0) {
                    out.add(new Sample(times[slot], millis[slot]));
                }
            }
            return out;
        }
    }

    private final LongSupplier thresholdMillis;
    private final LongSupplier clockMillis;
    private final Map<String, Series> events = new LinkedHashMap<>();

    /**
     * A monitor that keeps spikes of at least {@code thresholdMillis} (0: none), timed by {@code clockMillis}.
     *
     * @param thresholdMillis reads {@code latency-monitor-threshold}
     * @param clockMillis the clock, in ms
     */
    public LatencyMonitor(LongSupplier thresholdMillis, LongSupplier clockMillis) {
        this.thresholdMillis = thresholdMillis;
        this.clockMillis = clockMillis;
    }

    /**
     * Records that {@code event} took {@code millis} ms, if the monitor is on and that reaches its threshold.
     *
     * @param event the event's name
     * @param millis how long it took
     */
    public void sample(String event, long millis) {
        long threshold = thresholdMillis.getAsLong();
        if (threshold > 0 && millis >= threshold) {
            record(event, millis);
        }
    }

    private synchronized void record(String event, long millis) {
        events.computeIfAbsent(event, e -> new Series()).add(nowSeconds(), millis);
    }

    /** Whether sampling is on (a threshold above 0). */
    boolean enabled() {
        return thresholdMillis.getAsLong() > 0;
    }

    /** The threshold in ms (0: off). */
    long threshold() {
        return thresholdMillis.getAsLong();
    }

    /** The current unix time in seconds, the clock samples are stamped with. */
    long nowSeconds() {
        return clockMillis.getAsLong() / 1000;
    }

    /**
     * The events with samples, in the order they first had one.
     *
     * @return the events' names
     */
    public synchronized List<String> events() {
        return List.copyOf(events.keySet());
    }

    /** The event's samples, oldest first; empty for an event without any. */
    synchronized List<Sample> history(String event) {
        Series s = events.get(event);
        return s == null ? Collections.emptyList() : s.history();
    }

    /** The event's worst latency ever, in ms (0 without samples). */
    synchronized long allTimeMax(String event) {
        Series s = events.get(event);
        return s == null ? 0 : s.allTimeMax;
    }

    /** Forgets every event, or those named (case-insensitively); returns how many were forgotten. */
    synchronized int reset(List<String> names) {
        int before = events.size();
        if (names.isEmpty()) {
            events.clear();
        } else {
            events.keySet().removeIf(event -> names.stream().anyMatch(event::equalsIgnoreCase));
        }
        return before - events.size();
    }

    /** Redis's figures over the event's kept samples: count, average, mean absolute deviation, range and period. */
    Stats stats(String event) {
        List<Sample> samples = history(event);
        if (samples.isEmpty()) {
            return new Stats(0, 0, 0, 0, 0, 0);
        }
        long sum = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long oldest = Long.MAX_VALUE;
        for (Sample s : samples) {
            sum += s.millis();
            min = Math.min(min, s.millis());
            max = Math.max(max, s.millis());
            oldest = Math.min(oldest, s.timeSeconds());
        }
        long average = sum / samples.size();
        long deviations = 0;
        for (Sample s : samples) {
            deviations += Math.abs(average - s.millis());
        }
        long period = Math.max(1, nowSeconds() - oldest);
        return new Stats(samples.size(), average, deviations / samples.size(), min, max, period);
    }
}
