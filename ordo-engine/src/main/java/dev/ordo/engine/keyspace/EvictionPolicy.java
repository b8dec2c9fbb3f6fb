package dev.ordo.engine.keyspace;

import java.util.Locale;

/** Redis's {@code maxmemory-policy} values: which keys may go, and how the one to go is chosen. */
public enum EvictionPolicy {
    NOEVICTION(false, Choice.NONE),
    ALLKEYS_LRU(true, Choice.LRU),
    ALLKEYS_LFU(true, Choice.LFU),
    ALLKEYS_RANDOM(true, Choice.RANDOM),
    VOLATILE_LRU(false, Choice.LRU),
    VOLATILE_LFU(false, Choice.LFU),
    VOLATILE_RANDOM(false, Choice.RANDOM),
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

    /** The policy a {@code maxmemory-policy} value names ({@code allkeys-lru} ...). */
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
