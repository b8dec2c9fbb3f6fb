package dev.ordo.console;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.IdleStateHandler;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Serves a console over HTTP with Netty: the standalone console's server, and the Ordo server's
 * {@code console-port}. Requests are decoded on one event-loop thread and answered on a small
 * pool (the API calls the database and waits), so a slow database never stalls the event loop;
 * the pool's queue is bounded and a request beyond it gets 503. Bodies over
 * {@link ConsoleHttp#MAX_BODY} are refused by the aggregator (413), a request line or headers
 * over 8 and 16 KiB are refused, a connection idle for a minute is closed, at most
 * {@link #MAX_CONNECTIONS} connections and {@link ConsoleHttp#MAX_STREAMS} live feeds are open at once, and
 * a live-feed client that does not read is skipped (its channel not writable) rather than
 * buffered without bound. Bound to a loopback address, it answers only requests that name a
 * localhost host (421 otherwise), so a page elsewhere cannot reach it by rebinding its own name
 * to 127.0.0.1; and no answer may be framed by another site. A request that fails unexpectedly
 * is answered 500 and logged, never left hanging.
 *
 * <p>Who may use it is the {@link Gate}'s decision: it gets the HTTP Basic credentials (null
 * when none were sent) and answers the console for that user, or null to refuse with 401.
 */
public final class ConsoleServer implements AutoCloseable {
    /** Admits a user: the console to serve them, or null to refuse. */
    @FunctionalInterface
    public interface Gate {
        /**
         * The console for these credentials, or null to refuse them.
         *
         * @param user the Basic user name, null when none was sent
         * @param password the Basic password, null when none was sent
         * @return the console to serve, or null
         */
        ConsoleHttp open(String user, String password);
    }

    private static final System.Logger LOG = System.getLogger(ConsoleServer.class.getName());
    private static final int WORKERS = 4;
    private static final int QUEUED = 256;
    /** The most connections open at once; more are closed as they arrive. */
    static final int MAX_CONNECTIONS = 256;

    private final java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger streams = new java.util.concurrent.atomic.AtomicInteger();

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final ExecutorService workers = new ThreadPoolExecutor(WORKERS, WORKERS, 0, TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(QUEUED), r -> {
                Thread t = new Thread(r, "ordo-console-http");
                t.setDaemon(true);
                return t;
            });
    private final Channel channel;
    /** Bound to a loopback address: then only localhost names are answered (no DNS rebinding). */
    private final boolean loopbackOnly;

    private ConsoleServer(String host, int port, Gate gate) throws InterruptedException {
        this.loopbackOnly = isLoopback(host);
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (connections.incrementAndGet() > MAX_CONNECTIONS) {
                            connections.decrementAndGet();
                            ch.close();
                            return;
                        }
                        ch.closeFuture().addListener(f -> connections.decrementAndGet());
                        ch.pipeline().addLast(new IdleStateHandler(0, 0, 60, TimeUnit.SECONDS) {
                            @Override
                            protected void channelIdle(ChannelHandlerContext ctx, io.netty.handler.timeout.IdleStateEvent evt) {
                                if (!Boolean.TRUE.equals(ctx.channel().attr(STREAMING).get())) {
                                    ctx.close();
                                }
                            }
                        });
                        ch.pipeline().addLast(new HttpServerCodec(8192, 16 * 1024, 8192));
                        ch.pipeline().addLast(new HttpObjectAggregator(ConsoleHttp.MAX_BODY));
                        ch.pipeline().addLast(new Handler(gate));
                    }
                });
        this.channel = b.bind(host, port).sync().channel();
    }

    private static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    private static final io.netty.util.AttributeKey<Boolean> STREAMING = io.netty.util.AttributeKey.valueOf("ordo.console.streaming");

    /**
     * Starts serving on {@code host}:{@code port} (0: a free port).
     *
     * @param host the address to bind, such as {@code 127.0.0.1}
     * @param port the port, 0 for any free one
     * @param gate who may use the console
     * @return the running server
     * @throws InterruptedException when interrupted while binding
     */
    public static ConsoleServer start(String host, int port, Gate gate) throws InterruptedException {
        return new ConsoleServer(host, port, gate);
    }

    /**
     * The port it listens on.
     *
     * @return the bound port
     */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        workers.shutdownNow();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Gate gate;

        Handler(Gate gate) {
            this.gate = gate;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            if (!req.decoderResult().isSuccess()) {
                send(ctx, ConsoleHttp.error(400, "bad request"), false);
                return;
            }
            if (loopbackOnly && !loopbackHost(req.headers().get(HttpHeaderNames.HOST))) {
                // a page elsewhere whose name was made to resolve to 127.0.0.1 (DNS rebinding) names itself here
                send(ctx, ConsoleHttp.error(421, "the console on a loopback address answers only to localhost names"), false);
                return;
            }
            String[] credentials = basic(req.headers().get(HttpHeaderNames.AUTHORIZATION));
            QueryStringDecoder uri = new QueryStringDecoder(req.uri());
            Map<String, String> query = new HashMap<>();
            uri.parameters().forEach((k, v) -> query.put(k, v.get(0)));
            byte[] body = new byte[req.content().readableBytes()];
            req.content().readBytes(body);
            String method = req.method().name();
            String path = uri.rawPath();
            boolean keepAlive = HttpUtil.isKeepAlive(req);
            boolean fromPage = "1".equals(req.headers().get(ConsoleHttp.WRITE_HEADER));
            try {
                workers.execute(() -> answer(ctx, credentials, method, path, query, body, keepAlive, fromPage));
            } catch (java.util.concurrent.RejectedExecutionException busy) {
                send(ctx, ConsoleHttp.error(503, "the console is busy; try again"), false);
            }
        }

        private void answer(ChannelHandlerContext ctx, String[] credentials, String method, String path, Map<String, String> query,
                            byte[] body, boolean keepAlive, boolean fromPage) {
            try {
                admitted(ctx, credentials, method, path, query, body, keepAlive, fromPage);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the console failed on " + method + " " + path, e);
                send(ctx, ConsoleHttp.error(500, "the console failed: " + e), false);
            }
        }

        private void admitted(ChannelHandlerContext ctx, String[] credentials, String method, String path, Map<String, String> query,
                              byte[] body, boolean keepAlive, boolean fromPage) {
            ConsoleHttp http;
            try {
                http = gate.open(credentials[0], credentials[1]);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the console could not admit a user: " + e.getMessage());
                http = null;
            }
            if (http == null) {
                FullHttpResponse refused = response(ConsoleHttp.error(401, "sign in as a server user"));
                refused.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"Ordo Console\", charset=\"UTF-8\"");
                ctx.writeAndFlush(refused).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (path.equals(ConsoleHttp.LIVE_PATH) && method.equals("GET")) {
                stream(ctx, http);
                return;
            }
            send(ctx, http.handle(new ConsoleHttp.Request(method, path, query, body, credentials[0] == null ? "console" : credentials[0],
                    fromPage)), keepAlive);
        }

        private void stream(ChannelHandlerContext ctx, ConsoleHttp http) {
            if (streams.incrementAndGet() > ConsoleHttp.MAX_STREAMS) {
                streams.decrementAndGet();
                send(ctx, ConsoleHttp.error(503, "at most " + ConsoleHttp.MAX_STREAMS + " live feeds at once"), false);
                return;
            }
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            head.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            ctx.channel().attr(STREAMING).set(true);
            ctx.writeAndFlush(head);
            Channel ch = ctx.channel();
            Runnable stop = http.watch(event -> {
                if (ch.isActive() && ch.isWritable()) {
                    ch.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(event, StandardCharsets.UTF_8)));
                }
            }, () -> ch.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE));
            ch.closeFuture().addListener(f -> {
                stop.run();
                streams.decrementAndGet();
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static void send(ChannelHandlerContext ctx, ConsoleHttp.Response r, boolean keepAlive) {
        FullHttpResponse res = response(r);
        if (keepAlive) {
            HttpUtil.setKeepAlive(res, true);
            ctx.writeAndFlush(res);
        } else {
            ctx.writeAndFlush(res).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The response with the headers every answer carries: no caching, no sniffing, no framing by another site. */
    private static FullHttpResponse response(ConsoleHttp.Response r) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
                Unpooled.wrappedBuffer(r.body()));
        res.headers().set(HttpHeaderNames.CONTENT_TYPE, r.contentType());
        res.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        res.headers().set("X-Content-Type-Options", "nosniff");
        res.headers().set("X-Frame-Options", "DENY");
        res.headers().set("Content-Security-Policy", "frame-ancestors 'none'");
        HttpUtil.setContentLength(res, r.body().length);
        return res;
    }

    /** Whether a Host header names this machine by a loopback name or address (any port). */
    static boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1)
                : host.indexOf(':') >= 0 ? host.substring(0, host.indexOf(':')) : host;
        name = name.toLowerCase(java.util.Locale.ROOT);
        return name.equals("localhost") || name.endsWith(".localhost") || name.equals("[::1]") || name.matches("127(\\.[0-9]{1,3}){3}");
    }

    /** {user, password} from an HTTP Basic header; {null, null} when there is none. */
    static String[] basic(String header) {
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            try {
                String pair = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
                int colon = pair.indexOf(':');
                if (colon >= 0) {
                    return new String[] {pair.substring(0, colon), pair.substring(colon + 1)};
                }
            } catch (IllegalArgumentException notBase64) {
                // treated as no credentials
            }
        }
        return new String[] {null, null};
    }
}
