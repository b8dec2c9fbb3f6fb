package dev.ordo.server.tls;

import dev.ordo.engine.config.Config;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Which provider {@link ServerTls} picks, the JDK fallback, and the parsing of {@code tls-protocols}. */
class TlsProviderTest {
    @TempDir
    static Path dir;
    private static TestCertificates ca;
    private static TestCertificates server;
    private final List<String> warnings = new ArrayList<>();

    @BeforeAll
    static void certificates() throws IOException {
        ca = TestCertificates.authority(dir, "provider-ca");
        server = ca.server("provider-server");
    }

    private static Config config() {
        return server.serverConfig(ca);
    }

    @Test
    void open_onLinuxX86_64_usesBoringSsl() {
        assumeTrue(System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"),
                "the build ships BoringSSL for Linux x86-64 only");
        assertThat(ServerTls.open(config(), warnings::add).provider()).startsWith("OpenSSL (BoringSSL");
    }

    @Test
    void open_jdkProvider_servesFromTheSameFiles() {
        ServerTls tls = ServerTls.open(config(), warnings::add, SslProvider.JDK);
        assertThat(tls.provider()).startsWith("JDK");
        SslHandler handler = tls.newHandler(ByteBufAllocator.DEFAULT);
        assertThat(handler.engine().getNeedClientAuth()).isTrue();
        assertThat(handler.engine().getEnabledProtocols()).containsExactlyInAnyOrder("TLSv1.2", "TLSv1.3");
        assertThat(warnings).isEmpty();
    }

    @Test
    void protocols_redisSpellings() throws IOException {
        assertThat(ServerTls.protocols("")).containsExactly("TLSv1.2", "TLSv1.3");
        assertThat(ServerTls.protocols("tlsv1.3")).containsExactly("TLSv1.3");
        assertThat(ServerTls.protocols("TLSv1 TLSv1.1")).containsExactly("TLSv1", "TLSv1.1");
        assertThatThrownBy(() -> ServerTls.protocols("TLSv1.2  TLSv1.3")).hasMessageStartingWith("Invalid tls-protocols specified.");
        assertThatThrownBy(() -> ServerTls.protocols("SSLv3")).hasMessageStartingWith("Invalid tls-protocols specified.");
    }
}
