package dev.ordo.engine.keyspace;

/** Hears about keyspace changes that other parts of the engine, and embedded users, react to. Called under the engine lock. */
public interface KeyspaceListener {
    /**
     * A key was created; clients blocked on it may now be served.
     *
     * @param db  the database
     * @param key the key
     */
    void keyCreated(int db, Key key);

    /**
     * A key's value, type, expiry or existence changed (or it was read-modified), for WATCH.
     *
     * @param db the database's number
     * @param key the key
     */
    default void keyModified(int db, Key key) {
    }

    /**
     * A key was deleted because its expiry time had passed (lazily on access, or by the active cycle).
     *
     * @param db the database's number
     * @param key the key
     */
    default void keyExpired(int db, Key key) {
    }

    /**
     * A key was deleted to free memory under maxmemory ({@link Eviction}).
     *
     * @param db the database's number
     * @param key the key
     */
    default void keyEvicted(int db, Key key) {
    }

    /**
     * A database starts ({@code started}) or ends being emptied (FLUSHDB; FLUSHALL reports -1 for
     * all); its keys are reported modified between.
     *
     * @param db the database's number, or -1 for all
     * @param started true before, false after
     */
    default void flushing(int db, boolean started) {
    }

    /**
     * A keyspace event ({@code "set"}, {@code "zadd"}, {@code "expired"} ...), one of those
     * {@code notify-keyspace-events} enables, as Redis would publish it: {@code key} in database
     * {@code db}, in the order the changes happen. Embedded users hear here what Pub/Sub
     * subscribers of {@code __keyspace@*__} and {@code __keyevent@*__} are sent (their class on,
     * whatever K and E say).
     *
     * @param db    the database
     * @param event the event's name
     * @param key   the key
     */
    default void keyspaceEvent(int db, String event, Key key) {
    }

    /**
     * Two databases exchanged their contents (SWAPDB).
     *
     * @param a one database's number
     * @param b the other's
     */
    default void databasesSwapped(int a, int b) {
    }
}
