package dev.ordo.engine.keyspace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each eviction policy's choice, with a seeded random source so that sampling replays exactly:
 * ten keys, 64 samples per database per round (so every key is sampled), and a limit one byte
 * under the current use, so that exactly one key goes.
 */
class EvictionTest {
    private static final int SAMPLES = 64;
    private final AtomicLong time = new AtomicLong(1_700_000_000_000L);
    private final AtomicLong nanos = new AtomicLong();
    private final Keyspace keyspace = new Keyspace(16, time::get, new SplittableRandom(42));
    private final Database db = keyspace.db(0);
    private final List<Key> evicted = new ArrayList<>();
    private final List<String> events = new ArrayList<>();

    EvictionTest() {
        keyspace.addListener(new KeyspaceListener() {
            @Override
            public void keyCreated(int db, Key key) {
            }

            @Override
            public void keyEvicted(int db, Key key) {
                evicted.add(key);
            }

            @Override
            public void keyspaceEvent(int db, String event, Key key) {
                events.add(db + " " + event + " " + key);
            }
        });
    }

    private Key key(int i) {
        return Key.of("k" + i);
    }

    /** Stores k0..k9, one second apart. */
    private void tenKeys() {
        for (int i = 0; i < 10; i++) {
            keyspace.beginCommand();
            db.add(key(i), new StringValue(("value" + i).getBytes()));
            time.addAndGet(1000);
        }
    }

    private Eviction.Result evictOne(EvictionPolicy policy) {
        keyspace.beginCommand();
        Eviction eviction = new Eviction(keyspace, nanos::get);
        return eviction.evict(keyspace.storedBytes() - 1, keyspace::storedBytes, new Eviction.Settings(policy, SAMPLES, 10));
    }

    @Test
    void allkeysLru_evictsTheLeastRecentlyUsedKey() {
        tenKeys();
        time.addAndGet(100_000);
        keyspace.beginCommand();
        for (int i = 0; i < 10; i++) {
            if (i != 3) {
                db.get(key(i));
            }
        }
        assertThat(evictOne(EvictionPolicy.ALLKEYS_LRU)).isEqualTo(Eviction.Result.OK);
        assertThat(evicted).containsExactly(key(3));
        assertThat(keyspace.stats().evictedKeys).isEqualTo(1);
        assertThat(db.size()).isEqualTo(9);
    }

    @Test
    void evict_withEvictedClassOn_sendsTheEvictedEvent() {
        tenKeys();
        keyspace.setNotifyMask(EventClass.mask("e"));
        time.addAndGet(100_000);
        keyspace.beginCommand();
        for (int i = 0; i < 10; i++) {
            if (i != 3) {
                db.get(key(i));
            }
        }
        assertThat(evictOne(EvictionPolicy.ALLKEYS_LRU)).isEqualTo(Eviction.Result.OK);
        assertThat(events).containsExactly("0 evicted " + key(3));
    }

    @Test
    void allkeysLfu_evictsTheLeastFrequentlyUsedKey() {
        // lfu-log-factor 0 makes every access count, so the counters are exact.
        keyspace.setLfuSettings(lfu(0));
        tenKeys();
        keyspace.beginCommand();
        for (int i = 0; i < 10; i++) {
            for (int n = 0; n < (i == 6 ? 0 : 3 + i); n++) {
                db.get(key(i));
            }
        }
        evictOne(EvictionPolicy.ALLKEYS_LFU);
        assertThat(evicted).containsExactly(key(6));
    }

    @Test
    void volatileTtl_evictsTheKeyExpiringSoonest() {
        tenKeys();
        keyspace.beginCommand();
        for (int i = 0; i < 10; i += 2) {
            db.setExpireAt(key(i), time.get() + 60_000 - i * 1000L); // k8 expires first
        }
        evictOne(EvictionPolicy.VOLATILE_TTL);
        assertThat(evicted).containsExactly(key(8));
    }

