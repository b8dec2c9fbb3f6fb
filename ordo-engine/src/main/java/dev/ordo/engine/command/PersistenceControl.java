package dev.ordo.engine.command;

import java.util.Map;

/**
 * The persistence commands' view of where data is kept (SAVE, BGSAVE, BGREWRITEAOF, LASTSAVE,
 * DEBUG RELOAD, INFO persistence, SHUTDOWN's save). Called under the engine lock; failures are
 * thrown as {@link dev.ordo.engine.error.ErrorReply} with Redis's texts.
 */
public interface PersistenceControl {
    /** SAVE: writes the snapshot now, holding the lock. */
    void save();

    /**
     * BGSAVE [SCHEDULE]: returns the status reply.
     *
     * @param schedule whether to schedule the save after a running rewrite rather than refuse
     * @return the status reply
     */
    String bgsave(boolean schedule);

    /**
     * BGREWRITEAOF: returns the status reply.
     *
     * @return the status reply
     */
    String bgrewriteaof();

    /**
     * LASTSAVE: the Unix time in seconds of the last successful save.
     *
     * @return the seconds
     */
    long lastSave();

    /**
     * DEBUG RELOAD: saves the snapshot (unless not {@code save}), empties the keyspace (unless not
     * {@code flush}) and loads the snapshot again; {@code merge} lets a loaded key or library
     * replace one that is there, which otherwise fails the load.
     *
     * @param save whether to save first
     * @param flush whether to empty the keyspace first
     * @param merge whether loaded keys may replace existing ones
     */
    void reload(boolean save, boolean flush, boolean merge);

    /**
     * DEBUG LOADAOF: makes the append-only file durable, empties the keyspace and loads the file
     * again. Refused, changing nothing, when {@code appendonly} is no.
     */
    void loadAof();

    /**
     * Fills INFO's persistence section with Redis's field names, in Redis's order.
     *
     * @param fields receives the fields
     */
    void info(Map<String, String> fields);

    /**
     * Before SHUTDOWN: makes the append-only file durable and saves a snapshot when asked or when
     * save points are configured (unless NOSAVE); returns false when that save failed.
     *
     * @param save SHUTDOWN SAVE
     * @param noSave SHUTDOWN NOSAVE
     * @return whether the shutdown may go on
     */
    boolean beforeShutdown(boolean save, boolean noSave);

    /**
     * Redis's MISCONF error while writes cannot be made durable, else null.
     *
     * @return the error, or null
     */
    String writeRefusal();

    /** CONFIG SET changed parameters (appendonly, appendfsync ...). */
    void configChanged();
}
