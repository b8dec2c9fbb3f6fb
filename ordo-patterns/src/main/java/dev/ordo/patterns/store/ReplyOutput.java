package dev.ordo.patterns.store;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Collects any reply as the {@link Store} contract shapes it: {@link Long}, {@link String},
 * {@code null} and nested {@link List}s. Each array is closed when its announced number of
 * elements has arrived, so nesting is exact at any depth.
 */
final class ReplyOutput extends CommandOutput<String, String, Object> {
    private final Deque<Frame> open = new ArrayDeque<>();

    private static final class Frame {
        final List<Object> items;
        int remaining;

        Frame(int count) {
            items = new ArrayList<>(count);
            remaining = count;
        }
    }

    ReplyOutput() {
        super(StringCodec.UTF8, null);
    }

    @Override
    public void set(ByteBuffer bytes) {
        add(bytes == null ? null : codec.decodeValue(bytes));
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void set(long integer) {
        add(integer);
    }

    @Override
    public void multi(int count) {
        if (count < 0) {
            add(null);
        } else if (count == 0) {
            add(new ArrayList<>(0));
        } else {
            open.push(new Frame(count));
        }
    }

    private void add(Object value) {
        Frame frame = open.peek();
        if (frame == null) {
            output = value;
            return;
        }
        frame.items.add(value);
        if (--frame.remaining == 0) {
            open.pop();
            add(frame.items);
        }
    }
}
