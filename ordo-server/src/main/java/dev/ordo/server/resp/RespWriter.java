package dev.ordo.server.resp;

import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.number.Decimal;
import dev.ordo.engine.number.Doubles;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes replies as RESP bytes, in the protocol of the session being answered (read at each
 * write, so HELLO's own reply already uses the new one). RESP2 receives the degraded forms
 * described in {@link ReplyWriter}: maps as flat arrays, sets and pushes as arrays, doubles as
 * bulk strings, booleans as integers, nulls as {@code $-1} or {@code *-1}, verbatim strings as
 * bulk strings.
 *
 * <p>Replies are encoded into a heap array, the stage, and copied into one direct {@link ByteBuf}
 * of the exact size when {@link #take() taken}: a reply is dozens of small writes, and each small
 * write into a direct buffer costs a bounds-checked NIO view, while the copy is one. The stage
 * holds at most {@link #STAGE_LIMIT} bytes: a reply that outgrows it, and any write of more than
 * {@link #DIRECT_WRITE} bytes, moves what is staged into a spill buffer (direct, allocated then)
 * and continues there, so the stage never holds a large value twice. After a take the stage is
 * kept only when it is at most {@link #STAGE_KEPT} bytes, so an idle connection holds little.
 *
 * <p>Not thread-safe: its owner (the connection's event loop, or the engine under its lock while
 * the client is blocked) is the only writer at any time.
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
    private static final byte[] NO_STAGE = new byte[0];
    private static final int INITIAL_STAGE = 1024;
    static final int STAGE_KEPT = 16 * 1024;
    /**
     * The stage never outgrows what is kept after a take, so a connection that receives much per
     * turn (a subscriber of a busy channel) keeps reusing one stage and spills the rest into
     * pooled direct memory, instead of growing a new heap array every turn (garbage that, with
     * a hundred subscribers, kept the collector busier than the event loop).
     */
    static final int STAGE_LIMIT = STAGE_KEPT;
    static final int DIRECT_WRITE = 8 * 1024;
    private static final int SPILL_INITIAL = 4 * STAGE_LIMIT;

    private final ByteBufAllocator alloc;
    private final Session session;
    private final byte[] scratch = new byte[Doubles.MAX_FORMATTED_LENGTH];
    private byte[] stage = NO_STAGE;
    private int staged;
    /** Bytes written before the staged ones, once a reply outgrew the stage; null otherwise. */
    private ByteBuf spill;

    public RespWriter(ByteBufAllocator alloc, Session session) {
        this.alloc = alloc;
        this.session = session;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Makes room for {@code n} more bytes (at most {@link #DIRECT_WRITE}) in the stage. */
    private void reserve(int n) {
        int needed = staged + n;
        if (needed <= stage.length) {
            return;
        }
        if (needed > STAGE_LIMIT) {
            spillStage();
            needed = n;
            if (needed <= stage.length) {
                return;
            }
        }
        stage = Arrays.copyOf(stage, Math.min(STAGE_LIMIT, Math.max(needed, Math.max(INITIAL_STAGE, stage.length * 2))));
    }

    /** Moves the staged bytes to the end of the spill buffer. */
    private void spillStage() {
        if (spill == null) {
            // Room for a few stages at once: a turn that spills once (pipelined long replies)
            // usually spills again, and growing the buffer copies everything it holds.
            spill = alloc.directBuffer(SPILL_INITIAL);
        }
        spill.writeBytes(stage, 0, staged);
        staged = 0;
    }

    private void put(byte b) {
        reserve(1);
        stage[staged++] = b;
    }

    private void put(byte[] src, int off, int len) {
        if (len > DIRECT_WRITE) {
            spillStage();
            spill.writeBytes(src, off, len);
            return;
        }
        reserve(len);
        System.arraycopy(src, off, stage, staged, len);
        staged += len;
    }

    private void put(byte[] src) {
        put(src, 0, src.length);
    }

    /** The bytes of replies that outgrew the stage, held in the spill buffer. */
    public int spilled() {
        return spill == null ? 0 : spill.readableBytes();
    }

    /** The bytes waiting in the stage. */
    public int staged() {
        return staged;
    }

    /** The stage's size: the reply buffer an idle connection keeps (at most 16 KiB after a take). */
    public int stageCapacity() {
        return stage.length;
    }

    /** The number of bytes written and not yet taken; a mark for {@link #truncate}. */
    public int size() {
        return spilled() + staged;
    }

    /** Drops what was written after {@code mark} (a value of {@link #size()}). */
    public void truncate(int mark) {
        int spilled = spilled();
        if (mark >= spilled) {
            staged = mark - spilled;
        } else {
            spill.writerIndex(spill.readerIndex() + mark);
            staged = 0;
        }
    }

    /** Hands over everything written so far (null if nothing); later writes start a new buffer. */
    public ByteBuf take() {
        ByteBuf b = spill;
        spill = null;
        if (b == null && staged > 0) {
            b = alloc.directBuffer(staged, staged);
        }
        if (b != null) {
            b.writeBytes(stage, 0, staged);
        }
        staged = 0;
        if (stage.length > STAGE_KEPT) {
            stage = NO_STAGE;
        }
        if (b != null && !b.isReadable()) {
            b.release();
            return null;
        }
        return b;
    }

    /**
     * Hands over the bytes written before {@code mark} and keeps those after it, which become the
     * start of what is written next; null if there was nothing before the mark.
     */
    public ByteBuf takeBefore(int mark) {
        if (mark == 0 || size() == 0) {
            return null;
        }
        spillStage();
        ByteBuf b = spill;
        spill = null;
        int tail = b.readableBytes() - mark;
        if (tail > 0) {
            ByteBuf rest = alloc.directBuffer(tail);
            rest.writeBytes(b, b.readerIndex() + mark, tail);
            spill = rest;
            b.writerIndex(b.readerIndex() + mark);
        }
        return b;
    }

    /** Appends bytes that are already RESP (a MONITOR line). */
    public void append(ByteBuf bytes) {
        int n = bytes.readableBytes();
        if (n > DIRECT_WRITE) {
            spillStage();
            spill.writeBytes(bytes, bytes.readerIndex(), n);
            return;
        }
        reserve(n);
        bytes.getBytes(bytes.readerIndex(), stage, staged, n);
        staged += n;
    }

    /** Frees what was written and not taken, if anything. */
    public void release() {
        ByteBuf b = spill;
        spill = null;
        staged = 0;
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
        put((byte) '-');
        put(text.getBytes(StandardCharsets.ISO_8859_1));
        put(CRLF);
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
        if (len < 100) { // the common short value: one reservation, its length's digits written inline
            reserve(len + 7);
            byte[] s = stage;
            int at = staged;
            s[at++] = '$';
            if (len >= 10) {
                s[at++] = (byte) ('0' + len / 10);
            }
            s[at++] = (byte) ('0' + len % 10);
            s[at++] = '\r';
            s[at++] = '\n';
            System.arraycopy(value, off, s, at, len);
            at += len;
            s[at++] = '\r';
            s[at++] = '\n';
            staged = at;
            return;
        }
        header('$', len);
        put(value, off, len);
        put(CRLF);
    }

    @Override
    public void nullBulk() {
        put(resp3() ? NULL3 : NULL_BULK2);
    }

    @Override
    public void nullArray() {
        put(resp3() ? NULL3 : NULL_ARRAY2);
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
    public void attributeHeader(int pairs) {
        header('|', pairs);
    }

    @Override
    public void doubleValue(double value) {
        int len = Doubles.format(value, scratch, 0);
        if (resp3()) {
            put((byte) ',');
        } else {
            header('$', len);
        }
        put(scratch, 0, len);
        put(CRLF);
    }

    @Override
    public void bool(boolean value) {
        if (resp3()) {
            put(value ? TRUE3 : FALSE3);
        } else {
            put(value ? ONE2 : ZERO2);
        }
    }

    @Override
    public void bigNumber(byte[] digits) {
        if (!resp3()) {
            bulk(digits);
            return;
        }
        put((byte) '(');
        put(digits);
        put(CRLF);
    }

    @Override
    public void verbatim(String format, byte[] text) {
        if (!resp3()) {
            bulk(text);
            return;
        }
        header('=', text.length + 4L);
        for (int i = 0; i < 3; i++) { // exactly three bytes, as Redis: cut, or padded with spaces
            put((byte) (i < format.length() ? format.charAt(i) : ' '));
        }
        put((byte) ':');
        put(text);
        put(CRLF);
    }

    /** {@code type}, the decimal {@code value}, CRLF. */
    private void header(char type, long value) {
        reserve(1 + Decimal.MAX_LENGTH + CRLF.length);
        stage[staged++] = (byte) type;
        staged = Decimal.write(value, stage, staged);
        stage[staged++] = '\r';
        stage[staged++] = '\n';
    }

    /** {@code type}, the text in UTF-8 with CR and LF turned into spaces (one line), CRLF. */
    private void line(char type, String text) {
        put((byte) type);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                put(oneLine(text.substring(i)).getBytes(StandardCharsets.UTF_8));
                break;
            }
            put((byte) (c == '\r' || c == '\n' ? ' ' : c));
        }
        put(CRLF);
    }

    private static String oneLine(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }
}
