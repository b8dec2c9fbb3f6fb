package dev.ordo.patterns.lettuce;

import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Collects any RESP2 reply as the {@link Store} contract shapes it, a {@link Reply}. Lettuce hands over the reply as a stream of events
 * (an array header with its length, then its elements, depth first); an array closes when its
 * announced number of elements has arrived, and a closed array counts as one element of the
 * array around it. Bulk and status strings arrive as bytes and are decoded as UTF-8.
 */
final class ReplyOutput extends CommandOutput<String, String, Reply> {
    /** The arrays still open, innermost first; each with the number of elements still to come. */
    private final Deque<Open> open = new ArrayDeque<>();

    private static final class Open {
        final List<Reply> items;
        int missing;

        Open(int count) {
            this.items = new ArrayList<>(count);
            this.missing = count;
        }
    }

    /**
     * How long the command may block before the server replies, in nanoseconds: -1 for a command
     * that answers at once, 0 for a blocking command that waits for data however long it takes.
     * {@link LettuceStore}'s timeout source reads it to give a blocking command its block time on
     * top of the connection's timeout.
     */
    final long blockNanos;

    ReplyOutput() {
        this(-1);
    }

    ReplyOutput(long blockNanos) {
        super(StringCodec.UTF8, null);
        this.blockNanos = blockNanos;
    }

    @Override
    public void set(ByteBuffer bytes) {
        add(Reply.of(bytes == null ? null : codec.decodeValue(bytes)));
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void set(long integer) {
        add(Reply.of(integer));
    }

    @Override
    public void multi(int count) {
        if (count <= 0) {
            add(count < 0 ? Reply.Nil.NIL : Reply.of(List.of()));
        } else {
            open.push(new Open(count));
        }
    }

    /** One complete value: an element of the innermost open array, or the whole reply. */
    private void add(Reply value) {
        Reply done = value;
        while (true) {
            Open parent = open.peek();
            if (parent == null) {
                output = done;
                return;
            }
            parent.items.add(done);
            if (--parent.missing > 0) {
                return;
            }
            open.pop();
            done = Reply.of(parent.items);
        }
    }
}
