package dev.ordo.engine.command;

import java.util.Locale;

/**
 * One reading of the memory figures that INFO memory, MEMORY STATS and MEMORY DOCTOR report,
 * with Redis's meanings where Redis has the figure. The "allocator" is the JVM's heap: allocated
 * is the heap in use, active and resident the heap committed.
 *
 * @param used          bytes counted toward the limit: dataset plus overhead
 * @param peak          the most {@code used} has been
 * @param startup       {@code used} when the server had just started
 * @param overhead      the key tables, client buffers and script cache
 * @param tables        the key tables alone
 * @param clients       the client buffers alone
 * @param scripts       the script cache alone
 * @param dataset       keys and values
 * @param rss           the process's resident set size
 * @param heapUsed      the heap in use, garbage included
 * @param heapCommitted the heap the JVM holds from the system
 * @param heapMax       the most heap the JVM may take ({@code -Xmx})
 * @param limit         the limit in force: maxmemory, or the heap's implicit one
 * @param implicitLimit whether {@code limit} comes from the heap because maxmemory is 0
 */
public record MemoryFigures(long used, long peak, long startup, long overhead, long tables, long clients, long scripts,
        long dataset, long rss, long heapUsed, long heapCommitted, long heapMax, long limit, boolean implicitLimit) {

    /**
     * used_memory_dataset_perc: the dataset's share of what was added since startup.
     *
     * @return the percentage
     */
    public double datasetPercentage() {
        long net = used - startup;
        return 100.0 * dataset / (net <= 0 ? 1 : net);
    }

    /**
     * used_memory_peak_perc.
     *
     * @return the percentage
     */
    public double peakPercentage() {
        return peak == 0 ? 0 : 100.0 * used / peak;
    }

    /**
     * mem_fragmentation_ratio: resident memory over used memory.
     *
     * @return the ratio
     */
    public double fragmentation() {
        return used == 0 ? 0 : (double) rss / used;
    }

    /**
     * allocator_frag_ratio: the committed heap over the heap in use.
     *
     * @return the ratio
     */
    public double heapFragmentation() {
        return heapUsed == 0 ? 0 : (double) heapCommitted / heapUsed;
    }

    /**
     * rss_overhead_ratio: resident memory over the committed heap.
     *
     * @return the ratio
     */
    public double rssOverhead() {
        return heapCommitted == 0 ? 0 : (double) rss / heapCommitted;
    }

    /** A figure with two decimals, as INFO prints ratios. */
    static String twoDecimals(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
