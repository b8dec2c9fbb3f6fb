package dev.ordo.server.net;

import dev.ordo.engine.command.TransportStats;

import java.util.concurrent.atomic.LongAdder;

/**
 * The server's network counters for INFO stats, as Redis keeps them: connections admitted and
 * refused over {@code maxclients}, bytes read from client sockets and bytes handed to them, and
 * the reads and writes (flushes with data) that moved them. Only admitted connections count (a
 * refused one's error line and input do not, as in Redis); the bytes a busy script's takeover
 * moves itself count too.
 *
 * <p>Updated from every event loop without locks ({@link LongAdder}: an uncontended add is one
 * CAS on the loop's own cell); read from any thread, each counter on its own, so a snapshot taken
 * while traffic flows may mix instants.
 */
final class NetworkStats {
    private final LongAdder connectionsReceived = new LongAdder();
    private final LongAdder rejectedConnections = new LongAdder();
    private final LongAdder inputBytes = new LongAdder();
    private final LongAdder outputBytes = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();

    void connectionAdmitted() {
        connectionsReceived.increment();
    }

    void connectionRejected() {
        rejectedConnections.increment();
    }

    /** One read from a socket that brought {@code bytes}. */
    void read(int bytes) {
        reads.increment();
        inputBytes.add(bytes);
    }

    /** {@code bytes} handed to a socket. */
    void wrote(int bytes) {
        outputBytes.add(bytes);
    }

    /** One write to a socket (a flush that had data to send). */
    void flushed() {
        writes.increment();
    }

    TransportStats snapshot() {
        return new TransportStats(connectionsReceived.sum(), rejectedConnections.sum(), inputBytes.sum(), outputBytes.sum(),
                reads.sum(), writes.sum());
    }

    /** CONFIG RESETSTAT: every counter back to zero. */
    void reset() {
        connectionsReceived.reset();
        rejectedConnections.reset();
        inputBytes.reset();
        outputBytes.reset();
        reads.reset();
        writes.reset();
    }
}
