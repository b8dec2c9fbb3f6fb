package dev.ordo.server;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A protocol fuzzer: batches of generated input (valid commands in RESP and inline form, then
 * mutated: bytes flipped, inserted and cut, lengths made huge or negative or not numbers, lines
 * split, and HTTP requests) sent on a fresh connection to Ordo and to a real redis-server. After
 * every batch:
 * <ul>
 *   <li>a bystander connected to Ordo throughout still gets PONG;</li>
 *   <li>Ordo closes the connection exactly when redis-server does, and when redis-server's last
 *       reply before closing is a protocol error, Ordo's is the same text (when redis-server
 *       closes without a word, as it does at an HTTP line, so does Ordo);</li>
 *   <li>Ordo never logs an internal error.</li>
 * </ul>
 * The seed is fixed, so a failure replays; the failing batch is printed in the assertion's
 * description.
 */
class ProtocolFuzzTest {
    private static final long SEED = 0x5EED_0F_F0221L;
    private static final int BATCHES = 300;
    /** How long a connection must stay silent to count as waiting for more input (longer when the servers disagree). */
    private static final int SILENCE_MILLIS = 150;
    private static final String[][] COMMANDS = {
            {"PING"}, {"ECHO", "hello world"}, {"SET", "k", "v"}, {"GET", "k"}, {"INCR", "n"},
            {"ZADD", "z", "1", "a", "2.5", "b"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZSCORE", "z", "a"},
            {"DEL", "k"}, {"EXISTS", "k", "z"}, {"HSET", "h", "f", "v"}, {"MULTI"}, {"EXEC"}, {"DISCARD"},
            {"ZINCRBY", "z", "3", "a"}, {"ZREVRANK", "z", "b"}, {"TYPE", "z"}, {"STRLEN", "k"}, {"SADD", "s", "x"},
    };
    private static final String[] HTTP = {
            "GET / HTTP/1.1\r\nHost: localhost:6379\r\nUser-Agent: x\r\n\r\n",
            "POST /api HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\nSET pwned 1\r\n",
            "OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n\r\n",
            "post / HTTP/1.0\r\n\r\n",
            "HOST: x\r\n",
    };

    private static final List<String> ordoLog = new CopyOnWriteArrayList<>();
    private static Ordo ordo;
    private static int ordoPort;
    private static RedisServer redis;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start();
        ordo = Ordo.embedded(new Config(), (level, message) -> ordoLog.add(message));
        ordoPort = ordo.openPort(0);
    }

