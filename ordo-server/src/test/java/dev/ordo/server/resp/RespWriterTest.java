package dev.ordo.server.resp;

import dev.ordo.engine.command.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** Every reply type in RESP2 and RESP3, byte for byte. */
class RespWriterTest {
    private final Session session = new Session(0, true);
    private final RespWriter writer = new RespWriter(UnpooledByteBufAllocator.DEFAULT, session);

    private String written() {
        ByteBuf b = writer.take();
        if (b == null) {
            return "";
        }
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    private String resp2(Consumer<RespWriter> reply) {
        session.setProtocol(2);
        reply.accept(writer);
        return written();
    }

    private String resp3(Consumer<RespWriter> reply) {
        session.setProtocol(3);
        reply.accept(writer);
        return written();
    }

    @Test
    void scalars() {
        assertThat(resp2(w -> w.simpleString("OK"))).isEqualTo("+OK\r\n");
        assertThat(resp2(w -> w.error("ERR bad"))).isEqualTo("-ERR bad\r\n");
        assertThat(resp2(w -> w.integer(0))).isEqualTo(":0\r\n");
        assertThat(resp2(w -> w.integer(-42))).isEqualTo(":-42\r\n");
        assertThat(resp2(w -> w.integer(Long.MIN_VALUE))).isEqualTo(":-9223372036854775808\r\n");
        assertThat(resp2(w -> w.integer(Long.MAX_VALUE))).isEqualTo(":9223372036854775807\r\n");
        assertThat(resp2(w -> w.bulk(new byte[] {'a', '\r', '\n'}))).isEqualTo("$3\r\na\r\n\r\n");
        assertThat(resp2(w -> w.bulk("xhey".getBytes(StandardCharsets.US_ASCII), 1, 2))).isEqualTo("$2\r\nhe\r\n");
    }

    @Test
    void bulkLengthsAroundTheShortValuePath_areWrittenInFull() {
        for (int len : new int[] {0, 1, 9, 10, 11, 99, 100, 101, 1000}) {
            String value = "v".repeat(len);
            assertThat(resp2(w -> w.bulk(value.getBytes(StandardCharsets.US_ASCII), 0, len)))
                    .isEqualTo("$" + len + "\r\n" + value + "\r\n");
        }
    }

    @Test
    void statusAndErrorTextsStayOnOneLine() {
        assertThat(resp2(w -> w.error("ERR a\r\nb"))).isEqualTo("-ERR a  b\r\n");
        assertThat(resp2(w -> w.simpleString("caf\u00e9\nx"))).isEqualTo("+caf\u00c3\u00a9 x\r\n");
        assertThat(resp2(w -> w.errorLatin1("ERR got '\u00ff'"))).isEqualTo("-ERR got '\u00ff'\r\n");
    }

    @Test
    void nullsDependOnProtocol() {
        assertThat(resp2(RespWriter::nullBulk)).isEqualTo("$-1\r\n");
        assertThat(resp2(RespWriter::nullArray)).isEqualTo("*-1\r\n");
        assertThat(resp3(RespWriter::nullBulk)).isEqualTo("_\r\n");
        assertThat(resp3(RespWriter::nullArray)).isEqualTo("_\r\n");
    }

    @Test
    void aggregatesDegradeToArraysInResp2() {
        assertThat(resp2(w -> w.arrayHeader(3))).isEqualTo("*3\r\n");
        assertThat(resp2(w -> w.mapHeader(2))).isEqualTo("*4\r\n");
        assertThat(resp2(w -> w.setHeader(2))).isEqualTo("*2\r\n");
        assertThat(resp2(w -> w.pushHeader(3))).isEqualTo("*3\r\n");
        assertThat(resp3(w -> w.arrayHeader(3))).isEqualTo("*3\r\n");
        assertThat(resp3(w -> w.mapHeader(2))).isEqualTo("%2\r\n");
        assertThat(resp3(w -> w.setHeader(2))).isEqualTo("~2\r\n");
        assertThat(resp3(w -> w.pushHeader(3))).isEqualTo(">3\r\n");
    }

    @Test
    void doublesAreBulkStringsInResp2() {
        assertThat(resp2(w -> w.doubleValue(1.5))).isEqualTo("$3\r\n1.5\r\n");
        assertThat(resp2(w -> w.doubleValue(3.0))).isEqualTo("$1\r\n3\r\n");
        assertThat(resp2(w -> w.doubleValue(Double.NEGATIVE_INFINITY))).isEqualTo("$4\r\n-inf\r\n");
        assertThat(resp3(w -> w.doubleValue(1.5))).isEqualTo(",1.5\r\n");
        assertThat(resp3(w -> w.doubleValue(Double.POSITIVE_INFINITY))).isEqualTo(",inf\r\n");
        assertThat(resp3(w -> w.doubleValue(0.1))).isEqualTo(",0.1\r\n");
    }

    @Test
    void booleansAreIntegersInResp2() {
        assertThat(resp2(w -> w.bool(true))).isEqualTo(":1\r\n");
        assertThat(resp2(w -> w.bool(false))).isEqualTo(":0\r\n");
        assertThat(resp3(w -> w.bool(true))).isEqualTo("#t\r\n");
        assertThat(resp3(w -> w.bool(false))).isEqualTo("#f\r\n");
    }

    @Test
    void verbatimStringsAreBulkStringsInResp2() {
        byte[] text = "hello".getBytes(StandardCharsets.US_ASCII);
        assertThat(resp2(w -> w.verbatim("txt", text))).isEqualTo("$5\r\nhello\r\n");
        assertThat(resp3(w -> w.verbatim("txt", text))).isEqualTo("=9\r\ntxt:hello\r\n");
    }

    @Test
    void verbatimFormatIsAlwaysThreeBytes_cutOrPaddedWithSpaces() {
        byte[] text = "hi".getBytes(StandardCharsets.US_ASCII);
        assertThat(resp3(w -> w.verbatim("markdown", text))).isEqualTo("=6\r\nmar:hi\r\n");
        assertThat(resp3(w -> w.verbatim("ab", text))).isEqualTo("=6\r\nab :hi\r\n");
        assertThat(resp3(w -> w.verbatim("", new byte[0]))).isEqualTo("=4\r\n   :\r\n");
    }

    @Test
    void truncateDropsEverythingAfterTheMark() {
        writer.integer(1);
        int mark = writer.size();
        writer.arrayHeader(2);
        writer.integer(2);
        writer.truncate(mark);
        writer.integer(3);
        assertThat(written()).isEqualTo(":1\r\n:3\r\n");
    }

    @Test
    void takeBeforeKeepsTheTailForLater() {
        writer.integer(1);
        int mark = writer.size();
        writer.integer(2);
        ByteBuf before = writer.takeBefore(mark);
        assertThat(before.toString(StandardCharsets.US_ASCII)).isEqualTo(":1\r\n");
        before.release();
        writer.integer(3);
        assertThat(written()).isEqualTo(":2\r\n:3\r\n");
        assertThat(writer.takeBefore(0)).isNull();
    }

    @Test
    void nothingWrittenTakesNothing() {
        assertThat(writer.take()).isNull();
        writer.integer(1);
        writer.truncate(0);
        assertThat(writer.take()).isNull();
    }

    @Test
    void largeRepliesSpillPastTheStageAndStayInOrder() {
        byte[] big = new byte[RespWriter.DIRECT_WRITE + 1];
        java.util.Arrays.fill(big, (byte) 'x');
        StringBuilder expected = new StringBuilder(":1\r\n$" + big.length + "\r\n" + "x".repeat(big.length) + "\r\n");
        writer.integer(1);
        writer.bulk(big);
        for (int i = 0; i < RespWriter.STAGE_LIMIT / 4; i++) {
            writer.integer(i % 100);
            expected.append(':').append(i % 100).append("\r\n");
        }
        assertThat(writer.size()).isEqualTo(expected.length());
        assertThat(written()).isEqualTo(expected.toString());
    }

    /** Random writes, truncations and partial takes, checked against a plain string model. */
    @Test
    void matchesAModelAcrossStageSpillAndTakes() {
        java.util.Random random = new java.util.Random(20261202L);
        for (int round = 0; round < 200; round++) {
            StringBuilder model = new StringBuilder();
            StringBuilder taken = new StringBuilder();
            StringBuilder expected = new StringBuilder();
            java.util.List<Integer> marks = new java.util.ArrayList<>();
            for (int step = 0; step < 60; step++) {
                int choice = random.nextInt(10);
                if (choice < 6) {
                    int len = random.nextInt(10) == 0 ? random.nextInt(3 * RespWriter.DIRECT_WRITE) : random.nextInt(40);
                    byte[] value = new byte[len];
                    java.util.Arrays.fill(value, (byte) ('a' + random.nextInt(26)));
                    writer.bulk(value);
                    model.append('$').append(len).append("\r\n").append(new String(value, StandardCharsets.ISO_8859_1)).append("\r\n");
                    marks.add(model.length());
                } else if (choice < 8 && !marks.isEmpty()) {
                    int mark = marks.get(random.nextInt(marks.size()));
                    writer.truncate(mark);
                    model.setLength(mark);
                    marks.removeIf(m -> m > mark);
                } else if (choice < 9 && !marks.isEmpty()) {
                    int mark = marks.get(random.nextInt(marks.size()));
                    ByteBuf before = writer.takeBefore(mark);
                    taken.append(before.toString(StandardCharsets.ISO_8859_1));
                    before.release();
                    expected.append(model, 0, mark);
                    model.delete(0, mark);
                    marks.replaceAll(m -> m - mark);
                    marks.removeIf(m -> m <= 0);
                } else {
                    taken.append(written());
                    expected.append(model);
                    model.setLength(0);
                    marks.clear();
                }
                assertThat(writer.size()).isEqualTo(model.length());
            }
            taken.append(written());
            expected.append(model);
            assertThat(taken.toString()).isEqualTo(expected.toString());
        }
    }
}
