package dev.ordo.engine.memory;

/**
 * The limits Ordo derives from the JVM's maximum heap when the configuration sets none, so that
 * no data set and no client can exhaust the heap (Redis's {@code maxmemory 0} means "no limit";
 * a JVM always has one, and going past it is fatal).
 *
 * <p>The rule, stated in the README:
 * <ul>
 *   <li><b>Data</b>: with {@code maxmemory 0} the effective limit is the maximum heap less a
 *       headroom of a quarter of it, at least 64 MB, and never under half the heap. Writes past it
 *       get Redis's OOM error; nothing is evicted (eviction needs an explicit maxmemory).</li>
 *   <li><b>Clients</b>: with {@code maxmemory-clients 0} the buffers of all clients together may
 *       use half of that headroom; past it the clients holding the most are closed first, as
 *       Redis's client eviction does. One client's query buffer may hold at most a quarter of the
 *       headroom, whatever {@code client-query-buffer-limit} says.</li>
 *   <li><b>One command's working memory</b> (LCS's table): at most a quarter of the headroom,
 *       whatever {@code proto-max-bulk-len} allows.</li>
 *   <li><b>One RESTORE's decoding</b> (LZF strings expanded, elements made objects): at most
 *       what the data limit above has left, checked before allocating.</li>
 * </ul>
 */
public final class HeapBudget {
    private static final long MIN_HEADROOM = 64L << 20;

    private final long maxHeap;

    /**
     * The budget of a heap of {@code maxHeap} bytes.
     *
     * @param maxHeap the heap's maximum size in bytes
     */
    public HeapBudget(long maxHeap) {
        this.maxHeap = maxHeap;
    }

    /**
     * The budget of this JVM's heap ({@code -Xmx}).
     *
     * @return the budget
     */
    public static HeapBudget ofThisJvm() {
        return new HeapBudget(Runtime.getRuntime().maxMemory());
    }

    /**
     * The heap's maximum size in bytes.
     *
     * @return the bytes
     */
    public long maxHeap() {
        return maxHeap;
    }

    /**
     * The bytes kept free of data for client buffers, scripts, transient copies and collections.
     *
     * @return the bytes
     */
    public long headroom() {
        return Math.min(maxHeap / 2, Math.max(maxHeap / 4, MIN_HEADROOM));
    }

    /**
     * The data limit that applies when {@code maxmemory} is 0.
     *
     * @return the bytes
     */
    public long implicitMaxmemory() {
        return maxHeap - headroom();
    }

    /**
     * The limit on all clients' buffers together that applies when {@code maxmemory-clients} is 0.
     *
     * @return the bytes
     */
    public long implicitClientsLimit() {
        return headroom() / 2;
    }

    /**
     * The most one client's pending input may hold, whatever {@code client-query-buffer-limit} allows.
     *
     * @return the bytes
     */
    public long queryBufferCap() {
        return headroom() / 4;
    }

    /**
     * The most transient memory one command may allocate for its own work, whatever the configuration allows.
     *
     * @return the bytes
     */
    public long commandWorkingMemoryCap() {
        return headroom() / 4;
    }
}
