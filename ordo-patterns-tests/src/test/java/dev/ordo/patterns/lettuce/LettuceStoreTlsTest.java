package dev.ordo.patterns.lettuce;

import dev.ordo.patterns.Plain;
import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.server.Ordo;
import dev.ordo.server.tls.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LettuceStore} over {@code rediss://}: against Ordo's TLS port and a redis-server with
 * TLS on, both requiring a client certificate, with certificates made for the run.
 */
class LettuceStoreTlsTest {
    @TempDir
    static Path dir;
    private static TestCertificates ca;
    private static TestCertificates server;
    private static TestCertificates client;

    @BeforeAll
    static void certificates() throws IOException {
        ca = TestCertificates.authority(dir, "patterns-ca");
        server = ca.server("patterns-server");
        client = ca.client("patterns-client");
    }

    private static LettuceStore.Tls tls() {
        return LettuceStore.Tls.trusting(ca.certFile()).withClientCertificate(client.certFile(), client.keyFile());
    }

    @Test
    void connect_rediss_toOrdoTlsPort_runsCommandsAndScripts() {
        try (Ordo ordo = Ordo.embedded(server.serverConfig(ca))) {
            int port = ordo.openTlsPort(0);
            try (LettuceStore store = LettuceStore.connect("rediss://localhost:" + port, tls())) {
                exercise(store);
            }
            assertThatThrownBy(() -> {
                try (LettuceStore noCertificate = LettuceStore.connect("rediss://localhost:" + port, LettuceStore.Tls.trusting(ca.certFile()))) {
                    noCertificate.call(StoreCommand.of("PING"));
                }
            }).isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void connect_rediss_toRedisServerWithTls_runsCommandsAndScripts() throws Exception {
        int tlsPort = freePort();
        try (RedisServer redis = RedisServer.start("--tls-port", String.valueOf(tlsPort),
                "--tls-cert-file", server.certFile().toString(), "--tls-key-file", server.keyFile().toString(),
                "--tls-ca-cert-file", ca.certFile().toString())) {
            assertThat(redis.version()).startsWith("7.");
            try (LettuceStore store = LettuceStore.connect("rediss://localhost:" + tlsPort, tls())) {
                exercise(store);
            }
        }
    }

    private static void exercise(LettuceStore store) {
        assertThat(Plain.of(store.call(StoreCommand.of("ZADD").key("board").arg(120).arg("alice")))).isEqualTo(1L);
        assertThat(Plain.of(store.call(StoreCommand.of("ZSCORE").key("board").arg("alice")))).isEqualTo("120");
        Script script = new Script("return redis.call('ZCARD', KEYS[1])");
        assertThat(Plain.of(store.eval(script, List.of("board"), List.of()))).isEqualTo(1L);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
