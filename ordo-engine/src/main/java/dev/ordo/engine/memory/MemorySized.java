package dev.ordo.engine.memory;

/** A value whose heap footprint is known at all times, as the memory accounting needs it. */
public interface MemorySized {
    /**
     * Returns the bytes this value holds on the heap (its own objects and arrays, by {@link
     * Footprint}'s layout), in O(1): each encoding keeps the figure up to date as it changes.
     *
     * @return the bytes
     */
    long memoryUsage();
}
