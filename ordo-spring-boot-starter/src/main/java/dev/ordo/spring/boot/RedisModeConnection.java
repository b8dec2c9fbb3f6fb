package dev.ordo.spring.boot;

import dev.ordo.patterns.lettuce.LettuceStore;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.resource.ClientResources;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.Node;
import org.springframework.boot.ssl.SslBundle;

import java.util.List;

/**
 * Redis mode's connection: a {@link LettuceStore} on the server Spring Boot's
 * {@link DataRedisConnectionDetails} describe (standalone, Sentinel or Cluster), as the same user,
 * over TLS when the application's connection uses it (with its SSL bundle's key and trust
 * material, or the JVM's), and on the application's Lettuce {@link ClientResources}, so Ordo adds
 * a connection but no event loop. The store speaks RESP2 on its own client: Boot's
 * {@code LettuceConnectionFactory} client may have negotiated RESP3, whose reply shapes differ.
 */
final class RedisModeConnection {
    private RedisModeConnection() {
    }

    /**
     * Connects as {@code details} say.
     *
     * @param tls whether the application's connection uses TLS without naming a bundle
     *            ({@code spring.data.redis.ssl.enabled}, a {@code rediss://} URL)
     */
    static LettuceStore connect(DataRedisConnectionDetails details, ClientResources resources, boolean tls) {
        SslBundle bundle = details.getSslBundle();
        boolean secure = tls || bundle != null;
        SslOptions ssl = bundle == null ? null : sslOptions(bundle);
        if (details.getCluster() != null) {
            List<RedisURI> seeds = details.getCluster().getNodes().stream()
                    .map(node -> authenticated(RedisURI.Builder.redis(node.host(), node.port()), details.getUsername(), details.getPassword())
                            .withSsl(secure).build())
                    .toList();
            return LettuceStore.connectCluster(resources, seeds, ssl);
        }
        if (details.getSentinel() != null) {
            var sentinel = details.getSentinel();
            RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(sentinel.getMaster()).withDatabase(sentinel.getDatabase()).withSsl(secure);
            for (Node node : sentinel.getNodes()) {
                uri.withSentinel(authenticated(RedisURI.Builder.redis(node.host(), node.port()), sentinel.getUsername(), sentinel.getPassword())
                        .withSsl(secure).build());
            }
            return LettuceStore.connect(resources, authenticated(uri, details.getUsername(), details.getPassword()).build(), ssl);
        }
        if (details.getStandalone() != null) {
            var standalone = details.getStandalone();
            RedisURI.Builder uri = RedisURI.Builder.redis(standalone.getHost(), standalone.getPort())
                    .withDatabase(standalone.getDatabase()).withSsl(secure);
            return LettuceStore.connect(resources, authenticated(uri, details.getUsername(), details.getPassword()).build(), ssl);
        }
        throw new IllegalStateException("Ordo's redis mode supports standalone, Sentinel and Cluster connections, not master/replica");
    }

    private static RedisURI.Builder authenticated(RedisURI.Builder uri, String username, String password) {
        if (password == null) {
            return uri;
        }
        return username == null ? uri.withPassword(password.toCharArray()) : uri.withAuthentication(username, password.toCharArray());
    }

    /** The bundle's key and trust managers, protocols and ciphers, as Lettuce takes them. */
    private static SslOptions sslOptions(SslBundle bundle) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        if (bundle.getOptions().getCiphers() != null) {
            ssl.cipherSuites(bundle.getOptions().getCiphers());
        }
        if (bundle.getOptions().getEnabledProtocols() != null) {
            ssl.protocols(bundle.getOptions().getEnabledProtocols());
        }
        return ssl.build();
    }
}
