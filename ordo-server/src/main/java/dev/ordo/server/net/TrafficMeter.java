package dev.ordo.server.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * The first handler of an admitted connection's pipeline, next to the socket: counts the bytes
 * of every buffer read from it and written to it, and the flushes that sent something, on the
 * {@link NetworkStats.Meter} of the channel's event loop, the only thread that calls it. Adds
 * nothing but the counting to a read or a write.
 */
final class TrafficMeter extends ChannelDuplexHandler {
    private final NetworkStats.Meter stats;
    private boolean writtenSinceFlush;

    TrafficMeter(NetworkStats.Meter stats) {
        this.stats = stats;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf in) {
            stats.read(in.readableBytes());
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf out && out.isReadable()) {
            stats.wrote(out.readableBytes());
            writtenSinceFlush = true;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (writtenSinceFlush) {
            writtenSinceFlush = false;
            stats.flushed();
        }
        ctx.flush();
    }
}
