package dev.ordo.server.net;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.command.TransportStats;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.config.OutputBufferLimits;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.memory.HeapBudget;
import dev.ordo.server.resp.RespDecoder;
import dev.ordo.server.tls.ServerTls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The network side of an engine: listens on every address of {@code bind} and serves RESP
 * through one {@link Connection} per client on the given event loops. It is the engine's
 * {@link ServerControl} while open (CLIENT LIST / KILL, SHUTDOWN, INFO's {@code tcp_port}),
 * listing the embedded clients of the control it replaced as well, and restores that control
 * when closed.
 *
 * <p>Admission, as Redis admits a client: over {@code maxclients} it gets
 * {@code -ERR max number of clients reached}; then, in protected mode ({@code protected-mode yes},
 * the default, while the default user has no password) a client whose address is not loopback
 * gets Redis's {@code -DENIED} text; either is closed at once and counted in
 * {@code rejected_connections}.
 *
 * <p>Limits read live from the config: {@code timeout} (idle seconds, 0 =
 * never; checked every second; blocked and monitoring clients exempt), the decoder's limits, and
 * the memory limits of clients:
 * <ul>
 *   <li>the query buffer limit: {@code client-query-buffer-limit}, but never more than the heap
 *       allows one client ({@link HeapBudget#queryBufferCap});</li>
 *   <li>{@code client-output-buffer-limit}'s normal class, enforced by each {@link Connection};</li>
 *   <li>client eviction: while all clients together hold more than {@code maxmemory-clients}
 *       (never more than the heap allows them, {@link HeapBudget#implicitClientsLimit}), the
 *       clients holding the most are closed first, except those under CLIENT NO-EVICT. The total
 *       counts toward used_memory ({@link #clientMemory}), as in Redis.</li>
 * </ul>
 *
 * <p>TLS. {@link #startTls} listens on a second port whose connections start with Netty's
 * {@link io.netty.handler.ssl.SslHandler} ({@link ServerTls} makes it; CONFIG SET of a
 * {@code tls-*} file builds a new context for later connections). The pipeline of such a
 * connection is {@code SslHandler, TlsAdmission, RespDecoder, Connection}: {@link TlsAdmission}
 * keeps the connection from the engine until its handshake has succeeded, so a client that fails
 * it (plain text, no client certificate) is logged and closed without ever being a client, as in
 * Redis. Everything after the decoder is the same on both ports: the SslHandler takes the
 * replies Connection writes and counts what it holds toward the channel's writability, so the
 * turn's flush and backpressure work unchanged; {@link TrafficMeter} sits after it and counts
 * plain bytes, as Redis's counters do. While a script is busy, {@link BusyPump} (io_uring) serves
 * TLS clients like the others; {@link BusyTakeover} (NIO), which reads sockets itself, hands what
 * a TLS client sends to that client's own pipeline ({@link #tlsChannels}).
 */
public final class RespServer implements ServerControl, AutoCloseable {
    private static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 1024 * 1024);
    private static final byte[] MAX_CLIENTS = "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Redis 7.2's text, word for word: clients and people search for it. */
    private static final byte[] DENIED = ("-DENIED Redis is running in protected mode because protected mode is enabled and no "
            + "password is set for the default user. In this mode connections are only accepted from the loopback interface. "
            + "If you want to connect from external computers to Redis you may adopt one of the following solutions: "
            + "1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface "
            + "by connecting to Redis from the same host the server is running, however MAKE SURE Redis is not publicly "
            + "accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. "
            + "2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and setting "
            + "the protected mode option to 'no', and then restarting the server. "
            + "3) If you started the server manually just for testing, restart it with the '--protected-mode no' option. "
            + "4) Set up an authentication password for the default user. "
            + "NOTE: You only need to do one of the above things in order for the server to start accepting connections "
            + "from the outside.\r\n").getBytes(StandardCharsets.US_ASCII);

    private final HostedEngine engine;
    private final Config config;
    private final EventLoopGroup group;
    private final Transport transport;
    private final ServerLog log;
    private final ServerControl previous;
    private final MonitorFeed monitors;
    private final NetworkStats network = new NetworkStats();
    private final Map<Long, Connection> connections = new ConcurrentHashMap<>();
    private final AtomicInteger admitted = new AtomicInteger();
    /** The plain-text listening channels. */
    private final List<Channel> listeners = new CopyOnWriteArrayList<>();
    private final List<Channel> tlsListeners = new CopyOnWriteArrayList<>();
    private final java.util.Set<Channel> tlsChannels = ConcurrentHashMap.newKeySet();
    /** The TLS context maker, once {@link #startTls} has built it. */
    private volatile ServerTls tls;
    private volatile int tlsPort;
    private boolean active;
    /** Moves the TLS listener on CONFIG SET tls-port (one instance, so it can be unregistered). */
    private final Config.Applier tlsPortApplier = this::applyTlsPort;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Map<io.netty.channel.EventLoop, TurnFlush> turnFlushes = new ConcurrentHashMap<>();
    private volatile Runnable onShutdown = this::close;
    private volatile int port;
    private ScheduledFuture<?> idleCheck;
    private final List<ScheduledFuture<?>> crons = new CopyOnWriteArrayList<>();
    /** The decoder's limits, read at every socket read. */
    final LongSupplier maxBulkLength;
    private final LongSupplier configuredQueryBufferLimit;
    private final java.util.function.Supplier<String> outputLimitsText;
    private final HeapBudget budget;
    /** The bytes every connection holds, as they last reported it. */
    private final AtomicLong clientMemory = new AtomicLong();
    private volatile String parsedLimitsText;
    private volatile OutputBufferLimits outputLimits;
    /** {@link #clientsLimit}, read again by the cron every 100 ms: the memory figures change far more often. */
    private volatile long clientsLimit = Long.MAX_VALUE;
    /** The client memory total when eviction last found nothing more to close: the cron leaves it be. */
    private volatile long unevictable = -1;
    /** When {@link #logSecurityAttack} last logged (System.nanoTime), 0 before the first time. */
    private final AtomicLong lastSecurityLog = new AtomicLong();

    public RespServer(HostedEngine engine, Config config, EventLoopGroup group, Transport transport, ServerLog log) {
        this.engine = engine;
        this.config = config;
        this.group = group;
        this.transport = transport;
        this.log = log;
        this.previous = engine.server();
        this.monitors = new MonitorFeed(engine, PooledByteBufAllocator.DEFAULT);
        this.maxBulkLength = config.liveNumber("proto-max-bulk-len");
        this.configuredQueryBufferLimit = config.liveNumber("client-query-buffer-limit");
        this.outputLimitsText = config.liveValue("client-output-buffer-limit");
        this.budget = engine.maxMemory().budget();
    }

    /** The most a client's pending input may hold: {@code client-query-buffer-limit}, capped by the heap. */
    long queryBufferLimit() {
        return Math.min(configuredQueryBufferLimit.getAsLong(), budget.queryBufferCap());
    }

    /** {@code client-output-buffer-limit}, parsed again only when the setting changed. */
    OutputBufferLimits outputLimits() {
        String text = outputLimitsText.get();
        if (!text.equals(parsedLimitsText)) {
            outputLimits = config.outputBufferLimits();
            parsedLimitsText = text;
        }
        return outputLimits;
    }

    /** The limit on all clients' memory together: {@code maxmemory-clients}, never more than the heap allows. */
    long clientsLimit() {
        long configured = config.maxmemoryClients(engine.maxMemory().limit());
        long implicit = budget.implicitClientsLimit();
        return configured > 0 ? Math.min(configured, implicit) : implicit;
    }

    /** A connection's memory changed by {@code delta} bytes; evicts clients when all of them hold too much. */
    void clientMemoryChanged(long delta) {
        if (delta != 0 && clientMemory.addAndGet(delta) > clientsLimit && delta > 0) {
            evictClients();
        }
    }

    @Override
    public long clientMemory() {
        return Math.max(0, clientMemory.get());
    }

    /**
     * Closes the clients that hold the most, CLIENT NO-EVICT ones aside, until the rest hold no
     * more than the limit, as Redis's client eviction does (it works from the biggest memory
     * bucket down).
     */
    private synchronized void evictClients() {
        long limit = clientsLimit();
        long total = clientMemory.get();
        List<Connection> candidates = new ArrayList<>();
        for (Connection c : connections.values()) {
            if (c.session().closing()) {
                total -= c.memory(); // on its way out: its memory goes with it
            } else if (!c.session().noEvict()) {
                candidates.add(c);
            }
        }
        if (total <= limit) {
            return;
        }
        candidates.sort(Comparator.comparingLong(Connection::memory).reversed());
        for (Connection c : candidates) {
            if (total <= limit) {
                return;
            }
            log.notice("Evicting client: " + c.describe());
            network.clientEvicted();
            total -= c.memory();
            c.kill();
        }
        if (total > limit) {
            unevictable = clientMemory.get();
            log.warning("Over client maxmemory after evicting all evictable clients");
        }
    }

    /** Every 100 ms on each event loop: its connections' soft output limits and memory figures. */
    private void cron() {
        clientsLimit = clientsLimit();
        long held = clientMemory.get();
        if (held > clientsLimit && held != unevictable) { // a limit lowered since the clients last grew
            evictClients();
        }
        for (Connection c : connections.values()) {
            if (c.onThisLoop()) {
                c.cron();
            }
        }
    }

    /**
     * Listens on {@code port} (0: a free one) at every {@code bind} address, makes this server the
     * engine's control, and returns the port. An address written {@code -addr} is optional: failing
     * to bind it is logged, not fatal. Throws {@link UncheckedIOException} when binding fails.
     */
    public int start(int port) {
        int bound = listen(port, false);
        this.port = bound;
        activate();
        return bound;
    }

    /**
     * Listens for TLS connections on {@code port} (0: a free one) at every {@code bind} address,
     * with a context built from the {@code tls-*} parameters, and returns the port; beside
     * {@link #start} or alone. Throws {@link IllegalStateException} with Redis's reason when the
     * parameters give no context, {@link UncheckedIOException} when binding fails.
     */
    public int startTls(int port) {
        ServerTls made = ServerTls.open(config, log::warning);
        tls = made;
        int bound = listen(port, true);
        log.notice("TLS on port " + bound + " with the " + made.provider() + " provider");
        config.onSet(ServerTls.CONTEXT_PARAMETERS, made);
        this.tlsPort = bound;
        activate();
        return bound;
    }

    /** Binds {@code port} at every {@code bind} address; on failure closes what this call bound and throws. */
    private int listen(int port, boolean secure) {
        List<Channel> bound = new ArrayList<>();
        int actual = port;
        for (String spec : config.get("bind").trim().split("\\s+")) {
            boolean optional = spec.startsWith("-");
            String host = hostOf(optional ? spec.substring(1) : spec);
            try {
                Channel channel = bindOne(host, actual, secure);
                bound.add(channel);
                actual = ((InetSocketAddress) channel.localAddress()).getPort();
            } catch (UncheckedIOException e) {
                if (!optional) {
                    bound.forEach(c -> c.close().awaitUninterruptibly());
                    throw e;
                }
                log.warning(e.getMessage());
            }
        }
        if (bound.isEmpty()) {
            throw new UncheckedIOException(new BindException(
                    "Failed listening on port " + port + (secure ? " (tls)" : " (tcp)") + ", aborting."));
        }
        (secure ? tlsListeners : listeners).addAll(bound);
        return actual;
    }

    /**
     * CONFIG SET tls-port, as Redis's applyTLSPort: builds the TLS context if there was none,
     * checks that every bind address is free at the new port (refusing with Redis's error if
     * not), then closes the TLS listeners and listens at the new port; 0 stops serving TLS.
     * CONFIG SET may run on an event loop, which must not wait for its own binding: the check
     * binds plain sockets synchronously, and Netty's listeners open a moment later (a failure
     * then is logged).
     */
    private String applyTlsPort() {
        int wanted = config.getInt("tls-port");
        if (wanted == tlsPort) {
            return null;
        }
        if (wanted != 0) {
            if (tls == null) {
                try {
                    ServerTls made = ServerTls.open(config, log::warning);
                    tls = made;
                    config.onSet(ServerTls.CONTEXT_PARAMETERS, made);
                } catch (IllegalStateException e) {
                    return Errors.TLS_CONFIG_FAILED;
                }
            }
            for (String spec : config.get("bind").trim().split("\\s+")) {
                String host = hostOf(spec.startsWith("-") ? spec.substring(1) : spec);
                try (ServerSocket probe = new ServerSocket()) {
                    probe.setReuseAddress(true);
                    probe.bind(new InetSocketAddress(host, wanted));
                } catch (IOException e) {
                    if (!spec.startsWith("-")) {
                        log.warning("Could not create server TCP listening socket " + host + ":" + wanted + ": " + e.getMessage());
                        return Errors.LISTEN_FAILED;
                    }
                }
            }
        }
        List<Channel> old = new ArrayList<>(tlsListeners);
        tlsListeners.clear();
        old.forEach(Channel::close);
        tlsPort = wanted;
        if (wanted != 0) {
            for (String spec : config.get("bind").trim().split("\\s+")) {
                String host = hostOf(spec.startsWith("-") ? spec.substring(1) : spec);
                bootstrap(true).bind(new InetSocketAddress(host, wanted)).addListener((ChannelFuture f) -> {
                    if (f.isSuccess()) {
                        tlsListeners.add(f.channel());
                        if (closed.get() || tlsPort != wanted) { // closed, or moved again, meanwhile
                            tlsListeners.remove(f.channel());
                            f.channel().close();
                        }
                    } else {
                        log.warning("Could not create server TCP listening socket " + host + ":" + wanted + ": " + f.cause());
                    }
                });
            }
        }
        return null;
    }

    /** The first time a port opens: becomes the engine's control and starts the timers. */
    private synchronized void activate() {
        if (active) {
            return;
        }
        active = true;
        config.onSet(List.of("tls-port"), tlsPortApplier);
        engine.setServerControl(this);
        engine.scripting().setBusyHandler(transport.runsScriptsAsTasks() ? new BusyPump(this, transport) : new BusyTakeover(this, engine));
        idleCheck = group.next().scheduleAtFixedRate(this::closeIdleClients, 1, 1, TimeUnit.SECONDS);
        clientsLimit = clientsLimit();
        for (EventExecutor loop : group) {
            crons.add(loop.scheduleAtFixedRate(this::cron, 100, 100, TimeUnit.MILLISECONDS));
        }
    }

    /** Redis's wildcard spellings: {@code *} for every IPv4 address, {@code ::*} for every IPv6 one. */
    private static String hostOf(String spec) {
        switch (spec) {
            case "*":
                return "0.0.0.0";
            case "::*":
                return "::";
            default:
                return spec;
        }
    }

    /** Binds one address; returns the listening channel or throws Redis's listening-socket message. */
    private Channel bindOne(String host, int port, boolean secure) {
        ChannelFuture f = bootstrap(secure).bind(new InetSocketAddress(host, port)).awaitUninterruptibly();
        if (!f.isSuccess()) {
            String where = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
            String why = f.cause() == null ? "unknown error" : f.cause().getMessage();
            throw new UncheckedIOException(new BindException(
                    "Warning: Could not create server TCP listening socket " + where + ": bind: " + why));
        }
        return f.channel();
    }

    /** Accepts on the shared event loops; each child gets a decoder and a {@link Connection}, behind TLS on a TLS port. */
    private ServerBootstrap bootstrap(boolean secure) {
        return new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, config.getInt("tcp-backlog"))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, config.getInt("tcp-keepalive") > 0)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        Connection c = new Connection(RespServer.this, engine);
                        if (secure) {
                            ch.pipeline().addLast(TlsAdmission.TLS_HANDLER, tls.newHandler(ch.alloc()));
                            ch.pipeline().addLast(new TlsAdmission(log));
                            tlsChannels.add(ch);
                            ch.closeFuture().addListener(f -> tlsChannels.remove(ch));
                        }
                        ch.pipeline().addLast(new RespDecoder(c), c);
                    }
                });
    }

    /** The admitted connections. */
    java.util.Collection<Connection> connectionList() {
        return connections.values();
    }

    /** The plain-text listening channels. */
    List<Channel> listeners() {
        return listeners;
    }

    /** The TLS listening channels (empty without a TLS port). */
    List<Channel> tlsListeners() {
        return tlsListeners;
    }

    /** Every open TLS connection, admitted or still in its handshake (a busy script's takeover serves both). */
    java.util.Collection<Channel> tlsChannels() {
        return tlsChannels;
    }

    /** The bound port (0 before {@link #start}). */
    public int port() {
        return port;
    }

    /** The bound TLS port (0 before {@link #startTls}). */
    public int tlsPort() {
        return tlsPort;
    }

    /** Sets what SHUTDOWN does; it runs on a thread of its own. The default closes this server. */
    public void onShutdown(Runnable action) {
        this.onShutdown = action;
    }

    Config config() {
        return config;
    }

    ServerLog log() {
        return log;
    }

    MonitorFeed monitors() {
        return monitors;
    }

    /** Runs now the end-of-turn flush of the event loop the calling thread is, if it is one. */
    void flushTurn() {
        turnFlushes.forEach((loop, flush) -> {
            if (loop.inEventLoop()) {
                flush.runIfPending();
            }
        });
    }

    /** The end-of-turn flush, and group commit, of {@code loop} (see {@link TurnFlush}). */
    TurnFlush turnFlush(io.netty.channel.EventLoop loop) {
        return turnFlushes.computeIfAbsent(loop, l -> new TurnFlush(engine, l));
    }

    /**
     * Admits and registers a new client from {@code remote}: null, or the reply to send it before
     * closing it (an empty one when the server is closing).
     */
    byte[] admit(Connection c, SocketAddress remote) {
        if (closed.get()) {
            return new byte[0];
        }
        byte[] refusal = null;
        if (admitted.incrementAndGet() > config.getInt("maxclients")) {
            refusal = MAX_CLIENTS;
        } else if (protectedModeDenies(remote)) {
            refusal = DENIED;
        }
        if (refusal != null) {
            admitted.decrementAndGet();
            network.connectionRejected();
            return refusal;
        }
        connections.put(c.session().id(), c);
        network.connectionAdmitted();
        return null;
    }

    /**
     * Redis's log line, word for word, for a client that sent an HTTP request's "POST" or "Host:"
     * line; at most once a minute, as Redis logs it, so that a flood of such requests cannot
     * flood the log.
     */
    void logSecurityAttack() {
        long now = System.nanoTime();
        long last = lastSecurityLog.get();
        if ((last == 0 || now - last > TimeUnit.SECONDS.toNanos(60)) && lastSecurityLog.compareAndSet(last, now)) {
            log.warning("Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: commands to Redis. "
                    + "This is likely due to an attacker attempting to use Cross Protocol Scripting to compromise your "
                    + "Redis instance. Connection aborted.");
        }
    }

    /** Redis's protected mode: on, the default user needs no password, and the client is not on loopback. */
    private boolean protectedModeDenies(SocketAddress remote) {
        return "yes".equals(config.get("protected-mode")) && engine.acl().defaultUserHasNoPassword()
                && remote instanceof InetSocketAddress inet && (inet.getAddress() == null || !inet.getAddress().isLoopbackAddress());
    }

    /** The network counters (INFO stats). */
    NetworkStats networkStats() {
        return network;
    }

    /** Unregisters a closed connection. */
    void forget(Connection c) {
        if (connections.remove(c.session().id()) != null) {
            admitted.decrementAndGet();
        }
    }

    /** Number of connected network clients. */
    public int connectedClients() {
        return connections.size();
    }

    /** Runs every second: closes clients idle longer than {@code timeout} seconds. */
    private void closeIdleClients() {
        long timeoutMillis = config.getLong("timeout") * 1000;
        if (timeoutMillis <= 0) {
            return;
        }
        long now = System.currentTimeMillis();
        for (Connection c : connections.values()) {
            if (c.idleLongerThan(now, timeoutMillis)) {
                c.close();
            }
        }
    }

    /** Every client, network and embedded (those of the control this server replaced), in id order as Redis lists them. */
    @Override
    public List<Session> clients() {
        List<Session> all = new ArrayList<>(previous.clients());
        for (Connection c : connections.values()) {
            all.add(c.session());
        }
        all.sort(Comparator.comparingLong(Session::id));
        return all;
    }

    @Override
    public boolean kill(long id) {
        Connection c = connections.get(id);
        if (c != null) {
            c.kill();
            return true;
        }
        return previous.kill(id);
    }

    /** MONITOR from a connection of this server; an embedded client's goes to the control this server replaced. */
    @Override
    public boolean monitor(Session session) {
        Connection c = connections.get(session.id());
        return c != null ? c.startMonitoring() : previous.monitor(session);
    }

    @Override
    public void stopMonitoring(Session session) {
        Connection c = connections.get(session.id());
        if (c != null) {
            c.stopMonitoring();
        }
    }

    @Override
    public void shutdown() {
        log.warning("User requested shutdown...");
        Thread t = new Thread(onShutdown, "ordo-shutdown");
        t.setDaemon(false);
        t.start();
    }

    @Override
    public List<String> serverInfo() {
        // As Redis: the TLS port when there is no plain one.
        return List.of("tcp_port:" + (port != 0 ? port : tlsPort), "multiplexing_api:" + transport.name());
    }

    @Override
    public TransportStats transportStats() {
        return network.snapshot();
    }

    @Override
    public void resetStats() {
        network.reset();
    }

    /** Stops listening, closes every connection and hands the engine its previous control back. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        engine.scripting().abort();
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        crons.forEach(f -> f.cancel(false));
        if (engine.server() == this) {
            engine.setServerControl(previous);
            engine.scripting().setBusyHandler(null);
        }
        config.removeApplier(tlsPortApplier);
        if (tls != null) {
            config.removeApplier(tls);
        }
        List<ChannelFuture> closing = new ArrayList<>();
        listeners.forEach(l -> closing.add(l.close()));
        tlsListeners.forEach(l -> closing.add(l.close()));
        connections.values().forEach(Connection::close);
        monitors.clear();
        if (!onEventLoop()) {
            closing.forEach(ChannelFuture::awaitUninterruptibly);
        }
    }

    /** The connection of {@code session}, or null (an embedded caller, a library load, a closed client). */
    Connection connection(dev.ordo.engine.command.Session session) {
        return session == null ? null : connections.get(session.id());
    }

    /** Whether commands that may run a script run as tasks of the loop (see {@link Transport}). */
    boolean runsScriptsAsTasks() {
        return transport.runsScriptsAsTasks();
    }

    /** Whether {@code thread} is one of this server's event loop threads. */
    boolean isEventLoop(Thread thread) {
        for (EventExecutor e : group) {
            if (e.inEventLoop(thread)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the caller is one of the group's threads, which must not wait for the group. */
    boolean onEventLoop() {
        for (EventExecutor e : group) {
            if (e.inEventLoop()) {
                return true;
            }
        }
        return false;
    }
}
