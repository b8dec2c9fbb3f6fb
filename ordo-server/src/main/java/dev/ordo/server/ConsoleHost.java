package dev.ordo.server;

import dev.ordo.console.Console;
import dev.ordo.console.ConsoleHttp;
import dev.ordo.console.ConsoleOptions;
import dev.ordo.console.ConsoleServer;
import dev.ordo.engine.Engine;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Ordo Console served by the server itself on {@code console-port} (bound to
 * {@code console-bind}, loopback by default). Each signed-in user gets a console over an
 * in-process session of the engine authenticated as that user (AUTH with the HTTP Basic
 * credentials), so the server's ACL decides what the console may read and do, command by command,
 * as for any client. Without credentials the session is the default user's: it works while the
 * default user needs no password, and is refused (401) when it does. Each request signs in again,
 * so a password set or changed since applies at once.
 *
 * <p>At most {@link #SESSIONS} users' consoles are kept (the least recently used is closed
 * beyond that); only a successful sign-in creates one, so failed attempts hold nothing.
 */
final class ConsoleHost implements AutoCloseable {
    static final int SESSIONS = 16;

    private final Engine engine;
    private final ConsoleOptions options;
    private final String description;
    private final Map<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);
    private final ConsoleServer server;

    private record Session(EmbeddedStore store, Console console, ConsoleHttp http) {
        void close() {
            console.close();
            store.close();
        }
    }

    private ConsoleHost(Engine engine, String bind, int port, ConsoleOptions options, String description) throws InterruptedException {
        this.engine = engine;
        this.options = options;
        this.description = description;
        this.server = ConsoleServer.start(bind, port, this::open);
    }

    static ConsoleHost start(Engine engine, String bind, int port, boolean writable, String description) {
        try {
            return new ConsoleHost(engine, bind, port, ConsoleOptions.readOnly().withWritable(writable), description);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening the console port", e);
        }
    }

    int port() {
        return server.port();
    }

    /**
     * The console for these credentials; null when the engine refuses them. Every request signs in
     * again (in-process, so cheap): a password changed or set since, or a user disabled, takes
     * effect at the next request, and the refused session is closed.
     */
    private ConsoleHttp open(String user, String password) {
        String id = user == null ? "" : user + "\0" + digest(password);
        Session known;
        synchronized (sessions) {
            known = sessions.get(id);
        }
        if (known != null) {
            if (signIn(known.store(), user, password)) {
                return known.http();
            }
            synchronized (sessions) {
                sessions.remove(id, known);
            }
            known.close();
            return null;
        }
        EmbeddedStore store = EmbeddedStore.on(engine);
        if (!signIn(store, user, password)) {
            store.close();
            return null;
        }
        Console console = new Console(store, description, options);
        Session session = new Session(store, console, new ConsoleHttp(console));
        synchronized (sessions) {
            Session raced = sessions.putIfAbsent(id, session);
            if (raced != null) {
                session.close();
                return raced.http();
            }
            if (sessions.size() > SESSIONS) {
                var eldest = sessions.entrySet().iterator();
                eldest.next().getValue().close();
                eldest.remove();
            }
        }
        return session.http();
    }

    /** AUTH with the credentials, or without them whether the default user needs no password. */
    private boolean signIn(EmbeddedStore store, String user, String password) {
        if (user == null) {
            return !HostedEngine.of(engine).acl().authRequired();
        }
        try {
            store.call(StoreCommand.of("AUTH").arg(user).arg(password));
            return true;
        } catch (StoreException refused) {
            return false;
        }
    }

    /** The password's SHA-256: the session map keeps no password. */
    private static String digest(String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.close();
        synchronized (sessions) {
            sessions.values().forEach(Session::close);
            sessions.clear();
        }
    }
}
