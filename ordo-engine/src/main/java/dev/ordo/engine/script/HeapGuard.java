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
 * <p>Between those checks a script that keeps what it allocates can fill a small heap (64 KiB
 * strings, 65,536 instructions: some 800 MB), and the JVM's first OutOfMemoryError ends the
 * server ({@code -XX:+ExitOnOutOfMemoryError}). So a script is also checked each time it has
 * allocated a sixteenth of the heap ({@link #ALLOCATION_BUDGET}, measured by the JVM's per-thread
 * allocation counter): {@link #exhaustedNow} then looks at the whole heap as it is, garbage and
 * all, and only when that is over the limit asks for a collection (not rate-limited: the
 * allocation paces it, a collection per sixteenth of the heap at most) and judges what it leaves.
 *
 * <p>Thread-safe: the engines of one JVM share {@link #SYSTEM}.
 */
final class HeapGuard {
    /** The fraction of the old generation held after a collection above which scripts are stopped. */
    static final double LIMIT = 0.90;
    /** The heap a script may not take, whatever its size, in the allocation-paced check. */
    static final long HEADROOM = 32L << 20;
    /** The least time between two collections the guard asks for, unless a script was stopped since. */
    static final long MIN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The guard of this JVM's heap. */
    static final HeapGuard SYSTEM = new HeapGuard(System::nanoTime, System::gc, HeapGuard::heldAfterLastCollection,
            HeapGuard::heldNow);
    /** The JVM's per-thread allocation counter, where it has one. */
    private static final com.sun.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean()
            instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported() ? t : null;

    private static final List<MemoryPoolMXBean> OLD = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported() && p.isUsageThresholdSupported())
            .toList();

    private final LongSupplier nanoTime;
    private final Runnable collect;
    private final DoubleSupplier held;
    private final DoubleSupplier heldNow;
    private boolean collectedOnce;
    private long lastCollectionNanos;
    private boolean verdict;
    private boolean stale;

    /**
     * A guard reading {@code held} (the fraction of the old generation the last collection left),
     * running {@code collect} (a full collection) when that is over the limit, timed by {@code nanoTime}.
     */
    HeapGuard(LongSupplier nanoTime, Runnable collect, DoubleSupplier held, DoubleSupplier heldNow) {
        this.nanoTime = nanoTime;
        this.collect = collect;
        this.held = held;
        this.heldNow = heldNow;
    }

    /**
     * After a script allocated {@link #ALLOCATION_BUDGET} bytes: whether the heap is nearly
     * exhausted, judged after a collection when the heap, garbage included, is over the limit now.
     */
    synchronized boolean exhaustedNow() {
        double limit = allocationLimit();
        if (held.getAsDouble() <= limit && heldNow.getAsDouble() <= limit) {
            return false;
        }
        collectAndJudge(limit);
        return verdict;
    }

    private void collectAndJudge(double limit) {
        collect.run();
        collectedOnce = true;
        stale = false;
        lastCollectionNanos = nanoTime.getAsLong();
        verdict = held.getAsDouble() > limit;
    }

    /**
     * The limit of the allocation-paced check: {@link #LIMIT}, less in a small heap, which must
     * keep {@link #HEADROOM} free, since a script may add some megabytes between two checks and a
     * collector such as G1 gives up before the heap is full.
     */
    static double allocationLimit() {
        return Math.min(LIMIT, 1 - HEADROOM / (double) Runtime.getRuntime().maxMemory());
    }

    /** The bytes a script may allocate between two {@link #exhaustedNow} checks: a sixteenth of the heap, at least 1 MiB. */
    static final long ALLOCATION_BUDGET = Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 16);

    /** The bytes the calling thread has allocated so far, or -1 where the JVM does not count them. */
    static long allocatedByThisThread() {
        return THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Whether the heap is nearly exhausted by memory that is really held, judged after a collection the guard asked for. */
    synchronized boolean exhausted() {
        if (held.getAsDouble() <= LIMIT) {
            return false;
        }
        if (stale || !collectedOnce || nanoTime.getAsLong() - lastCollectionNanos >= MIN_INTERVAL_NANOS) {
            collectAndJudge(LIMIT);
        }
        return verdict;
    }

    /** A script was stopped for memory: the next verdict over the limit needs a collection of its own. */
    synchronized void scriptStopped() {
        stale = true;
    }

    /**
     * The fraction of the whole heap in use now, garbage included: the young generation counts,
     * since a collector such as G1 may hold much of a script's live data there until it runs out.
     */
    private static double heldNow() {
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / (double) rt.maxMemory();
    }

    /** The bytes the old generation can still take (its maximum less what it holds now, garbage included). */
    static long oldGenerationFree() {
        long most = 0;
        for (MemoryPoolMXBean pool : OLD) {
            MemoryUsage now = pool.getUsage();
            if (now.getMax() > 0) {
                most = Math.max(most, now.getMax() - now.getUsed());
            }
        }
        return OLD.isEmpty() ? Runtime.getRuntime().maxMemory() : most;
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
