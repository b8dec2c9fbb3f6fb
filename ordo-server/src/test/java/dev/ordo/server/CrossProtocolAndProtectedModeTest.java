package dev.ordo.server;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two defences a server on a developer's machine needs, run the same way against Ordo and a
 * real redis-server: an HTTP request (what any web page can send to a local port) is closed at
 * its "POST" or "Host:" line with nothing in it run and nothing answered, and protected mode
 * answers a client from beyond loopback with the DENIED text while the default user has no
 * password. The protected-mode cases need an address of this machine that is not loopback, and
 * connect from it.
 */
class CrossProtocolAndProtectedModeTest {
    private final List<String> ordoLog = new CopyOnWriteArrayList<>();
    private Ordo ordo;
    private RedisServer redis;

    @AfterEach
    void stop() throws IOException {
        if (ordo != null) {
            ordo.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    /** Starts the named server, bound to every address when {@code everywhere}; returns its port. */
    private int start(String target, boolean everywhere) throws Exception {
        if (target.equals("redis")) {
            redis = everywhere ? RedisServer.start("--bind", "0.0.0.0") : RedisServer.start();
            return redis.port();
        }
        Config config = new Config();
        if (everywhere) {
            config.set("bind", "0.0.0.0", true);
        }
        ordo = Ordo.embedded(config, (level, message) -> ordoLog.add(message));
        return ordo.openPort(0);
    }

    private String log() throws IOException {
        return redis != null ? Files.readString(redis.dir().resolve("redis.log")) : String.join("\n", ordoLog);
    }

    /** Sends {@code request} in one write and returns all the server sends before it closes. */
    private static String sendUntilClosed(InetAddress from, InetAddress to, int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress(to, port), 5000);
            s.setSoTimeout(5000);
            if (!request.isEmpty()) {
                s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
            }
            InputStream in = s.getInputStream();
            StringBuilder got = new StringBuilder();
            byte[] buf = new byte[4096];
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                }
            } catch (SocketException reset) {
                // closed with unread input left: a reset, the same end
            }
            return got.toString();
        }
    }

    private static long rejectedConnections(RawClient c) throws IOException {
        Matcher m = Pattern.compile("(?m)^rejected_connections:(\\d+)").matcher(c.call("INFO", "stats"));
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ordo", "redis"})
    void anHttpPost_isClosedAtOnce_andNothingInItRuns(String target) throws Exception {
        int port = start(target, false);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        String body = "ZADD pwned 1 via-browser\r\nSET pwned2 1\r\n";
        String post = "POST / HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Type: text/plain\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;

        assertThat(sendUntilClosed(loopback, loopback, port, post)).isEmpty();
        try (RawClient c = new RawClient(port)) {
            assertThat(c.call("EXISTS", "pwned", "pwned2")).isEqualTo(":0\r\n");
            assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
        }
        assertThat(log()).contains("Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: "
                + "commands to Redis. This is likely due to an attacker attempting to use Cross Protocol Scripting to compromise "
                + "your Redis instance. Connection aborted.");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ordo", "redis"})
    void anHttpGet_isClosedAtItsHostLine_withNoReplyForTheLineBefore(String target) throws Exception {
        int port = start(target, false);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        String get = "GET / HTTP/1.1\r\nhost: localhost\r\n\r\nSET pwned 1\r\n";

        assertThat(sendUntilClosed(loopback, loopback, port, get)).isEmpty();
        try (RawClient c = new RawClient(port)) {
            assertThat(c.call("EXISTS", "pwned")).isEqualTo(":0\r\n");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ordo", "redis"})
    void aPostInsideMulti_closesToo_andTheTransactionNeverRuns(String target) throws Exception {
        int port = start(target, false);
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (RawClient c = new RawClient(port)) {
            assertThat(c.call("MULTI")).isEqualTo("+OK\r\n");
            assertThat(c.call("SET", "pwned", "1")).isEqualTo("+QUEUED\r\n");
            c.send("POST / HTTP/1.1\r\nEXEC\r\n");
            assertThat(c.closedByServer()).isTrue();
        }
        try (RawClient c = new RawClient(port)) {
            assertThat(c.call("EXISTS", "pwned")).isEqualTo(":0\r\n");
        }
        assertThat(sendUntilClosed(loopback, loopback, port, "PING\r\nPOST /\r\n")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ordo", "redis"})
    void protectedMode_deniesClientsBeyondLoopback_untilAPasswordIsSetOrItIsTurnedOff(String target) throws Exception {
        InetAddress remote = nonLoopbackAddress();
        int port = start(target, true);
        try (RawClient local = new RawClient(port)) {
            assertThat(local.call("CONFIG", "GET", "protected-mode")).isEqualTo("*2\r\n$14\r\nprotected-mode\r\n$3\r\nyes\r\n");
            long rejected = rejectedConnections(local);

            String denied = sendUntilClosed(remote, remote, port, "SET pwned 1\r\n");
            // Redis 7.0's text has "4) Setup a an authentication password", which 7.2 corrected.
            assertThat(denied.replace("4) Setup a an ", "4) Set up an "))
                    .startsWith("-DENIED Redis is running in protected mode because protected mode is enabled and no password "
                            + "is set for the default user.")
                    .contains("3) If you started the server manually just for testing, restart it with the '--protected-mode no' "
                            + "option. 4) Set up an authentication password for the default user. NOTE: You only need to do one "
                            + "of the above things in order for the server to start accepting connections from the outside.")
                    .endsWith("\r\n")
                    .hasLineCount(1);
            assertThat(local.call("EXISTS", "pwned")).isEqualTo(":0\r\n");
            assertThat(rejectedConnections(local)).isEqualTo(rejected + 1);

            // A password for the default user: remote clients connect, and must authenticate.
            assertThat(local.call("CONFIG", "SET", "requirepass", "s3cret")).isEqualTo("+OK\r\n");
            assertThat(sendUntilClosed(remote, remote, port, "AUTH s3cret\r\nPING\r\nQUIT\r\n"))
                    .isEqualTo("+OK\r\n+PONG\r\n+OK\r\n");
            assertThat(local.call("AUTH", "s3cret")).isEqualTo("+OK\r\n");
            assertThat(local.call("CONFIG", "SET", "requirepass", "")).isEqualTo("+OK\r\n");
            assertThat(sendUntilClosed(remote, remote, port, "PING\r\n")).startsWith("-DENIED ");

            // Protected mode off: served without a password.
            assertThat(local.call("CONFIG", "SET", "protected-mode", "no")).isEqualTo("+OK\r\n");
            assertThat(sendUntilClosed(remote, remote, port, "PING\r\nQUIT\r\n")).isEqualTo("+PONG\r\n+OK\r\n");
        }
    }

    /** An IPv4 address of this machine that is up and not loopback, to connect from and to. */
    private static InetAddress nonLoopbackAddress() throws SocketException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (nic.isUp() && !nic.isLoopback()) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a;
                    }
                }
            }
        }
        String reason = "this machine has no non-loopback IPv4 address, so no client can come from beyond loopback";
        if ("true".equals(System.getenv("CI"))) {
            throw new IllegalStateException(reason + " (CI=true forbids skipping)");
        }
        Assumptions.abort(reason);
        return null;
    }
}
