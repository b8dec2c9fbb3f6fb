package dev.ordo.engine.differential;

import dev.ordo.engine.command.ReplyWriter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.function.IntSupplier;

/** Builds a {@link Reply} tree from what a command writes, with the RESP2 degradations a wire client would see. */
final class TreeReplyWriter implements ReplyWriter {
    private final IntSupplier protocol;
    private final Deque<Object[]> open = new ArrayDeque<>();
    private Reply result;

    TreeReplyWriter(IntSupplier protocol) {
        this.protocol = protocol;
    }

    Reply take() {
        Reply r = result;
        result = null;
        return r;
    }

    boolean complete() {
        return result != null;
    }

    private boolean resp3() {
        return protocol.getAsInt() >= 3;
    }

    @Override
    public int protocol() {
        return protocol.getAsInt();
    }

    @Override
    public void simpleString(String status) {
        value(Reply.text(Reply.Kind.STATUS, status.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void error(String text) {
        value(Reply.text(Reply.Kind.ERROR, text.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void integer(long value) {
        value(Reply.integer(value));
    }

    @Override
    public void bulk(byte[] value) {
        value(Reply.text(Reply.Kind.BULK, value.clone()));
    }

    @Override
    public void bulk(byte[] buf, int off, int len) {
        value(Reply.text(Reply.Kind.BULK, Arrays.copyOfRange(buf, off, off + len)));
    }

    @Override
    public void nullBulk() {
        value(Reply.of(resp3() ? Reply.Kind.NULL : Reply.Kind.NULL_BULK));
    }

    @Override
    public void nullArray() {
        value(Reply.of(resp3() ? Reply.Kind.NULL : Reply.Kind.NULL_ARRAY));
    }

    @Override
    public void arrayHeader(int count) {
        open(Reply.Kind.ARRAY, count);
    }

    @Override
    public void mapHeader(int pairs) {
        open(resp3() ? Reply.Kind.MAP : Reply.Kind.ARRAY, 2 * pairs);
    }

    @Override
    public void setHeader(int count) {
        open(resp3() ? Reply.Kind.SET : Reply.Kind.ARRAY, count);
    }

    @Override
    public void pushHeader(int count) {
        open(resp3() ? Reply.Kind.PUSH : Reply.Kind.ARRAY, count);
    }

    /** No command of the differential corpus sends an attribute (only DEBUG PROTOCOL does). */
    @Override
    public void attributeHeader(int pairs) {
        throw new UnsupportedOperationException("the differential corpus has no attributes");
    }

    @Override
    public void bigNumber(byte[] digits) {
        value(Reply.text(resp3() ? Reply.Kind.BIG_NUMBER : Reply.Kind.BULK, digits));
    }

    @Override
    public void doubleValue(double value) {
        if (resp3()) {
            value(Reply.dbl(value));
        } else {
            value(Reply.text(Reply.Kind.BULK, dev.ordo.engine.number.Doubles.formatBytes(value)));
        }
    }

    @Override
    public void bool(boolean value) {
        value(resp3() ? new Reply(Reply.Kind.BOOLEAN, null, value ? 1 : 0, 0, List.of()) : Reply.integer(value ? 1 : 0));
    }

    @Override
    public void verbatim(String format, byte[] text) {
        value(Reply.text(resp3() ? Reply.Kind.VERBATIM : Reply.Kind.BULK, text.clone()));
    }

    private void open(Reply.Kind kind, int count) {
        if (count == 0) {
            value(Reply.aggregate(kind, List.of()));
        } else {
            open.push(new Object[] {kind, new ArrayList<Reply>(), count});
        }
    }

    @SuppressWarnings("unchecked")
    private void value(Reply r) {
        Reply done = r;
        while (true) {
            Object[] top = open.peek();
            if (top == null) {
                result = done;
                return;
            }
            List<Reply> items = (List<Reply>) top[1];
            items.add(done);
            if (items.size() < (int) top[2]) {
                return;
            }
            open.pop();
            done = Reply.aggregate((Reply.Kind) top[0], items);
        }
    }
}
