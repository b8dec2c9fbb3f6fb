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
    private long commandNanos;
    private long dirty;
    /** The heap bytes of every stored key, entry and value, kept in O(1) per change by the databases. */
    private long storedBytes;
    /** The databases' key-table bytes, recounted only after a table was resized ({@code -1} until then): read before every command. */
    private long tableBytes = -1;
    private boolean loading;
    private volatile boolean activeExpireEnabled = true;
    private boolean touching = true;
    private Lfu.Settings lfu = Lfu.Settings.OFF;
    /** The {@link EventClass} mask of {@code notify-keyspace-events}; 0 sends nothing and costs one test. */
    private int notifyMask;

    /** Counters INFO reports. */
    public static final class Stats {
        /** Keys deleted because their expiry time had passed. */
        public long expiredKeys;
        /** Keys deleted to free memory under maxmemory. */
        public long evictedKeys;
        /** Reads that found their key. */
        public long keyspaceHits;
        /** Reads that did not find their key. */
        public long keyspaceMisses;
        /** Time spent in the active expiry cycle, in microseconds. */
        public long expireCycleMicros;
    }

    /**
     * A keyspace of {@code databases} empty databases.
     *
     * @param databases how many databases, as {@code databases} configures
     * @param clock the clock expiry times are read on
     * @param random the source of randomness for sampling and RANDOMKEY
     */
    public Keyspace(int databases, Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
        this.databases = new Database[databases];
        for (int i = 0; i < databases; i++) {
            this.databases[i] = new Database(i, this);
        }
        this.commandNanos = System.nanoTime();
        this.now = clock.millis();
    }

    /**
     * A keyspace of {@code databases} empty databases, with a fresh source of randomness.
     *
     * @param databases how many databases, as {@code databases} configures
     * @param clock the clock expiry times are read on
     */
    public Keyspace(int databases, Clock clock) {
        this(databases, clock, new SplittableRandom());
    }

    /**
     * Fixes "now" for the command about to run, from one reading of {@link System#nanoTime()}
     * that the command's timing shares ({@link #commandNanos}).
     */
    public void beginCommand() {
        beginCommandAt(System.nanoTime());
    }

    /**
     * {@link #beginCommand} from a {@link System#nanoTime()} reading the caller already has: the
     * previous command's end reading, for a command that follows it at once (the next of a
     * pipeline), which saves a clock read. Time never goes back: a reading older than the last
     * command's beginning counts as that beginning.
     *
     * @param nanos a reading of the monotonic clock taken just before
     */
    public void beginCommandAt(long nanos) {
        commandNanos = nanos - commandNanos < 0 ? commandNanos : nanos;
        now = clock.millisAt(commandNanos);
    }

    /**
     * The {@link System#nanoTime()} reading the last {@link #beginCommand} took.
     *
     * @return when the current command began, in the monotonic clock's nanoseconds
     */
    public long commandNanos() {
        return commandNanos;
    }

    /**
     * Whether reading or writing a key refreshes its access time (OBJECT IDLETIME): not for the
     * commands of a client under CLIENT NO-TOUCH, TOUCH aside. Set before each command.
     *
     * @param touching whether access times are refreshed
     */
    public void setTouching(boolean touching) {
        this.touching = touching;
    }

    boolean touching() {
        return touching;
    }

    /**
     * Where LFU counting (see {@link Lfu}) reads whether it is on and its parameters.
     *
     * @param settings the LFU settings, read at each use
     */
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

    /**
     * The current command's time, in ms since the epoch.
     *
     * @return the time, in ms
     */
    public long now() {
        return now;
    }

    /**
     * The clock expiry times are read on.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }

    /**
     * The source of randomness for sampling and RANDOMKEY.
     *
     * @return the source
     */
    public RandomGenerator random() {
        return random;
    }

    /**
     * The database numbered {@code index}.
     *
     * @param index the number, from 0
     * @return the database
     */
    public Database db(int index) {
        return databases[index];
    }

    /**
     * The number of databases.
     *
     * @return the number
     */
    public int databases() {
        return databases.length;
    }

    /**
     * The counters INFO reports.
     *
     * @return the counters, updated in place
     */
    public Stats stats() {
        return stats;
    }

    /**
     * Whether the append-only file is being replayed: no key expires then (neither on access nor
     * when given an expiry in the past), so each logged command finds the state it found when it
     * ran; keys past their time expire once loading ends. As Redis loads.
     *
     * @return whether the AOF is being loaded
     */
    public boolean loading() {
        return loading;
    }

    /**
     * Marks the append-only file's replay as started or done (see {@link #loading()}).
     *
     * @param loading whether it is being replayed
     */
    public void setLoading(boolean loading) {
        this.loading = loading;
    }

    /**
     * Whether the background cycle deletes expired keys (DEBUG SET-ACTIVE-EXPIRE turns it off).
     *
     * @return whether the cycle runs
     */
    public boolean activeExpireEnabled() {
        return activeExpireEnabled && !loading;
    }

    /**
     * Turns the background expiry cycle on or off (DEBUG SET-ACTIVE-EXPIRE).
     *
     * @param enabled whether it runs
     */
    public void setActiveExpireEnabled(boolean enabled) {
        activeExpireEnabled = enabled;
    }

    /**
     * Sets which keyspace events are sent ({@link EventClass} bits), as CONFIG SET changes them.
     *
     * @param mask the {@link EventClass} bits
     */
    public void setNotifyMask(int mask) {
        notifyMask = mask;
    }

    /**
     * The {@link EventClass} bits of the events sent.
     *
     * @return the bits
     */
    public int notifyMask() {
        return notifyMask;
    }

    /**
     * Redis's {@code notifyKeyspaceEvent}: tells the listeners of event {@code event} of class
     * {@code type} ({@link EventClass}) on {@code key} in database {@code db}, when that class
     * is enabled.
     *
     * @param type the event's class
     * @param event the event's name, e.g. {@code set}
     * @param key the key
     * @param db the database's number
     */
    public void notifyKeyspaceEvent(int type, String event, Key key, int db) {
        if ((notifyMask & type) == 0) {
            return;
        }
        for (KeyspaceListener l : listeners) {
            l.keyspaceEvent(db, event, key);
        }
    }

    /**
     * Adds a listener told of key changes, expiries, evictions, flushes and swaps.
     *
     * @param listener the listener
     */
    public void addListener(KeyspaceListener listener) {
        listeners.add(listener);
    }

    /**
     * Exchanges the contents of two databases (SWAPDB).
     *
     * @param a one database's number
     * @param b the other's
     */
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

    /**
     * The heap bytes of every key, its entry and its value, across the databases; O(1).
     *
     * @return the bytes
     */
    public long storedBytes() {
        return storedBytes;
    }

    /**
     * Verifies the accounting: {@link #storedBytes} equals what every stored key, entry and value
     * holds now, each value measured afresh, and {@link #tableBytes} equals the key tables' bytes
     * counted afresh. Walks everything; throws {@link AssertionError} on a difference, naming the
     * first key whose value changed without being accounted.
     */
    public void checkAccounting() {
        long total = 0;
        long tables = 0;
        for (Database db : databases) {
            total += db.checkAccounting();
            tables += db.tableBytes();
        }
        if (total != storedBytes) {
            throw new AssertionError("stored bytes are " + storedBytes + " but the keys hold " + total);
        }
        if (tables != tableBytes()) {
            throw new AssertionError("key tables are counted as " + tableBytes() + " bytes but hold " + tables);
        }
    }

    /**
     * The heap bytes of the databases' key tables: O(1), and O(databases) after a table was resized.
     *
     * @return the bytes
     */
    public long tableBytes() {
        if (tableBytes < 0) {
            long bytes = 0;
            for (Database db : databases) {
                bytes += db.tableBytes();
            }
            tableBytes = bytes;
        }
        return tableBytes;
    }

    /** A database's key table replaced its slot arrays: {@link #tableBytes} is counted again when next read. */
    void tablesResized() {
        tableBytes = -1;
    }

    /**
     * How many changes commands made (Redis's dirty counter: save rules, effect logging); expiries do not count.
     *
     * @return the count
     */
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
