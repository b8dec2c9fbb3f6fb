package dev.ordo.engine.persist.aof;

import dev.ordo.engine.persist.aof.AofBytes.Recorded;
import dev.ordo.engine.persist.aof.AofBytes.Recording;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Commands and offsets, torn tails at every byte, damage at every framing byte, annotations, limits. */
class AofReaderTest {
    @TempDir
    Path tmp;

    private static List<List<String>> list(String... commandsSeparatedBySpaces) {
        return Arrays.stream(commandsSeparatedBySpaces).map(c -> List.of(c.split(" "))).toList();
    }

    private AofReader.Result read(Path file, Recording sink) throws IOException {
        return AofReader.read(file, sink);
    }

    private Path write(byte[] bytes) throws IOException {
        return Files.write(tmp.resolve("t.aof"), bytes);
    }

    @Test
    void everyCommandWithItsOffset() throws IOException {
        AofBytes f = new AofBytes().command("SELECT", "0").command("ZADD", "k", "1", "a b\r\nc")
                .command("SET", "", "\0\u00ff\r").command("PING");
        Recording sink = new Recording();
        AofReader.Result r = read(f.write(tmp.resolve("a.aof")), sink);
        assertThat(r).isEqualTo(new AofReader.Result(f.size(), false, 4));
        assertThat(sink.commands).isEqualTo(f.commands());
        assertThat(sink.commands.get(1).offset()).isEqualTo(AofBytes.resp("SELECT", "0").length);
    }

    @Test
    void anEmptyFileIsValidAndEmpty() throws IOException {
        assertThat(read(write(new byte[0]), new Recording())).isEqualTo(new AofReader.Result(0, false, 0));
    }

    @Test
    void bulksLargerThanTheBufferAndAcrossItsEdge() throws IOException {
        String big = "x".repeat(300_000);
        String mid = "y".repeat(65_530);
        AofBytes f = new AofBytes().command("SET", "a", mid).command("SET", "b", big).command("SET", "c", mid);
        Recording sink = new Recording();
        assertThat(read(f.write(tmp.resolve("big.aof")), sink).torn()).isFalse();
        assertThat(sink.commands).isEqualTo(f.commands());
    }

    @Test
    void transactionsAreDeliveredWholeAfterTheirExec() throws IOException {
        AofBytes f = new AofBytes().command("SET", "a", "1").transaction(list("INCR a", "ZADD z 1 m")).command("GET", "a");
        Recording sink = new Recording();
        AofReader.Result r = read(f.write(tmp.resolve("m.aof")), sink);
        assertThat(r).isEqualTo(new AofReader.Result(f.size(), false, 6));
        assertThat(sink.commands).isEqualTo(f.commands());
        assertThat(sink.transactions).hasSize(1);
        assertThat(sink.transactions.get(0)).extracting(c -> c.args().get(0)).containsExactly("MULTI", "INCR", "ZADD", "EXEC");
    }

    @Test
    void tornAtEveryByteOfTheLastRecord() throws IOException {
        AofBytes f = new AofBytes().command("SET", "a", "1").command("ZADD", "z", "1.5", "member");
        int lastStart = AofBytes.resp("SET", "a", "1").length;
        byte[] all = f.bytes();
        for (int cut = lastStart; cut <= all.length; cut++) {
            Recording sink = new Recording();
            AofReader.Result r = read(write(Arrays.copyOf(all, cut)), sink);
            if (cut == lastStart || cut == all.length) {
                assertThat(r.torn()).as("cut at %d", cut).isFalse();
                assertThat(r.validUpTo()).isEqualTo(cut);
            } else {
                assertThat(r).as("cut at %d", cut).isEqualTo(new AofReader.Result(lastStart, true, 1));
                assertThat(sink.commands).isEqualTo(f.commandsBefore(lastStart));
            }
        }
    }

    @Test
    void tornAtEveryByteOfATrailingTransaction() throws IOException {
        AofBytes f = new AofBytes().command("SET", "a", "1").annotation("TS:1700000000")
                .transaction(list("INCR a", "SET b 2"));
        long blockStart = f.boundaries().get(2);
        byte[] all = f.bytes();
        for (int cut = (int) blockStart + 1; cut < all.length; cut++) {
            Recording sink = new Recording();
            AofReader.Result r = read(write(Arrays.copyOf(all, cut)), sink);
            assertThat(r).as("cut at %d", cut).isEqualTo(new AofReader.Result(blockStart, true, 1));
            assertThat(sink.commands).isEqualTo(f.commandsBefore(blockStart));
            assertThat(sink.transactions).isEmpty();
        }
    }

