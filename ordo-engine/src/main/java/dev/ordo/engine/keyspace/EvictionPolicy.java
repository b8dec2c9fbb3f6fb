package dev.ordo.engine.keyspace;

import java.util.Locale;

/** Redis's {@code maxmemory-policy} values: which keys may go, and how the one to go is chosen. */
public enum EvictionPolicy {
    /** Evicts nothing: writes that need memory are refused over the limit. */
    NOEVICTION(false, Choice.NONE),
    /** Any key, the least recently used first. */
    ALLKEYS_LRU(true, Choice.LRU),
    /** Any key, the least frequently used first. */
    ALLKEYS_LFU(true, Choice.LFU),
    /** Any key, chosen at random. */
    ALLKEYS_RANDOM(true, Choice.RANDOM),
    /** Keys with an expiry, the least recently used first. */
    VOLATILE_LRU(false, Choice.LRU),
    /** Keys with an expiry, the least frequently used first. */
    VOLATILE_LFU(false, Choice.LFU),
    /** Keys with an expiry, chosen at random. */
    VOLATILE_RANDOM(false, Choice.RANDOM),
    /** Keys with an expiry, the nearest to expiring first. */
    VOLATILE_TTL(false, Choice.TTL);

    /** How a policy ranks candidates. */
    enum Choice {
        NONE, LRU, LFU, RANDOM, TTL
    }

    private final boolean allKeys;
    private final Choice choice;

    EvictionPolicy(boolean allKeys, Choice choice) {
        this.allKeys = allKeys;
        this.choice = choice;
    }

    /**
     * The policy a {@code maxmemory-policy} value names ({@code allkeys-lru} ...).
     *
     * @param name the value, in any case
     * @return the policy
     */
    public static EvictionPolicy of(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Whether every key may be evicted, or only keys with an expiry (the volatile policies). */
    boolean allKeys() {
        return allKeys;
    }

    Choice choice() {
        return choice;
    }
}
