package dev.ordo.server.resp;

import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.pubsub.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A Pub/Sub message as Redis sends it: {@code [message, channel, payload]},
 * {@code [pmessage, pattern, channel, payload]} or {@code [smessage, channel, payload]}, as a
 * push ({@code >}) to a RESP3 client and an array ({@code *}) to a RESP2 one.
 */
public final class PushFrames {
    private static final byte[] INVALIDATE = "invalidate".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INVALIDATE_CHANNEL = "__redis__:invalidate".getBytes(StandardCharsets.US_ASCII);
    private PushFrames() {
    }

    /** Writes the message into a reply writer (the subscriber's own, on its thread). */
    public static void write(ReplyWriter out, Message m) {
        out.pushHeader(m.pattern() == null ? 3 : 4);
        out.bulk(m.kind().word());
        if (m.pattern() != null) {
            out.bulk(m.pattern());
        }
        out.bulk(m.channel());
        out.bulk(m.payload());
    }

    /** The message's bytes for a client speaking {@code protocol}, to hand to the subscriber's thread. */
    public static ByteBuf encode(ByteBufAllocator alloc, Message m, int protocol) {
        int parts = m.pattern() == null ? 3 : 4;
        ByteBuf out = alloc.buffer((int) Math.min(Integer.MAX_VALUE, m.encodedSize() + 16));
        out.writeByte(protocol >= 3 ? '>' : '*');
        writeDigits(out, parts);
        bulk(out, m.kind().word());
        if (m.pattern() != null) {
            bulk(out, m.pattern());
        }
        bulk(out, m.channel());
        bulk(out, m.payload());
        return out;
    }

    /**
     * A client-side caching invalidation of {@code keys} (null: everything): a push
     * {@code [invalidate, keys]} to a RESP3 client, or for a RESP2 redirect target a message on
     * {@code __redis__:invalidate} whose payload is the array of keys.
     */
    public static ByteBuf invalidation(ByteBufAllocator alloc, List<byte[]> keys, boolean resp3) {
        ByteBuf out = alloc.buffer(64);
        if (resp3) {
            out.writeCharSequence(">2\r\n", StandardCharsets.US_ASCII);
            bulk(out, INVALIDATE);
        } else {
            out.writeCharSequence("*3\r\n", StandardCharsets.US_ASCII);
            bulk(out, Message.Kind.MESSAGE.word());
            bulk(out, INVALIDATE_CHANNEL);
        }
        if (keys == null) {
            out.writeCharSequence(resp3 ? "_\r\n" : "$-1\r\n", StandardCharsets.US_ASCII);
        } else {
            out.writeByte('*');
            writeDigits(out, keys.size());
            keys.forEach(k -> bulk(out, k));
        }
        return out;
    }

    /** The push telling a RESP3 tracking client its redirect target ({@code id}) is gone. */
    public static ByteBuf redirectBroken(ByteBufAllocator alloc, long id) {
        ByteBuf out = alloc.buffer(48);
        out.writeCharSequence(">2\r\n", StandardCharsets.US_ASCII);
        bulk(out, "tracking-redir-broken".getBytes(StandardCharsets.US_ASCII));
        out.writeByte(':');
        writeDigits(out, id);
        return out;
    }

    private static void bulk(ByteBuf out, byte[] value) {
        out.writeByte('$');
        writeDigits(out, value.length);
        out.writeBytes(value);
        out.writeByte('\r').writeByte('\n');
    }

    private static void writeDigits(ByteBuf out, long n) {
        out.writeCharSequence(Long.toString(n), StandardCharsets.US_ASCII);
        out.writeByte('\r').writeByte('\n');
    }
}
