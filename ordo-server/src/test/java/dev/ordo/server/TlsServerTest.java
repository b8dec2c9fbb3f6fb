package dev.ordo.server;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.RedisServer;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.server.tls.TestCertificates;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The TLS port: real clients (Lettuce over {@code rediss://}, the JDK's SSLSocket, Debian's
 * {@code redis-cli --tls}) with and without client certificates, refused handshakes, certificate
 * reload on CONFIG SET, the standalone server's {@code --tls-port}, and the parameters beside a
 * real {@code redis-server}. Certificates are made for the run ({@link TestCertificates}).
 */
class TlsServerTest {
    private static final String PASS = "s3cret pass";

    @TempDir
    static Path dir;
    private static TestCertificates ca;
    private static TestCertificates serverA;
    private static TestCertificates serverB;
    private static TestCertificates client;
    private static TestCertificates stranger;
    private static ClientResources resources;

    private final List<String> log = new CopyOnWriteArrayList<>();
    private Ordo ordo;
    private int tlsPort;

    @BeforeAll
    static void certificates() throws IOException {
        ca = TestCertificates.authority(dir, "ordo-test-ca");
        serverA = ca.server("ordo-server-a");
        serverB = ca.server("ordo-server-b");
        client = ca.client("ordo-client");
        stranger = TestCertificates.authority(dir, "other-ca").client("stranger");
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1).build();
    }

    @AfterAll
    static void closeResources() {
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (ordo != null) {
            ordo.close();
        }
    }

    /** An embedded Ordo with server certificate A and the test CA, adjusted by {@code settings}, serving TLS on a free port. */
    private void start(Consumer<Config> settings) {
        Config config = new Config();
        config.set("tls-cert-file", serverA.certFile().toString(), true);
        config.set("tls-key-file", serverA.keyFile().toString(), true);
        config.set("tls-ca-cert-file", ca.certFile().toString(), true);
        settings.accept(config);
        ordo = Ordo.embedded(config, (level, message) -> log.add(message));
        tlsPort = ordo.openTlsPort(0);
    }

    @Test
    void lettuce_withClientCertificate_runsSortedSetCommands() {
        start(c -> { });
        withLettuce(client, redis -> {
            redis.zadd("board", 120, "alice");
            redis.zadd("board", 95, "bob");
            assertThat(redis.zscore("board", "alice")).isEqualTo(120.0);
            assertThat(redis.zrevrange("board", 0, -1)).containsExactly("alice", "bob");
        });
    }

    @Test
    void lettuce_withoutClientCertificate_authClientsNo_runsCommands() {
        start(c -> c.set("tls-auth-clients", "no", true));
        withLettuce(null, redis -> assertThat(redis.zadd("board", 1, "a")).isEqualTo(1L));
    }

    @Test
    void lettuce_withoutClientCertificate_authClientsYes_isRefusedAndServerKeepsServing() {
        start(c -> { });
        assertThatThrownBy(() -> withLettuce(null, redis -> redis.ping())).isInstanceOf(RuntimeException.class);
        withLettuce(client, redis -> assertThat(redis.ping()).isEqualTo("PONG"));
        assertThat(log).anyMatch(line -> line.startsWith("Error accepting a client connection: "));
    }

    @Test
    void authClientsOptional_acceptsClientsWithAndWithoutCertificate() throws Exception {
        start(c -> c.set("tls-auth-clients", "optional", true));
        withLettuce(null, redis -> assertThat(redis.ping()).isEqualTo("PONG"));
        withLettuce(client, redis -> assertThat(redis.ping()).isEqualTo("PONG"));
        assertThatThrownBy(() -> jdkPing(stranger)).isInstanceOf(IOException.class);
    }

    @Test
    void clientCertificateFromAnotherCa_isRefused() throws Exception {
        start(c -> { });
        assertThatThrownBy(() -> jdkPing(stranger)).isInstanceOf(IOException.class);
        assertThat(jdkPing(client)).isEqualTo("+PONG");
    }

    @Test
    void plainTextClient_onTlsPort_isClosedNeverAdmittedAndServerKeepsServing() throws Exception {
        start(c -> { });
        try (RawClient plain = new RawClient(tlsPort)) {
            plain.send(RawClient.command("ZADD", "pwned", "1", "plain"));
            assertThat(plain.drainedUntilClosed(10_000)).isTrue();
        }
        assertThat(log).anyMatch(line -> line.startsWith("Error accepting a client connection: "));
        assertThat(jdkCall(client, "EXISTS", "pwned")).isEqualTo(":0");
        assertThat(HostedEngine.of(ordo.engine()).server().transportStats().connectionsReceived()).isEqualTo(1);
    }

    @Test
    void plainAndTlsPorts_serveTheSameData() throws Exception {
        start(c -> { });
        int plainPort = ordo.openPort(0);
        try (RawClient plain = new RawClient(plainPort)) {
            assertThat(plain.call("ZADD", "board", "7", "carol")).isEqualTo(":1\r\n");
            assertThat(jdkCall(client, "ZSCORE", "board", "carol")).isEqualTo("$1");
            assertThat(plain.call("INFO", "server")).contains("tcp_port:" + plainPort + "\r\n");
        }
    }

    @Test
    void tlsOnly_infoShowsTheTlsPort() throws Exception {
        start(c -> { });
        assertThat(ordo.port()).isEqualTo(-1);
        assertThat(text(ordo.client().call("INFO", "server"))).contains("tcp_port:" + tlsPort + "\r\n");
    }

    @Test
    void configSetCertificate_newConnectionsGetIt_openOnesKeepWorking() throws Exception {
        start(c -> { });
        try (SSLSocket before = connect(client)) {
            assertThat(peerName(before)).isEqualTo("CN=ordo-server-a");
            assertThat(ordo.client().call("CONFIG", "SET", "tls-cert-file", serverB.certFile().toString(),
                    "tls-key-file", serverB.keyFile().toString())).isEqualTo("OK");
            try (SSLSocket after = connect(client)) {
                assertThat(peerName(after)).isEqualTo("CN=ordo-server-b");
                assertThat(call(after, "PING")).isEqualTo("+PONG");
            }
            assertThat(call(before, "PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void configSetMissingCertificate_failsWithRedisErrorAndKeepsTheOldContext() throws Exception {
        start(c -> { });
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-key-file", serverB.keyFile().toString(),
                "tls-cert-file", dir.resolve("missing.crt").toString()))
                .isInstanceOf(ErrorReply.class)
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'tls-key-file') - "
                        + "Unable to update TLS configuration. Check server logs.");
        assertThat(ordo.engine().config().get("tls-cert-file")).isEqualTo(serverA.certFile().toString());
        assertThat(ordo.engine().config().get("tls-key-file")).isEqualTo(serverA.keyFile().toString());
        assertThat(log).anyMatch(line -> line.startsWith("Failed to load certificate: " + dir.resolve("missing.crt")));
        try (SSLSocket s = connect(client)) {
            assertThat(peerName(s)).isEqualTo("CN=ordo-server-a");
        }
    }

    @Test
    void configSetKeyOfAnotherCertificate_isRefused() throws Exception {
        start(c -> { });
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-key-file", serverB.keyFile().toString()))
                .hasMessageContaining("Unable to update TLS configuration");
        assertThat(jdkPing(client)).isEqualTo("+PONG");
    }

    /** CONFIG SET tls-port from a TLS client (so on the event loop): the listener moves, a taken port is refused. */
    @Test
    void configSetTlsPort_movesTheListenerAndRefusesATakenPort() throws Exception {
        start(c -> { });
        int moved = freePort();
        try (SSLSocket s = connect(client)) {
            assertThat(call(s, "CONFIG", "SET", "tls-port", String.valueOf(moved))).isEqualTo("+OK");
            SSLSocket there = null;
            for (int i = 0; i < 100 && there == null; i++) { // the new listener opens just after the reply
                try {
                    there = connect(client, moved);
                } catch (java.net.ConnectException notYet) {
                    Thread.sleep(50);
                }
            }
            assertThat(there).as("a listener on the new port").isNotNull();
            assertThat(call(there, "PING")).isEqualTo("+PONG");
            there.close();
            assertThat(call(s, "PING")).isEqualTo("+PONG");
            try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getByName("127.0.0.1"))) {
                assertThat(call(s, "CONFIG", "SET", "tls-port", String.valueOf(taken.getLocalPort())))
                        .isEqualTo("-ERR CONFIG SET failed (possibly related to argument 'tls-port') - "
                                + "Unable to listen on this port. Check server logs.");
            }
            assertThat(ordo.engine().config().get("tls-port")).isEqualTo(String.valueOf(moved));
        }
    }

    @Test
    void configSetAuthClients_appliesToNewConnections() {
        start(c -> { });
        assertThat(ordo.client().call("CONFIG", "SET", "tls-auth-clients", "no")).isEqualTo("OK");
        withLettuce(null, redis -> assertThat(redis.ping()).isEqualTo("PONG"));
    }

    @Test
    void configSetProtocols_tls12Only_isNegotiated() throws Exception {
        start(c -> { });
        assertThat(ordo.client().call("CONFIG", "SET", "tls-protocols", "TLSv1.2")).isEqualTo("OK");
        try (SSLSocket s = connect(client)) {
            assertThat(s.getSession().getProtocol()).isEqualTo("TLSv1.2");
        }
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-protocols", "TLSv1.9"))
                .hasMessage("ERR CONFIG SET failed (possibly related to argument 'tls-protocols') - "
                        + "Unable to update TLS configuration. Check server logs.");
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-ciphers", "NO-SUCH-CIPHER"))
                .hasMessageContaining("Unable to update TLS configuration");
        assertThat(log).contains("Failed to configure ciphers: NO-SUCH-CIPHER");
    }

    /** An OpenSSL cipher expression, as redis.conf files carry them, is read as OpenSSL reads it. */
    @Test
    void configSetCiphers_anOpenSslExpressionSelectsWhatOpenSslWould() throws Exception {
        assumeTrue(io.netty.handler.ssl.OpenSsl.isAvailable(), "the OpenSSL provider is not available here");
        start(c -> c.set("tls-protocols", "TLSv1.2", true));
        assertThat(ordo.client().call("CONFIG", "SET", "tls-ciphers", "ECDHE+AESGCM:!AES128:!aNULL",
                "tls-prefer-server-ciphers", "yes")).isEqualTo("OK");
        try (SSLSocket s = connect(client)) {
            assertThat(s.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
        }
        assertThat(ordo.client().call("CONFIG", "SET", "tls-ciphers", "HIGH:!aNULL:!MD5")).isEqualTo("OK");
        try (SSLSocket s = connect(client)) {
            assertThat(s.getSession().getCipherSuite()).startsWith("TLS_ECDHE_ECDSA_WITH_");
        }
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-ciphers", "NOSUCHCLASS:!ALL"))
                .hasMessageContaining("Unable to update TLS configuration");
        assertThat(log).contains("Failed to configure ciphers: NOSUCHCLASS:!ALL");
    }

    /**
     * TLS clients beside a busy script, on io_uring ({@link dev.ordo.server.net.Transport}'s
     * BusyPump) and on NIO (BusyTakeover, which hands their bytes to their own pipelines): one
     * connected before gets BUSY and can SCRIPT KILL it, and one that connects meanwhile completes
     * its handshake and gets BUSY too. The server's one event loop runs the script, so only the
     * busy handler can answer them.
     */
    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"io_uring", "nio"})
    void busyScript_tlsClientsGetBusyAndKillIt(String transport) throws Exception {
        assumeTrue(!transport.equals("io_uring") || io.netty.channel.uring.IoUring.isAvailable(), "io_uring is not available here");
        start(c -> {
            c.set("busy-reply-threshold", "100", true);
            c.set("io-transport", transport, true);
        });
        try (SSLSocket runner = connect(client); SSLSocket other = connect(client)) {
            runner.getOutputStream().write(RawClient.command("EVAL", "while true do end", "0").getBytes(StandardCharsets.UTF_8));
            runner.getOutputStream().flush();
            String reply = "";
            for (int i = 0; i < 1000 && !reply.startsWith("-BUSY"); i++) { // PONG until the script has started
                reply = call(other, "PING");
            }
            assertThat(reply).startsWith("-BUSY Redis is busy running a script.");
            try (SSLSocket newcomer = connect(client)) {
                assertThat(call(newcomer, "PING")).startsWith("-BUSY Redis is busy running a script.");
            }
            assertThat(call(other, "SCRIPT", "KILL")).isEqualTo("+OK");
            assertThat(readLine(runner)).startsWith("-ERR Script killed by user with SCRIPT KILL");
            assertThat(call(runner, "PING")).isEqualTo("+PONG");
            assertThat(call(other, "PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void configSetCiphers_theNamedCipherIsNegotiated() throws Exception {
        start(c -> c.set("tls-protocols", "TLSv1.2", true));
        assertThat(ordo.client().call("CONFIG", "SET", "tls-ciphers", "ECDHE-ECDSA-AES256-GCM-SHA384",
                "tls-prefer-server-ciphers", "yes")).isEqualTo("OK");
        try (SSLSocket s = connect(client)) {
            assertThat(s.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
        }
        assertThat(ordo.client().call("CONFIG", "SET", "tls-ciphers", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256")).isEqualTo("OK");
        try (SSLSocket s = connect(client)) {
            assertThat(s.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256");
        }
    }

    @Test
    void configSetSessionCache_offAndUnlimited_keepServing() throws Exception {
        start(c -> { });
        assertThat(ordo.client().call("CONFIG", "SET", "tls-session-caching", "no")).isEqualTo("OK");
        assertThat(jdkPing(client)).isEqualTo("+PONG");
        assertThat(ordo.client().call("CONFIG", "SET", "tls-session-caching", "yes", "tls-session-cache-size", "0",
                "tls-session-cache-timeout", "0")).isEqualTo("OK");
        assertThat(jdkPing(client)).isEqualTo("+PONG");
    }

    @Test
    void encryptedKey_opensWithThePassOnly() throws Exception {
        Path encrypted = serverA.encryptedKeyFile(PASS);
        start(c -> {
            c.set("tls-key-file", encrypted.toString(), true);
            c.set("tls-key-file-pass", PASS, true);
        });
        assertThat(jdkPing(client)).isEqualTo("+PONG");
        assertThatThrownBy(() -> ordo.client().call("CONFIG", "SET", "tls-key-file-pass", "wrong"))
                .hasMessageContaining("Unable to update TLS configuration");
        assertThat(log).anyMatch(line -> line.startsWith("Failed to load private key: " + encrypted));
    }

    @Test
    void pkcs1RsaKey_serves() throws Exception {
        TestCertificates rsa = ca.rsaServer("ordo-server-rsa");
        assertThat(java.nio.file.Files.readString(rsa.keyFile())).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        start(c -> {
            c.set("tls-cert-file", rsa.certFile().toString(), true);
            c.set("tls-key-file", rsa.keyFile().toString(), true);
        });
        try (SSLSocket s = connect(client)) {
            assertThat(peerName(s)).isEqualTo("CN=ordo-server-rsa");
            assertThat(call(s, "PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void openTlsPort_withoutCertificate_failsWithRedisReason() {
        ordo = Ordo.embedded(new Config());
        assertThatThrownBy(() -> ordo.openTlsPort(0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("No tls-cert-file configured!");
        Config noCa = new Config();
        noCa.set("tls-cert-file", serverA.certFile().toString(), true);
        noCa.set("tls-key-file", serverA.keyFile().toString(), true);
        try (Ordo other = Ordo.embedded(noCa)) {
            assertThatThrownBy(() -> other.openTlsPort(0)).hasMessageStartingWith("Either tls-ca-cert-file or tls-ca-cert-dir must be specified");
        }
    }

    @Test
    void caCertDir_trustsTheCertificatesInIt() throws Exception {
        start(c -> {
            c.set("tls-ca-cert-file", "", true);
            c.set("tls-ca-cert-dir", dir.toString(), true);
        });
        assertThat(jdkPing(client)).isEqualTo("+PONG");
    }

    @Test
    void main_portZeroBesideTlsPort_servesTlsOnly() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int port = freePort();
        try (Ordo server = Main.start(new String[] {"--port", "0", "--save", "", "--tls-port", String.valueOf(port),
            "--tls-cert-file", serverA.certFile().toString(), "--tls-key-file", serverA.keyFile().toString(),
            "--tls-ca-cert-file", ca.certFile().toString()}, print, print)) {
            String text = out.toString(StandardCharsets.UTF_8);
            assertThat(text).contains("Ready to accept connections tls on port " + port).doesNotContain("connections tcp");
            assertThat(server.port()).isEqualTo(-1);
            try (SSLSocket s = connect(client, port)) {
                assertThat(call(s, "PING")).isEqualTo("+PONG");
            }
        }
    }

    @Test
    void main_tlsPortWithoutCa_exitsWithRedisReasons() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(new String[] {"--port", "0", "--save", "", "--tls-port", String.valueOf(freePort()),
            "--tls-cert-file", serverA.certFile().toString(), "--tls-key-file", serverA.keyFile().toString()},
            print, print, InputStream.nullInputStream());
        assertThat(code).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("# Either tls-ca-cert-file or tls-ca-cert-dir must be specified when tls-cluster, tls-replication or tls-auth-clients are enabled!")
                .contains("# Failed to configure TLS. Check logs for more info.");
    }

    @Test
    void redisCli_tls_withAndWithoutClientCertificate() throws Exception {
        String cli = RedisServer.requireTool("redis-cli");
        start(c -> { });
        List<String> base = List.of(cli, "-p", String.valueOf(tlsPort), "--tls", "--cacert", ca.certFile().toString());
        List<String> withCert = new ArrayList<>(base);
        withCert.addAll(List.of("--cert", client.certFile().toString(), "--key", client.keyFile().toString()));
        assertThat(run(withCert, "ZADD", "board", "42", "dave")).isEqualTo("1");
        assertThat(run(withCert, "ZSCORE", "board", "dave")).isEqualTo("42");
        assertThat(run(base, "ZSCORE", "board", "dave")).doesNotContain("42");
    }

    /** CONFIG GET of every TLS parameter, and CONFIG SET's refusals, against redis-server with TLS on. */
    @Test
    void tlsParameters_matchRedisServer() throws Exception {
        start(c -> { });
        int plainPort = ordo.openPort(0);
        try (RedisServer redis = RedisServer.start("--tls-port", String.valueOf(freePort()),
                "--tls-cert-file", serverA.certFile().toString(), "--tls-key-file", serverA.keyFile().toString(),
                "--tls-ca-cert-file", ca.certFile().toString());
             RawClient real = new RawClient(redis.port());
             RawClient ours = new RawClient(plainPort)) {
            for (String name : List.of("tls-port", "tls-cert-file", "tls-key-file", "tls-key-file-pass", "tls-client-cert-file",
                    "tls-client-key-file", "tls-client-key-file-pass", "tls-dh-params-file", "tls-ca-cert-file", "tls-ca-cert-dir",
                    "tls-auth-clients", "tls-protocols", "tls-ciphers", "tls-ciphersuites", "tls-prefer-server-ciphers",
                    "tls-session-caching", "tls-session-cache-size", "tls-session-cache-timeout", "tls-replication", "tls-cluster")) {
                String expected = real.call("CONFIG", "GET", name);
                if (!name.equals("tls-port")) {
                    assertThat(ours.call("CONFIG", "GET", name)).as(name).isEqualTo(expected);
                }
            }
            String missing = dir.resolve("missing.crt").toString();
            for (String[] set : List.of(new String[] {"tls-cert-file", missing}, new String[] {"tls-ca-cert-file", missing},
                    new String[] {"tls-auth-clients", "maybe"}, new String[] {"tls-protocols", "TLSv1.9"},
                    new String[] {"tls-session-cache-size", "-1"}, new String[] {"tls-prefer-server-ciphers", "sure"},
                    new String[] {"tls-session-cache-timeout", "x"}, new String[] {"tls-auth-clients", "OPTIONAL"},
                    new String[] {"tls-auth-clients", "yes"})) {
                String expected = real.call("CONFIG", "SET", set[0], set[1]);
                assertThat(ours.call("CONFIG", "SET", set[0], set[1])).as(String.join(" ", set)).isEqualTo(expected);
            }
        }
    }

    private void withLettuce(TestCertificates certificate, Consumer<RedisCommands<String, String>> body) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider().trustManager(ca.certFile().toFile());
        if (certificate != null) {
            ssl.keyManager(certificate.certFile().toFile(), certificate.keyFile().toFile(), null);
        }
        RedisClient redis = RedisClient.create(resources, RedisURI.create("rediss://localhost:" + tlsPort));
        redis.setOptions(ClientOptions.builder().sslOptions(ssl.build()).autoReconnect(false).build());
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            body.accept(connection.sync());
        } finally {
            redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private SSLSocket connect(TestCertificates certificate) throws IOException, GeneralSecurityException {
        return connect(certificate, tlsPort);
    }

    /** A JDK TLS socket to the port, handshake done, trusting the test CA. */
    private static SSLSocket connect(TestCertificates certificate, int port) throws IOException, GeneralSecurityException {
        SSLSocket socket = (SSLSocket) TestCertificates.clientContext(ca, certificate).getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        return socket;
    }

    private String jdkPing(TestCertificates certificate) throws IOException, GeneralSecurityException {
        return jdkCall(certificate, "PING");
    }

    /** The first line of the reply to one command over a new TLS connection. */
    private String jdkCall(TestCertificates certificate, String... args) throws IOException, GeneralSecurityException {
        try (SSLSocket s = connect(certificate)) {
            return call(s, args);
        }
    }

    private static String call(SSLSocket socket, String... args) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(RawClient.command(args).getBytes(StandardCharsets.UTF_8));
        out.flush();
        return readLine(socket);
    }

    /** The next line the server sent, without its CRLF. */
    private static String readLine(SSLSocket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("closed by the server");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    private static String peerName(SSLSocket socket) throws IOException {
        return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
    }

    /** Runs redis-cli with the arguments; its output, trimmed. */
    private static String run(List<String> command, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(args));
        Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return output;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
