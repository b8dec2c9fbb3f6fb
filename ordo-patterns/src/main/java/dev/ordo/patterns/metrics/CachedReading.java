package dev.ordo.patterns.metrics;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Figures read from the store by {@link #refresh()} and kept for gauges, so a scrape reads
 * memory only. NaN until the first read, and after a read that failed (a stale figure would look
 * like a healthy one).
 */
final class CachedReading {
    private final Supplier<double[]> read;
    private final int size;
    private volatile double[] values;

    CachedReading(int size, Supplier<double[]> read) {
        this.size = size;
        this.read = read;
        this.values = nan(size);
    }

    void refresh() {
        double[] fresh;
        try {
            fresh = read.get();
        } catch (RuntimeException e) {
            fresh = nan(size);
        }
        values = fresh;
    }

    double value(int i) {
        return values[i];
    }

    private static double[] nan(int size) {
        double[] v = new double[size];
        Arrays.fill(v, Double.NaN);
        return v;
    }
}
