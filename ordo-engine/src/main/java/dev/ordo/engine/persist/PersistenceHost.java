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
    Config config();

    Keyspace keyspace();

    /** The function libraries (saved in snapshots, replaced on load). */
    Functions functions();

    /** Runs commands read from the append-only file, and logs the effects of writes. */
    Dispatcher dispatcher();

    /** The timer the periodic work (save points, rewrites, fsync checks) runs on. */
    Scheduler scheduler();

    /** Runs {@code action} under the engine lock. */
    void withLock(Runnable action);

    /** Runs {@code action} under the engine lock if it is free now; returns whether it ran. */
    boolean tryWithLock(Runnable action);

    /** Whether the calling thread holds the engine lock. */
    boolean holdsLock();

    /** Whether DEBUG PAUSE-CRON stopped the periodic work. */
    boolean cronPaused();
}
