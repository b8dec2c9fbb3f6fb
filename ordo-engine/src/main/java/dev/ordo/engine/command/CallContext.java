package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.Keyspace;

/** What handlers reach beyond their arguments: the keyspace, the configuration and the engine's services. */
public interface CallContext {
    Keyspace keyspace();

    Config config();

    CommandTable commands();

    /** Server-wide information and actions (INFO, CLIENT, SHUTDOWN ...); see {@link ServerControl}. */
    ServerControl server();

    /** The users and their permissions; null where no ACL is kept (every session may run anything). */
    default dev.ordo.engine.acl.Acl acl() {
        return null;
    }

    /** The Pub/Sub subscriptions (PUBLISH, SUBSCRIBE, PUBSUB). */
    default dev.ordo.engine.pubsub.PubSub pubSub() {
        throw new UnsupportedOperationException("this context has no Pub/Sub");
    }

    /** Client-side caching (CLIENT TRACKING). */
    default Tracking tracking() {
        return Tracking.NONE;
    }

    /** MULTI state and the watched-keys registry. */
    default Transactions transactions() {
        throw new UnsupportedOperationException("this context has no transactions");
    }

    /** The dispatcher running commands here: command statistics and the slow log (INFO, SLOWLOG, CONFIG RESETSTAT). */
    default Dispatcher dispatcher() {
        throw new UnsupportedOperationException("this context keeps no command statistics");
    }

    /** The clients waiting in blocking commands (INFO clients). */
    default BlockedClients blocking() {
        return BlockedClients.NONE;
    }

    /**
     * CLIENT UNBLOCK: answers the client {@code clientId}, if it waits in a blocking command, as
     * its timeout would (a null reply) or, when {@code withError}, with the UNBLOCKED error, and
     * lets it go on. Returns whether that client was waiting.
     */
    default boolean unblock(long clientId, boolean withError) {
        return false;
    }

    /** What the script engine holds (INFO memory). */
    default ScriptCounts scriptCounts() {
        return ScriptCounts.NONE;
    }

    /**
     * Stops the engine for good because a write ran out of memory part way (see
     * {@code Engine#failStop}); the caller then rethrows the error.
     */
    default void failStop(String why) {
    }

    /** Memory accounting, limits and eviction; null where none are kept. */
    default MaxMemory maxMemory() {
        return null;
    }

    /**
     * DEBUG PAUSE-CRON: stops (or resumes) the periodic work Redis's serverCron does: active
     * expiry, the instantaneous metrics, save points and the automatic AOF rewrite.
     */
    default void pauseCron(boolean paused) {
        throw new UnsupportedOperationException("this context runs no periodic work");
    }

    /** DUMP's and RESTORE's payload codec. */
    default DumpFormat dumpFormat() {
        throw new UnsupportedOperationException("this context cannot serialize values");
    }

    /** Snapshots and the append-only file. */
    default PersistenceControl persistence() {
        throw new UnsupportedOperationException("this context keeps no data on disk");
    }
}
