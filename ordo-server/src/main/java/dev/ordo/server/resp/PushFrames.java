package dev.ordo.server.resp;

import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.pubsub.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * A Pub/Sub message as Redis sends it: {@code [message, channel, payload]},
 * {@code [pmessage, pattern, channel, payload]} or {@code [smessage, channel, payload]}, as a
 * push ({@code >}) to a RESP3 client and an array ({@code *}) to a RESP2 one.
 */
public final class PushFrames {
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
