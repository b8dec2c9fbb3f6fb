package dev.ordo.engine.keyspace;

import java.util.function.LongSupplier;

/**
 * Frees memory by deleting keys under {@code maxmemory}, with Redis's approximations: a key is
 * never chosen from all keys but from samples, and the best candidates seen are kept across calls.
 *
 * <p>Choosing: the random policies take one random key from the next database that has one (in
 * turn, so every database gives up keys). The others sample {@code maxmemory-samples} keys of each
 * database (every key, or the keys with an expiry for the volatile policies; a database with no
 * more such keys than samples gives each of them once, as Redis's sampling of a small table does)
 * and rank them by a
 * score where higher goes first: the idle time for LRU, 255 minus the decayed access counter for
 * LFU ({@link Lfu}), and the nearness of the expiry time for TTL. Each sample enters a pool of the
 * {@value #POOL_SIZE} best candidates seen so far, kept in ascending order of score; the best one
 * that still exists (and, for a volatile policy, still has an expiry) is evicted. Scores in the
 * pool are as of their sampling, as in Redis.
 *
 * <p>Incremental: {@link #evict} stops after {@code maxmemory-eviction-tenacity}'s time budget
 * (checked every 16 keys: 50 µs per step up to 10, then 15% more per step, no limit from 100) and
 * answers {@link Result#RUNNING}; the caller continues from a timer, so a large deficit never
 * holds the thread for long, and commands are not refused meanwhile.
 *
 * <p>Evicted keys are deleted as Redis deletes them: WATCH sees a change, the effect log a DEL
 * (so the append-only file and its replay agree), and INFO's {@code evicted_keys} counts them.
 * The random source is the keyspace's, so a seeded keyspace evicts reproducibly. Not thread-safe:
 * the engine's lock guards it.
 */
public final class Eviction {
    static final int POOL_SIZE = 16;
    private static final int KEYS_PER_TIME_CHECK = 16;

    /** How an eviction round ended. */
    public enum Result {
        /** Memory is within the limit. */
        OK,
        /** The round's time budget ran out with memory still over the limit: continue later. */
        RUNNING,
        /** Nothing (more) can be evicted and memory is still over the limit. */
        FAIL
    }

    /** The live settings an eviction round reads. */
    public record Settings(EvictionPolicy policy, int samples, int tenacity) {
    }

    private record Candidate(int db, Key key, long score) {
    }

    private final Keyspace keyspace;
    private final LongSupplier nanoTime;
    private final Candidate[] pool = new Candidate[POOL_SIZE];
    private int poolSize;
    private int nextDb;

    /**
     * An eviction over {@code keyspace}'s databases, timing its rounds with {@code nanoTime}.
     *
     * @param keyspace the databases to evict from
     * @param nanoTime the clock timing the rounds
     */
    public Eviction(Keyspace keyspace, LongSupplier nanoTime) {
        this.keyspace = keyspace;
        this.nanoTime = nanoTime;
    }

    /**
     * Evicts keys while {@code used} (read again after each eviction) is over {@code limit}; the
     * policy {@code noeviction} evicts nothing.
     *
     * @param limit the memory limit, in bytes
     * @param used reads the memory used, in bytes
     * @param settings the policy, the keys sampled per round and the time budget (tenacity)
     * @return whether memory is within the limit, the time budget ran out, or nothing more can go
     */
    public Result evict(long limit, LongSupplier used, Settings settings) {
        if (used.getAsLong() <= limit) {
            return Result.OK;
        }
        if (settings.policy() == EvictionPolicy.NOEVICTION) {
            return Result.FAIL;
        }
        long budget = timeBudgetNanos(settings.tenacity());
        long start = nanoTime.getAsLong();
        int evicted = 0;
        while (used.getAsLong() > limit) {
            Candidate victim = choose(settings);
            if (victim == null) {
                return Result.FAIL;
            }
            keyspace.db(victim.db()).evict(victim.key());
            evicted++;
            if (evicted % KEYS_PER_TIME_CHECK == 0 && nanoTime.getAsLong() - start > budget) {
                return used.getAsLong() > limit ? Result.RUNNING : Result.OK;
            }
        }
        return Result.OK;
    }

    /** The time one round may take: Redis's evictionTimeLimitUs. */
    static long timeBudgetNanos(int tenacity) {
        if (tenacity <= 10) {
            return 50_000L * tenacity;
        }
        if (tenacity < 100) {
            return (long) (500_000.0 * Math.pow(1.15, tenacity - 10.0));
        }
        return Long.MAX_VALUE;
    }

    private Candidate choose(Settings settings) {
        EvictionPolicy policy = settings.policy();
        if (policy.choice() == EvictionPolicy.Choice.RANDOM) {
            return randomKey(policy.allKeys());
        }
        while (true) {
            long sampled = 0;
            for (int i = 0; i < keyspace.databases(); i++) {
                sampled += sample(i, settings);
            }
            if (sampled == 0) {
                return null;
            }
            Candidate best = takeBest(policy.allKeys());
            if (best != null) {
                return best;
            }
        }
    }

    private Candidate randomKey(boolean allKeys) {
        int dbs = keyspace.databases();
        for (int i = 0; i < dbs; i++) {
            int db = nextDb++ % dbs;
            Key key = keyspace.db(db).sampleKey(allKeys, keyspace.random());
            if (key != null) {
                return new Candidate(db, key, 0);
            }
        }
        return null;
    }

    /** Samples one database into the pool; returns how many keys it could sample from. */
    private int sample(int db, Settings settings) {
        Database d = keyspace.db(db);
        boolean allKeys = settings.policy().allKeys();
        int size = allKeys ? d.size() : d.volatileSize();
        EvictionPolicy.Choice choice = settings.policy().choice();
        if (settings.samples() >= size) {
            // As Redis's sampling of a small table: every key, each once.
            d.forEachStored(allKeys, (key, e) -> offer(new Candidate(db, key, score(e, choice))));
            return size;
        }
        for (int i = 0; i < settings.samples(); i++) {
            Key key = d.sampleKey(allKeys, keyspace.random());
            offer(new Candidate(db, key, score(d.stored(key), choice)));
        }
        return size;
    }

    private long score(Database.Entry e, EvictionPolicy.Choice choice) {
        long now = keyspace.now();
        switch (choice) {
            case LRU:
                return Math.max(0, now - e.lastAccess);
            case LFU:
                return 255 - Lfu.counter(e.lastAccess, now, keyspace.lfuSettings().decayTime());
            default: // TTL: the sooner the expiry, the higher the score
                return Long.MAX_VALUE - e.expireAt;
        }
    }

    /** Puts a sample into the pool, if it beats the worst candidate of a full pool. */
    private void offer(Candidate c) {
        int at = 0;
        while (at < poolSize && pool[at].score() < c.score()) {
            at++;
        }
        if (poolSize < POOL_SIZE) {
            System.arraycopy(pool, at, pool, at + 1, poolSize - at);
            pool[at] = c;
            poolSize++;
        } else if (at > 0) {
            System.arraycopy(pool, 1, pool, 0, at - 1);
            pool[at - 1] = c;
        }
    }

    /** Removes and returns the best candidate that may still be evicted, dropping stale ones; null when none is left. */
    private Candidate takeBest(boolean allKeys) {
        while (poolSize > 0) {
            Candidate c = pool[--poolSize];
            pool[poolSize] = null;
            Database.Entry e = keyspace.db(c.db()).stored(c.key());
            if (e != null && (allKeys || e.expireAt != Database.NO_EXPIRY)) {
                return c;
            }
        }
        return null;
    }
}
