package dev.ordo.engine.script;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Stops a script that would take the server's heap: a script that allocates without bound
 * must not end in an OutOfMemoryError somewhere else. The test is what the last garbage
 * collection left in the old generation (memory that is really held, not garbage): above 90%
 * of its maximum, scripts are stopped at their next check. Cheap enough to ask every 65,536 Lua
 * instructions.
 */
final class HeapGuard {
    private static final double LIMIT = 0.90;
    private static final List<MemoryPoolMXBean> OLD = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported() && p.isUsageThresholdSupported())
            .toList();

    private HeapGuard() {
    }

    static boolean exhausted() {
        for (MemoryPoolMXBean pool : OLD) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            long max = pool.getUsage().getMax();
            if (afterGc != null && max > 0 && afterGc.getUsed() > max * LIMIT) {
                return true;
            }
        }
        return false;
    }
}
