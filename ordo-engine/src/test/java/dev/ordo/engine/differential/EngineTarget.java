package dev.ordo.engine.differential;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.time.Clock;
import dev.ordo.engine.Engine;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.config.Config;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** An in-process engine answering commands as {@link Reply} trees, on the system clock like a real server. */
final class EngineTarget implements AutoCloseable {
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ordo-differential");
        t.setDaemon(true);
        return t;
    });
    private final Engine engine = new Engine(new Config(), Clock.SYSTEM, (task, delay) -> {
        var f = executor.schedule(task, delay, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
    });
    private final Session session = HostedEngine.of(engine).newSession();

    Reply call(byte[][] args) throws Exception {
        return call(session, args);
    }

    /** A further client of the same engine (its own connection state: user, database, MULTI). */
    Session newSession() {
        return HostedEngine.of(engine).newSession();
    }

    /** Runs {@code args} as the client {@code session}. */
    Reply call(Session session, byte[][] args) throws Exception {
        TreeReplyWriter out = new TreeReplyWriter(session::protocol);
        CompletableFuture<Void> resumed = new CompletableFuture<>();
        if (HostedEngine.of(engine).execute(session, args, out, () -> resumed.complete(null)) == HostedEngine.Outcome.BLOCKED) {
            resumed.get(10, TimeUnit.SECONDS);
        }
        return out.take();
    }

    @Override
    public void close() {
        engine.close();
        executor.shutdownNow();
    }
}
