package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.Keyspace;

/** What handlers reach beyond their arguments: the keyspace, the configuration and the engine's services. */
public interface CallContext {
    /**
     * All the databases.
     *
     * @return the keyspace
     */
    Keyspace keyspace();

    /**
     * The live configuration.
     *
     * @return the configuration
     */
    Config config();

    /**
     * The commands the engine runs.
     *
     * @return the command table
     */
    CommandTable commands();

    /**
     * Server-wide information and actions (INFO, CLIENT, SHUTDOWN ...); see {@link ServerControl}.
     *
     * @return the server's control
     */
    ServerControl server();

    /**
     * The users and their permissions; null where no ACL is kept (every session may run anything).
     *
     * @return the ACL, or null
     */
    default dev.ordo.engine.acl.Acl acl() {
        return null;
    }

    /**
     * The Pub/Sub subscriptions (PUBLISH, SUBSCRIBE, PUBSUB).
     *
     * @return the Pub/Sub registry
     */
    default dev.ordo.engine.pubsub.PubSub pubSub() {
        throw new UnsupportedOperationException("this context has no Pub/Sub");
    }

    /**
     * Client-side caching (CLIENT TRACKING).
     *
     * @return the tracking registry
     */
    default Tracking tracking() {
        return Tracking.NONE;
    }

    /**
     * MULTI state and the watched-keys registry.
     *
     * @return the transactions registry
     */
    default Transactions transactions() {
        throw new UnsupportedOperationException("this context has no transactions");
    }

    /**
     * The dispatcher running commands here: command statistics and the slow log (INFO, SLOWLOG, CONFIG RESETSTAT).
     *
     * @return the dispatcher
     */
    default Dispatcher dispatcher() {
        throw new UnsupportedOperationException("this context keeps no command statistics");
    }

    /**
     * The clients waiting in blocking commands (INFO clients).
     *
     * @return the blocked clients
     */
    default BlockedClients blocking() {
        return BlockedClients.NONE;
    }

    /**
     * CLIENT UNBLOCK: answers the client {@code clientId}, if it waits in a blocking command, as
     * its timeout would (a null reply) or, when {@code withError}, with the UNBLOCKED error, and
     * lets it go on. Returns whether that client was waiting.
     *
     * @param clientId the client's id
     * @param withError whether to answer with the UNBLOCKED error rather than a timeout
     * @return whether the client was waiting
     */
    default boolean unblock(long clientId, boolean withError) {
        return false;
    }

    /**
     * What the script engine holds (INFO memory).
     *
     * @return the counts
     */
    default ScriptCounts scriptCounts() {
        return ScriptCounts.NONE;
    }

    /**
     * Stops the engine for good because a write ran out of memory part way (see
     * {@code Engine#failStop}); the caller then rethrows the error.
     *
     * @param why the reason, for the log and later refusals
     */
    default void failStop(String why) {
    }

    /**
     * Memory accounting, limits and eviction; null where none are kept.
     *
     * @return the memory management, or null
     */
    default MaxMemory maxMemory() {
        return null;
    }

    /**
     * DEBUG PAUSE-CRON: stops (or resumes) the periodic work Redis's serverCron does: active
     * expiry, the instantaneous metrics, save points and the automatic AOF rewrite.
     *
     * @param paused whether the periodic work stops
     */
    default void pauseCron(boolean paused) {
        throw new UnsupportedOperationException("this context runs no periodic work");
    }

    /**
     * DUMP's and RESTORE's payload codec.
     *
     * @return the codec
     */
    default DumpFormat dumpFormat() {
        throw new UnsupportedOperationException("this context cannot serialize values");
    }

    /**
     * Snapshots and the append-only file.
     *
     * @return the persistence control
     */
    default PersistenceControl persistence() {
        throw new UnsupportedOperationException("this context keeps no data on disk");
    }
}
