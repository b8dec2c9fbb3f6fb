package dev.ordo.engine.script;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Stops a script that would take the server's heap: a script that allocates without bound
 * must not end in an OutOfMemoryError somewhere else. Cheap enough to ask every 65,536 Lua
 * instructions.
 *
 * <p>The verdict rests on memory that is really held, not on garbage: the reading is what the
 * last garbage collection left in the old generation, as a fraction of its maximum. Over {@link
 * #LIMIT}, that collection may still have left garbage (a young collection does not clean the
 * old generation, and a full one may have run while a stopped script still held its memory),
 * so the guard asks for a collection of its own and judges what that one leaves. It asks at most
 * once per {@link #MIN_INTERVAL_NANOS}, keeping that verdict in between, except just after a
 * script was stopped for memory ({@link #scriptStopped}): what that script held is garbage now,
 * so the next verdict needs a collection again, and a harmless script that follows a stopped
 * memory bomb is not refused for the bomb's leftovers.
 *
 * <p>Thread-safe: the engines of one JVM share {@link #SYSTEM}.
 */
final class HeapGuard {
    /** The fraction of the old generation held after a collection above which scripts are stopped. */
    static final double LIMIT = 0.90;
    /** The least time between two collections the guard asks for, unless a script was stopped since. */
    static final long MIN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The guard of this JVM's heap. */
    static final HeapGuard SYSTEM = new HeapGuard(System::nanoTime, System::gc, HeapGuard::heldAfterLastCollection);

    private static final List<MemoryPoolMXBean> OLD = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported() && p.isUsageThresholdSupported())
            .toList();

    private final LongSupplier nanoTime;
    private final Runnable collect;
    private final DoubleSupplier held;
    private boolean collectedOnce;
    private long lastCollectionNanos;
    private boolean verdict;
    private boolean stale;

    /**
     * A guard reading {@code held} (the fraction of the old generation the last collection left),
     * running {@code collect} (a full collection) when that is over the limit, timed by {@code nanoTime}.
     */
    HeapGuard(LongSupplier nanoTime, Runnable collect, DoubleSupplier held) {
        this.nanoTime = nanoTime;
        this.collect = collect;
        this.held = held;
    }

    /** Whether the heap is nearly exhausted by memory that is really held, judged after a collection the guard asked for. */
    synchronized boolean exhausted() {
        if (held.getAsDouble() <= LIMIT) {
            return false;
        }
        if (stale || !collectedOnce || nanoTime.getAsLong() - lastCollectionNanos >= MIN_INTERVAL_NANOS) {
            collect.run();
            collectedOnce = true;
            stale = false;
            lastCollectionNanos = nanoTime.getAsLong();
            verdict = held.getAsDouble() > LIMIT;
        }
        return verdict;
    }

    /** A script was stopped for memory: the next verdict over the limit needs a collection of its own. */
    synchronized void scriptStopped() {
        stale = true;
    }

    /** The largest fraction of a heap pool with collection figures (the old generation) that the last collection left. */
    private static double heldAfterLastCollection() {
        double most = 0;
        for (MemoryPoolMXBean pool : OLD) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            long max = pool.getUsage().getMax();
            if (afterGc != null && max > 0) {
                most = Math.max(most, afterGc.getUsed() / (double) max);
            }
        }
        return most;
    }
}
