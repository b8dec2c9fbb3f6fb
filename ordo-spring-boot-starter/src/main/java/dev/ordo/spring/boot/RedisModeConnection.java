package dev.ordo.spring.boot;

import dev.ordo.patterns.lettuce.LettuceStore;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.resource.ClientResources;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.Node;
import org.springframework.boot.ssl.SslBundle;

import java.time.Duration;
import java.util.List;

/**
 * Redis mode's connection: a {@link LettuceStore} on the server Spring Boot's
 * {@link DataRedisConnectionDetails} describe (standalone, Sentinel or Cluster), as the same user,
 * over TLS when the application's connection uses it (with its SSL bundle's key and trust
 * material, or the JVM's), and on the application's Lettuce {@link ClientResources}, so Ordo adds
 * a connection but no event loop. The store speaks RESP2 on its own client: Boot's
 * {@code LettuceConnectionFactory} client may have negotiated RESP3, whose reply shapes differ.
 * Its commands time out after {@code spring.data.redis.timeout}, as the application's own
 * connection's do (blocking ones after their block time plus that), or Lettuce's 60 s when unset.
 */
final class RedisModeConnection {
    private RedisModeConnection() {
    }

    /**
     * Connects as {@code details} say.
     *
     * @param tls whether the application's connection uses TLS without naming a bundle
     *            ({@code spring.data.redis.ssl.enabled}, a {@code rediss://} URL)
     * @param timeout the command timeout ({@code spring.data.redis.timeout}), or null for Lettuce's default
     */
    static LettuceStore connect(DataRedisConnectionDetails details, ClientResources resources, boolean tls, Duration timeout) {
        SslBundle bundle = details.getSslBundle();
        SslOptions ssl = bundle == null ? null : sslOptions(bundle);
        if (details.getCluster() != null) {
            return LettuceStore.connectCluster(resources, clusterSeeds(details, tls, timeout), ssl);
        }
        return LettuceStore.connect(resources, uri(details, tls, timeout), ssl);
    }

    /** A Cluster's seed nodes, each with the data user's credentials and the command timeout (null: Lettuce's default). */
    static List<RedisURI> clusterSeeds(DataRedisConnectionDetails details, boolean tls, Duration timeout) {
        boolean secure = tls || details.getSslBundle() != null;
        return details.getCluster().getNodes().stream()
                .map(node -> timed(authenticated(RedisURI.Builder.redis(node.host(), node.port()), details.getUsername(), details.getPassword())
                        .withSsl(secure), timeout).build())
                .toList();
    }

    /**
     * The URI of a standalone server, or of a Sentinel-managed master: the Sentinels with their own
     * credentials, the master's name and the database, with the data user's credentials; all with
     * the command timeout (null: Lettuce's default).
     */
    static RedisURI uri(DataRedisConnectionDetails details, boolean tls, Duration timeout) {
        boolean secure = tls || details.getSslBundle() != null;
        if (details.getSentinel() != null) {
            var sentinel = details.getSentinel();
            RedisURI.Builder uri = RedisURI.builder().withSentinelMasterId(sentinel.getMaster()).withDatabase(sentinel.getDatabase()).withSsl(secure);
            for (Node node : sentinel.getNodes()) {
                uri.withSentinel(timed(authenticated(RedisURI.Builder.redis(node.host(), node.port()), sentinel.getUsername(), sentinel.getPassword())
                        .withSsl(secure), timeout).build());
            }
            return timed(authenticated(uri, details.getUsername(), details.getPassword()), timeout).build();
        }
        if (details.getStandalone() != null) {
            var standalone = details.getStandalone();
            RedisURI.Builder uri = RedisURI.Builder.redis(standalone.getHost(), standalone.getPort())
                    .withDatabase(standalone.getDatabase()).withSsl(secure);
            return timed(authenticated(uri, details.getUsername(), details.getPassword()), timeout).build();
        }
        throw new IllegalStateException("Ordo's redis mode supports standalone, Sentinel and Cluster connections, not master/replica");
    }

    private static RedisURI.Builder timed(RedisURI.Builder uri, Duration timeout) {
        return timeout == null ? uri : uri.withTimeout(timeout);
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
