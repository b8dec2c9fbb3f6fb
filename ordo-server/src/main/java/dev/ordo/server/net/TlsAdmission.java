package dev.ordo.server.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;

/**
 * Sits right after the {@link io.netty.handler.ssl.SslHandler} of a TLS connection and keeps the
 * connection from {@link Connection} until the handshake has succeeded: the channel's activation
 * is held back and handed on then, and this handler leaves the pipeline. A handshake that fails
 * (a plain-text client, no or an untrusted client certificate, the SslHandler's 10 s timeout)
 * is logged as Redis logs it, {@code Error accepting a client connection: <reason>}, and the
 * channel is closed: it never counted as a client, never reached the engine, and nothing it sent
 * ran. Event loop thread only.
 */
final class TlsAdmission extends ChannelInboundHandlerAdapter {
    /** The SslHandler's name in the pipeline; {@link Connection} puts its {@link TrafficMeter} after it. */
    static final String TLS_HANDLER = "tls";
    /** The most of a failure's message the log line keeps (a plain-text client's is a hex dump of what it sent). */
    private static final int MAX_REASON = 120;

    private final ServerLog log;

    TlsAdmission(ServerLog log) {
        this.log = log;
    }

    /** Held back until the handshake is done (the SslHandler, before this, has already started it). */
    @Override
    public void channelActive(ChannelHandlerContext ctx) {
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (!(evt instanceof SslHandshakeCompletionEvent done)) {
            ctx.fireUserEventTriggered(evt);
            return;
        }
        if (done.isSuccess()) {
            ctx.fireChannelActive();
            ctx.pipeline().remove(this);
        } else {
            log.warning("Error accepting a client connection: " + reason(done.cause()) + " (conn: "
                    + Connection.address(ctx.channel().remoteAddress()) + ")");
            ctx.close();
        }
    }

    /** Nothing to forget: the connection was never admitted. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    }

    /** A failed handshake also arrives as its completion event, which logs it. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static String reason(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.length() > MAX_REASON ? message.substring(0, MAX_REASON) + "..." : message;
    }
}
