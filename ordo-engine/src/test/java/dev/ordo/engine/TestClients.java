package dev.ordo.engine;

import dev.ordo.engine.command.Session;

/** Test access to what embedders cannot reach: an embedded client's session. */
@SuppressWarnings("exports") // test code: the session type is the engine's own
public final class TestClients {
    private TestClients() {
    }

    /** The session behind {@code client}. */
    public static Session session(EmbeddedClient client) {
        return client.session();
    }
}
