package dev.ordo.engine.keyspace;

import dev.ordo.engine.time.Clock;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The numbered databases, the command clock and the keyspace statistics. "Now" is read from the
 * clock once per command ({@link #beginCommand}) and used by every expiry check in it.
 * Not thread-safe: the engine's lock guards it.
 */
public final class Keyspace {
    private final Database[] databases;
    private final Clock clock;
    private final RandomGenerator random;
    private final Stats stats = new Stats();
    private final List<KeyspaceListener> listeners = new ArrayList<>();
    /** Nested flushes under way (FLUSHALL clears each database). */
    private int flushDepth;
    private long now;
    private long dirty;
    /** The heap bytes of every stored key, entry and value, kept in O(1) per change by the databases. */
    private long storedBytes;
    private boolean loading;
    private volatile boolean activeExpireEnabled = true;
    private boolean touching = true;
    private Lfu.Settings lfu = Lfu.Settings.OFF;
    /** The {@link EventClass} mask of {@code notify-keyspace-events}; 0 sends nothing and costs one test. */
    private int notifyMask;

    /** Counters INFO reports. */
    public static final class Stats {
        public long expiredKeys;
        /** Keys deleted to free memory under maxmemory. */
        public long evictedKeys;
        public long keyspaceHits;
        public long keyspaceMisses;
        /** Time spent in the active expiry cycle, in microseconds. */
        public long expireCycleMicros;
    }

    public Keyspace(int databases, Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
        this.databases = new Database[databases];
        for (int i = 0; i < databases; i++) {
            this.databases[i] = new Database(i, this);
        }
        this.now = clock.millis();
    }

    public Keyspace(int databases, Clock clock) {
        this(databases, clock, new SplittableRandom());
    }

    /** Fixes "now" for the command about to run. */
    public void beginCommand() {
        now = clock.millis();
    }

    /**
     * Whether reading or writing a key refreshes its access time (OBJECT IDLETIME): not for the
     * commands of a client under CLIENT NO-TOUCH, TOUCH aside. Set before each command.
     */
    public void setTouching(boolean touching) {
        this.touching = touching;
    }

    boolean touching() {
        return touching;
    }

    /** Where LFU counting (see {@link Lfu}) reads whether it is on and its parameters. */
    public void setLfuSettings(Lfu.Settings settings) {
        lfu = settings;
    }

    /** LFU counting's settings, as last set. */
    Lfu.Settings lfuSettings() {
        return lfu;
    }

    /**
     * A key's access field after an access now: the time, or under an LFU policy the counter
     * brought up to date ({@link Lfu}).
     */
    long accessed(long field) {
        return lfu.active() ? Lfu.accessed(field, now, lfu, random) : now;
    }

    /**
     * The access field of a key given a new value now: the time, or under an LFU policy the
     * counter carried over, the write counting as an access (unless under CLIENT NO-TOUCH).
     */
    long overwritten(long field) {
        return lfu.active() && !touching ? field : accessed(field);
    }

    /**
     * The access field RESTORE gives a key it creates now: under an LFU policy the counter
     * {@code freq}, otherwise the time {@code idleSeconds} ago (no earlier than the epoch); a
     * hint that is -1, or that the policy does not keep, leaves it as a new key's.
     */
    long restored(long idleSeconds, int freq) {
        if (lfu.active()) {
            return freq >= 0 ? Lfu.withCounter(freq, now) : created();
        }
        return idleSeconds >= 0 ? now - Math.min(idleSeconds, now / 1000) * 1000 : created();
    }

    /** The access field of a key created now. */
    long created() {
        return lfu.active() ? Lfu.created(now) : now;
    }

    /** The current command's time, in ms since the epoch. */
    public long now() {
        return now;
    }

    public Clock clock() {
        return clock;
    }

    public RandomGenerator random() {
        return random;
    }

    public Database db(int index) {
        return databases[index];
    }

    public int databases() {
        return databases.length;
    }

    public Stats stats() {
        return stats;
    }

    /**
     * Whether the append-only file is being replayed: no key expires then (neither on access nor
     * when given an expiry in the past), so each logged command finds the state it found when it
     * ran; keys past their time expire once loading ends. As Redis loads.
     */
    public boolean loading() {
        return loading;
    }

    public void setLoading(boolean loading) {
        this.loading = loading;
    }

    /** Whether the background cycle deletes expired keys (DEBUG SET-ACTIVE-EXPIRE turns it off). */
    public boolean activeExpireEnabled() {
        return activeExpireEnabled && !loading;
    }

    public void setActiveExpireEnabled(boolean enabled) {
        activeExpireEnabled = enabled;
    }

    /** Sets which keyspace events are sent ({@link EventClass} bits), as CONFIG SET changes them. */
    public void setNotifyMask(int mask) {
        notifyMask = mask;
    }

    /** The {@link EventClass} bits of the events sent. */
    public int notifyMask() {
        return notifyMask;
    }

    /**
     * Redis's {@code notifyKeyspaceEvent}: tells the listeners of event {@code event} of class
     * {@code type} ({@link EventClass}) on {@code key} in database {@code db}, when that class
     * is enabled.
     */
    public void notifyKeyspaceEvent(int type, String event, Key key, int db) {
        if ((notifyMask & type) == 0) {
            return;
        }
        for (KeyspaceListener l : listeners) {
            l.keyspaceEvent(db, event, key);
        }
    }

    public void addListener(KeyspaceListener listener) {
        listeners.add(listener);
    }

    /** Exchanges the contents of two databases (SWAPDB). */
    public void swap(int a, int b) {
        if (a != b) {
            databases[a].swapContents(databases[b]);
            for (KeyspaceListener l : listeners) {
                l.databasesSwapped(a, b);
            }
        }
    }

    /** Empties every database. */
    public void flushAll() {
        flushing(-1, true);
        try {
            for (Database db : databases) {
                db.clear();
            }
        } finally {
            flushing(-1, false);
        }
    }

    /** Tells listeners once per flush (FLUSHALL's databases are one flush, reported as database -1). */
    void flushing(int db, boolean started) {
        flushDepth += started ? 1 : -1;
        if (flushDepth == (started ? 1 : 0)) {
            for (KeyspaceListener l : listeners) {
                l.flushing(db, started);
            }
        }
    }

    void created(int db, Key key) {
        for (KeyspaceListener l : listeners) {
            l.keyCreated(db, key);
        }
        notifyKeyspaceEvent(EventClass.NEW, "new", key, db);
    }

    /** Adds {@code delta} bytes to the stored figure (a database's key or value grew, shrank, came or went). */
    void stored(long delta) {
        storedBytes += delta;
    }

    /** The heap bytes of every key, its entry and its value, across the databases; O(1). */
    public long storedBytes() {
        return storedBytes;
    }

    /**
     * Verifies the accounting: {@link #storedBytes} equals what every stored key, entry and value
     * holds now, each value measured afresh. Walks everything; throws {@link AssertionError} on a
     * difference, naming the first key whose value changed without being accounted.
     */
    public void checkAccounting() {
        long total = 0;
        for (Database db : databases) {
            total += db.checkAccounting();
        }
        if (total != storedBytes) {
            throw new AssertionError("stored bytes are " + storedBytes + " but the keys hold " + total);
        }
    }

    /** The heap bytes of the databases' key tables; O(databases). */
    public long tableBytes() {
        long bytes = 0;
        for (Database db : databases) {
            bytes += db.tableBytes();
        }
        return bytes;
    }

    /** How many changes commands made (Redis's dirty counter: save rules, effect logging); expiries do not count. */
    public long dirty() {
        return dirty;
    }

    /** A key expired: WATCH sees a change, the effect log a DEL; the dirty counter counts only commands' changes. */
    void expired(int db, Key key) {
        for (KeyspaceListener l : listeners) {
            l.keyModified(db, key);
            l.keyExpired(db, key);
        }
        notifyKeyspaceEvent(EventClass.EXPIRED, "expired", key, db);
    }

    /** A key was evicted: WATCH sees a change, the effect log a DEL, like an expiry; the dirty counter does not count it. */
    void evicted(int db, Key key) {
        for (KeyspaceListener l : listeners) {
            l.keyModified(db, key);
            l.keyEvicted(db, key);
        }
        notifyKeyspaceEvent(EventClass.EVICTED, "evicted", key, db);
    }

    void modified(int db, Key key) {
        dirty++;
        for (KeyspaceListener l : listeners) {
            l.keyModified(db, key);
        }
    }
}
