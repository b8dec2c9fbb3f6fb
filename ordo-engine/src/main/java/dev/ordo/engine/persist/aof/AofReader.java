package dev.ordo.engine.persist.aof;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Streams the commands of one append-only file: a base holding commands ({@code .base.aof}) or an
 * incremental file ({@code .incr.aof}). Not for an RDB base: see {@link #startsWithRdb}.
 *
 * <h2>Format</h2>
 * A sequence of units, each one of:
 * <ul>
 * <li>a command, as a RESP multibulk: {@code *<n>\r\n} then n times {@code $<len>\r\n<len bytes>\r\n},
 *     with 1 &le; n &le; {@value #MAX_ARGS} and 0 &le; len &le; {@value #MAX_BULK} (decimal digits
 *     only, no sign; leading zeros accepted);</li>
 * <li>an annotation: a line starting with {@code #} and ending with {@code \n}, at most
 *     {@value #MAX_ANNOTATION} bytes long, such as Redis's {@code #TS:<unix time>\r\n}; it carries no
 *     command and is handed to {@link Sink#annotation} only;</li>
 * <li>a transaction: a {@code MULTI} command, any commands and annotations, and an {@code EXEC}
 *     command. It is delivered only once its {@code EXEC} has been read, through
 *     {@link Sink#transaction} (which by default passes each of its commands, {@code MULTI} and
 *     {@code EXEC} included, to {@link Sink#command} in order), so a loader never applies part of
 *     one.</li>
 * </ul>
 *
 * <h2>Torn tail versus damage</h2>
 * A write interrupted by a crash leaves a file that ends inside a unit, every byte of which is a
 * correct prefix. Reading stops there and the {@link Result} says {@code torn}, with
 * {@code validUpTo} the offset just after the last complete unit (for a transaction without its
 * {@code EXEC}: the offset of its {@code MULTI}). A bulk length that reaches past the end of the file
 * counts as the file ending inside the record; nothing is allocated for it. Every other departure
 * from the format is damage, reported by an {@link AofFormatException} naming the file and the
 * offset of the first wrong byte, even when it sits in the last record: a crash cuts a file short,
 * it does not write wrong bytes. The exception also carries the start of the damaged unit.
 *
 * <h2>Memory</h2>
 * A record's argument array is sized by what the rest of the file can hold (every argument takes at
 * least 6 bytes), and a bulk is allocated only once its length has been checked against the file's
 * size, so a damaged count or length costs no huge allocation. A transaction is held in memory until
 * its {@code EXEC}.
 *
 * <p>The file's size is taken when reading starts; bytes appended afterwards are not read.
 */
public final class AofReader {
    /** The most arguments one command may have (Redis's limit for a multibulk from a client). */
    public static final int MAX_ARGS = 1_048_576;
    /** The longest bulk argument: 512 MB, Redis's default {@code proto-max-bulk-len}. */
    public static final long MAX_BULK = 512L * 1024 * 1024;
    /** The longest annotation line, {@code #} and line end included. */
    public static final int MAX_ANNOTATION = 1024;

    private static final byte[] RDB_MAGIC = "REDIS".getBytes(StandardCharsets.US_ASCII);
    /** {@code $0\r\n\r\n}: the smallest argument. */
    private static final int MIN_ARG_BYTES = 6;
    private static final int BUFFER = 1 << 16;

    private AofReader() {
    }

    /** One command as read, with the offset of its {@code *}. */
    public record Command(byte[][] args, long offset) {
    }

    /** Receives the units of a file in order. Arrays handed over belong to the sink. */
    public interface Sink {
        /**
         * One command outside a transaction; {@code startOffset} is the offset of its {@code *}.
         *
         * @param args the command and its arguments
         * @param startOffset the offset of its first byte
         * @throws IOException when the sink fails
         */
        void command(byte[][] args, long startOffset) throws IOException;

        /**
         * A complete transaction, exactly as in the file: {@code MULTI} first, {@code EXEC} last. By
         * default each of its commands goes to {@link #command} in order; a loader that applies a
         * transaction as one unit overrides this.
         *
         * @param block the transaction's commands, MULTI and EXEC included
         * @throws IOException when the sink fails
         */
        default void transaction(List<Command> block) throws IOException {
            for (Command c : block) {
                command(c.args(), c.offset());
            }
        }

        /**
         * An annotation line: its text after the {@code #}, without the line end, one character per
         * byte (ISO-8859-1). Ignored by default. One inside a transaction is delivered just before
         * the transaction.
         *
         * @param text the annotation
         * @param startOffset the offset of its {@code #}
         * @throws IOException when the sink fails
         */
        default void annotation(String text, long startOffset) throws IOException {
        }
    }

    /**
     * What a read found.
     *
     * @param validUpTo the offset just after the last complete unit: the file's size when it is not torn
     * @param torn      the file ends inside a unit (a record, an annotation line or a transaction)
     * @param commands  the commands delivered, those of transactions ({@code MULTI} and
     *                  {@code EXEC} included) counted one by one
     */
    public record Result(long validUpTo, boolean torn, long commands) {
    }

    /**
     * Reads the whole file.
     *
     * @param file the file to read
     * @param sink receives its units
     * @return how far the file is valid, and whether it is torn
     * @throws IOException when the file cannot be read, or ({@link AofFormatException}) is damaged
     */
    public static Result read(Path file, Sink sink) throws IOException {
        return read(file, 0, sink);
    }

    /**
     * Reads from {@code startOffset} to the end of the file: for a file whose first part is read by
     * something else (the RDB preamble of an old single-file AOF). Offsets stay those of the file.
     *
     * @param file the file to read
     * @param startOffset where the commands start
     * @param sink receives its units
     * @return how far the file is valid, and whether it is torn
     * @throws IOException when the file cannot be read, or ({@link AofFormatException}) is damaged
     */
    public static Result read(Path file, long startOffset, Sink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (startOffset < 0 || startOffset > size) {
                throw new IllegalArgumentException("start offset " + startOffset + " outside the file (" + size + " bytes)");
            }
            return new Parser(file, ch, size, startOffset, sink).run();
        }
    }

    /**
     * True when the file starts with {@code REDIS}: an RDB file (or RDB preamble), not commands.
     *
     * @param file the file to look at
     * @return whether it holds RDB data
     * @throws IOException when it cannot be read
     */
    public static boolean startsWithRdb(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(RDB_MAGIC.length);
            while (b.hasRemaining()) {
                if (ch.read(b) < 0) {
                    return false;
                }
            }
            return Arrays.equals(b.array(), RDB_MAGIC);
        }
    }

    /** The file ends inside the unit being read. Thrown without a stack trace; never escapes the parser. */
    private static final class Torn extends Exception {
        private static final long serialVersionUID = 1L;
        static final Torn INSTANCE = new Torn();

        private Torn() {
            super("torn", null, false, false);
        }
    }

    private record Note(String text, long offset) {
    }

    private static final class Parser {
        private final Path file;
        private final FileChannel ch;
        private final long size;
        private final Sink sink;
        private final ByteBuffer buf = ByteBuffer.allocate(BUFFER);
        /** The offset of the next byte {@link #next} returns. */
        private long pos;
        /** The offset just after the last complete unit. */
        private long validUpTo;
        private long commands;

        Parser(Path file, FileChannel ch, long size, long start, Sink sink) {
            this.file = file;
            this.ch = ch;
            this.size = size;
            this.sink = sink;
            this.pos = start;
            this.validUpTo = start;
            buf.limit(0);
        }

        Result run() throws IOException {
            List<Command> block = null;
            List<Note> blockNotes = null;
            try {
                while (pos < size) {
                    long at = pos;
                    int c = next();
                    if (c == '#') {
                        String note = annotation(at);
                        if (block == null) {
                            sink.annotation(note, at);
                            validUpTo = pos;
                        } else {
                            blockNotes.add(new Note(note, at));
                        }
                        continue;
                    }
                    if (c != '*') {
                        throw damage(at, "expected '*' at the start of a command, found " + describe(c) + rdbHint(at, c));
                    }
                    byte[][] args = record();
                    if (is(args, "MULTI")) {
                        if (block != null) {
                            throw damage(at, "MULTI inside the transaction begun at offset " + block.get(0).offset());
                        }
                        block = new ArrayList<>();
                        blockNotes = new ArrayList<>();
                        block.add(new Command(args, at));
                    } else if (is(args, "EXEC")) {
                        if (block == null) {
                            throw damage(at, "EXEC without MULTI");
                        }
                        block.add(new Command(args, at));
                        for (Note n : blockNotes) {
                            sink.annotation(n.text(), n.offset());
                        }
                        sink.transaction(block);
                        commands += block.size();
                        validUpTo = pos;
                        block = null;
                        blockNotes = null;
                    } else if (block != null) {
                        block.add(new Command(args, at));
                    } else {
                        sink.command(args, at);
                        commands++;
                        validUpTo = pos;
                    }
                }
            } catch (Torn t) {
                return new Result(validUpTo, true, commands);
            }
            // At the end: complete unless a transaction is still open.
            return new Result(validUpTo, block != null, commands);
        }

        /** An annotation line, its {@code #} already read. */
        private String annotation(long at) throws IOException, Torn {
            StringBuilder sb = new StringBuilder();
            while (true) {
                int c = next();
                if (c == '\n') {
                    int n = sb.length();
                    if (n > 0 && sb.charAt(n - 1) == '\r') {
                        sb.setLength(n - 1);
                    }
                    return sb.toString();
                }
                if (pos - at >= MAX_ANNOTATION) {
                    throw damage(pos - 1, "annotation line longer than " + MAX_ANNOTATION + " bytes");
                }
                sb.append((char) c);
            }
        }

        /** A command's arguments, its {@code *} already read. */
        private byte[][] record() throws IOException, Torn {
            long countAt = pos;
            long argc = number(MAX_ARGS, "argument count");
            if (argc < 1) {
                throw damage(countAt, "argument count 0: a command has at least one argument");
            }
            // Sized by what the file can still hold: a damaged count allocates nothing large.
            byte[][] args = new byte[(int) Math.min(argc, (size - pos) / MIN_ARG_BYTES)][];
            for (int i = 0; i < argc; i++) {
                long at = pos;
                int c = next();
                if (c != '$') {
                    throw damage(at, "expected '$' before argument " + (i + 1) + " of " + argc + ", found " + describe(c));
                }
                long len = number(MAX_BULK, "bulk length");
                long left = size - pos;
                if (len + 2 > left) {
                    // The record, as its length says, ends beyond the file: torn, unless the one byte
                    // that may follow the data is there and is not the '\r' that must follow it.
                    if (len + 1 == left && byteAt(pos + len) != '\r') {
                        throw damage(pos + len, "expected CRLF after argument " + (i + 1) + " of " + argc + " (" + len
                                + " bytes), found " + describe(byteAt(pos + len)));
                    }
                    throw Torn.INSTANCE;
                }
                byte[] data = new byte[(int) len];
                readFully(data);
                crlf("argument " + (i + 1) + " of " + argc + " (" + len + " bytes)");
                if (i == args.length) {
                    args = Arrays.copyOf(args, (int) Math.min(argc, 2L * i + 1));
                }
                args[i] = data;
            }
            return args;
        }

        /** A decimal number ending with CRLF, at most {@code max}. */
        private long number(long max, String what) throws IOException, Torn {
            long start = pos;
            int c = next();
            if (c < '0' || c > '9') {
                throw damage(start, "expected a digit for the " + what + ", found " + describe(c));
            }
            long v = c - '0';
            while (true) {
                c = next();
                if (c >= '0' && c <= '9') {
                    v = v * 10 + (c - '0');
                    if (v > max) {
                        throw damage(start, what + " exceeds the limit of " + max);
                    }
                } else if (c == '\r') {
                    int n = next();
                    if (n != '\n') {
                        throw damage(pos - 1, "expected '\\n' after '\\r' ending the " + what + ", found " + describe(n));
                    }
                    return v;
                } else {
                    throw damage(pos - 1, "expected a digit or CRLF in the " + what + ", found " + describe(c));
                }
            }
        }

        private void crlf(String after) throws IOException, Torn {
            int c = next();
            if (c != '\r') {
                throw damage(pos - 1, "expected CRLF after " + after + ", found " + describe(c));
            }
            c = next();
            if (c != '\n') {
                throw damage(pos - 1, "expected '\\n' after '\\r' following " + after + ", found " + describe(c));
            }
        }

        private int next() throws IOException, Torn {
            if (!buf.hasRemaining() && !fill()) {
                throw Torn.INSTANCE;
            }
            pos++;
            return buf.get() & 0xff;
        }

        /** Refills the buffer from {@link #pos}; false at the end of the file. */
        private boolean fill() throws IOException {
            long left = size - pos;
            if (left <= 0) {
                return false;
            }
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), left));
            while (buf.position() == 0) {
                if (ch.read(buf, pos) < 0) {
                    buf.flip();
                    return false; // the file shrank while being read
                }
            }
            buf.flip();
            return true;
        }

        private void readFully(byte[] dst) throws IOException, Torn {
            int off = Math.min(buf.remaining(), dst.length);
            buf.get(dst, 0, off);
            pos += off;
            if (off == dst.length) {
                return;
            }
            if (dst.length - off < BUFFER) {
                while (off < dst.length) {
                    if (!buf.hasRemaining() && !fill()) {
                        throw Torn.INSTANCE;
                    }
                    int n = Math.min(buf.remaining(), dst.length - off);
                    buf.get(dst, off, n);
                    off += n;
                    pos += n;
                }
                return;
            }
            // A large bulk: straight from the file into the array.
            ByteBuffer direct = ByteBuffer.wrap(dst, off, dst.length - off);
            while (direct.hasRemaining()) {
                int n = ch.read(direct, pos);
                if (n < 0) {
                    throw Torn.INSTANCE; // the file shrank while being read
                }
                pos += n;
            }
        }

        /** The byte at {@code offset}, read without moving the buffer. */
        private int byteAt(long offset) throws IOException {
            ByteBuffer one = ByteBuffer.allocate(1);
            while (one.hasRemaining()) {
                if (ch.read(one, offset) < 0) {
                    return -1;
                }
            }
            return one.get(0) & 0xff;
        }

        private AofFormatException damage(long offset, String reason) {
            return new AofFormatException(file, offset, reason, validUpTo);
        }

        private String rdbHint(long at, int c) throws IOException {
            if (at == 0 && c == 'R' && startsWithRdb(file)) {
                return " (the file starts with the RDB magic \"REDIS\": it is an RDB file or has an RDB preamble, read by the RDB reader)";
            }
            return "";
        }
    }

    private static boolean is(byte[][] args, String name) {
        byte[] a = args[0];
        if (a.length != name.length()) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            int c = a[i];
            if (c >= 'a' && c <= 'z') {
                c -= 32;
            }
            if (c != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static String describe(int c) {
        if (c >= 0x21 && c < 0x7f) {
            return "'" + (char) c + "'";
        }
        return String.format(Locale.ROOT, "0x%02x", c);
    }
}
