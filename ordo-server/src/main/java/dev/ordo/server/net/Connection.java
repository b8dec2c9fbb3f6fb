package dev.ordo.server.net;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.command.ClientBuffers;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.command.Session.ReplyMode;
import dev.ordo.engine.config.OutputBufferLimits;
import dev.ordo.engine.config.OutputLimitWatch;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.pubsub.Message;
import dev.ordo.engine.pubsub.PushSink;
import dev.ordo.engine.script.Scripting;
import dev.ordo.server.resp.ProtocolError;
import dev.ordo.server.resp.PushFrames;
import dev.ordo.server.resp.RespDecoder;
import dev.ordo.server.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.NetUtil;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;

/**
 * One client connection: its {@link Session}, the commands {@link RespDecoder} hands up, and the
 * replies, encoded by one {@link RespWriter} and flushed once per turn of the event loop.
 *
 * <p>Invariants. Commands run in arrival order, one at a time, on the channel's event loop. When
 * the engine answers BLOCKED, the writer belongs to the engine until {@link #resume()}; meanwhile
 * later commands (and a protocol error) wait in {@code pending}, so a blocked client delays only
 * itself. The same holds while a command that may run a script waits for its task of the loop
 * ({@link #defer}, io_uring only) and while one of this connection's commands runs. Input that a
 * busy script's round of I/O delivers ({@link BusyPump}) is answered as Redis answers beside a
 * busy script. Once {@code closing} is set nothing more runs: QUIT, CLIENT KILL of itself and protocol
 * errors close after the replies already produced are flushed; a kill by another client, the
 * query buffer limit (unparsed plus waiting input) and the idle timeout close at once. A closed
 * connection, blocked or mid-frame, is forgotten by the engine ({@link Engine#disconnect}).
 *
 * <p>Output: replies wait in the writer (written out early, unflushed, past 64 KiB) and leave
 * with one flush at the end of the event loop's turn ({@link TurnFlush}), together with every
 * other connection's of that turn. While more than the channel's high water mark waits to be
 * sent, the client is held back: reading pauses, and commands already decoded wait in
 * {@code pending} (counted toward the query buffer limit) instead of running, so a client that
 * pipelines without reading holds at most about one reply more than the water mark, and the
 * event loop is free for everyone else. {@code client-output-buffer-limit} (normal class) closes
 * a client whose unsent replies (staged, spilled or queued in Netty) pass the hard limit, or
 * stay over the soft limit longer than its seconds.
 *
 * <p>Memory: the connection publishes what it holds ({@link ClientBuffers}, CLIENT LIST) and
 * reports it to the server's total ({@link RespServer#clientMemoryChanged}), which counts toward
 * used_memory and drives client eviction; it refreshes the figures after each read, each flush,
 * each drain of its socket and every 100 ms. A command that runs the heap out of memory is
 * answered with an error when it only read; one that was writing stops the server
 * ({@link Engine#failStop}), since it may be half applied.
 *
 * <p>CLIENT REPLY: the engine only records the mode. A reply is sent when the mode after the
 * command is ON, and a command run in SKIP mode turns it back to ON.
 *
 * <p>MONITOR runs in the engine like any command; the engine asks the server to
 * {@link #startMonitoring}, and from then on the connection receives {@link MonitorFeed}'s lines
 * while it can still run commands of its own, until RESET ({@link #stopMonitoring}).
 */
final class Connection extends ChannelInboundHandlerAdapter implements HostedEngine.Resumer, RespDecoder.Limits, ClientBuffers, PushSink {
    private static final int WRITE_OUT_BYTES = 64 * 1024;
    /** A connection's own objects (channel, pipeline, session, decoder, writer), as client memory counts them. */
    private static final long FIXED_BYTES = 4096;
    private static final byte[] POST = "post".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HOST = "host:".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> SCRIPT_RUNNERS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro", "exec");

