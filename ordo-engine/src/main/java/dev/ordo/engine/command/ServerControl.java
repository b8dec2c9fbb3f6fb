package dev.ordo.engine.command;

import java.util.List;

/**
 * The parts of server-level commands that depend on where the engine runs (embedded, or behind a
 * network server): the client list, killing clients, shutdown, and INFO sections owned by the
 * transport. The embedded default knows only its own sessions.
 */
public interface ServerControl {
    /**
     * Every connected client's session, in id order.
     *
     * @return the sessions
     */
    List<Session> clients();

    /**
     * Closes the connection of the client with {@code id}; returns whether there was one.
     *
     * @param id the client's id
     * @return whether there was one
     */
    boolean kill(long id);

    /**
     * MONITOR: from now on the connection of {@code session} is sent a line for every command that
     * runs; returns false, changing nothing, when it already was. Embedded clients are refused
     * ({@link dev.ordo.engine.error.text.Errors#MONITOR_EMBEDDED}): they have no connection.
     *
     * @param session the monitoring client
     * @return whether it started monitoring
     */
    boolean monitor(Session session);

    /**
     * RESET: the connection of {@code session} stops monitoring, if it did.
     *
     * @param session the client
     */
    void stopMonitoring(Session session);

    /** Shuts the server down (SHUTDOWN); embedded engines refuse. */
    void shutdown();

    /**
     * Lines of INFO's server section that only the transport knows (tcp_port ...), as "name:value".
     *
     * @return the lines
     */
    List<String> serverInfo();

    /**
     * The transport's counters for INFO stats ({@link TransportStats#NONE} without a network server).
     *
     * @return the counters
     */
    TransportStats transportStats();

    /**
     * The bytes all clients' buffers hold (input waiting, arguments, replies not yet sent), in O(1).
     *
     * @return the bytes
     */
    default long clientMemory() {
        return 0;
    }

    /** Sets the transport's counters back to zero (CONFIG RESETSTAT). */
    void resetStats();
}