    @Test
    void volatileLru_evictsOnlyAmongKeysWithAnExpiry() {
        tenKeys(); // k0 is the least recently used of all, but has no expiry
        keyspace.beginCommand();
        db.setExpireAt(key(5), time.get() + 60_000);
        db.setExpireAt(key(7), time.get() + 60_000);
        time.addAndGet(10_000);
        keyspace.beginCommand();
        db.get(key(5));
        evictOne(EvictionPolicy.VOLATILE_LRU);
        assertThat(evicted).containsExactly(key(7));
    }

    @Test
    void volatileRandom_neverEvictsAKeyWithoutExpiry() {
        tenKeys();
        keyspace.beginCommand();
        db.setExpireAt(key(4), time.get() + 60_000);
        for (int round = 0; round < 2; round++) {
            evictOne(EvictionPolicy.VOLATILE_RANDOM);
        }
        assertThat(evicted).containsExactly(key(4));
        assertThat(evictOne(EvictionPolicy.VOLATILE_RANDOM)).isEqualTo(Eviction.Result.FAIL);
        assertThat(db.size()).isEqualTo(9);
    }

    @Test
    void allkeysRandom_takesKeysFromEveryDatabaseInTurn() {
        tenKeys();
        keyspace.beginCommand();
        keyspace.db(5).add(Key.of("other"), new StringValue("x".getBytes()));
        Eviction eviction = new Eviction(keyspace, nanos::get);
        Eviction.Settings settings = new Eviction.Settings(EvictionPolicy.ALLKEYS_RANDOM, SAMPLES, 10);
        eviction.evict(keyspace.storedBytes() - 1, keyspace::storedBytes, settings);
        eviction.evict(keyspace.storedBytes() - 1, keyspace::storedBytes, settings);
        assertThat(evicted).hasSize(2).contains(Key.of("other"));
    }

    @Test
    void noeviction_evictsNothingAndFails() {
        tenKeys();
        assertThat(evictOne(EvictionPolicy.NOEVICTION)).isEqualTo(Eviction.Result.FAIL);
        assertThat(evicted).isEmpty();
    }

    @Test
    void evict_withinTheLimit_isOkAndEvictsNothing() {
        tenKeys();
        keyspace.beginCommand();
        Eviction eviction = new Eviction(keyspace, nanos::get);
        assertThat(eviction.evict(keyspace.storedBytes(), keyspace::storedBytes,
                new Eviction.Settings(EvictionPolicy.ALLKEYS_LRU, SAMPLES, 10))).isEqualTo(Eviction.Result.OK);
        assertThat(evicted).isEmpty();
    }

    @Test
    void evict_pastItsTimeBudget_stopsAfterSixteenKeysAndReportsRunning() {
        for (int i = 0; i < 100; i++) {
            keyspace.beginCommand();
            db.add(key(i), new StringValue(("value" + i).getBytes()));
        }
        Eviction eviction = new Eviction(keyspace, () -> nanos.addAndGet(1_000_000)); // every reading 1 ms later
        Eviction.Settings settings = new Eviction.Settings(EvictionPolicy.ALLKEYS_RANDOM, 5, 0);
        assertThat(eviction.evict(0, keyspace::storedBytes, settings)).isEqualTo(Eviction.Result.RUNNING);
        assertThat(evicted).hasSize(16);
        // Tenacity 100 has no budget: the next round evicts until within the limit, here everything.
        assertThat(eviction.evict(0, keyspace::storedBytes, new Eviction.Settings(EvictionPolicy.ALLKEYS_RANDOM, 5, 100)))
                .isEqualTo(Eviction.Result.OK);
        assertThat(evicted).hasSize(100);
        assertThat(keyspace.storedBytes()).isZero();
    }

    @Test
    void timeBudget_followsRedisTenacityScale() {
        assertThat(Eviction.timeBudgetNanos(0)).isZero();
        assertThat(Eviction.timeBudgetNanos(10)).isEqualTo(500_000);
        assertThat(Eviction.timeBudgetNanos(20)).isBetween(2_000_000L, 2_030_000L);
        assertThat(Eviction.timeBudgetNanos(100)).isEqualTo(Long.MAX_VALUE);
    }

    private static Lfu.Settings lfu(long logFactor) {
        return LfuTest.settings(logFactor, 1);
    }
}