    private final RespServer server;
    private final HostedEngine engine;
    private final Session session;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private RespWriter writer;
    private long pendingBytes;
    private boolean admitted;
    private boolean closing;
    /** Whether this connection waits in {@link #turnFlush} to be flushed. */
    private boolean flushQueued;
    private TurnFlush turnFlush;
    /** Whether a command of this connection is running (a busy script may flush the turn meanwhile). */
    private boolean running;
    /** A command that may run a script, waiting for its task of the loop ({@link Transport#runsScriptsAsTasks}); null when none. */
    private byte[][] deferred;
    /** Whether this connection's deferred command is running as its task: a script it runs may pump the loop's I/O. */
    private boolean runningTask;
    /**
     * Whether a command of the read being handled ran to its end just before, on this thread: the
     * next command of the same read follows it at once ({@link HostedEngine#executeNext}).
     * Cleared when the read is done and whenever a command does not run straight away.
     */
    private boolean ranInRead;
    /** Whether reading waits for this connection's busy script to end (backpressure must not restart it). */
    private boolean pausedForScript;
    private volatile boolean blocked;
    private volatile boolean monitor;
    private volatile long lastInteraction;
    /** Whether the connection came through a TLS port (its pipeline starts with an SslHandler). */
    private boolean secure;
    /** The decoder in front of this connection, once active. */
    private RespDecoder decoder;
    /** What this connection last reported to the server's client memory total. */
    private long reportedMemory;
    /**
     * CLIENT LIST's figures, as of the last {@link #refreshMemory}: written by the connection's
     * loop on every flush, so plain fields; readers on other threads may see them a turn late.
     */
    private long queryBytes;
    private long queryBytesFree;
    private long argvBytes;
    private long outputBytes;
    private long outputBlocks;
    private long totalBytes;
    /** The output limit's judgement over time (client-output-buffer-limit, normal or pubsub class). */
    private final OutputLimitWatch outputWatch = new OutputLimitWatch();
    /** Messages to this client published while one of its own commands ran: sent after that command's reply. */
    private final ArrayDeque<ByteBuf> heldPushes = new ArrayDeque<>();

    Connection(RespServer server, HostedEngine engine) {
        this.server = server;
        this.engine = engine;
        this.session = engine.newSession();
        session.setPushSink(this);
    }

    Session session() {
        return session;
    }

    /** The channel, once active; null before. */
    io.netty.channel.Channel channel() {
        return ctx == null ? null : ctx.channel();
    }

    /**
     * Whether a busy script's takeover may serve this connection's socket directly: open, not
     * blocked, monitoring or subscribed (messages may come for it), nothing queued, half-decoded or waiting to be written, and not TLS
     * (the takeover reads the socket's bytes itself).
     */
    boolean idleForTakeover() {
        if (ctx == null || secure || closing || blocked || monitor || session.subscribed() || !pending.isEmpty() || writer.size() > 0
                || !ctx.channel().isActive()) {
            return false;
        }
        RespDecoder decoder = ctx.pipeline().get(RespDecoder.class);
        io.netty.channel.ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        return decoder != null && !decoder.midFrame() && outbound != null && outbound.totalPendingWriteBytes() == 0;
    }

    /**
     * Whether a busy script's takeover may feed this TLS connection's bytes through its own
     * pipeline (its SslHandler decrypts them): open, not blocked, monitoring or subscribed, and
     * nothing queued; a connection still in its handshake (not yet active here) qualifies too.
     */
    boolean tlsIdleForTakeover() {
        return !closing && !blocked && !monitor && !session.subscribed() && pending.isEmpty();
    }

    /**
     * Whether a busy script's takeover may watch this blocked connection's socket, so that the
     * client's leaving is noticed during the script: open, blocked, not monitoring, not TLS.
     */
    boolean blockedForTakeover() {
        return ctx != null && !secure && !closing && blocked && !monitor && ctx.channel().isActive();
    }

    @Override
    public boolean authRequired() {
        return !session.authenticated() && engine.acl().authRequired();
    }

    @Override
    public long maxBulkLength() {
        return server.maxBulkLength.getAsLong();
    }