    @Test
    void damageAtEveryFramingByteBeforeTheTailNamesFileAndOffset() throws IOException {
        byte[] first = AofBytes.resp("SET", "key", "v");
        byte[] second = AofBytes.resp("INCR", "counter");
        byte[] last = AofBytes.resp("PING");
        byte[] all = new AofBytes().raw(first).raw(second).raw(last).bytes();
        int checked = 0;
        for (int at = 0; at < first.length + second.length; at++) {
            if (isContent(all, at)) {
                continue;
            }
            byte[] bad = all.clone();
            bad[at] = 'X';
            Path file = write(bad);
            long recordStart = at < first.length ? 0 : first.length;
            int offset = at;
            assertThatThrownBy(() -> read(file, new Recording()))
                    .as("damage at %d", at)
                    .isInstanceOfSatisfying(AofFormatException.class, e -> {
                        assertThat(e.file()).isEqualTo(file);
                        assertThat(e.offset()).isEqualTo(offset);
                        assertThat(e.validUpTo()).isEqualTo(recordStart);
                        assertThat(e.getMessage()).contains(file.toString()).contains("offset " + offset);
                    });
            checked++;
        }
        assertThat(checked).isGreaterThan(30);
    }

    /** True when byte {@code at} of well-formed content lies inside a bulk's data. */
    private static boolean isContent(byte[] b, int at) {
        int i = 0;
        while (i < b.length) {
            int argc = 0;
            i++; // '*'
            while (b[i] != '\r') {
                argc = argc * 10 + (b[i++] - '0');
            }
            i += 2;
            for (int a = 0; a < argc; a++) {
                i++; // '$'
                int len = 0;
                while (b[i] != '\r') {
                    len = len * 10 + (b[i++] - '0');
                }
                i += 2;
                if (at >= i && at < i + len) {
                    return true;
                }
                i += len + 2;
            }
        }
        return false;
    }

    @Test
    void aWrongByteInTheLastRecordIsDamageNotATornTail() throws IOException {
        byte[] good = AofBytes.resp("SET", "a", "1");
        byte[] tail = "*3\r\n$3\r\nSETxx".getBytes(StandardCharsets.US_ASCII);
        Path file = write(new AofBytes().raw(good).raw(tail).bytes());
        assertThatThrownBy(() -> read(file, new Recording())).isInstanceOfSatisfying(AofFormatException.class, e -> {
            assertThat(e.offset()).isEqualTo(good.length + 11);
            assertThat(e.validUpTo()).isEqualTo(good.length);
            assertThat(e.reason()).contains("expected CRLF");
        });
        // Zeros where a record should start (a crash after the file grew, before its data landed) are damage too.
        // One byte after the data, where the '\r' belongs, is enough to tell damage from a torn tail.
        Path oneByteAfter = write(new AofBytes().raw(good).raw("*3\r\n$3\r\nSETx".getBytes(StandardCharsets.US_ASCII)).bytes());
        assertThatThrownBy(() -> read(oneByteAfter, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.offset()).isEqualTo(good.length + 11));
        Path zeros = write(new AofBytes().raw(good).raw(new byte[100]).bytes());
        assertThatThrownBy(() -> read(zeros, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.reason()).contains("expected '*'").contains("0x00"));
    }

    @Test
    void transactionStructureIsChecked() throws IOException {
        Path nested = write(new AofBytes().command("MULTI").command("SET", "a", "1").command("MULTI").command("EXEC").bytes());
        long secondMulti = AofBytes.resp("MULTI").length + AofBytes.resp("SET", "a", "1").length;
        assertThatThrownBy(() -> read(nested, new Recording())).isInstanceOfSatisfying(AofFormatException.class, e -> {
            assertThat(e.offset()).isEqualTo(secondMulti);
            assertThat(e.validUpTo()).isZero();
            assertThat(e.reason()).contains("MULTI inside the transaction begun at offset 0");
        });
        Path lonelyExec = write(new AofBytes().command("SET", "a", "1").command("exec").bytes());
        assertThatThrownBy(() -> read(lonelyExec, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.reason()).contains("EXEC without MULTI"));
        // Lower case MULTI/exec, and an empty transaction, are fine.
        Path lower = write(new AofBytes().command("multi").command("exec").command("multi").command("set", "a", "b").command("Exec").bytes());
        Recording sink = new Recording();
        assertThat(read(lower, sink)).isEqualTo(new AofReader.Result(Files.size(lower), false, 5));
        assertThat(sink.transactions).hasSize(2);
    }

