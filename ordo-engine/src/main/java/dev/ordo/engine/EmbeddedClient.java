package dev.ordo.engine;

import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.host.HostedEngine;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * A client of an engine in the same process: the same commands, replies and errors as over the
 * network, with no sockets and no serialization. Replies arrive as Java objects (see {@link
 * ObjectReplyWriter}); an error reply is thrown as {@link ErrorReply}. Thread-safe: a call from
 * any thread runs under the engine lock; a blocking command parks the calling thread without it.
 * One client is one session (selected database, protocol, name).
 *
 * <p>It is one of the engine's clients from creation to {@link #close()}, whether or not a
 * network server serves the engine: CLIENT LIST shows it and CLIENT KILL ends it. Once closed or
 * killed, a call throws {@link IllegalStateException}, and so does a call blocked at the time.
 */
public final class EmbeddedClient implements AutoCloseable {
    private final EngineCore engine;
    private final Session session;
    private final boolean textBulks;
    private volatile boolean closed;
    private volatile CompletableFuture<Void> waiting;

    EmbeddedClient(EngineCore engine, boolean textBulks) {
        this.engine = engine;
        this.session = engine.newSession();
        this.textBulks = textBulks;
        engine.embeddedClients().register(this);
    }

    /**
     * Runs a command given as text arguments (UTF-8).
     *
     * @param args the command name and its arguments
     * @return the reply: a String (status), Long, byte[] (bulk; String for a text client), null, a List (arrays, and maps as
     *         flat lists of keys and values), or with RESP3 a Double or Boolean
     * @throws dev.ordo.engine.error.ErrorReply when the command answers with an error
     */
    public Object call(String... args) {
        return call(utf8(args));
    }

    /** Text arguments as the bytes a command takes. */
    private static byte[][] utf8(String[] args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return raw;
    }

    /**
     * Runs a command given as binary arguments; returns the reply, or throws an error reply.
     *
     * @param args the command name and its arguments
     * @return the reply: a String (status), Long, byte[] (bulk; String for a text client), null, a List (arrays, and maps as
     *         flat lists of keys and values), or with RESP3 a Double or Boolean
     * @throws dev.ordo.engine.error.ErrorReply when the command answers with an error
     */
    public Object call(byte[]... args) {
        requireName(args);
        ObjectReplyWriter out = replyWriter(session, textBulks);
        CompletableFuture<Void> unblocked = new CompletableFuture<>();
        waiting = unblocked;
        if (closed) {
            throw closedError();
        }
        if (engine.execute(session, args, out, () -> unblocked.complete(null)) == HostedEngine.Outcome.BLOCKED) {
            awaitServed(unblocked);
        }
        engine.awaitDurable();
        return replyOf(out);
    }

    /** Refuses a command with no arguments, which would have no name. */
    static void requireName(byte[][] args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("a command needs a name");
        }
    }

    /** A writer for one reply to {@code session}, its bulk strings as text or as bytes. */
    static ObjectReplyWriter replyWriter(Session session, boolean textBulks) {
        return new ObjectReplyWriter(session::protocol, textBulks);
    }

    /** The reply {@code out} holds, thrown when it is an error reply. */
    static Object replyOf(ObjectReplyWriter out) {
        Object reply = out.take();
        if (reply instanceof ErrorReply error) {
            throw error;
        }
        return reply;
    }

    /** The commands of an {@link #atomically} body. */
    @FunctionalInterface
    public interface Commands {
        /**
         * Runs a command at once, inside the unit; returns its reply (bulk strings in the client's
         * form, see {@link Engine#connectText()}), or throws an error reply.
         *
         * @param args the command name and its arguments
         * @return the reply
         */
        Object call(byte[]... args);

        /**
         * Runs a command given as text arguments (UTF-8), as {@link #call(byte[]...)} does.
         *
         * @param args the command name and its arguments
         * @return the reply
         */
        default Object call(String... args) {
            return call(utf8(args));
        }
    }

    /**
     * Runs {@code body} as one atomic unit, as a script runs on a server: no other client's
     * command runs between its commands, their writes reach the append-only file together
     * (wrapped in MULTI/EXEC), time stands still for expiry, and a blocking command answers at
     * once as inside a script (BZPOPMIN on an empty key: nil). An error does not undo the writes
     * before it, as in a script. The body holds the whole engine while it runs, waiting first
     * for any running script to end: keep it short, and reach the engine only through {@code
     * commands}. Returns what the body returns; throws {@link IllegalStateException} while this
     * client is inside MULTI.
     *
     * @param <T>  what the body returns
     * @param body the commands to run as one unit
     * @return what the body returned
     */
    public <T> T atomically(Function<Commands, T> body) {
        if (closed) {
            throw closedError();
        }
        T result = engine.atomically(session, textBulks, body);
        engine.awaitDurable();
        return result;
    }

    /** Waits until the blocked command is answered; throws if the client is closed meanwhile. */
    private void awaitServed(CompletableFuture<Void> unblocked) {
        if (closed) {
            engine.disconnect(session);
            throw closedError();
        }
        try {
            unblocked.get();
        } catch (InterruptedException e) {
            engine.disconnect(session);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while blocked", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalStateException closedWhileBlocked) {
                throw closedWhileBlocked;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private static IllegalStateException closedError() {
        return new IllegalStateException("client closed (close() or CLIENT KILL)");
    }

    /** This client's session. */
    Session session() {
        return session;
    }

    /**
     * Whether this client has been closed or killed.
     *
     * @return true once closed or killed
     */
    public boolean isClosed() {
        return closed;
    }

    /** Ends this client: it leaves the client list and stops waiting for any key. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        session.markClosing();
        engine.embeddedClients().unregister(this);
        engine.disconnect(session);
        CompletableFuture<Void> w = waiting;
        if (w != null) {
            w.completeExceptionally(closedError());
        }
    }
}
