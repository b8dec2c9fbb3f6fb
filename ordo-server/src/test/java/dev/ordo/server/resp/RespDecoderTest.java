package dev.ordo.server.resp;

import dev.ordo.engine.memory.Footprint;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decoder alone, on an embedded channel: framing, splitting, limits and errors. Expected
 * texts and behaviours were taken from redis-server 7.0 with the same bytes.
 */
class RespDecoderTest {
    /** Limits a test can change. */
    private static final class TestLimits implements RespDecoder.Limits {
        boolean authRequired;
        long maxBulkLength = 512L * 1024 * 1024;
        long queryBufferLimit = 1024L * 1024 * 1024;

        @Override
        public boolean authRequired() {
            return authRequired;
        }

        @Override
        public long maxBulkLength() {
            return maxBulkLength;
        }

        @Override
        public long queryBufferLimit() {
            return queryBufferLimit;
        }
    }

    private final TestLimits limits = new TestLimits();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Feeds each chunk as one read and returns what came out, commands as lists of strings. */
    private List<Object> decode(byte[]... chunks) {
        EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(limits));
        List<Object> out = new ArrayList<>();
        for (byte[] chunk : chunks) {
            ch.writeInbound(Unpooled.wrappedBuffer(chunk));
            drain(ch, out);
        }
        ch.finish();
        drain(ch, out);
        return out;
    }

    private static void drain(EmbeddedChannel ch, List<Object> out) {
        Object msg;
        while ((msg = ch.readInbound()) != null) {
            if (msg instanceof byte[][] args) {
                out.add(Arrays.stream(args).map(a -> new String(a, StandardCharsets.ISO_8859_1)).toList());
            } else {
                out.add(msg);
            }
        }
    }

    private List<Object> decode(String input) {
        return decode(b(input));
    }

    @Test
    void decodesMultibulkAndInlineCommands() {
        assertThat(decode("*2\r\n$4\r\nECHO\r\n$2\r\nhi\r\nPING\r\necho \"a b\"\n"))
                .containsExactly(List.of("ECHO", "hi"), List.of("PING"), List.of("echo", "a b"));
    }

    @Test
    void ignoresNullCommandsAndEmptyLines() {
        assertThat(decode("*0\r\n*-1\r\n  \r\n\r\n\n*1\r\n$4\r\nPING\r\n")).containsExactly(List.of("PING"));
        assertThat(decode("*-9223372036854775808\r\nPING\r\n")).containsExactly(List.of("PING"));
    }

    @Test
    void bodiesMayHoldAnyByte() {
        assertThat(decode("*2\r\n$4\r\nECHO\r\n$6\r\n\r\n\u0000*$\n\r\n")).containsExactly(List.of("ECHO", "\r\n\u0000*$\n"));
        assertThat(decode("*2\r\n$4\r\nECHO\r\n$0\r\n\r\n")).containsExactly(List.of("ECHO", ""));
    }

    @Test
    void bytesAfterLineEndsAndBodiesAreSkippedUnchecked() {
        assertThat(decode("*1\rx$4\r\nPINGxx*1\r\n$4\r\nPING\r\n")).containsExactly(List.of("PING"), List.of("PING"));
    }

    private static final String STREAM = "*3\r\n$4\r\nECHO\r\n$5\r\na\r\nbc\r\n$0\r\n\r\n"
            + "SET 'k 1' \"v\\x41\\n\"\r\n"
            + "*0\r\n\r\n*-1\r\n"
            + "*1\r\n$4\r\nPING\r\n";

    private static final List<Object> STREAM_COMMANDS = List.of(
            List.of("ECHO", "a\r\nbc", ""), List.of("SET", "k 1", "vA\n"), List.of("PING"));

    @Test
    void framesSplitAtAnySingleBoundaryDecodeTheSame() {
        byte[] all = b(STREAM);
        for (int i = 0; i <= all.length; i++) {
            assertThat(decode(Arrays.copyOfRange(all, 0, i), Arrays.copyOfRange(all, i, all.length)))
                    .as("split at %d", i).isEqualTo(STREAM_COMMANDS);
        }
    }

    @Test
    void framesArrivingOneByteAtATimeDecodeTheSame() {
        byte[] all = b(STREAM);
        byte[][] bytes = new byte[all.length][];
        for (int i = 0; i < all.length; i++) {
            bytes[i] = new byte[] {all[i]};
        }
        assertThat(decode(bytes)).isEqualTo(STREAM_COMMANDS);
    }

    @Test
    void pipelinedCommandsComeOutInOrder() {
        StringBuilder in = new StringBuilder();
        List<Object> expected = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String n = String.valueOf(i);
            in.append(i % 2 == 0 ? "*2\r\n$4\r\nECHO\r\n$" + n.length() + "\r\n" + n + "\r\n" : "ECHO " + n + "\r\n");
            expected.add(List.of("ECHO", n));
        }
        assertThat(decode(in.toString())).isEqualTo(expected);
    }

    @Test
    void manyArgumentsGrowTheArrayToTheExactCount() {
        StringBuilder in = new StringBuilder("*3000\r\n");
        for (int i = 0; i < 3000; i++) {
            in.append("$1\r\nx\r\n");
        }
        List<Object> out = decode(in.toString());
        assertThat(out).hasSize(1);
        assertThat((List<?>) out.get(0)).hasSize(3000);
    }

    static List<Arguments> malformed() {
        return List.of(
                Arguments.of("*abc\r\n", "invalid multibulk length"),
                Arguments.of("*2147483648\r\n", "invalid multibulk length"),
                Arguments.of("*+1\r\n", "invalid multibulk length"),
                Arguments.of("*01\r\n", "invalid multibulk length"),
                Arguments.of("*\r\n", "invalid multibulk length"),
                Arguments.of("*1\r\n$-1\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$-0\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$abc\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$04\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$536870913\r\n", "invalid bulk length"),
                Arguments.of("*1\r\nX\r\n", "expected '$', got 'X'"),
                Arguments.of("*1\r\n\r\n", "expected '$', got ' '"),
                Arguments.of("echo \"abc\r\n", "unbalanced quotes in request"),
                Arguments.of("echo \"abc\"d\r\n", "unbalanced quotes in request"),
                Arguments.of("echo 'abc\r\n", "unbalanced quotes in request"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedInputGetsRedisProtocolError(String input, String error) {
        assertThat(decode(input + "PING\r\n")).containsExactly(ProtocolError.answered(error));
    }

    @Test
    void commandsBeforeAnErrorStillCome() {
        assertThat(decode("PING\r\n*1\r\n$x\r\nPING\r\n"))
                .containsExactly(List.of("PING"), ProtocolError.answered("invalid bulk length"));
    }

    @Test
    void nothingIsDecodedAfterAnError() {
        assertThat(decode(b("*1\r\nX\r\n"), b("*1\r\n$4\r\nPING\r\n"), b("PING\r\n")))
                .containsExactly(ProtocolError.answered("expected '$', got 'X'"));
    }

    @Test
    void theLargestMultibulkCountWaitsForItsArguments() {
        assertThat(decode("*2147483647\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n")).isEmpty();
        assertThat(decode("*1073741825\r\n")).isEmpty();
    }

    @Test
    void linesOver64KiBWithoutEndAreRejected() {
        byte[] digits = new byte[RespDecoder.MAX_LINE + 1];
        Arrays.fill(digits, (byte) '1');
        assertThat(decode(concat(b("*"), digits))).containsExactly(ProtocolError.answered("too big mbulk count string"));
        assertThat(decode(concat(b("*1\r\n$"), digits))).containsExactly(ProtocolError.answered("too big bulk count string"));
        assertThat(decode(digits)).containsExactly(ProtocolError.answered("too big inline request"));
    }

    @Test
    void linesJustUnder64KiBAreStillParsed() {
        byte[] ones = new byte[RespDecoder.MAX_LINE - 2];
        Arrays.fill(ones, (byte) '1');
        assertThat(decode(concat(b("*"), ones, b("\r\n")))).containsExactly(ProtocolError.answered("invalid multibulk length"));
        byte[] noLineEnd = new byte[RespDecoder.MAX_LINE];
        Arrays.fill(noLineEnd, (byte) 'x');
        assertThat(decode(noLineEnd)).isEmpty();
    }

    @Test
    void aNulByteHidesTheLineEnd() {
        assertThat(decode("PING\u0000\r\nPING\r\n")).isEmpty();
        assertThat(decode("*1\u0000\r\n$4\r\nPING\r\n")).isEmpty();
        assertThat(decode("*1\r\n$4\u0000\r\nPING\r\n")).isEmpty();
    }

    @Test
    void unauthenticatedClientsGetSmallLimits() {
        limits.authRequired = true;
        assertThat(decode("*10\r\n")).isEmpty();
        assertThat(decode("*11\r\n")).containsExactly(ProtocolError.answered("unauthenticated multibulk length"));
        assertThat(decode("*1\r\n$16384\r\n")).isEmpty();
        assertThat(decode("*1\r\n$16385\r\n")).containsExactly(ProtocolError.answered("unauthenticated bulk length"));
        assertThat(decode("a b c d e f g h i j k l m\r\n")).hasSize(1);
    }

    @Test
    void bulkLengthLimitIsProtoMaxBulkLen() {
        limits.maxBulkLength = 10;
        assertThat(decode("*1\r\n$10\r\n0123456789\r\n")).containsExactly(List.of("0123456789"));
        assertThat(decode("*1\r\n$11\r\n")).containsExactly(ProtocolError.answered("invalid bulk length"));
    }

    @Test
    void pendingCommandOverTheQueryBufferLimitClosesSilently() {
        // What ECHO's pending command holds besides the unparsed body: the argument array and "ECHO".
        long argv = Footprint.referenceArray(2) + Footprint.array(4);
        limits.queryBufferLimit = 100 + argv;
        byte[] body = new byte[101];
        Arrays.fill(body, (byte) 'x');
        assertThat(decode(b("*2\r\n$4\r\nECHO\r\n$200\r\n"), body)).containsExactly(ProtocolError.silent("query buffer limit reached"));
        assertThat(decode(b("*2\r\n$4\r\nECHO\r\n$200\r\n"), Arrays.copyOf(body, 100))).isEmpty();
    }

    /**
     * Decoded arguments count toward the limit with their memory, not only their bytes on the
     * wire: millions of empty arguments (6 bytes each on the wire, a reference each in memory)
     * stop at the limit instead of filling the heap.
     */
    @Test
    void manyEmptyArgumentsReachTheQueryBufferLimit() {
        limits.queryBufferLimit = 1024 * 1024;
        int args = 1_000_000;
        StringBuilder request = new StringBuilder("*" + (args + 1) + "\r\n$3\r\nDEL\r\n");
        request.append("$0\r\n\r\n".repeat(args));
        // 6 MB on the wire in 6 KB reads, so the unparsed input stays far under the limit: only
        // the arguments' memory (4 MB of references) can reach it.
        byte[] all = b(request.toString());
        List<byte[]> reads = new ArrayList<>();
        for (int at = 0; at < all.length; at += 6000) {
            reads.add(Arrays.copyOfRange(all, at, Math.min(all.length, at + 6000)));
        }
        assertThat(decode(reads.toArray(new byte[0][]))).containsExactly(ProtocolError.silent("query buffer limit reached"));
    }

    /**
     * Declared bulk lengths are not allocated before the bytes arrive: more 512 MB declarations
     * than the heap could hold stay pending side by side.
     */
    @Test
    void declaredLengthsAreNotAllocatedUpFront() {
        long declared = 512L * 1024 * 1024;
        int decoders = (int) (Runtime.getRuntime().maxMemory() / declared) + 2;
        List<EmbeddedChannel> open = new ArrayList<>();
        for (int i = 0; i < decoders; i++) {
            EmbeddedChannel ch = new EmbeddedChannel(new RespDecoder(limits));
            ch.writeInbound(Unpooled.wrappedBuffer(b("*2\r\n$4\r\nECHO\r\n$" + declared + "\r\nsome bytes")));
            Object decoded = ch.readInbound();
            assertThat(decoded).isNull();
            open.add(ch);
        }
        assertThat(open).allMatch(EmbeddedChannel::isActive);
        open.forEach(EmbeddedChannel::finishAndReleaseAll);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
