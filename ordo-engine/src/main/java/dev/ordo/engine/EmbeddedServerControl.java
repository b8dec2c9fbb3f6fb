package dev.ordo.engine;

import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.command.TransportStats;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Server control for an engine with no network server, and the registry of the engine's embedded
 * clients in every case: each {@link EmbeddedClient} registers here from creation to close, so
 * a network server that takes over the control lists and kills them through this one.
 */
final class EmbeddedServerControl implements ServerControl {
    private final List<EmbeddedClient> clients = new CopyOnWriteArrayList<>();

    void register(EmbeddedClient c) {
        clients.add(c);
    }

    void unregister(EmbeddedClient c) {
        clients.remove(c);
    }

    /** The embedded clients' sessions, in id order. */
    @Override
    public List<Session> clients() {
        List<Session> sessions = new ArrayList<>(clients.size());
        for (EmbeddedClient c : clients) {
            sessions.add(c.session());
        }
        sessions.sort(Comparator.comparingLong(Session::id));
        return sessions;
    }

    /** Closes the embedded client with {@code id}: it leaves the list and its calls fail from now on. */
    @Override
    public boolean kill(long id) {
        for (EmbeddedClient c : clients) {
            if (c.session().id() == id) {
                c.close();
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean monitor(Session session) {
        throw new ErrorReply(Errors.MONITOR_EMBEDDED);
    }

    /** An embedded client never monitors: nothing to stop. */
    @Override
    public void stopMonitoring(Session session) {
    }

    @Override
    public void shutdown() {
        throw new ErrorReply("ERR SHUTDOWN is not available in an embedded engine; close it instead");
    }

    @Override
    public List<String> serverInfo() {
        return List.of("tcp_port:0");
    }

    @Override
    public TransportStats transportStats() {
        return TransportStats.NONE;
    }

    @Override
    public void resetStats() {
    }
}
