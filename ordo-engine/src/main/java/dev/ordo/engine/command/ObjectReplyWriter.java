package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.number.Doubles;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a reply as Java objects, for embedded callers: status replies become {@link String},
 * integers {@link Long}, bulk strings {@code byte[]}, nulls {@code null}, aggregates
 * {@link List}, errors {@link ErrorReply} instances, and (RESP3) doubles {@link Double} and
 * booleans {@link Boolean}. Maps arrive as flat lists of keys and values; attributes are dropped,
 * so the reply they precede is the result. A writer for text
 * ({@link #ObjectReplyWriter(IntSupplier, boolean)}) gives every bulk string, and every double
 * that RESP2 sends as one, as a {@link String} decoded from UTF-8 instead, with no byte array in
 * between. One reply per use: {@link #take()} returns it and resets the writer.
 */
public final class ObjectReplyWriter implements ReplyWriter {
    private final IntSupplier protocol;
    private final boolean textBulks;
    /** The innermost aggregate still waiting for elements; its parent is the one around it. */
    private Frame open;
    /** Where doubles are formatted before they are copied into their reply; made on first use. */
    private byte[] digits;
    private Object result;
    private boolean complete;

    private static final class Frame {
        final List<Object> items;
        final Frame parent;
        /** An attribute's pairs: read to their end, then dropped. */
        final boolean attribute;
        int remaining;

        Frame(int count, Frame parent, boolean attribute) {
            items = new ArrayList<>(count);
            this.parent = parent;
            this.attribute = attribute;
            remaining = count;
        }
    }

    /** Supplies the session's protocol at write time. */
    @FunctionalInterface
    public interface IntSupplier {
        /**
         * The protocol, 2 or 3.
         *
         * @return the protocol
         */
        int get();
    }

    /**
     * A writer whose bulk strings arrive as {@code byte[]}.
     *
     * @param protocol supplies the session's protocol
     */
    public ObjectReplyWriter(IntSupplier protocol) {
        this(protocol, false);
    }

    /**
     * A writer whose bulk strings arrive as {@link String} (UTF-8) when {@code textBulks}, else as {@code byte[]}.
     *
     * @param protocol supplies the session's protocol
     * @param textBulks whether bulk strings become {@link String}s
     */
    public ObjectReplyWriter(IntSupplier protocol, boolean textBulks) {
        this.protocol = protocol;
        this.textBulks = textBulks;
    }

    /**
     * Whether a whole reply has been written.
     *
     * @return whether a reply is complete
     */
    public boolean complete() {
        return complete;
    }

    /**
     * Returns the finished reply and resets the writer.
     *
     * @return the reply as Java objects
     */
    public Object take() {
        Object r = result;
        result = null;
        complete = false;
        return r;
    }

    @Override
    public int protocol() {
        return protocol.get();
    }

    @Override
    public void simpleString(String status) {
        value(status);
    }

    @Override
    public void error(String text) {
        value(new ErrorReply(text));
    }

    @Override
    public void integer(long value) {
        value(value);
    }

    @Override
    public void bulk(byte[] value) {
        bulk(value, 0, value.length);
    }

    @Override
    public void bulk(byte[] buf, int off, int len) {
        value(textBulks ? new String(buf, off, len, StandardCharsets.UTF_8) : Arrays.copyOfRange(buf, off, off + len));
    }

    @Override
    public void nullBulk() {
        value(null);
    }

    @Override
    public void nullArray() {
        value(null);
    }

    @Override
    public void arrayHeader(int count) {
        aggregate(count);
    }

    @Override
    public void mapHeader(int pairs) {
        aggregate(2 * pairs);
    }

    @Override
    public void setHeader(int count) {
        aggregate(count);
    }

    @Override
    public void pushHeader(int count) {
        aggregate(count);
    }

    @Override
    public void doubleValue(double value) {
        if (protocol() >= 3) {
            value(value);
            return;
        }
        if (digits == null) {
            digits = new byte[Doubles.MAX_FORMATTED_LENGTH];
        }
        int n = Doubles.format(value, digits, 0);
        value(textBulks ? new String(digits, 0, n, StandardCharsets.ISO_8859_1) : Arrays.copyOf(digits, n));
    }

    @Override
    public void bool(boolean value) {
        if (protocol() >= 3) {
            value(value);
        } else {
            value(value ? 1L : 0L);
        }
    }

    @Override
    public void verbatim(String format, byte[] text) {
        if (protocol() >= 3) {
            value(new String(text, StandardCharsets.UTF_8));
        } else {
            bulk(text);
        }
    }

    @Override
    public void attributeHeader(int pairs) {
        if (pairs > 0) {
            open = new Frame(2 * pairs, open, true);
        }
    }

    private void aggregate(int count) {
        if (count == 0) {
            value(new ArrayList<>(0));
        } else {
            open = new Frame(count, open, false);
        }
    }

    private void value(Object v) {
        Object done = v;
        while (true) {
            Frame top = open;
            if (top == null) {
                result = done;
                complete = true;
                return;
            }
            top.items.add(done);
            if (--top.remaining > 0) {
                return;
            }
            open = top.parent;
            if (top.attribute) {
                return;
            }
            done = top.items;
        }
    }
}
