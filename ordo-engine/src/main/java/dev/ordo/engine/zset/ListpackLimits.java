package dev.ordo.engine.zset;

/**
 * When a sorted set may use the compact listpack encoding: at most {@link #maxEntries()} members,
 * none longer than {@link #maxValueBytes()} bytes (Redis's {@code zset-max-listpack-entries} and
 * {@code zset-max-listpack-value}). Read at every insert, so an implementation backed by live
 * configuration takes effect for later writes.
 */
public interface ListpackLimits {
    /** Redis's defaults: 128 entries, 64 bytes. */
    ListpackLimits DEFAULT = of(128, 64);

    /** The most members a listpack-encoded set may hold. */
    int maxEntries();

    /** The longest member, in bytes, a listpack-encoded set may hold. */
    int maxValueBytes();

    /** Returns fixed limits. */
    static ListpackLimits of(int maxEntries, int maxValueBytes) {
        if (maxEntries < 0 || maxValueBytes < 0) {
            throw new IllegalArgumentException("listpack limits must not be negative");
        }
        return new Fixed(maxEntries, maxValueBytes);
    }

    /** Whether a set of {@code entries} members, the longest {@code longestMember} bytes, fits. */
    default boolean fits(long entries, long longestMember) {
        return entries <= maxEntries() && longestMember <= maxValueBytes();
    }

    /** Fixed limits. */
    record Fixed(int maxEntries, int maxValueBytes) implements ListpackLimits {
    }
}