    @Test
    void annotationsAreSkippedAndReportedWithTheirOffsets() throws IOException {
        AofBytes f = new AofBytes().annotation("TS:1700000000").command("SET", "a", "1").annotation("TS:1700000001")
                .transaction(list("INCR a")).command("GET", "a");
        byte[] withInnerNote = f.bytes();
        Recording sink = new Recording();
        AofReader.Result r = read(write(withInnerNote), sink);
        assertThat(r).isEqualTo(new AofReader.Result(f.size(), false, 5));
        assertThat(sink.commands).isEqualTo(f.commands());
        assertThat(sink.annotations).containsExactly("TS:1700000000", "TS:1700000001");
        assertThat(sink.annotationOffsets).containsExactly(0L, f.boundaries().get(2));

        // One inside a transaction comes just before the transaction; a bare \n ending is accepted.
        byte[] inner = new AofBytes().command("MULTI").raw("#note\n".getBytes(StandardCharsets.US_ASCII))
                .command("INCR", "a").command("EXEC").bytes();
        Recording s2 = new Recording();
        assertThat(read(write(inner), s2).torn()).isFalse();
        assertThat(s2.annotations).containsExactly("note");
        assertThat(s2.commands).extracting(c -> c.args().get(0)).containsExactly("MULTI", "INCR", "EXEC");
    }