    @Override
    public long queryBufferLimit() {
        return server.queryBufferLimit() - pendingBytes;
    }

    @Override
    public long queryBuffer() {
        return queryBytes;
    }

    @Override
    public long queryBufferFree() {
        return queryBytesFree;
    }

    @Override
    public long argvMemory() {
        return argvBytes;
    }

    @Override
    public long replyBufferSize() {
        RespWriter w = writer;
        return w == null ? 0 : w.stageCapacity();
    }

    @Override
    public long replyBufferUsed() {
        RespWriter w = writer;
        return w == null ? 0 : w.staged();
    }

    @Override
    public long outputListLength() {
        return outputBlocks;
    }

    @Override
    public long outputMemory() {
        return outputBytes;
    }

    @Override
    public long totalMemory() {
        return totalBytes;
    }

    /** The bytes this client holds, as client eviction ranks it (tot-mem). */
    long memory() {
        return totalBytes + session.multiMemory();
    }

    /**
     * Brings the figures up to date and reports the change to the server's total. On the
     * connection's event loop only.
     */
    void refreshMemory() {
        if (ctx == null) {
            return;
        }
        RespDecoder d = decoder;
        long qbuf = d == null ? 0 : d.queryBytes();
        long free = d == null ? 0 : d.queryBytesFree();
        long argv = (d == null ? 0 : d.argvMemory()) + pendingBytes;
        io.netty.channel.ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        long queued = outbound == null ? 0 : outbound.totalPendingWriteBytes();
        long omem = writer.spilled() + queued;
        queryBytes = qbuf;
        queryBytesFree = free;
        argvBytes = argv;
        outputBytes = omem;
        outputBlocks = outbound == null ? 0 : outbound.size() + (writer.spilled() > 0 ? 1 : 0);
        long total = FIXED_BYTES + writer.stageCapacity() + qbuf + free + argv + omem + session.subscriptionMemory();
        totalBytes = total;
        long now = closing ? 0 : total + session.multiMemory();
        server.clientMemoryChanged(now - reportedMemory);
        reportedMemory = now;
    }

    /** The bytes of unsent replies: staged, spilled, or queued in Netty (omem with the stage). */
    private long unsentBytes() {
        io.netty.channel.ChannelOutboundBuffer outbound = ctx.channel().unsafe().outboundBuffer();
        return writer.size() + (outbound == null ? 0 : outbound.totalPendingWriteBytes());
    }

    /**
     * Closes this client when its unsent replies break {@code client-output-buffer-limit} for its
     * class (pubsub while it has a subscription, else normal): at once past the hard limit, or
     * after more than the soft seconds over the soft one. Returns whether it closed.
     */
    private boolean overOutputLimit() {
        OutputBufferLimits limits = server.outputLimits();
        OutputBufferLimits.Limit limit = session.subscribed() ? limits.pubsub() : limits.normal();
        if (!outputWatch.breaks(limit, unsentBytes(), System::currentTimeMillis)) {
            return false;
        }
        closeOverOutputLimit();
        return true;
    }

    private void closeOverOutputLimit() {
        if (closing) {
            return;
        }
        server.log().warning("Client " + describe() + " closed for overcoming of output buffer limits.");
        server.networkStats().outputBufferLimitReached();
        closeNow();
    }

    /** Runs every 100 ms on the connection's event loop: the soft output limit, and fresh memory figures. */
    void cron() {
        if (closing || ctx == null) {
            return;
        }
        if (!overOutputLimit()) {
            refreshMemory();
        }
    }

    /** Whether the client must wait for its unsent replies to drain before more of its commands run. */
    private boolean heldBack() {
        return !ctx.channel().isWritable();
    }

