package dev.ordo.engine;

import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.error.ErrorReply;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A client of an engine in the same process: the same commands, replies and errors as over the
 * network, with no sockets and no serialization. Replies arrive as Java objects (see {@link
 * ObjectReplyWriter}); an error reply is thrown as {@link ErrorReply}. Thread-safe: a call from
 * any thread runs under the engine lock; a blocking command parks the calling thread without it.
 * One client is one session (selected database, protocol, name).
 */
public final class EmbeddedClient implements AutoCloseable {
    private final Engine engine;
    private final Session session;

    EmbeddedClient(Engine engine) {
        this.engine = engine;
        this.session = engine.newSession();
        if (engine.server() instanceof EmbeddedServerControl control) {
            control.register(session);
        }
    }

    /** Runs a command given as text arguments (UTF-8). */
    public Object call(String... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return call(raw);
    }

    /** Runs a command given as binary arguments; returns the reply, or throws an error reply. */
    public Object call(byte[]... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("a command needs a name");
        }
        ObjectReplyWriter out = new ObjectReplyWriter(session::protocol);
        CompletableFuture<Void> unblocked = new CompletableFuture<>();
        if (engine.execute(session, args, out, () -> unblocked.complete(null)) == Engine.Outcome.BLOCKED) {
            try {
                unblocked.get();
            } catch (InterruptedException e) {
                engine.disconnect(session);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while blocked", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        engine.awaitDurable();
        Object reply = out.take();
        if (reply instanceof ErrorReply error) {
            throw error;
        }
        return reply;
    }

    /** This client's session. */
    public Session session() {
        return session;
    }

    @Override
    public void close() {
        engine.disconnect(session);
        if (engine.server() instanceof EmbeddedServerControl control) {
            control.unregister(session);
        }
    }
}
