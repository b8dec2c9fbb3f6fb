package dev.ordo.server;

import dev.ordo.engine.host.HostedEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed, truncated, split, huge and pipelined input over real sockets. Each bad frame gets
 * redis-server's exact error, then only that connection closes; the bystander connected
 * throughout keeps getting answers (checked after every test).
 */
class ProtocolRobustnessTest extends ServerTestSupport {

    static List<Arguments> malformed() {
        return List.of(
                Arguments.of("*abc\r\n", "invalid multibulk length"),
                Arguments.of("*2147483648\r\n", "invalid multibulk length"),
                Arguments.of("*-\r\n", "invalid multibulk length"),
                Arguments.of("*1\r\n$-1\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$abc\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$536870913\r\n", "invalid bulk length"),
                Arguments.of("*1\r\n$99999999999999999999\r\n", "invalid bulk length"),
                Arguments.of("*1\r\nX\r\n", "expected '$', got 'X'"),
                Arguments.of("*1\r\n:1\r\n", "expected '$', got ':'"),
                Arguments.of("echo \"abc\r\n", "unbalanced quotes in request"),
                Arguments.of("*" + "1".repeat(70_000), "too big mbulk count string"),
                Arguments.of("*1\r\n$" + "1".repeat(70_000), "too big bulk count string"),
                Arguments.of("x".repeat(70_000), "too big inline request"));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedFrameGetsTheExactErrorAndClosesOnlyItsConnection(String input, String error) throws IOException {
        RawClient bad = connect();
        bad.send(input);
        assertThat(bad.reply()).isEqualTo("-ERR Protocol error: " + error + "\r\n");
        assertThat(bad.closedByServer()).isTrue();
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void repliesBeforeAnErrorAreSentFirst() throws IOException {
        RawClient c = connect();
        c.send("PING\r\nECHO a\r\n*1\r\n$x\r\nPING\r\n");
        assertThat(c.reply()).isEqualTo("+PONG\r\n");
        assertThat(c.reply()).isEqualTo("$1\r\na\r\n");
        assertThat(c.reply()).isEqualTo("-ERR Protocol error: invalid bulk length\r\n");
        assertThat(c.closedByServer()).isTrue();
    }

    @Test
    void nullCommandsAndEmptyLinesAreIgnored() throws IOException {
        RawClient c = connect();
        c.send("*0\r\n*-1\r\n\r\n   \r\nPING\r\n");
        assertThat(c.reply()).isEqualTo("+PONG\r\n");
    }

    @Test
    void hugeDeclaredLengthsJustWaitForBytes() throws IOException {
        RawClient manyArgs = connect().send("*2147483647\r\n$4\r\nPING\r\n");
        RawClient bigBulk = connect().send("*2\r\n$4\r\nECHO\r\n$536870912\r\nonly a few bytes");
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
        assertThat(manyArgs.silentFor(200)).isTrue();
        assertThat(bigBulk.silentFor(200)).isTrue();
    }

    @Test
    void clientDisconnectingMidFrameIsForgotten() throws IOException {
        int before = HostedEngine.of(ordo.engine()).server().clients().size();
        RawClient c = connect();
        await("the server registers the client", () -> HostedEngine.of(ordo.engine()).server().clients().size() == before + 1);
        c.send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10\r\nabc");
        c.close();
        await("the server forgets the client", () -> HostedEngine.of(ordo.engine()).server().clients().size() == before);
        assertThat(bystander.call("EXISTS", "k")).isEqualTo(":0\r\n");
    }

    @Test
    void tenThousandArgumentPingGetsTheArityError() throws IOException {
        String[] args = new String[10_000];
        Arrays.fill(args, "a");
        args[0] = "PING";
        RawClient c = connect();
        assertThat(c.call(args)).isEqualTo("-ERR wrong number of arguments for 'ping' command\r\n");
        assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void tenThousandArgumentZaddIsServed() throws IOException {
        String[] args = new String[10_000];
        args[0] = "ZADD";
        args[1] = "big";
        for (int i = 2; i < args.length; i += 2) {
            args[i] = String.valueOf(i);
            args[i + 1] = "m" + i;
        }
        RawClient c = connect();
        assertThat(c.call(args)).isEqualTo(":4999\r\n");
        assertThat(c.call("ZCARD", "big")).isEqualTo(":4999\r\n");
    }

    @Test
    void framesSentOneByteAtATimeAreServed() throws IOException {
        byte[] all = (RawClient.command("SET", "k", "v\r\nw") + "GET k\r\n" + RawClient.command("ECHO", "done"))
                .getBytes(StandardCharsets.ISO_8859_1);
        RawClient c = connect();
        for (byte b : all) {
            c.send(new byte[] {b});
        }
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        assertThat(c.reply()).isEqualTo("$4\r\nv\r\nw\r\n");
        assertThat(c.reply()).isEqualTo("$4\r\ndone\r\n");
    }

    @Test
    void pipelinedBatchIsAnsweredInOrder() throws IOException {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        for (int i = 0; i < 2000; i++) {
            batch.writeBytes(RawClient.command("ECHO", "n" + i).getBytes(StandardCharsets.ISO_8859_1));
        }
        RawClient c = connect().send(batch.toByteArray());
        for (int i = 0; i < 2000; i++) {
            String n = "n" + i;
            assertThat(c.reply()).isEqualTo("$" + n.length() + "\r\n" + n + "\r\n");
        }
    }

    @Test
    void inlineCommandsUseRedisQuoting() throws IOException {
        RawClient c = connect();
        c.send("SET 'my key' \"a\\x41\\n\\\"b\"\r\nGET \"my key\"\nECHO ab\"c d\"\r\n");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        assertThat(c.reply()).isEqualTo("$5\r\naA\n\"b\r\n");
        assertThat(c.reply()).isEqualTo("$5\r\nabc d\r\n");
    }

    @Test
    void quitClosesAfterItsReplyAndIgnoresTheRest() throws IOException {
        RawClient c = connect();
        c.send("PING\r\nQUIT\r\nSET after quit\r\n");
        assertThat(c.reply()).isEqualTo("+PONG\r\n");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        assertThat(c.closedByServer()).isTrue();
        assertThat(bystander.call("EXISTS", "after")).isEqualTo(":0\r\n");
    }
}
