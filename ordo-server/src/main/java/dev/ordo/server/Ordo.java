package dev.ordo.server;

import dev.ordo.engine.time.Clock;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.Engine;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.server.net.EventLoopScheduler;
import dev.ordo.server.net.RespServer;
import dev.ordo.server.net.ServerLog;
import dev.ordo.server.net.Transport;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ordo in your process: an engine, a client that needs no socket, and optionally a RESP port on
 * the same data.
 *
 * <pre>{@code
 * try (Ordo ordo = Ordo.embedded()) {
 *     ordo.client().call("ZADD", "board", "120", "alice");
 *     int port = ordo.openPort(0);   // redis-cli -p <port> ZRANGE board 0 -1
 * }
 * }</pre>
 *
 * <p>Commands run one at a time under the engine's lock, whether they come from {@link #client()}
 * or the network. {@code io-threads} event loop threads (daemon threads, 1 by default) carry the
 * network I/O (on io_uring or NIO: {@code io-transport}, see {@link Transport}), the commands of
 * network clients and the engine's timers. SHUTDOWN sent over the
 * network closes the port; the engine lives until {@link #close()}. {@link #openTlsPort} serves
 * RESP over TLS as well or instead (see {@link dev.ordo.server.tls.ServerTls}).
 */
public final class Ordo implements AutoCloseable {
    private final Config config;
    private final ServerLog log;
    private final EventLoopGroup group;
    private final Transport transport;
    private final Engine engine;
    private final CountDownLatch closed = new CountDownLatch(1);
    private EmbeddedClient client;
    private RespServer server;
    private ConsoleHost console;
    private Runnable onShutdown;
    private boolean closing;

    private Ordo(Config config, ServerLog log) {
        this.config = config;
        this.log = log;
        this.transport = Transport.of(config);
        this.group = transport.newGroup(config.getInt("io-threads"), new DefaultThreadFactory("ordo", true));
        if (transport.refusal() != null) {
            log.warning("io_uring refused its event loops, using NIO: " + transport.refusal());
        }
        this.engine = new Engine(config, Clock.SYSTEM, new EventLoopScheduler(group.next()));
    }

    /**
     * An engine with the default configuration.
     *
     * @return a running engine, in memory only, with no port open
     */
    public static Ordo embedded() {
        return embedded(new Config());
    }

    /**
     * An engine with {@code config} (read live: CONFIG SET changes it).
     *
     * @param config the configuration
     * @return a running engine, in memory only, with no port open
     */
    public static Ordo embedded(Config config) {
        return new Ordo(config, ServerLog.SILENT);
    }

    /**
     * An engine that keeps its data in {@code dataDir} (created if missing): it loads what is
     * there, logs every write to the append-only file (fsynced every second) and saves a
     * snapshot at {@link #close()}. Throws when a file there is corrupt, naming it and the offset.
     *
     * @param dataDir where the data is kept
     * @return a running engine with its data loaded
     * @throws IOException when the data cannot be read or is corrupt
     */
    public static Ordo open(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        Config config = new Config();
        config.set("dir", dataDir.toString(), true);
        config.set("appendonly", "yes", true);
        return open(config);
    }

    /**
     * An engine with {@code config} that keeps its data in the configured {@code dir}, as the server does.
     *
     * @param config the configuration; its {@code dir} holds the data
     * @return a running engine with its data loaded
     * @throws IOException when the data cannot be read or is corrupt
     */
    public static Ordo open(Config config) throws IOException {
        Ordo ordo = new Ordo(config, ServerLog.SILENT);
        try {
            ordo.engine.startPersistence();
        } catch (IOException | RuntimeException e) {
            ordo.close();
            throw e;
        }
        return ordo;
    }

    /** An engine whose network server reports to {@code log}. */
    static Ordo embedded(Config config, ServerLog log) {
        return new Ordo(config, log);
    }

    /**
     * The in-process client (one shared session: its SELECT and HELLO apply to every caller). If
     * CLIENT KILL ended it, the next call here returns a new one, as a client library reconnects.
     *
     * @return the shared in-process client
     */
    public synchronized EmbeddedClient client() {
        if (client == null || (client.isClosed() && !closing)) {
            client = engine.connect();
        }
        return client;
    }

    /**
     * Serves RESP on {@code port} (0: any free port) at the configured {@code bind} addresses and
     * returns the bound port. One plain port per instance, beside which {@link #openTlsPort} may
     * open a TLS one.
     *
     * @param port the port, or 0 for any free one
     * @return the port bound
     */
    public synchronized int openPort(int port) {
        RespServer s = serverFor("port", server == null ? 0 : server.port());
        int bound = s.start(port);
        server = s;
        return bound;
    }

    /**
     * Serves RESP over TLS on {@code port} (0: any free port) at the configured {@code bind}
     * addresses, and returns the bound port: the certificate, key, CA and the other {@code tls-*}
     * parameters come from the configuration, as for redis-server ({@code tls-cert-file} and
     * {@code tls-key-file} at least, and {@code tls-ca-cert-file} unless
     * {@code tls-auth-clients} is {@code no}). One TLS port per instance, with or without a plain
     * one. CONFIG SET of a {@code tls-*} file reloads the context for later connections.
     *
     * @param port the port, or 0 for any free one
     * @return the port bound
     * @throws IllegalStateException with redis-server's reason when the parameters give no TLS context
     */
    public synchronized int openTlsPort(int port) {
        RespServer s = serverFor("TLS port", server == null ? 0 : server.tlsPort());
        int bound = s.startTls(port);
        server = s;
        return bound;
    }

    /**
     * Serves the Ordo Console (a web dashboard over this engine) over HTTP on {@code port} (0:
     * any free port) at the configured {@code console-bind} address, read-only unless
     * {@code console-writable} is yes. Each user signs in with HTTP Basic as a server user (ACL
     * user and password, or the default user's password), and the console then acts as that user.
     *
     * @param port the port, or 0 for any free one
     * @return the port bound
     */
    public synchronized int openConsole(int port) {
        if (closing) {
            throw new IllegalStateException("closed");
        }
        if (console != null) {
            throw new IllegalStateException("the console is already open on port " + console.port());
        }
        console = ConsoleHost.start(engine, config.get("console-bind"), port, config.getBoolean("console-writable"),
                "Ordo " + dev.ordo.server.config.Version.ORDO + " (this server)");
        return console.port();
    }

    /** The server to open another port on: this instance's, or a new one; throws when {@code open} is already taken. */
    private RespServer serverFor(String kind, int open) {
        if (closing) {
            throw new IllegalStateException("closed");
        }
        if (open != 0) {
            throw new IllegalStateException("already serving on " + kind + " " + open);
        }
        if (server != null) {
            return server;
        }
        RespServer s = new RespServer(hosted(), config, group, transport, log);
        s.onShutdown(onShutdown != null ? onShutdown : s::close);
        return s;
    }

    /**
     * The port being served, or -1 before {@link #openPort}.
     *
     * @return the port, or -1
     */
    public synchronized int port() {
        return server == null || server.port() == 0 ? -1 : server.port();
    }

    /**
     * The TLS port being served, or -1 before {@link #openTlsPort}.
     *
     * @return the TLS port, or -1
     */
    public synchronized int tlsPort() {
        return server == null || server.tlsPort() == 0 ? -1 : server.tlsPort();
    }

    /**
     * The engine itself.
     *
     * @return the engine
     */
    public Engine engine() {
        return engine;
    }

    /** The engine as its network server sees it. */
    HostedEngine hosted() {
        return HostedEngine.of(engine);
    }

    /** What a SHUTDOWN from the network does instead of closing the port (the standalone server exits). */
    synchronized void onShutdown(Runnable action) {
        this.onShutdown = action;
        if (server != null) {
            server.onShutdown(action);
        }
    }

    /** Waits until {@link #close()} has finished. */
    void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /** Whether {@link #close()} has been called. */
    synchronized boolean isClosed() {
        return closing;
    }

    /** Closes the port, the client and the engine, and stops the event loop threads. */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        if (server != null) {
            server.close();
        }
        if (console != null) {
            console.close();
        }
        if (client != null) {
            client.close();
        }
        engine.close();
        var terminated = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        if (!inGroup()) {
            terminated.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        closed.countDown();
    }

    private boolean inGroup() {
        for (var executor : group) {
            if (executor.inEventLoop()) {
                return true;
            }
        }
        return false;
    }
}
