package dev.ordo.spring.boot.health;

import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The ordo health contributor: UP with mode, version and data dir while the store answers, DOWN when it does not. */
class OrdoHealthIndicatorTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
            OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class, OrdoPatternsAutoConfiguration.class,
            OrdoHealthAutoConfiguration.class, HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class));

    @Test
    void embedded_upWithModePortVersionAndDataDir(@TempDir Path dir) {
        runner.withPropertyValues("ordo.embedded.data-dir=" + dir).run(context -> {
            assertThat(context.getBean(HealthContributorRegistry.class).getContributor("ordo")).isInstanceOf(OrdoHealthIndicator.class);
            Health health = context.getBean(OrdoHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("mode", "embedded")
                    .containsEntry("dataDir", dir.toAbsolutePath().toString()).containsEntry("dataDirWritable", true)
                    .containsKey("port").containsKey("version");
            assertThat((String) health.getDetails().get("version")).matches("\\d+\\.\\d+\\.\\d+");
        });
    }

    @Test
    void redisMode_downWhenTheServerStopsAnswering() {
        Ordo server = Ordo.embedded();
        int port = server.openPort(0);
        try {
            runner.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + port).run(context -> {
                OrdoHealthIndicator indicator = context.getBean(OrdoHealthIndicator.class);
                assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
                assertThat(indicator.health().getDetails()).containsEntry("mode", "redis").doesNotContainKey("port");
                server.close();
                assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
            });
        } finally {
            server.close();
        }
    }

    @Test
    void disabledByProperty_noIndicator() {
        runner.withPropertyValues("management.health.ordo.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OrdoHealthIndicator.class));
    }
}
