package dev.ordo.server.resp;

import dev.ordo.engine.memory.Footprint;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;

import java.util.List;

/**
 * Turns a connection's bytes into commands ({@code byte[][]}, the name first) and, when the input
 * breaks a rule, one final {@link ProtocolError}. Two request forms, told apart by the first byte:
 *
 * <pre>
 *   multibulk   '*' argc CR LF  then argc times:  '$' len CR LF  len bytes  CR LF
 *               *2\r\n$4\r\nECHO\r\n$2\r\nhi\r\n
 *   inline      anything else, up to LF (a CR just before it is dropped), split by {@link InlineArgs}
 *               ECHO "h\x69"\n
 * </pre>
 *
 * <p>A multibulk frame is complete when its header line and argc bulk bodies, each followed by
 * two more bytes, have arrived. As in Redis, a line ends at the first CR and the byte after it is
 * skipped unchecked, as are the two bytes after a body; a line end is only searched up to the
 * first NUL byte (Redis searches a C string), so a NUL in a header or inline line leaves the
 * command waiting. An inline line is complete at its LF; an empty one is ignored, and so is a
 * multibulk with argc &lt;= 0 (the null command). Bytes may arrive split anywhere and many
 * commands may arrive at once; parsing resumes where it stopped.
 *
 * <p>Errors, each answered as {@code -ERR Protocol error: ...}: argc not an integer or above
 * 2^31-1 ("invalid multibulk length"), a bulk length negative, not an integer or above
 * {@code proto-max-bulk-len} ("invalid bulk length"), no '$' where a bulk starts ("expected '$',
 * got 'c'"), over 64 KiB without a line end ("too big mbulk count string", "too big bulk count
 * string", "too big inline request"), an unbalanced quote ("unbalanced quotes in request"), and
 * before AUTH on a server with a password, argc above 10 or a bulk above 16384 bytes
 * ("unauthenticated multibulk length" / "unauthenticated bulk length"). A pending command that
 * holds more than the query buffer limit ({@link Limits#queryBufferLimit}) closes the connection
 * without a reply. After an error all further input is discarded.
 *
 * <p>Memory follows the bytes received, never the lengths declared: the argument array grows as
 * arguments arrive, and a bulk body stays in Netty's cumulation buffer until it is whole. What a
 * pending command holds is counted in memory, not only in bytes on the wire: the unparsed input
 * ({@link #queryBytes}) plus the arguments decoded so far with their array overhead
 * ({@link #argvMemory}), so a request of millions of empty arguments is stopped at the limit like
 * one large bulk. Empty arguments share one array.
 */
public final class RespDecoder extends ByteToMessageDecoder {
    /** Longest header or inline line Redis accepts without its line end (PROTO_INLINE_MAX_SIZE). */
    static final int MAX_LINE = 64 * 1024;
    private static final int MAX_UNAUTHENTICATED_ARGS = 10;
    private static final int MAX_UNAUTHENTICATED_BULK = 16 * 1024;
    private static final int INITIAL_ARGS = 1024;
    /** The largest body a Java array can hold, whatever proto-max-bulk-len says. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final byte[] EMPTY = new byte[0];
    private static final ByteProcessor FIND_CR = b -> b != '\r' && b != 0;
    private static final ByteProcessor FIND_LF = b -> b != '\n' && b != 0;

    /** The live limits a decoder checks. */
    public interface Limits {
        /** Whether the client still has to authenticate. */
        boolean authRequired();

        /** {@code proto-max-bulk-len}. */
        long maxBulkLength();

        /**
         * The bytes the command being decoded may hold (unparsed input and decoded arguments):
         * {@code client-query-buffer-limit}, capped by the heap and less what the client already
         * has waiting.
         */
        long queryBufferLimit();
    }

