package dev.ordo.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * Embedded mode: starts Ordo in this JVM and points Spring Data Redis at it by publishing
 * {@link DataRedisConnectionDetails}, which Boot's Redis auto-configuration (ordered after this one)
 * then uses instead of {@code spring.data.redis.*}. Active when {@code ordo.mode=embedded}, or
 * when {@code ordo.mode} is not set and no Redis server is configured.
 */
@AutoConfiguration(before = DataRedisAutoConfiguration.class,
        afterName = "org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration")
@Conditional(ModeCondition.Embedded.class)
@EnableConfigurationProperties(OrdoProperties.class)
public final class OrdoEmbeddedAutoConfiguration {
    /** The property that holds the embedded Ordo's port once it is open, as {@code local.server.port} does for a web server. */
    public static final String LOCAL_PORT_PROPERTY = "local.ordo.port";

    /** Creates the configuration; Spring calls this. */
    public OrdoEmbeddedAutoConfiguration() {
    }

    /**
     * The in-process Ordo, with its port open; published as {@value #LOCAL_PORT_PROPERTY}.
     *
     * @param properties  {@code ordo.*}
     * @param environment where the port is published
     * @return the running Ordo, closed with the context
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public EmbeddedOrdo embeddedOrdo(OrdoProperties properties, ConfigurableEnvironment environment) {
        EmbeddedOrdo ordo = EmbeddedOrdo.start(properties.embedded());
        environment.getPropertySources().addFirst(new MapPropertySource("ordo.embedded", Map.of(LOCAL_PORT_PROPERTY, ordo.port())));
        return ordo;
    }

    /**
     * Spring Data Redis's connection to the in-process Ordo; an application's own details bean
     * (a Testcontainers {@code @ServiceConnection}, say) takes its place.
     *
     * @param ordo the in-process Ordo
     * @return its host, port and password
     */
    @Bean
    @ConditionalOnMissingBean(DataRedisConnectionDetails.class)
    public DataRedisConnectionDetails ordoRedisConnectionDetails(EmbeddedOrdo ordo) {
        return new EmbeddedConnectionDetails(ordo);
    }

    /** Ordo's address as Boot's Redis auto-configuration reads it. */
    private record EmbeddedConnectionDetails(EmbeddedOrdo ordo) implements DataRedisConnectionDetails {
        @Override
        public Standalone getStandalone() {
            return Standalone.of(ordo.host(), ordo.port());
        }

        @Override
        public String getPassword() {
            return ordo.password().orElse(null);
        }
    }
}
