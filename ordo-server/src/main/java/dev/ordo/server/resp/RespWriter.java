package dev.ordo.server.resp;

import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.number.Doubles;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * Encodes replies as RESP bytes straight into a pooled {@link ByteBuf}, in the protocol of the
 * session being answered (read at each write, so HELLO's own reply already uses the new one).
 * RESP2 receives the degraded forms described in {@link ReplyWriter}: maps as flat arrays, sets
 * and pushes as arrays, doubles as bulk strings, booleans as integers, nulls as {@code $-1} or
 * {@code *-1}, verbatim strings as bulk strings.
 *
 * <p>The buffer is allocated on the first write and handed over with {@link #take()}. Not
 * thread-safe: its owner (the connection's event loop, or the engine under its lock while the
 * client is blocked) is the only writer at any time.
 */
public final class RespWriter implements ReplyWriter {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] NULL3 = bytes("_\r\n");
    private static final byte[] NULL_BULK2 = bytes("$-1\r\n");
    private static final byte[] NULL_ARRAY2 = bytes("*-1\r\n");
    private static final byte[] TRUE3 = bytes("#t\r\n");
    private static final byte[] FALSE3 = bytes("#f\r\n");
    private static final byte[] ONE2 = bytes(":1\r\n");
    private static final byte[] ZERO2 = bytes(":0\r\n");
    private static final int INITIAL_CAPACITY = 256;

    private final ByteBufAllocator alloc;
    private final Session session;
    private final byte[] scratch = new byte[Math.max(Doubles.MAX_FORMATTED_LENGTH, 20)];
    private ByteBuf buf;

    public RespWriter(ByteBufAllocator alloc, Session session) {
        this.alloc = alloc;
        this.session = session;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The buffer to write into, allocated on first use. */
    private ByteBuf out() {
        ByteBuf b = buf;
        if (b == null) {
            b = alloc.buffer(INITIAL_CAPACITY);
            buf = b;
        }
        return b;
    }

    /** The number of bytes written and not yet taken; a mark for {@link #truncate}. */
    public int size() {
        return buf == null ? 0 : buf.readableBytes();
    }

    /** Drops what was written after {@code mark} (a value of {@link #size()}). */
    public void truncate(int mark) {
        if (buf != null) {
            buf.writerIndex(buf.readerIndex() + mark);
        }
    }

    /** Hands over everything written so far (null if nothing); later writes start a new buffer. */
    public ByteBuf take() {
        ByteBuf b = buf;
        buf = null;
        if (b != null && !b.isReadable()) {
            b.release();
            return null;
        }
        return b;
    }

    /**
     * Hands over the bytes written before {@code mark} and keeps those after it, which become the
     * start of a new buffer; null if there was nothing before the mark.
     */
    public ByteBuf takeBefore(int mark) {
        ByteBuf b = buf;
        if (b == null || mark == 0) {
            return null;
        }
        int tail = b.readableBytes() - mark;
        buf = null;
        if (tail > 0) {
            out().writeBytes(b, b.readerIndex() + mark, tail);
            b.writerIndex(b.readerIndex() + mark);
        }
        return b;
    }

    /** Appends bytes that are already RESP (a MONITOR line). */
    public void append(ByteBuf bytes) {
        out().writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
    }

    /** Frees the buffer, if any. */
    public void release() {
        ByteBuf b = buf;
        buf = null;
        if (b != null) {
            b.release();
        }
    }

    @Override
    public int protocol() {
        return session.protocol();
    }

    private boolean resp3() {
        return session.protocol() >= 3;
    }

    @Override
    public void simpleString(String status) {
        line('+', status);
    }

    @Override
    public void error(String text) {
        line('-', text);
    }

    /** An error reply whose text is given one byte per char (ISO-8859-1). */
    public void errorLatin1(String text) {
        ByteBuf b = out();
        b.writeByte('-');
        b.writeCharSequence(text, StandardCharsets.ISO_8859_1);
        b.writeBytes(CRLF);
    }

    @Override
    public void integer(long value) {
        header(':', value);
    }

    @Override
    public void bulk(byte[] value) {
        bulk(value, 0, value.length);
    }

    @Override
    public void bulk(byte[] value, int off, int len) {
        ByteBuf b = out();
        header('$', len);
        b.writeBytes(value, off, len);
        b.writeBytes(CRLF);
    }

    @Override
    public void nullBulk() {
        out().writeBytes(resp3() ? NULL3 : NULL_BULK2);
    }

    @Override
    public void nullArray() {
        out().writeBytes(resp3() ? NULL3 : NULL_ARRAY2);
    }

    @Override
    public void arrayHeader(int count) {
        header('*', count);
    }

    @Override
    public void mapHeader(int pairs) {
        if (resp3()) {
            header('%', pairs);
        } else {
            header('*', 2L * pairs);
        }
    }

    @Override
    public void setHeader(int count) {
        header(resp3() ? '~' : '*', count);
    }

    @Override
    public void pushHeader(int count) {
        header(resp3() ? '>' : '*', count);
    }

    @Override
    public void doubleValue(double value) {
        int len = Doubles.format(value, scratch, 0);
        ByteBuf b = out();
        if (resp3()) {
            b.writeByte(',');
        } else {
            header('$', len);
        }
        b.writeBytes(scratch, 0, len);
        b.writeBytes(CRLF);
    }

    @Override
    public void bool(boolean value) {
        if (resp3()) {
            out().writeBytes(value ? TRUE3 : FALSE3);
        } else {
            out().writeBytes(value ? ONE2 : ZERO2);
        }
    }

    @Override
    public void bigNumber(byte[] digits) {
        if (!resp3()) {
            bulk(digits);
            return;
        }
        ByteBuf b = out();
        b.writeByte('(');
        b.writeBytes(digits);
        b.writeBytes(CRLF);
    }

    @Override
    public void verbatim(String format, byte[] text) {
        if (!resp3()) {
            bulk(text);
            return;
        }
        ByteBuf b = out();
        header('=', text.length + 4L);
        b.writeCharSequence(format, StandardCharsets.US_ASCII);
        b.writeByte(':');
        b.writeBytes(text);
        b.writeBytes(CRLF);
    }

    /** {@code type}, the decimal {@code value}, CRLF. */
    private void header(char type, long value) {
        ByteBuf b = out();
        b.writeByte(type);
        RespNumbers.write(b, value, scratch);
        b.writeBytes(CRLF);
    }

    /** {@code type}, the text in UTF-8 with CR and LF turned into spaces (one line), CRLF. */
    private void line(char type, String text) {
        ByteBuf b = out();
        b.writeByte(type);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                b.writeCharSequence(oneLine(text.substring(i)), StandardCharsets.UTF_8);
                break;
            }
            b.writeByte(c == '\r' || c == '\n' ? ' ' : c);
        }
        b.writeBytes(CRLF);
    }

    private static String oneLine(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }
}
