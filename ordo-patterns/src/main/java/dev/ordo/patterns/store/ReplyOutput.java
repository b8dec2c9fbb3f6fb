package dev.ordo.patterns.store;

import dev.ordo.engine.command.ObjectReplyWriter;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Collects any RESP2 reply as the {@link Store} contract shapes it: {@link Long}, {@link String},
 * {@code null} and nested {@link List}s. The tree is built by the engine's {@link
 * ObjectReplyWriter} (each array closes when its announced number of elements has arrived), the
 * same builder embedded replies come from. Bulk and status strings arrive already decoded by the
 * UTF-8 codec and are handed over as statuses, which the writer keeps as the {@link String} given.
 */
final class ReplyOutput extends CommandOutput<String, String, Object> {
    private final ObjectReplyWriter tree = new ObjectReplyWriter(() -> 2);

    ReplyOutput() {
        super(StringCodec.UTF8, null);
    }

    @Override
    public void set(ByteBuffer bytes) {
        if (bytes == null) {
            tree.nullBulk();
        } else {
            tree.simpleString(codec.decodeValue(bytes));
        }
        collect();
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void set(long integer) {
        tree.integer(integer);
        collect();
    }

    @Override
    public void multi(int count) {
        if (count < 0) {
            tree.nullArray();
        } else {
            tree.arrayHeader(count);
        }
        collect();
    }

    private void collect() {
        if (tree.complete()) {
            output = tree.take();
        }
    }
}
