package dev.ordo.engine.persist;

import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.script.Functions;
import dev.ordo.engine.time.Scheduler;

/**
 * What {@link Persistence} needs from the engine that owns it, and nothing more: the state it
 * saves and loads, the lock that guards that state, a timer for its periodic work, and the
 * dispatcher that replays the append-only file and hands it each write's effects. The engine
 * implements it; persistence never sees the engine itself, so it sits below it.
 */
public interface PersistenceHost {
    /**
     * The live configuration: file names, save points, appendonly and fsync policy.
     *
     * @return the configuration
     */
    Config config();

    /**
     * The data that is loaded and saved.
     *
     * @return the keyspace
     */
    Keyspace keyspace();

    /**
     * The function libraries (saved in snapshots, replaced on load).
     *
     * @return the function libraries
     */
    Functions functions();

    /**
     * Runs commands read from the append-only file, and logs the effects of writes.
     *
     * @return the dispatcher
     */
    Dispatcher dispatcher();

    /**
     * The timer the periodic work (save points, rewrites, fsync checks) runs on.
     *
     * @return the scheduler
     */
    Scheduler scheduler();

    /**
     * Runs {@code action} under the engine lock.
     *
     * @param action what to run
     */
    void withLock(Runnable action);

    /**
     * Runs {@code action} under the engine lock if it is free now; returns whether it ran.
     *
     * @param action what to run
     * @return whether it ran
     */
    boolean tryWithLock(Runnable action);

    /**
     * Whether the calling thread holds the engine lock.
     *
     * @return whether this thread holds it
     */
    boolean holdsLock();

    /**
     * Whether DEBUG PAUSE-CRON stopped the periodic work.
     *
     * @return whether the periodic work is paused
     */
    boolean cronPaused();
}
