package dev.ordo.server.net;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.script.Scripting;
import dev.ordo.server.resp.InlineArgs;
import dev.ordo.server.resp.RespDecoder;
import dev.ordo.server.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.nio.AbstractNioChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves the other clients of the event loop while a script runs on it past {@code
 * busy-reply-threshold}, as Redis does from inside a busy script: their commands get BUSY,
 * except SCRIPT KILL and SHUTDOWN NOSAVE which act and the allow-busy commands (AUTH, HELLO,
 * MULTI, WATCH ...) which run (see {@link Engine#answerWhileBusy}).
 *
 * <p>Scripts run on the event loop (no thread hop per script), so while one runs nothing else
 * reads the sockets. Once it is busy, the script's instruction hook calls {@link #poll} about
 * every millisecond, always on the event loop thread (a coroutine's thread hands its polls to
 * the loop's, which waits for it in resume). Each poll first sends the replies the loop's turn
 * holds so far ({@link TurnFlush}). The first poll
 * registers the sockets of that loop's idle connections (nothing half-parsed, nothing waiting
 * to be written, not blocked, not monitoring) with a selector of its own (a socket may be
 * registered with several selectors), and the loop's listening sockets, so new clients are
 * accepted and served too. Blocked connections are registered as well, only to keep what they
 * send and to notice a client that leaves: it is forgotten by the engine at once, so its wait
 * does not take what the script writes (as in Redis);
 * each poll reads what arrived (up to 64 KiB kept per client), answers every complete command
 * with its reply written straight to the socket (what the socket does not take waits, in order),
 * and keeps any incomplete tail. When the script ends ({@link #ended}), the
 * selector is closed, unsent replies go out through Netty, and each tail is handed to its
 * connection's decoder, ahead of anything Netty reads next, where decoding goes on as if Netty had
 * read it. A client that sent QUIT
 * gets its replies, then is closed at that point. A library that FUNCTION LOAD runs is not
 * served beside: as in Redis, the others wait for it (its load has 500 ms at most). TLS
 * connections (and TLS listeners' new clients, handshake included) are served differently: their
 * bytes are records only their SslHandler can read, so what their sockets deliver goes through
 * their own pipeline on this thread ({@link TakenTls}), and nothing is handed back at the end.
 */
final class BusyTakeover implements Scripting.BusyHandler {
    /** Input kept per connection while busy; past it, reading from that client waits for the script to end. */
    private static final int MAX_INPUT = 64 * 1024;

    private final RespServer server;
    private final HostedEngine engine;
    private Selector selector;
    private final List<Taken> taken = new ArrayList<>();

    /**
     * A TLS connection served during the busy script: what its socket delivers goes through its
     * own pipeline (SslHandler, decoder, {@link Connection}) on this thread, which answers it as
     * beside a busy script; replies leave with the turn's flush, encrypted by the same handler.
     */
    private record TakenTls(Channel channel, SocketChannel socket) {
    }

    /** A connection served during the busy script, and the bytes read from it but not answered. */
    private static final class Taken {
        final Connection connection;
        final SocketChannel socket;
        final ByteBuf input = Unpooled.buffer(256);
        /** Replies the socket did not take yet: sent at the next poll, or through Netty at the end. */
        final ByteBuf unsent = Unpooled.buffer(0);
        /** A blocked client: its input is kept, not answered; its leaving is noticed. */
        final boolean watchOnly;
        boolean failed;

        Taken(Connection connection, SocketChannel socket, boolean watchOnly) {
            this.connection = connection;
            this.socket = socket;
            this.watchOnly = watchOnly;
        }
    }

    BusyTakeover(RespServer server, HostedEngine engine) {
        this.server = server;
        this.engine = engine;
    }

    @Override
    public void poll(Scripting.Run run) {
        if (run.caller() == null || !server.isEventLoop(run.thread())) {
            // A library that FUNCTION LOAD runs: as in Redis, the others wait for it (it has 500 ms).
            return;
        }
        server.flushTurn();
        try {
            if (selector == null) {
                takeOver(run);
            }
            if (selector.selectNow() == 0) {
                return;
            }
            boolean tls = false;
            for (SelectionKey key : selector.selectedKeys()) {
                if (key.attachment() instanceof Taken t) {
                    serve(t, run);
                } else if (key.attachment() instanceof TakenTls t) {
                    tls |= serveTls(t, key);
                } else {
                    accept((Channel) key.attachment(), run);
                }
            }
            selector.selectedKeys().clear();
            if (tls) {
                server.flushTurn(); // the TLS clients' replies (and handshakes) go now, not a poll later
            }
        } catch (IOException e) {
            server.log().warning("Serving clients during a busy script failed: " + e);
        }
    }

    private void takeOver(Scripting.Run run) throws IOException {
        selector = Selector.open();
        for (Connection c : server.connectionList()) {
            Channel ch = c.channel();
            if (c.session() == run.caller() || ch == null || !ch.eventLoop().inEventLoop(run.thread())) {
                continue;
            }
            if (c.idleForTakeover()) {
                take(c, false);
            } else if (c.blockedForTakeover()) {
                take(c, true);
            }
        }
        for (Channel ch : server.tlsChannels()) {
            Connection c = ch.pipeline().get(Connection.class);
            if (c != null && c.session() != run.caller() && ch.eventLoop().inEventLoop(run.thread()) && c.tlsIdleForTakeover()) {
                takeTls(ch);
            }
        }
        List<Channel> listeners = new ArrayList<>(server.listeners());
        listeners.addAll(server.tlsListeners());
        for (Channel listener : listeners) {
            if (listener.eventLoop().inEventLoop(run.thread())) {
                javaChannel(listener).register(selector, SelectionKey.OP_ACCEPT, listener);
            }
        }
    }

    private static boolean isTls(Channel ch) {
        return ch.pipeline().get(TlsAdmission.TLS_HANDLER) != null;
    }

    private void takeTls(Channel ch) throws IOException {
        SocketChannel socket = (SocketChannel) javaChannel(ch);
        socket.register(selector, SelectionKey.OP_READ, new TakenTls(ch, socket));
    }

    /**
     * Reads what a TLS client sent and hands it to its pipeline, as Netty's own read would;
     * returns whether anything was read. At the end of its stream, it stops watching the socket
     * (Netty sees the close once the script is over).
     */
    private static boolean serveTls(TakenTls t, SelectionKey key) {
        Channel ch = t.channel();
        if (!ch.isActive()) {
            key.cancel();
            return false;
        }
        boolean read = false;
        try {
            while (true) {
                ByteBuf in = ch.alloc().buffer(16 * 1024);
                int n = in.writeBytes(t.socket(), in.writableBytes());
                if (n <= 0) {
                    in.release();
                    if (n < 0) {
                        key.cancel();
                    }
                    break;
                }
                read = true;
                ch.pipeline().fireChannelRead(in);
            }
        } catch (IOException e) {
            key.cancel();
        }
        if (read) {
            ch.pipeline().fireChannelReadComplete();
        }
        return read;
    }

    private void take(Connection c, boolean watchOnly) throws IOException {
        SocketChannel socket = (SocketChannel) javaChannel(c.channel());
        Taken t = new Taken(c, socket, watchOnly);
        socket.register(selector, SelectionKey.OP_READ, t);
        taken.add(t);
    }

    private static java.nio.channels.SelectableChannel javaChannel(Channel ch) {
        return ((AbstractNioChannel.NioUnsafe) ch.unsafe()).ch();
    }

    /**
     * Accepts the clients waiting on a listener of this loop, as Redis does while a script is
     * busy: each becomes a Netty channel set up as the listener's own accepts are (options,
     * decoder, {@link Connection}, admission against maxclients), then is served here like the
     * others. Only on the loop's own thread, which registers the channel at once.
     */
    private void accept(Channel listener, Scripting.Run run) throws IOException {
        if (Thread.currentThread() != run.thread()) {
            return;
        }
        java.nio.channels.ServerSocketChannel server = (java.nio.channels.ServerSocketChannel) javaChannel(listener);
        SocketChannel socket;
        while ((socket = server.accept()) != null) {
            NioSocketChannel child = new NioSocketChannel(listener, socket);
            listener.pipeline().fireChannelRead(child);
            Connection c = child.pipeline().get(Connection.class);
            if (c == null || !child.eventLoop().inEventLoop()) {
                continue;
            }
            if (isTls(child)) {
                takeTls(child);
            } else if (c.idleForTakeover()) {
                take(c, false);
            }
        }
    }

    /** Reads what the client sent and answers each complete command. */
    private void serve(Taken t, Scripting.Run run) {
        if (t.failed) {
            return;
        }
        try {
            if (t.unsent.readableBytes() > MAX_INPUT) {
                sendUnsent(t, server.networkStats());
                return;
            }
            ByteBuffer chunk = ByteBuffer.allocate(4096);
            int n = 0;
            while (t.input.readableBytes() < MAX_INPUT && (n = t.socket.read(chunk)) > 0) {
                chunk.flip();
                t.input.writeBytes(chunk);
                chunk.clear();
            }
            if (t.watchOnly) {
                if (n < 0) {
                    left(t);
                }
                return;
            }
            List<byte[][]> commands = new ArrayList<>();
            int consumed = completeCommands(t.input, commands);
            if (consumed < 0) {
                t.failed = true;
                return;
            }
            if (consumed > 0) {
                // The rest is counted when it goes through the pipeline after the script.
                server.networkStats().read(consumed);
            }
            t.input.skipBytes(consumed);
            t.input.discardReadBytes();
            RespWriter out = new RespWriter(t.connection.channel().alloc(), t.connection.session());
            for (byte[][] args : commands) {
                engine.answerWhileBusy(t.connection.session(), args, out, run);
                if (t.connection.session().closing()) {
                    t.input.clear();
                    t.failed = true;
                    break;
                }
            }
            ByteBuf reply = out.take();
            if (reply != null) {
                t.unsent.writeBytes(reply);
                reply.release();
            }
            sendUnsent(t, server.networkStats());
            if (n < 0) {
                t.failed = true;
            }
        } catch (IOException e) {
            if (t.watchOnly) {
                left(t);
            }
            t.failed = true;
        }
    }

    /** A blocked client that is gone: its wait must not take what the script writes. */
    private void left(Taken t) {
        engine.disconnect(t.connection.session());
        t.failed = true;
    }

    /**
     * Writes what the socket takes now, counting it in {@code stats}; the rest waits (in order)
     * for the next poll or the end, and is counted when it goes through the pipeline.
     */
    private static void sendUnsent(Taken t, NetworkStats stats) throws IOException {
        if (t.unsent.isReadable()) {
            ByteBuffer bytes = t.unsent.nioBuffer();
            int written = 0;
            int n;
            while (bytes.hasRemaining() && (n = t.socket.write(bytes)) > 0) {
                written += n;
            }
            if (written > 0) {
                stats.wroteAndFlushed(written);
            }
            t.unsent.skipBytes(written);
            t.unsent.discardReadBytes();
        }
    }

    @Override
    public void ended(Scripting.Run run) {
        if (selector == null) {
            return;
        }
        try {
            selector.close();
        } catch (IOException e) {
            server.log().warning("Closing the busy-script selector failed: " + e);
        }
        selector = null;
        List<Taken> handBack = new ArrayList<>(taken);
        taken.clear();
        for (Taken t : handBack) {
            Channel ch = t.connection.channel();
            if (t.unsent.isReadable() && ch.isActive()) {
                ChannelFuture sent = ch.writeAndFlush(t.unsent);
                if (t.connection.session().closing()) {
                    sent.addListener(ChannelFutureListener.CLOSE);
                }
            } else {
                t.unsent.release();
                if (t.connection.session().closing()) {
                    ch.close();
                }
            }
            RespDecoder decoder = ch.pipeline().get(RespDecoder.class);
            if (t.input.isReadable() && ch.isActive() && decoder != null) {
                // Ahead of whatever Netty reads next (it may read this socket as soon as the script
                // returns, in the same turn), but decoded after the script's command has finished.
                decoder.holdBack(t.input);
                ch.eventLoop().execute(() -> {
                    ch.pipeline().fireChannelRead(Unpooled.EMPTY_BUFFER);
                    ch.pipeline().fireChannelReadComplete();
                });
            } else {
                t.input.release();
            }
        }
    }

    /**
     * Parses the complete commands at the start of {@code in} (multibulk or inline) without
     * consuming them; returns the bytes they take, or -1 when the input breaks the protocol (the
     * connection's own decoder answers that once the script has ended).
     */
    static int completeCommands(ByteBuf in, List<byte[][]> out) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int pos = start;
        while (pos < end) {
            int lineEnd = in.indexOf(pos, end, (byte) '\n');
            if (lineEnd < 0) {
                break;
            }
            if (in.getByte(pos) != '*') {
                int len = lineEnd - pos - (lineEnd > pos && in.getByte(lineEnd - 1) == '\r' ? 1 : 0);
                byte[] line = new byte[len];
                in.getBytes(pos, line);
                List<byte[]> args = InlineArgs.split(line, 0, len);
                if (args != null && !args.isEmpty()) {
                    out.add(args.toArray(new byte[0][]));
                }
                pos = lineEnd + 1;
                continue;
            }
            long argc = number(in, pos + 1, lineEnd);
            if (argc < 0 || argc > 1024 * 1024) {
                return -1;
            }
            int p = lineEnd + 1;
            byte[][] args = new byte[(int) argc][];
            int i = 0;
            for (; i < argc; i++) {
                int le = p < end ? in.indexOf(p, end, (byte) '\n') : -1;
                if (le < 0) {
                    break;
                }
                if (in.getByte(p) != '$') {
                    return -1;
                }
                long len = number(in, p + 1, le);
                if (len < 0 || len > Integer.MAX_VALUE - 8) {
                    return -1;
                }
                if (le + 1 + len + 2 > end) {
                    break;
                }
                args[i] = new byte[(int) len];
                in.getBytes(le + 1, args[i]);
                p = (int) (le + 1 + len + 2);
            }
            if (i < argc) {
                break;
            }
            if (argc > 0) {
                out.add(args);
            }
            pos = p;
        }
        return pos - start;
    }

    /** The decimal number in [from, lineEnd) (a CR before lineEnd ignored), or -1. */
    private static long number(ByteBuf in, int from, int lineEnd) {
        int to = lineEnd > from && in.getByte(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
        if (to <= from) {
            return -1;
        }
        boolean negative = in.getByte(from) == '-';
        long v = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            int d = in.getByte(i) - '0';
            if (d < 0 || d > 9 || v > Integer.MAX_VALUE) {
                return -1;
            }
            v = v * 10 + d;
        }
        return negative ? 0 : v;
    }
}