    @Test
    void aTornAnnotationIsATornTailAndAnEndlessOneIsDamage() throws IOException {
        byte[] good = AofBytes.resp("SET", "a", "1");
        AofReader.Result r = read(write(new AofBytes().raw(good).raw("#TS:17".getBytes(StandardCharsets.US_ASCII)).bytes()), new Recording());
        assertThat(r).isEqualTo(new AofReader.Result(good.length, true, 1));

        byte[] endless = ("#" + "x".repeat(AofReader.MAX_ANNOTATION + 10) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        Path file = write(new AofBytes().raw(good).raw(endless).bytes());
        assertThatThrownBy(() -> read(file, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.reason()).contains("annotation line longer than " + AofReader.MAX_ANNOTATION));
        // The longest allowed line, line end included.
        byte[] longest = ("#" + "y".repeat(AofReader.MAX_ANNOTATION - 3) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        assertThat(read(write(longest), new Recording())).isEqualTo(new AofReader.Result(AofReader.MAX_ANNOTATION, false, 0));
    }

    @Test
    void countsAndLengthsOutsideTheLimitsAreDamage() throws IOException {
        byte[] good = AofBytes.resp("PING");
        for (String bad : List.of("*1048577\r\n", "*0\r\n", "*-1\r\n", "*1\r\n$536870913\r\n", "*1\r\n$-1\r\n",
                "*99999999999999999999999\r\n", "*1\r\n$1 \r\nx\r\n", "*1\n$1\r\nx\r\n")) {
            byte[] content = new AofBytes().raw(good).raw(bad.getBytes(StandardCharsets.US_ASCII)).raw(good).bytes();
            Path file = write(content);
            assertThatThrownBy(() -> read(file, new Recording())).as(bad).isInstanceOfSatisfying(AofFormatException.class, e -> {
                assertThat(e.offset()).isGreaterThan(good.length);
                assertThat(e.validUpTo()).isEqualTo(good.length);
            });
        }
        // At the limits themselves: a count of 1048576 in a file far too short is only torn.
        Path atLimit = write(new AofBytes().raw(good).raw("*1048576\r\n$1\r\nx\r\n".getBytes(StandardCharsets.US_ASCII)).bytes());
        assertThat(read(atLimit, new Recording())).isEqualTo(new AofReader.Result(good.length, true, 1));
        // A damaged count followed by more records is caught where the next '*' stands in for a '$'.
        Path overCount = write(new AofBytes().raw("*5\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII)).raw(good).raw(good).bytes());
        assertThatThrownBy(() -> read(overCount, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.reason()).contains("expected '$' before argument 2 of 5, found '*'"));
    }

    @Test
    void absurdLengthsAllocateNothingLarge() throws IOException {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (String absurd : List.of("*1\r\n$536870912\r\nabc", "*1048576\r\n$3\r\nabc\r\n$3\r\nab",
                "*1048576\r\n" + "$0\r\n\r\n".repeat(1000))) {
            Path file = write(absurd.getBytes(StandardCharsets.US_ASCII));
            read(file, new Recording()); // warm up: class loading and the like
            long before = mx.getCurrentThreadAllocatedBytes();
            AofReader.Result r = read(file, new Recording());
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            assertThat(r).isEqualTo(new AofReader.Result(0, true, 0));
            assertThat(allocated).as("bytes allocated reading %s...", absurd.substring(0, 12)).isLessThan(1 << 20);
        }
    }

    @Test
    void readingFromAnOffsetKeepsTheFilesOffsets() throws IOException {
        byte[] prefix = "REDIS0010 pretend this is an RDB preamble".getBytes(StandardCharsets.US_ASCII);
        AofBytes tail = new AofBytes().command("SET", "a", "1").command("GET", "a");
        Path file = write(new AofBytes().raw(prefix).raw(tail.bytes()).bytes());
        Recording sink = new Recording();
        AofReader.Result r = AofReader.read(file, prefix.length, sink);
        assertThat(r).isEqualTo(new AofReader.Result(prefix.length + tail.size(), false, 2));
        assertThat(sink.commands).extracting(Recorded::offset).containsExactly((long) prefix.length,
                (long) prefix.length + AofBytes.resp("SET", "a", "1").length);
    }

    @Test
    void rdbFilesAreRecognisedNotParsed() throws IOException {
        Path rdb = Files.write(tmp.resolve("x.base.rdb"), "REDIS0010\u00fa\u0009redis-ver".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(AofReader.startsWithRdb(rdb)).isTrue();
        assertThatThrownBy(() -> read(rdb, new Recording())).isInstanceOfSatisfying(AofFormatException.class,
                e -> assertThat(e.reason()).contains("RDB"));
        assertThat(AofReader.startsWithRdb(write(AofBytes.resp("PING")))).isFalse();
        assertThat(AofReader.startsWithRdb(write("RED".getBytes(StandardCharsets.US_ASCII)))).isFalse();
    }

    // ------------------------------------------------------------------------------------------
    // Properties: any mix of units reads back exactly, and any cut is a torn tail at the last boundary.

    sealed interface Unit permits Cmd, Tx, Note {
    }

    record Cmd(List<String> args) implements Unit {
    }

    record Tx(List<List<String>> inner) implements Unit {
    }

    record Note(String text) implements Unit {
    }

    @Provide
    Arbitrary<List<Unit>> units() {
        Arbitrary<String> arg = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, Arbitraries.strings().withCharRange((char) 0, (char) 255).ofMaxLength(12)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(60_000, 70_000).map(n -> "0123456789abcdefghijklmnopqrstuvwxyz".repeat(n / 36 + 1).substring(0, n))));
        Arbitrary<List<String>> command = Arbitraries.strings().withCharRange('A', 'Z').ofMinLength(1).ofMaxLength(6)
                .filter(s -> !s.equals("MULTI") && !s.equals("EXEC"))
                .flatMap(name -> arg.list().ofMaxSize(4).map(rest -> {
                    List<String> c = new ArrayList<>();
                    c.add(name);
                    c.addAll(rest);
                    return c;
                }));
        Arbitrary<Unit> unit = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, command.map(Cmd::new)),
                net.jqwik.api.Tuple.of(2, command.list().ofMaxSize(4).map(Tx::new)),
                net.jqwik.api.Tuple.of(1, Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(40).map(Note::new)));
        return unit.list().ofMaxSize(12);
    }

    private static AofBytes build(List<Unit> units) {
        AofBytes f = new AofBytes();
        for (Unit u : units) {
            if (u instanceof Cmd c) {
                f.command(c.args().toArray(String[]::new));
            } else if (u instanceof Tx t) {
                f.transaction(t.inner());
            } else if (u instanceof Note n) {
                f.annotation(n.text());
            }
        }
        return f;
    }

    @Property(tries = 150)
    void anyFileReadsBackAndAnyCutIsATornTailAtTheLastBoundary(@ForAll("units") List<Unit> units,
                                                              @ForAll @IntRange(min = 0, max = 1000) int cutPerMille) throws IOException {
        AofBytes f = build(units);
        Path file = Files.createTempFile("ordo-aof-property", ".aof"); // jqwik has no @TempDir
        try {
            checkReadBackAndCut(f, file, cutPerMille);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void checkReadBackAndCut(AofBytes f, Path file, int cutPerMille) throws IOException {
        f.write(file);
        Recording all = new Recording();
        assertThat(AofReader.read(file, all)).isEqualTo(new AofReader.Result(f.size(), false, f.commands().size()));
        assertThat(all.commands).isEqualTo(f.commands());

        int cut = (int) ((long) f.size() * cutPerMille / 1000);
        Files.write(file, Arrays.copyOf(f.bytes(), cut));
        Recording part = new Recording();
        AofReader.Result r = AofReader.read(file, part);
        long boundary = f.boundaryAtOrBelow(cut);
        assertThat(r.validUpTo()).isEqualTo(boundary);
        assertThat(r.torn()).isEqualTo(boundary != cut);
        assertThat(part.commands).isEqualTo(f.commandsBefore(boundary));
        assertThat(r.commands()).isEqualTo(part.commands.size());
    }
}