    @AfterAll
    static void stop() throws IOException {
        if (ordo != null) {
            ordo.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void mutatedAndForeignInput_isAnsweredAsRedisAnswersIt_andTheServerKeepsServing() throws IOException {
        SplittableRandom random = new SplittableRandom(SEED);
        try (RawClient bystander = new RawClient(ordoPort)) {
            for (int i = 0; i < BATCHES; i++) {
                byte[] batch = batch(random);
                String shown = "batch " + i + ": " + printable(batch);
                Outcome fromRedis = exchange(redis.port(), batch, SILENCE_MILLIS);
                Outcome fromOrdo = exchange(ordoPort, batch, SILENCE_MILLIS);
                if (fromRedis.closed != fromOrdo.closed) {
                    // Silence is only a guess that a server waits for more: on a disagreement, ask again with patience.
                    fromRedis = exchange(redis.port(), batch, 3000);
                    fromOrdo = exchange(ordoPort, batch, 3000);
                }

                assertThat(fromOrdo.closed).as("closed by the server, %s", shown).isEqualTo(fromRedis.closed);
                if (fromRedis.closed) {
                    String redisLast = lastLine(fromRedis.received);
                    if (fromRedis.received.isEmpty()) {
                        assertThat(fromOrdo.received).as("closed without a reply, %s", shown).isEmpty();
                    } else if (redisLast.startsWith("-ERR Protocol error")) {
                        assertThat(lastLine(fromOrdo.received)).as("the reply before closing, %s", shown).isEqualTo(redisLast);
                    }
                }
                assertThat(bystander.call("PING")).as("the bystander after %s", shown).isEqualTo("+PONG\r\n");
                assertThat(ordoLog).as("Ordo's log after %s", shown)
                        .noneMatch(line -> line.contains("failed") || line.contains("after an error") || line.contains("Out of memory"));
            }
        }
    }

    private record Outcome(String received, boolean closed) {
    }

    /** Sends {@code batch} on a new connection; what came back until the server closed it or fell silent. */
    private static Outcome exchange(int port, byte[] batch, int silenceMillis) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(silenceMillis);
            try {
                s.getOutputStream().write(batch);
                s.getOutputStream().flush();
            } catch (SocketException closedWhileSending) {
                // the server already closed: read what it sent
            }
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) {
                try {
                    int n = in.read(buf);
                    if (n < 0) {
                        return new Outcome(got.toString(StandardCharsets.ISO_8859_1), true);
                    }
                    got.write(buf, 0, n);
                } catch (SocketTimeoutException silent) {
                    return new Outcome(got.toString(StandardCharsets.ISO_8859_1), false);
                } catch (SocketException reset) {
                    return new Outcome(got.toString(StandardCharsets.ISO_8859_1), true);
                }
            }
            throw new AssertionError("the server kept sending for 10 s");
        }
    }

    private static String lastLine(String received) {
        String trimmed = received.endsWith("\r\n") ? received.substring(0, received.length() - 2) : received;
        return trimmed.substring(trimmed.lastIndexOf("\r\n") + 1).trim();
    }

    /** One to four pieces: commands (RESP or inline), HTTP requests, raw junk; then mutations. */
    private static byte[] batch(SplittableRandom random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pieces = 1 + random.nextInt(4);
        for (int p = 0; p < pieces; p++) {
            int kind = random.nextInt(10);
            String piece;
            if (kind < 5) {
                piece = RawClient.command(COMMANDS[random.nextInt(COMMANDS.length)]);
            } else if (kind < 8) {
                piece = String.join(" ", COMMANDS[random.nextInt(COMMANDS.length)]).replace("hello world", "\"hello world\"") + "\r\n";
            } else if (kind < 9) {
                piece = HTTP[random.nextInt(HTTP.length)];
            } else {
                piece = junk(random);
            }
            out.writeBytes(piece.getBytes(StandardCharsets.ISO_8859_1));
        }
        byte[] bytes = out.toByteArray();
        int mutations = random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            bytes = mutate(bytes, random);
        }
        return bytes;
    }

    private static String junk(SplittableRandom random) {
        String[] parts = {"*", "$", "\r\n", "\n", "\r", "-1", "0", "3", "99999999999", "-", "\"", "'", " ", "\\x41", "x", "\0", ":", "+", "%2", "~1", ">3"};
        StringBuilder sb = new StringBuilder();
        for (int i = 0, n = 1 + random.nextInt(12); i < n; i++) {
            sb.append(parts[random.nextInt(parts.length)]);
        }
        return sb.toString();
    }

    private static byte[] mutate(byte[] bytes, SplittableRandom random) {
        if (bytes.length == 0) {
            return bytes;
        }
        int at = random.nextInt(bytes.length);
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        String mutated;
        switch (random.nextInt(7)) {
            case 0: // flip one byte
                bytes = bytes.clone();
                bytes[at] = (byte) random.nextInt(256);
                return bytes;
            case 1: // cut the end off
                mutated = text.substring(0, at);
                break;
            case 2: // insert a line end
                mutated = text.substring(0, at) + (random.nextBoolean() ? "\r\n" : "\n") + text.substring(at);
                break;
            case 3: // a length or count made huge, negative or not a number
                String[] lengths = {"-5", "2147483648", "536870913", "abc", "", "1.5", "0"};
                mutated = text.replaceFirst("([*$])\\d+", "$1" + lengths[random.nextInt(lengths.length)]);
                break;
            case 4: // drop one byte
                mutated = text.substring(0, at) + text.substring(at + 1);
                break;
            case 5: // repeat a stretch
                int end = Math.min(text.length(), at + 1 + random.nextInt(16));
                mutated = text.substring(0, end) + text.substring(at, end) + text.substring(end);
                break;
            default: // an unbalanced quote
                mutated = text.substring(0, at) + "\"" + text.substring(at);
                break;
        }
        return mutated.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String printable(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xff;
            sb.append(c >= 32 && c < 127 ? String.valueOf((char) c) : c == '\r' ? "\\r" : c == '\n' ? "\\n" : String.format("\\x%02x", c));
        }
        return sb.toString();
    }
}
