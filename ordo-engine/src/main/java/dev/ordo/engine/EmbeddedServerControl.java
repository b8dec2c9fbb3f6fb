package dev.ordo.engine;

import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.error.ErrorReply;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Server control for an engine with no network server: knows the embedded clients only. */
final class EmbeddedServerControl implements ServerControl {
    private final Engine engine;
    private final List<Session> sessions = new CopyOnWriteArrayList<>();

    EmbeddedServerControl(Engine engine) {
        this.engine = engine;
    }

    void register(Session s) {
        sessions.add(s);
    }

    void unregister(Session s) {
        sessions.remove(s);
    }

    @Override
    public List<Session> clients() {
        return List.copyOf(sessions);
    }

    @Override
    public boolean kill(long id) {
        for (Session s : sessions) {
            if (s.id() == id) {
                s.markClosing();
                return true;
            }
        }
        return false;
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
    public int blockedClients() {
        return engine.blockedClients();
    }
}
