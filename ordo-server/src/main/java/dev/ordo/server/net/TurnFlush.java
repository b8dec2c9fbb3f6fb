package dev.ordo.server.net;

import dev.ordo.engine.host.HostedEngine;
import io.netty.channel.EventLoop;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The replies of one event loop leave once per turn of the loop, as Redis's do before its event
 * loop sleeps: a connection that has replies asks here instead of flushing at once, and one task,
 * run after the loop has handled every readable socket of its turn, flushes all of them.
 *
 * <p>Why: flushing each reply as soon as it is ready (one system call per reply either way) let a
 * fast server answer a few clients, sleep, and wake again for the next few, so clients saw
 * replies in small, uneven batches. Measured with {@code redis-benchmark -P 1} (50 clients, 1M
 * set, medians of 5 alternating rounds) against flushing at once: p99 0.815 against 0.839 ms
 * for ZSCORE, 0.767 against 0.879 for ZREVRANK, 1.103 against 1.199 for ZADD, with throughput
 * no lower.
 *
 * <p>Under {@code appendfsync always} the same task is the group commit: it makes the writes of
 * the turn durable once ({@link Engine#awaitDurable}: one write and one fsync) before any reply
 * acknowledging them leaves, so one fsync serves every client of the turn.
 *
 * <p>Event loop thread only. A connection is queued at most once until it is flushed (its
 * {@code flushQueued} flag), and the task is in the loop's queue at most once.
 */
final class TurnFlush implements Runnable {
    private final HostedEngine engine;
    private final EventLoop loop;
    private List<Connection> waiting = new ArrayList<>();
    private List<Connection> flushing = new ArrayList<>();
    /** Whether this task is in the loop's queue. */
    private boolean scheduled;

    TurnFlush(HostedEngine engine, EventLoop loop) {
        this.engine = engine;
        this.loop = loop;
    }

    /** Flushes {@code connection} at the end of this turn, once the writes so far are durable. */
    void add(Connection connection) {
        if (!scheduled) {
            scheduled = true;
            loop.execute(this);
        }
        waiting.add(connection);
    }

    /** Runs the flush now if a connection waits (a busy script's takeover, from inside the turn). */
    void runIfPending() {
        if (!waiting.isEmpty()) {
            flush();
        }
    }

    @Override
    public void run() {
        scheduled = false;
        flush();
    }

    private void flush() {
        List<Connection> ready = waiting;
        waiting = flushing;
        flushing = ready;
        int next = 0;
        try {
            try {
                engine.awaitDurable();
            } catch (UncheckedIOException e) {
                // The writes these replies acknowledge are not durable: the clients lose their
                // connections instead of an acknowledgement (Redis exits in this case).
                ready.forEach(Connection::closeUnacknowledged);
                next = ready.size();
                return;
            }
            while (next < ready.size()) {
                ready.get(next++).flushNow();
            }
        } finally {
            // Left only by an unexpected exception: those connections are flushed next turn
            // rather than never (each stays marked as queued, so it would not queue itself again).
            while (next < ready.size()) {
                add(ready.get(next++));
            }
            ready.clear();
        }
    }
}