    private final Limits limits;
    private long maxBulkLength;
    private long queryBufferLimit;
    private long argc;
    private byte[][] args;
    private int argCount;
    /** The heap bytes of the arguments decoded so far and of their array. */
    private long argvMemory;
    private long bulkLength = -1;
    private boolean failed;
    /** Input read around Netty (a busy script's takeover), decoded before anything Netty reads next. */
    private ByteBuf heldBack;

    public RespDecoder(Limits limits) {
        this.limits = limits;
    }

    /** The unparsed input held (CLIENT LIST's qbuf). */
    public long queryBytes() {
        ByteBuf b = cumulationOrNull();
        return b == null ? 0 : b.readableBytes();
    }

    /** Room left in the input buffer (CLIENT LIST's qbuf-free). */
    public long queryBytesFree() {
        ByteBuf b = cumulationOrNull();
        return b == null ? 0 : b.capacity() - b.writerIndex();
    }

    /** The heap bytes of a half-decoded command's arguments and their array (CLIENT LIST's argv-mem). */
    public long argvMemory() {
        return argvMemory;
    }

    private ByteBuf cumulationOrNull() {
        try {
            return internalBuffer();
        } catch (IllegalStateException e) { // removed from the pipeline
            return null;
        }
    }

    /** Whether part of a command has been received and not yet decoded into one. */
    public boolean midFrame() {
        return argc > 0 || internalBuffer().isReadable();
    }

    /**
     * Keeps {@code input} (taking ownership) to be decoded ahead of the next read, whenever that
     * comes: input read from the socket around Netty must not be overtaken by what Netty reads after
     * it. The caller arranges a read ({@code fireChannelRead} of an empty buffer) to decode it.
     */
    public void holdBack(ByteBuf input) {
        heldBack = heldBack == null ? input : Unpooled.wrappedBuffer(heldBack, input);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        maxBulkLength = Math.min(limits.maxBulkLength(), MAX_ARRAY);
        queryBufferLimit = limits.queryBufferLimit();
        if (heldBack != null) {
            ByteBuf first = heldBack;
            heldBack = null;
            super.channelRead(ctx, first);
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (heldBack != null) {
            heldBack.release();
            heldBack = null;
        }
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            byte[][] command = argc == 0 && in.getByte(in.readerIndex()) != '*' ? inline(in) : multibulk(in);
            if (command != null) {
                out.add(command);
            } else if (in.readableBytes() + argvMemory > queryBufferLimit) {
                fail(in, out, ProtocolError.silent("query buffer limit reached"));
            }
        } catch (Malformed e) {
            fail(in, out, ProtocolError.answered(e.getMessage()));
        } catch (OverLimit e) {
            fail(in, out, ProtocolError.silent("query buffer limit reached"));
        }
    }

    private void fail(ByteBuf in, List<Object> out, ProtocolError error) {
        failed = true;
        args = null;
        argvMemory = 0;
        in.skipBytes(in.readableBytes());
        out.add(error);
    }

    /** One inline command, or null when the line is incomplete or empty (then consumed). */
    private byte[][] inline(ByteBuf in) throws Malformed {
        int start = in.readerIndex();
        int lf = find(in, FIND_LF);
        if (lf < 0) {
            if (in.readableBytes() > MAX_LINE) {
                throw new Malformed("too big inline request");
            }
            return null;
        }
        int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        byte[] line = new byte[end - start];
        in.getBytes(start, line);
        in.readerIndex(lf + 1);
        List<byte[]> split = InlineArgs.split(line, 0, line.length);
        if (split == null) {
            throw new Malformed("unbalanced quotes in request");
        }
        return split.isEmpty() ? null : split.toArray(new byte[0][]);
    }

