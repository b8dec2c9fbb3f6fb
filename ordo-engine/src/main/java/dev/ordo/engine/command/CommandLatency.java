package dev.ordo.engine.command;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One command's latency distribution for INFO latencystats, recorded as Redis records it: the
 * call's duration in whole microseconds, stored in nanoseconds in an HDR histogram covering 1 ns
 * to 1 s (longer calls count as 1 s) with 2 significant digits. A percentile is read as Redis's
 * C library reads it (the count at the percentile rounded to nearest, then the highest value
 * equivalent to the bucket reached), so the same calls print the same figures, e.g.
 * {@code p50=11.007}. LATENCY HISTOGRAM reads it as Redis's logarithmic walk does: at 1024 ns
 * and each doubling after it, the calls up to the top of the bucket holding that value.
 */
final class CommandLatency {
    private static final long LOWEST = 1;
    private static final long HIGHEST = 1_000_000_000L;
    /** Where LATENCY HISTOGRAM's walk starts, in ns; it goes on in powers of two. */
    private static final long FIRST_REPORTED = 1024;

    private static final byte[] CALLS = "calls".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HISTOGRAM_USEC = "histogram_usec".getBytes(StandardCharsets.US_ASCII);

    private final Histogram histogram = new Histogram(LOWEST, HIGHEST, 2);

    void record(long micros) {
        histogram.recordValue(Math.max(LOWEST, Math.min(HIGHEST, micros * 1000)));
    }

    /** The value at {@code percentile} (0 to 100) in nanoseconds; 0 when nothing was recorded. */
    long valueAt(double percentile) {
        long total = histogram.getTotalCount();
        if (total == 0) {
            return 0;
        }
        long wanted = Math.max(1, (long) (Math.min(percentile, 100.0) / 100 * total + 0.5));
        long seen = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            if (seen >= wanted) {
                return histogram.highestEquivalentValue(v.getValueIteratedTo());
            }
        }
        return histogram.getMaxValue();
    }

    /**
     * Writes LATENCY HISTOGRAM's map for this command: {@code calls}, and {@code histogram_usec},
     * a map from each reported bucket's top in whole microseconds to the calls that took at most
     * that long, listing only buckets that add calls.
     */
    void writeCumulative(ReplyWriter r) {
        long total = histogram.getTotalCount();
        List<long[]> rows = new ArrayList<>();
        long previous = 0;
        for (long level = FIRST_REPORTED; previous < total; level *= 2) {
            long top = histogram.highestEquivalentValue(Math.min(level, HIGHEST));
            long cumulative = histogram.getCountBetweenValues(0, top);
            if (cumulative > previous) {
                rows.add(new long[] {top / 1000, cumulative});
            }
            previous = cumulative;
        }
        r.mapHeader(2);
        r.bulk(CALLS);
        r.integer(total);
        r.bulk(HISTOGRAM_USEC);
        r.mapHeader(rows.size());
        for (long[] row : rows) {
            r.integer(row[0]);
            r.integer(row[1]);
        }
    }

    /** The INFO value: {@code p50=11.007,p99=20.095,...} for the given percentiles, in microseconds. */
    String describe(double[] percentiles) {
        StringBuilder out = new StringBuilder();
        for (double p : percentiles) {
            if (out.length() > 0) {
                out.append(',');
            }
            out.append('p').append(trimZeros(String.format(Locale.ROOT, "%f", p))).append('=')
                    .append(String.format(Locale.ROOT, "%.3f", valueAt(p) / 1000.0));
        }
        return out.toString();
    }

    private static String trimZeros(String fixed) {
        int end = fixed.length();
        while (end > 0 && fixed.charAt(end - 1) == '0') {
            end--;
        }
        if (end > 0 && fixed.charAt(end - 1) == '.') {
            end--;
        }
        return fixed.substring(0, end);
    }
}
