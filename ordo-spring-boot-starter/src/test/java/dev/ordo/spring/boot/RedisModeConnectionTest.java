package dev.ordo.spring.boot;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.Node;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Redis mode's addresses for Sentinel and Cluster connections, as Boot's connection details
 * describe them: who authenticates where (the data user on the data nodes, the Sentinels' own
 * user on the Sentinels), the master's name, the database and TLS.
 */
class RedisModeConnectionTest {
    @Test
    void sentinel_sentinelsWithTheirCredentials_masterAndDatabase_dataUserOnTheMaster() {
        DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
            @Override
            public String getUsername() {
                return "app";
            }

            @Override
            public String getPassword() {
                return "app-secret";
            }

            @Override
            public Sentinel getSentinel() {
                return new Sentinel() {
                    @Override
                    public int getDatabase() {
                        return 3;
                    }

                    @Override
                    public String getMaster() {
                        return "mymaster";
                    }

                    @Override
                    public List<Node> getNodes() {
                        return List.of(new Node("s1", 26379), new Node("s2", 26380));
                    }

                    @Override
                    public String getUsername() {
                        return null;
                    }

                    @Override
                    public String getPassword() {
                        return "sentinel-secret";
                    }
                };
            }
        };
        RedisURI uri = RedisModeConnection.uri(details, true, Duration.ofMillis(300));
        assertThat(uri.getSentinelMasterId()).isEqualTo("mymaster");
        assertThat(uri.getTimeout()).as("spring.data.redis.timeout bounds the master's commands").isEqualTo(Duration.ofMillis(300));
        assertThat(uri.getDatabase()).isEqualTo(3);
        assertThat(uri.isSsl()).isTrue();
        assertThat(credentials(uri).getUsername()).isEqualTo("app");
        assertThat(credentials(uri).getPassword()).containsExactly("app-secret".toCharArray());
        assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
                .containsExactly(tuple("s1", 26379), tuple("s2", 26380));
        assertThat(uri.getSentinels()).allSatisfy(s -> {
            assertThat(credentials(s).getUsername()).isNull();
            assertThat(credentials(s).getPassword()).containsExactly("sentinel-secret".toCharArray());
            assertThat(s.isSsl()).isTrue();
            assertThat(s.getTimeout()).isEqualTo(Duration.ofMillis(300));
        });
    }

    @Test
    void cluster_everySeedCarriesTheDataUser_noPasswordMeansNoAuthentication() {
        DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
            @Override
            public String getPassword() {
                return "only-a-password";
            }

            @Override
            public Cluster getCluster() {
                return () -> List.of(new Node("n1", 7000), new Node("n2", 7001));
            }
        };
        List<RedisURI> seeds = RedisModeConnection.clusterSeeds(details, false, Duration.ofSeconds(2));
        assertThat(seeds).extracting(RedisURI::getHost).containsExactly("n1", "n2");
        assertThat(seeds).allSatisfy(seed -> {
            assertThat(credentials(seed).getUsername()).isNull();
            assertThat(credentials(seed).getPassword()).containsExactly("only-a-password".toCharArray());
            assertThat(seed.isSsl()).isFalse();
            assertThat(seed.getTimeout()).isEqualTo(Duration.ofSeconds(2));
        });

        DataRedisConnectionDetails open = new DataRedisConnectionDetails() {
            @Override
            public Cluster getCluster() {
                return () -> List.of(new Node("n1", 7000));
            }
        };
        RedisURI openSeed = RedisModeConnection.clusterSeeds(open, false, null).get(0);
        assertThat(credentials(openSeed).hasPassword()).isFalse();
        assertThat(openSeed.getTimeout()).as("no spring.data.redis.timeout: Lettuce's default").isEqualTo(RedisURI.DEFAULT_TIMEOUT_DURATION);
    }

    private static RedisCredentials credentials(RedisURI uri) {
        return uri.getCredentialsProvider().resolveCredentials().block();
    }

    @Test
    void masterReplica_refusedNamingWhatIsSupported() {
        assertThatThrownBy(() -> RedisModeConnection.uri(new DataRedisConnectionDetails() {
        }, false, null)).hasMessageContaining("standalone, Sentinel and Cluster");
    }
}
