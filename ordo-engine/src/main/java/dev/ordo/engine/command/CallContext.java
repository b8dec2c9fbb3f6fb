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
}