    /** Admits the client (or refuses it over maxclients) and records its addresses. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.writer = new RespWriter(ctx.alloc(), session);
        this.decoder = ctx.pipeline().get(RespDecoder.class);
        this.secure = ctx.pipeline().get(TlsAdmission.TLS_HANDLER) != null;
        session.setBuffers(this);
        this.turnFlush = server.turnFlush(ctx.channel().eventLoop());
        lastInteraction = System.currentTimeMillis();
        session.setAddresses(address(ctx.channel().remoteAddress()), address(ctx.channel().localAddress()));
        byte[] refusal = server.admit(this, ctx.channel().remoteAddress());
        if (refusal != null) {
            closing = true;
            ctx.writeAndFlush(Unpooled.wrappedBuffer(refusal)).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        admitted = true;
        // Netty reports channelInactive from a later task, and a busy script's round of I/O runs no
        // tasks: a client that leaves meanwhile (a blocked one, say) is forgotten at once, as in Redis.
        ctx.channel().closeFuture().addListener(f -> {
            if (scriptBusyHere() != null) {
                disconnect();
            }
        });
        TrafficMeter meter = new TrafficMeter(server.networkStats().meter(ctx.channel().eventLoop()));
        if (secure) {
            ctx.pipeline().addAfter(TlsAdmission.TLS_HANDLER, null, meter); // plain bytes, as Redis counts them
        } else {
            ctx.pipeline().addFirst(meter);
        }
        ctx.fireChannelActive();
    }

    /** {@code ip:port}, IPv6 addresses in brackets, as CLIENT LIST and MONITOR show them. */
    static String address(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String ip = NetUtil.toAddressString(inet.getAddress());
            return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    /** A decoded command or protocol error: run now, or queued behind a blocked command. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            return;
        }
        if (msg instanceof ProtocolError error && error.reply() == null) {
            protocolError(error);
        } else if (blocked || deferred != null || running || !pending.isEmpty() || heldBack()) {
            ranInRead = false;
            enqueue(msg);
        } else {
            handle(msg, ranInRead);
            ranInRead = !blocked && deferred == null && !closing;
        }
    }

    /** Queues input behind a blocked command or unsent replies; too much of it closes the connection. */
    private void enqueue(Object msg) {
        pending.add(msg);
        pendingBytes += weight(msg);
        if (pendingBytes > server.queryBufferLimit()) {
            closeOverQueryLimit();
        }
    }

    private void closeOverQueryLimit() {
        server.log().warning("Closing client that reached max query buffer length: " + describe());
        server.networkStats().queryBufferLimitReached();
        closeNow();
    }

    /** The heap bytes a waiting message holds: the argument arrays and the array of them. */
    private static long weight(Object msg) {
        long bytes = Footprint.REFERENCE;
        if (msg instanceof byte[][] args) {
            bytes += Footprint.referenceArray(args.length);
            for (byte[] a : args) {
                bytes += Footprint.array(a.length);
            }
        }
        return bytes;
    }

    /** Handles a decoded message; {@code follows}: it follows a command of the same read at once. */
    private void handle(Object msg, boolean follows) {
        if (msg instanceof ProtocolError error) {
            protocolError(error);
        } else if (server.runsScriptsAsTasks() && mayRunScript(((byte[][]) msg)[0]) && scriptBusyHere() == null) {
            defer((byte[][]) msg);
        } else {
            run((byte[][]) msg, follows);
        }
    }

    /**
     * EVAL, EVALSHA, FCALL (and their _RO forms) and EXEC, by the engine's command table (any
     * case, no allocation); the first letter spares every other command the lookup.
     */
    private boolean mayRunScript(byte[] name) {
        int first = name.length == 0 ? 0 : name[0] | 0x20;
        if (first != 'e' && first != 'f') {
            return false;
        }
        Command c = engine.lookup(name);
        return c != null && SCRIPT_RUNNERS.contains(c.name());
    }

    /**
     * Runs the command as a task of the event loop, once the loop has handed out what this turn
     * read, so that a script turning busy can run the loop's I/O ({@link BusyPump}); input that
     * arrives meanwhile waits in {@code pending}.
     */
    private void defer(byte[][] args) {
        deferred = args;
        try {
            ctx.executor().execute(this::runDeferred);
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down, which closes this channel too.
        }
    }

    /** Whether a command waits for its task of the loop. */
    boolean hasDeferred() {
        return deferred != null;
    }

    /**
     * Runs the deferred command, then what waited behind it. Its task calls this; so does a busy
     * script's round of I/O ({@link BusyPump}), and then the command is answered as Redis answers
     * beside a busy script instead of waiting for the script to end (its task finds nothing left).
     */
    void runDeferred() {
        byte[][] args = deferred;
        deferred = null;
        if (args == null || closing) {
            return;
        }
        runningTask = scriptBusyHere() == null;
        try {
            run(args, false);
        } finally {
            runningTask = false;
        }
        if (closing) {
            // Closed while its script ran: the script's reply has nowhere to go.
            writer.release();
            return;
        }
        lastInteraction = System.currentTimeMillis();
        drain();
        flush();
    }

    /** Whether this connection belongs to the calling thread's event loop. */
    boolean onThisLoop() {
        return ctx != null && ctx.executor().inEventLoop();
    }

    /** Whether this connection runs the busy script {@code run} from its deferred task. */
    boolean runsScriptTask(Scripting.Run run) {
        return runningTask && run.caller() == session;
    }

    /**
     * Stops or restarts reading this client while its own script is busy: what it sends meanwhile
     * stays in the socket, as with Redis, instead of queueing here.
     */
    void readWhileBusy(boolean read) {
        pausedForScript = !read;
        if (!closing && (!read || ctx.channel().isWritable())) {
            ctx.channel().config().setAutoRead(read);
        }
    }

    /** The script running on this thread, when a busy script's I/O round delivered this client's input. */
    private Scripting.Run scriptBusyHere() {
        Scripting.Run run = engine.scripting().running();
        return run != null && run.thread() == Thread.currentThread() ? run : null;
    }

    /** Runs one command, or parks the connection if it blocks. */
    private void run(byte[][] args, boolean follows) {
        if (isHttpLine(args[0])) {
            crossProtocolAttack();
            return;
        }
        int mark = writer.size();
        running = true;
        try {
            Scripting.Run busy = scriptBusyHere();
            if (busy != null) {
                engine.answerWhileBusy(session, args, writer, busy);
            } else if (execute(args, mark, follows) == HostedEngine.Outcome.BLOCKED) {
                block(mark);
                return;
            }
        } finally {
            running = false;
            if (blocked) {
                releaseHeldPushes();
            }
        }
        applyReplyMode(mark);
        releaseHeldPushes(); // after the reply, and kept even when CLIENT REPLY drops the reply
        afterCommand();
    }

    private HostedEngine.Outcome execute(byte[][] args, int mark, boolean follows) {
        try {
            return follows ? engine.executeNext(session, args, writer, this) : engine.execute(session, args, writer, this);
        } catch (RuntimeException e) {
            server.log().warning("Command '" + new String(args[0], StandardCharsets.UTF_8) + "' failed: " + e);
            writer.truncate(mark);
            engine.dispatcher().replyError(writer, "ERR internal error while running '" + new String(args[0], StandardCharsets.UTF_8) + "'");
            return HostedEngine.Outcome.DONE;
        } catch (OutOfMemoryError e) {
            // A read that ran out (a write that did stopped the engine before this): drop its reply, answer, go on.
            writer.truncate(mark);
            String name = new String(args[0], StandardCharsets.UTF_8);
            server.log().warning("Out of memory while running '" + name + "' for " + describe() + ": " + e.getMessage());
            engine.dispatcher().replyError(writer, Errors.outOfMemoryRunning(name));
            return HostedEngine.Outcome.DONE;
        }
    }

    /** Keeps the command's reply only if replies are on after it; moves a SKIP on by one command. */
    private void applyReplyMode(int mark) {
        ReplyMode after = session.replyMode();
        if (after != ReplyMode.ON) {
            writer.truncate(mark);
        }
        if (after == ReplyMode.SKIP_NEXT) {
            session.setReplyMode(ReplyMode.SKIP);
        } else if (after == ReplyMode.SKIP) {
            session.setReplyMode(ReplyMode.ON);
        }
    }

    /** Closes after QUIT-like commands, or writes out a large accumulated reply; then applies the output limit. */
    private void afterCommand() {
        if (session.closing()) {
            closeAfterFlush();
            return;
        }
        if (writer.size() >= WRITE_OUT_BYTES) {
            ctx.write(writer.take(), ctx.voidPromise());
        }
        overOutputLimit();
    }

    /** The engine now owns the writer: send what came before the blocked command, and wait. */
    private void block(int mark) {
        blocked = true;
        ByteBuf[] earlier = new ByteBuf[1];
        engine.withLock(() -> earlier[0] = writer.takeBefore(mark));
        if (earlier[0] != null) {
            ctx.write(earlier[0], ctx.voidPromise());
        }
    }

    /** Called by the engine, under its lock, once the blocked command's reply is written. */
    @Override
    public void resume() {
        try {
            ctx.executor().execute(this::resumed);
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down, which closes this channel too.
        }
    }

    private void resumed() {
        if (!blocked) {
            return;
        }
        blocked = false;
        if (closing) {
            writer.release();
            return;
        }
        lastInteraction = System.currentTimeMillis();
        applyReplyMode(0);
        afterCommand();
        drain();
        flush();
    }

    /** Runs the commands that arrived while blocked, until one blocks again. */
    private void drain() {
        Object msg;
        while (!blocked && deferred == null && !closing && !heldBack() && (msg = pending.poll()) != null) {
            pendingBytes -= weight(msg);
            handle(msg, false);
        }
    }

    /**
     * Has the replies sent at the end of this turn of the event loop ({@link TurnFlush}), under
     * {@code appendfsync always} once the writes they acknowledge are on disk.
     */
    private void flush() {
        if (!closing && !flushQueued) {
            flushQueued = true;
            turnFlush.add(this);
        }
    }

    /**
     * At the end of the turn: sends what the writer holds (unless the engine owns it) and
     * flushes; pauses reading under backpressure. While one of this connection's commands runs
     * (a busy script's takeover flushes the turn from inside it) the writer holds a reply still
     * being written, to be kept or truncated at the command's end: the flush waits for the next
     * turn.
     */
    void flushNow() {
        if (running) {
            turnFlush.add(this);
            return;
        }
        flushQueued = false;
        if (closing) {
            return;
        }
        if (!blocked) {
            ByteBuf out = writer.take();
            if (out != null) {
                ctx.write(out, ctx.voidPromise());
            }
        }
        ctx.flush();
        if (!ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(false);
        }
        refreshMemory();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ranInRead = false;
        lastInteraction = System.currentTimeMillis();
        flush(); // and flushNow refreshes the memory figures at the end of the turn
    }

    /** The socket drained below the low water mark (or filled past the high one): resume (or hold back) the client. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && !closing) {
            if (!pausedForScript) {
                ctx.channel().config().setAutoRead(true);
            }
            if (!pending.isEmpty() && !running) {
                drain();
                flush();
            }
            refreshMemory();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Answers a protocol error and closes, or closes silently for the query buffer limit. */
    private void protocolError(ProtocolError error) {
        if (error.reply() == null) {
            closeOverQueryLimit();
            return;
        }
        int mark = writer.size();
        engine.dispatcher().errorStats().count(error.reply());
        writer.errorLatin1(error.reply());
        if (session.replyMode() != ReplyMode.ON) {
            writer.truncate(mark);
        }
        closeAfterFlush();
    }

    /**
     * "POST" or "Host:", the first words of an HTTP request's lines: what a web page's request to
     * a local port looks like here (cross-protocol scripting). Checked before anything else, as
     * Redis checks them, even inside MULTI or beside a busy script.
     */
    private static boolean isHttpLine(byte[] name) {
        return CommandTable.sameIgnoringCase(POST, name) || CommandTable.sameIgnoringCase(HOST, name);
    }

    /** Closes at once: nothing more of this client's input runs, and no reply of it is sent. */
    private void crossProtocolAttack() {
        server.logSecurityAttack();
        closeNow();
    }

    /**
     * MONITOR, as the engine runs it on this connection's loop: from now on {@link MonitorFeed}'s
     * lines come here. Returns false when they already did.
     */
    boolean startMonitoring() {
        if (monitor) {
            return false;
        }
        monitor = true;
        server.monitors().add(this);
        return true;
    }

    /** RESET, as the engine runs it on this connection's loop: no more of {@link MonitorFeed}'s lines. */
    void stopMonitoring() {
        if (monitor) {
            monitor = false;
            server.monitors().remove(this);
        }
    }

    /** A MONITOR line, from any thread: appended to this connection's output on its event loop. */
    void monitorLine(ByteBuf line) {
        if (ctx.executor().inEventLoop()) {
            appendMonitorLine(line);
            return;
        }
        try {
            ctx.executor().execute(() -> appendMonitorLine(line));
        } catch (RejectedExecutionException e) {
            line.release();
        }
    }

    /** On the event loop: queues the line behind this connection's replies, to leave at the end of the turn. */
    private void appendMonitorLine(ByteBuf line) {
        if (closing || session.closing() || session.replyMode() == ReplyMode.OFF) {
            line.release();
            return;
        }
        if (blocked) {
            ctx.write(line, ctx.voidPromise());
        } else {
            writer.append(line);
            line.release();
        }
        flush();
    }

    /**
     * A Pub/Sub message for this client, under the engine lock on the publisher's thread. On this
     * connection's own loop it is written at once, or, while one of this client's commands runs
     * (it published to itself, from a script or EXEC), after that command's reply, as Redis 7.2
     * orders it; from another loop it is encoded here and handed over. Messages are sent even
     * under CLIENT REPLY OFF, as Redis 7.2 sends pushes.
     */
    @Override
    public void push(Message message) {
        if (closing || ctx == null) {
            return;
        }
        OutputBufferLimits.Limit limit = server.outputLimits().pubsub();
        if (limit.hard() > 0 && message.encodedSize() >= limit.hard()) {
            // It alone passes the hard limit, which closes this subscriber anyway: not copied
            // first, so one large PUBLISH to many subscribers does not hold a copy for each.
            if (ctx.executor().inEventLoop()) {
                closeOverOutputLimit();
            } else {
                try {
                    ctx.executor().execute(this::closeOverOutputLimit);
                } catch (RejectedExecutionException e) {
                    // The event loop is shutting down, which closes this channel too.
                }
            }
            return;
        }
        if (ctx.executor().inEventLoop() && !running && !blocked) {
            PushFrames.write(writer, message);
            afterPush();
        } else {
            deliver(PushFrames.encode(ctx.alloc(), message, session.protocol()));
        }
    }

    /**
     * A client-side caching invalidation, as Redis sends it: a push to a RESP3 client; to a RESP2
     * client only as the redirect target of another, and only while it has a subscription.
     */
    @Override
    public void invalidate(java.util.List<byte[]> keys, boolean redirected) {
        boolean resp3 = session.protocol() >= 3;
        if (closing || ctx == null || !(resp3 || (redirected && session.subscribed()))) {
            return;
        }
        deliver(PushFrames.invalidation(ctx.alloc(), keys, resp3));
    }

    @Override
    public void trackingRedirectBroken(long id) {
        if (!closing && ctx != null && session.protocol() >= 3) {
            deliver(PushFrames.redirectBroken(ctx.alloc(), id));
        }
    }

    /** Sends an encoded push: after the running command's reply, or at once (handed to this connection's loop). */
    private void deliver(ByteBuf frame) {
        if (ctx.executor().inEventLoop()) {
            heldPushes.add(frame);
            if (!running) {
                releaseHeldPushes();
            }
            return;
        }
        try {
            ctx.executor().execute(() -> {
                if (closing) {
                    frame.release();
                } else {
                    heldPushes.add(frame);
                    if (!running) {
                        releaseHeldPushes();
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            frame.release();
        }
    }

    /** Sends the messages held while a command ran: behind the writer's replies, or straight to the channel while blocked. */
    private void releaseHeldPushes() {
        if (heldPushes.isEmpty()) {
            return;
        }
        for (ByteBuf frame; (frame = heldPushes.poll()) != null; ) {
            if (closing) {
                frame.release();
            } else if (blocked) {
                ctx.write(frame, ctx.voidPromise());
            } else {
                writer.append(frame);
                frame.release();
            }
        }
        afterPush();
    }

    /** After messages were queued: to leave at the end of the turn, within the output limit. */
    private void afterPush() {
        if (!closing && !overOutputLimit()) {
            flush();
        }
    }

    /** CLIENT KILL from any client (under the engine lock): closes this connection on its loop. */
    void kill() {
        session.markClosing();
        try {
            ctx.executor().execute(() -> {
                if (!closing) {
                    closeNow();
                }
            });
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down, which closes this channel too.
        }
    }

    /** Whether the idle timeout applies and has passed (blocked, monitoring and subscribed clients never idle out). */
    boolean idleLongerThan(long now, long timeoutMillis) {
        return !blocked && !monitor && !session.subscribed() && now - lastInteraction > timeoutMillis;
    }

    /** Closes the channel from any thread. */
    void close() {
        if (ctx != null) {
            ctx.channel().close();
        }
    }

    /** Stops running commands, sends the replies produced so far, then closes. */
    private void closeAfterFlush() {
        closing = true;
        pending.clear();
        if (!blocked) {
            ByteBuf out = writer.take();
            if (out != null) {
                ctx.write(out, ctx.voidPromise());
            }
        }
        try {
            engine.awaitDurable();
        } catch (java.io.UncheckedIOException e) {
            ctx.close();
            return;
        }
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /** Closes without sending the replies waiting for a durability that failed. */
    void closeUnacknowledged() {
        server.log().warning("Closing client whose writes could not be made durable: " + describe());
        closeNow();
    }

    /** Stops running commands and closes, dropping unsent replies. */
    private void closeNow() {
        closing = true;
        pending.clear();
        ctx.close();
    }

    /** Unregisters the closed connection everywhere and frees its buffers. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        if (admitted) {
            server.forget(this);
        }
        if (monitor) {
            server.monitors().remove(this);
        }
        if (admitted) {
            disconnect();
        }
        writer.release();
        heldPushes.forEach(ByteBuf::release);
        heldPushes.clear();
        pending.clear();
        pendingBytes = 0;
        server.clientMemoryChanged(-reportedMemory);
        reportedMemory = 0;
        ctx.fireChannelInactive();
    }

    /**
     * Forgets the session in the engine; for the client whose script is busy (it closed during
     * the script's round of I/O), once the script is over.
     */
    private void disconnect() {
        Scripting.Run busy = scriptBusyHere();
        if (busy == null || busy.caller() != session) {
            engine.disconnect(session);
            return;
        }
        try {
            ctx.executor().execute(() -> engine.disconnect(session));
        } catch (RejectedExecutionException e) {
            engine.disconnect(session);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof OutOfMemoryError) {
            // Decoding or writing ran out (a native buffer, or the heap past every limit): this
            // client's buffers go with it, and the others go on.
            pending.clear();
            server.log().warning("Closing client " + describe() + ": out of memory (" + cause.getMessage() + ")");
        } else if (!(cause instanceof IOException)) {
            server.log().warning("Closing client " + describe() + " after an error: " + cause);
        }
        closeNow();
    }

    /** The client as CLIENT LIST shows it, for log lines. */
    String describe() {
        return "id=" + session.id() + " addr=" + session.address() + " laddr=" + session.localAddress() + " name=" + session.name()
                + " qbuf=" + queryBytes + " argv-mem=" + argvBytes + " multi-mem=" + session.multiMemory() + " omem=" + outputBytes
                + " tot-mem=" + memory();
    }
}
