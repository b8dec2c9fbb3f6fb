package dev.ordo.server.net;

import dev.ordo.engine.command.TransportStats;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's network counters for INFO stats, as Redis keeps them: connections admitted and
 * refused over {@code maxclients}, bytes read from client sockets and bytes handed to them, the
 * reads and writes (flushes with data) that moved them, and clients closed for memory (client
 * eviction, the query and output buffer limits). Only admitted connections count (a
 * refused one's error line and input do not, as in Redis); the bytes a busy script's takeover
 * moves itself count too.
 *
 * <p>Traffic is counted on every request, so each event loop counts its own connections in a
 * {@link Meter} that only that loop's thread writes: a plain add and a release store, no atomic
 * read-modify-write (the {@link LongAdder}s this replaced cost about a tenth of the loop's own
 * CPU time on a -P 1 ZSCORE load). A busy script's takeover, which may run off the loop, counts on
 * one shared meter under its lock; connections admitted and refused go to {@link LongAdder}s.
 * Read from any thread, each counter on its own, so a snapshot taken while traffic flows may mix
 * instants. CONFIG RESETSTAT never writes a meter: it records the meters' totals as the new zero.
 */
final class NetworkStats {
    private final LongAdder connectionsReceived = new LongAdder();
    private final LongAdder rejectedConnections = new LongAdder();
    private final LongAdder evictedClients = new LongAdder();
    private final LongAdder queryBufferLimitDisconnections = new LongAdder();
    private final LongAdder outputBufferLimitDisconnections = new LongAdder();
    private final Meter offLoop = new Meter();
    private final Map<Executor, Meter> loopMeters = new ConcurrentHashMap<>();
    private volatile long[] zero = new long[Meter.COUNTERS];

    /**
     * Bytes and calls of socket traffic, each counter written by one thread at a time: the event
     * loop the meter belongs to, or any thread holding the lock of {@link #offLoop}.
     */
    static final class Meter {
        static final int COUNTERS = 4;
        private final AtomicLong inputBytes = new AtomicLong();
        private final AtomicLong outputBytes = new AtomicLong();
        private final AtomicLong reads = new AtomicLong();
        private final AtomicLong writes = new AtomicLong();

        /** One read from a socket that brought {@code bytes}. */
        void read(int bytes) {
            add(reads, 1);
            add(inputBytes, bytes);
        }

        /** {@code bytes} handed to a socket. */
        void wrote(int bytes) {
            add(outputBytes, bytes);
        }

        /** One write to a socket (a flush that had data to send). */
        void flushed() {
            add(writes, 1);
        }

        private static void add(AtomicLong counter, long n) {
            counter.setRelease(counter.getPlain() + n);
        }

        void addTo(long[] totals) {
            totals[0] += inputBytes.get();
            totals[1] += outputBytes.get();
            totals[2] += reads.get();
            totals[3] += writes.get();
        }
    }

    void connectionAdmitted() {
        connectionsReceived.increment();
    }

    void connectionRejected() {
        rejectedConnections.increment();
    }

    /** A client closed by client eviction ({@code maxmemory-clients}). */
    void clientEvicted() {
        evictedClients.increment();
    }

    /** A client closed over {@code client-query-buffer-limit}. */
    void queryBufferLimitReached() {
        queryBufferLimitDisconnections.increment();
    }

    /** A client closed over {@code client-output-buffer-limit}. */
    void outputBufferLimitReached() {
        outputBufferLimitDisconnections.increment();
    }

    /** The meter of the connections served by {@code loop}; only that loop's thread may count on it. */
    Meter meter(Executor loop) {
        return loopMeters.computeIfAbsent(loop, l -> new Meter());
    }

    /** A busy script's takeover, from whatever thread it runs on: one read that brought {@code bytes}. */
    void read(int bytes) {
        synchronized (offLoop) {
            offLoop.read(bytes);
        }
    }

    /** A busy script's takeover wrote {@code bytes} in one write to a socket. */
    void wroteAndFlushed(int bytes) {
        synchronized (offLoop) {
            offLoop.wrote(bytes);
            offLoop.flushed();
        }
    }

    TransportStats snapshot() {
        long[] z = zero; // first: totals read after it are never below it
        long[] t = totals();
        return new TransportStats(connectionsReceived.sum(), rejectedConnections.sum(), t[0] - z[0], t[1] - z[1], t[2] - z[2],
                t[3] - z[3], evictedClients.sum(), queryBufferLimitDisconnections.sum(), outputBufferLimitDisconnections.sum());
    }

    /** CONFIG RESETSTAT: every counter back to zero. */
    void reset() {
        connectionsReceived.reset();
        rejectedConnections.reset();
        evictedClients.reset();
        queryBufferLimitDisconnections.reset();
        outputBufferLimitDisconnections.reset();
        zero = totals();
    }

    private long[] totals() {
        long[] t = new long[Meter.COUNTERS];
        offLoop.addTo(t);
        for (Meter m : loopMeters.values()) {
            m.addTo(t);
        }
        return t;
    }
}
