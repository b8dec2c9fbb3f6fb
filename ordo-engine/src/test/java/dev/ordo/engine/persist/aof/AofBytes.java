package dev.ordo.engine.persist.aof;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builds AOF content for tests, remembering where every unit starts and what the reader must deliver. */
final class AofBytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    /** Offsets where a unit starts, and finally the end: the only offsets a reader may report as validUpTo. */
    private final List<Long> boundaries = new ArrayList<>(List.of(0L));
    /** Every command with its offset, in file order. */
    private final List<Recorded> commands = new ArrayList<>();

    record Recorded(List<String> args, long offset) {
    }

    static byte[] resp(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return resp(b);
    }

    static byte[] resp(byte[]... args) {
        return dev.ordo.engine.differential.RespSocket.encode(args);
    }

    /** One command outside a transaction. */
    AofBytes command(String... args) {
        commands.add(new Recorded(List.of(args), out.size()));
        out.writeBytes(resp(args));
        boundaries.add((long) out.size());
        return this;
    }

    /** A complete MULTI ... EXEC block. */
    AofBytes transaction(List<List<String>> inner) {
        commands.add(new Recorded(List.of("MULTI"), out.size()));
        out.writeBytes(resp("MULTI"));
        for (List<String> c : inner) {
            commands.add(new Recorded(c, out.size()));
            out.writeBytes(resp(c.toArray(String[]::new)));
        }
        commands.add(new Recorded(List.of("EXEC"), out.size()));
        out.writeBytes(resp("EXEC"));
        boundaries.add((long) out.size());
        return this;
    }

    /** An annotation line such as {@code #TS:1700000000\r\n}. */
    AofBytes annotation(String text) {
        out.writeBytes(("#" + text + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        boundaries.add((long) out.size());
        return this;
    }

    /** Raw bytes, not counted as a unit. */
    AofBytes raw(byte[] bytes) {
        out.writeBytes(bytes);
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }

    int size() {
        return out.size();
    }

    List<Long> boundaries() {
        return boundaries;
    }

    List<Recorded> commands() {
        return commands;
    }

    /** The commands wholly before {@code offset}, which must be a boundary. */
    List<Recorded> commandsBefore(long offset) {
        return commands.stream().filter(c -> c.offset() < offset).toList();
    }

    /** The largest unit boundary at or below {@code cut}. */
    long boundaryAtOrBelow(long cut) {
        long best = 0;
        for (long b : boundaries) {
            if (b <= cut) {
                best = Math.max(best, b);
            }
        }
        return best;
    }

    Path write(Path file) throws IOException {
        return Files.write(file, bytes());
    }

    /** A sink that records everything it is handed, transactions flattened, for comparison with {@link #commands()}. */
    static final class Recording implements AofReader.Sink {
        final List<Recorded> commands = new ArrayList<>();
        final List<List<Recorded>> transactions = new ArrayList<>();
        final List<String> annotations = new ArrayList<>();
        final List<Long> annotationOffsets = new ArrayList<>();
        boolean flattenTransactions = true;

        @Override
        public void command(byte[][] args, long startOffset) {
            List<String> s = new ArrayList<>();
            for (byte[] a : args) {
                s.add(new String(a, StandardCharsets.ISO_8859_1));
            }
            commands.add(new Recorded(s, startOffset));
        }

        @Override
        public void transaction(List<AofReader.Command> block) throws IOException {
            int before = commands.size();
            AofReader.Sink.super.transaction(block);
            transactions.add(List.copyOf(commands.subList(before, commands.size())));
            if (!flattenTransactions) {
                commands.subList(before, commands.size()).clear();
            }
        }

        @Override
        public void annotation(String text, long startOffset) {
            annotations.add(text);
            annotationOffsets.add(startOffset);
        }
    }
}
