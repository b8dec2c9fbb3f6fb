package dev.ordo.server.compat;

import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DEBUG's test hooks byte for byte beside redis-server, both started with
 * {@code enable-debug-command yes}: PROTOCOL's sample replies in RESP2 and RESP3,
 * SET-DISABLE-DENY-SCRIPTS (what a script may call before, during and after), DIGEST and
 * DIGEST-VALUE for keys without expiry, and the replies of the small switches. Each scenario is
 * pipelined on a fresh connection and its whole reply stream compared.
 */
class DebugOverWireTest {
    private static final byte[] END = "$3\r\nend\r\n".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide(Map.of("enable-debug-command", "yes"));

    /** The raw bytes the server at {@code port} answers to {@code commands}, up to the closing {@code PING end}. */
    private static String rawReplies(int port, String... commands) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            for (String command : commands) {
                out.write(RespSocket.encode(SideBySide.words(command)));
            }
            out.write(RespSocket.encode(SideBySide.words("PING end")));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            while (!endsWithEnd(got.toByteArray())) {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                got.write(buf, 0, n);
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static boolean endsWithEnd(byte[] b) {
        return b.length >= END.length && Arrays.equals(b, b.length - END.length, b.length, END, 0, END.length);
    }

    private static void assertSameBytes(String... commands) throws IOException {
        String fromRedis = rawReplies(SERVERS.redis().port(), commands);
        assertThat(rawReplies(SERVERS.ordoPort(), commands)).isEqualTo(fromRedis);
    }

    private static String[] protocolScenario(int resp) {
        String[] types = {"string", "integer", "double", "bignum", "null", "array", "set", "map", "attrib", "push", "verbatim",
            "true", "false", "nosuchtype"};
        String[] commands = new String[types.length + 3];
        commands[0] = "CLIENT REPLY SKIP";
        commands[1] = "HELLO " + resp;
        for (int i = 0; i < types.length; i++) {
            commands[i + 2] = "DEBUG PROTOCOL " + types[i];
        }
        commands[types.length + 2] = "DEBUG PROTOCOL";
        return commands;
    }

    @Test
    void debugProtocol_everyTypeInResp2_sameBytesAsRedis() throws IOException {
        assertSameBytes(protocolScenario(2));
    }

    @Test
    void debugProtocol_everyTypeInResp3_sameBytesAsRedis() throws IOException {
        String[] commands = protocolScenario(3);
        assertSameBytes(commands);
        assertThat(rawReplies(SERVERS.ordoPort(), commands)).contains("|1\r\n$14\r\nkey-popularity\r\n").contains("(1234567999");
    }

    @Test
    void setDisableDenyScripts_noscriptCommandsFromScripts_refusedAllowedRefusedAsInRedis() throws IOException {
        String configGet = "EVAL \"return redis.call('config', 'get', 'maxmemory-policy')\" 0";
        assertSameBytes(configGet,
                "DEBUG SET-DISABLE-DENY-SCRIPTS 1",
                configGet,
                "EVAL \"redis.setresp(3); return redis.call('debug', 'protocol', 'attrib')\" 0",
                "EVAL \"redis.setresp(3); return redis.call('debug', 'protocol', 'bignum')\" 0",
                "EVAL \"redis.setresp(3); return redis.call('debug', 'protocol', 'map')\" 0",
                "EVAL \"return redis.call('shutdown', 'abc')\" 0",
                "CLIENT REPLY SKIP", "HELLO 3",
                "EVAL \"redis.setresp(3); return redis.call('debug', 'protocol', 'bignum')\" 0",
                "EVAL \"redis.setresp(3); return redis.call('debug', 'protocol', 'verbatim')\" 0",
                "CLIENT REPLY SKIP", "HELLO 2",
                "DEBUG SET-DISABLE-DENY-SCRIPTS 0",
                configGet,
                "DEBUG SET-DISABLE-DENY-SCRIPTS",
                "DEBUG SET-DISABLE-DENY-SCRIPTS x");
    }

    @Test
    void debugDigest_keysWithoutExpiry_sameDigestsAsRedis() throws IOException {
        assertSameBytes("FLUSHALL", "DEBUG DIGEST",
                "SET a 1", "SET str hello", "SADD s x y 3", "SADD si 1 2 3", "HSET h f v g w",
                "ZADD z 1 a 2 b -3 c 1.5 d", "SELECT 1", "SET other v", "SELECT 0",
                "DEBUG DIGEST", "DEBUG DIGEST-VALUE a str s si h z nokey", "DEBUG DIGEST-VALUE",
                "FLUSHALL");
    }

    @Test
    void debugSwitches_andUnknownSubcommands_sameRepliesAsRedis() throws IOException {
        assertSameBytes("DEBUG PAUSE-CRON 1", "DEBUG PAUSE-CRON 0", "DEBUG PAUSE-CRON",
                "DEBUG QUICKLIST-PACKED-THRESHOLD 0", "DEBUG QUICKLIST-PACKED-THRESHOLD 4095mb",
                "DEBUG QUICKLIST-PACKED-THRESHOLD 4gb", "DEBUG QUICKLIST-PACKED-THRESHOLD abc",
                "DEBUG STRINGMATCH-LEN", "DEBUG STRINGMATCH-TEST", "DEBUG DIGEST extra");
    }
}
