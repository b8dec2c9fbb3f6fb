package dev.ordo.patterns.embedded;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.Engine;
import dev.ordo.engine.error.ErrorReply;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * A {@link Store} on an Ordo engine in the same process: no sockets, no serialization, the
 * engine's own scripting. A script with a Java twin ({@link Script#local()}) runs as that twin,
 * atomically ({@link EmbeddedClient#atomically}), with no interpreter. It holds one client
 * session of the engine (a blocking command parks only the calling thread); {@link #dedicated()}
 * opens another.
 *
 * <p>The non-blocking calls ({@link Store#callAsync} and the rest) run the command at once on the
 * calling thread and return a completed stage: an in-process engine answers without I/O.
 */
public final class EmbeddedStore implements Store {
    private static final byte[] EVALSHA = "EVALSHA".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVAL = "EVAL".getBytes(StandardCharsets.US_ASCII);

    private final Engine engine;
    private final EmbeddedClient client;

    /**
     * A store on a new client session of {@code engine} (for instance {@code Ordo.embedded().engine()}).
     *
     * @param engine the in-process engine the store's commands run on
     * @return a store holding its own client session of {@code engine}
     */
    public static EmbeddedStore on(Engine engine) {
        return new EmbeddedStore(engine);
    }

    private EmbeddedStore(Engine engine) {
        this.engine = engine;
        this.client = engine.connectText();
    }

    @Override
    public Reply call(StoreCommand command) {
        List<String> args = command.args();
        byte[][] raw = new byte[args.size() + 1][];
        raw[0] = command.name().getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < args.size(); i++) {
            raw[i + 1] = utf8(args.get(i));
        }
        return run(raw);
    }

    @Override
    public Reply eval(Script script, List<String> keys, List<String> args) {
        Script.Local local = script.local();
        if (local != null) {
            return client.atomically(commands -> local.run(command -> run(() -> commands.call(command)), keys, args));
        }
        byte[][] raw = new byte[3 + keys.size() + args.size()][];
        raw[1] = script.sha1().getBytes(StandardCharsets.US_ASCII);
        raw[2] = Integer.toString(keys.size()).getBytes(StandardCharsets.US_ASCII);
        int i = 3;
        for (String k : keys) {
            raw[i++] = utf8(k);
        }
        for (String a : args) {
            raw[i++] = utf8(a);
        }
        raw[0] = EVALSHA;
        try {
            return run(raw);
        } catch (StoreException e) {
            if (!e.isNoScript()) {
                throw e;
            }
            raw[0] = EVAL;
            raw[1] = utf8(script.source());
            return run(raw);
        }
    }

    @Override
    public Store dedicated() {
        return new EmbeddedStore(engine);
    }

    @Override
    public boolean clustered() {
        return false;
    }

    /** Ends this store's client session; the engine stays up. */
    @Override
    public void close() {
        client.close();
    }

    private Reply run(byte[][] raw) {
        return run(() -> client.call(raw));
    }

    /** The reply of {@code call} (the engine's tree of Long, String, null and List), an error reply thrown as {@link StoreException}. */
    private static Reply run(Supplier<Object> call) {
        try {
            return Reply.from(call.get());
        } catch (ErrorReply e) {
            throw new StoreException(e.getMessage(), e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
