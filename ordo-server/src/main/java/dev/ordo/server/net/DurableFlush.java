package dev.ordo.server.net;

import dev.ordo.engine.Engine;
import io.netty.channel.EventLoop;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Group commit for one event loop under {@code appendfsync always}: connections ask to flush
 * their replies here instead of flushing at once, and one task, run after the loop has handled
 * every readable socket of its turn, makes the writes durable once ({@link Engine#awaitDurable}:
 * one write and one fsync) and then flushes all of them. No reply leaves before the writes it
 * acknowledges are on disk, and one fsync serves every client of the turn, as Redis's fsync
 * before its event loop sleeps does. Event loop thread only.
 */
final class DurableFlush implements Runnable {
    private final Engine engine;
    private final EventLoop loop;
    private final Set<Connection> waiting = new LinkedHashSet<>();
    private boolean scheduled;

    DurableFlush(Engine engine, EventLoop loop) {
        this.engine = engine;
        this.loop = loop;
    }

    /** Flushes {@code connection} once the writes so far are durable. */
    void add(Connection connection) {
        waiting.add(connection);
        if (!scheduled) {
            scheduled = true;
            loop.execute(this);
        }
    }

    @Override
    public void run() {
        scheduled = false;
        List<Connection> ready = new ArrayList<>(waiting);
        waiting.clear();
        try {
            engine.awaitDurable();
        } catch (UncheckedIOException e) {
            // The writes these replies acknowledge are not durable: the clients lose their
            // connections instead of an acknowledgement (Redis exits in this case).
            ready.forEach(Connection::closeUnacknowledged);
            return;
        }
        ready.forEach(Connection::flushNow);
    }
}