    /** Continues the multibulk frame in progress; returns it once whole, else null. */
    private byte[][] multibulk(ByteBuf in) throws Malformed {
        if (argc == 0 && !readArgc(in)) {
            return null;
        }
        while (argCount < argc) {
            if (bulkLength < 0 && !readBulkLength(in)) {
                return null;
            }
            if (in.readableBytes() < bulkLength + 2) {
                return null;
            }
            byte[] arg = bulkLength == 0 ? EMPTY : new byte[(int) bulkLength];
            in.readBytes(arg);
            in.skipBytes(2);
            append(arg);
            bulkLength = -1;
            if (in.readableBytes() + argvMemory > queryBufferLimit) {
                throw new OverLimit();
            }
        }
        byte[][] done = args;
        args = null;
        argc = 0;
        argCount = 0;
        argvMemory = 0;
        return done;
    }

    /** Reads the {@code *N} line; false when it is incomplete or announced a null command. */
    private boolean readArgc(ByteBuf in) throws Malformed {
        int cr = lineEnd(in, "too big mbulk count string");
        if (cr < 0) {
            return false;
        }
        long n = RespNumbers.parse(in, in.readerIndex() + 1, cr);
        if (n == RespNumbers.INVALID || n > Integer.MAX_VALUE) {
            throw new Malformed("invalid multibulk length");
        }
        if (n > MAX_UNAUTHENTICATED_ARGS && limits.authRequired()) {
            throw new Malformed("unauthenticated multibulk length");
        }
        in.readerIndex(cr + 2);
        if (n <= 0) {
            return false;
        }
        argc = n;
        args = new byte[(int) Math.min(n, INITIAL_ARGS)][];
        argvMemory = Footprint.referenceArray(args.length);
        return true;
    }

    /** Reads a {@code $N} line into {@link #bulkLength}; false when it is incomplete. */
    private boolean readBulkLength(ByteBuf in) throws Malformed {
        int cr = lineEnd(in, "too big bulk count string");
        if (cr < 0) {
            return false;
        }
        int start = in.readerIndex();
        byte first = in.getByte(start);
        if (first != '$') {
            throw new Malformed("expected '$', got '" + printable(first) + "'");
        }
        long n = RespNumbers.parse(in, start + 1, cr);
        if (n < 0 || n > maxBulkLength) {
            throw new Malformed("invalid bulk length");
        }
        if (n > MAX_UNAUTHENTICATED_BULK && limits.authRequired()) {
            throw new Malformed("unauthenticated bulk length");
        }
        in.readerIndex(cr + 2);
        bulkLength = n;
        return true;
    }

    /**
     * The index of the CR ending the line at the reader index, once the byte after it has also
     * arrived; -1 while incomplete. Throws {@code tooBig} when there is no CR in over 64 KiB.
     */
    private static int lineEnd(ByteBuf in, String tooBig) throws Malformed {
        int cr = find(in, FIND_CR);
        if (cr < 0) {
            if (in.readableBytes() > MAX_LINE) {
                throw new Malformed(tooBig);
            }
            return -1;
        }
        return cr + 1 < in.writerIndex() ? cr : -1;
    }

    /** The index where {@code stop} first stops, or -1 if it stopped on nothing or on a NUL byte. */
    private static int find(ByteBuf in, ByteProcessor stop) {
        int i = in.forEachByte(stop);
        return i < 0 || in.getByte(i) == 0 ? -1 : i;
    }

    private void append(byte[] arg) {
        if (argCount == args.length) {
            long grown = Math.min(argc, 2L * args.length);
            argvMemory += Footprint.referenceArray(grown) - Footprint.referenceArray(args.length);
            args = java.util.Arrays.copyOf(args, (int) grown);
        }
        args[argCount++] = arg;
        if (arg != EMPTY) {
            argvMemory += Footprint.array(arg.length);
        }
    }

    /** The offending byte as Redis prints it in one error line (CR and LF become spaces). */
    private static String printable(byte b) {
        return b == '\r' || b == '\n' ? " " : String.valueOf((char) (b & 0xff));
    }

    /** A pending command past the query buffer limit, found while its arguments are decoded. */
    private static final class OverLimit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OverLimit() {
            super(null, null, false, false);
        }
    }

    /** A protocol violation, carrying the text after "Protocol error: ". */
    private static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }
}
