package dev.ordo.spring.boot.health;

import dev.ordo.patterns.store.Store;
import dev.ordo.spring.boot.EmbeddedOrdo;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import java.time.Duration;

/**
 * The {@code ordo} health contributor, when Spring Boot's health support is on the class path
 * (it comes with the actuator). Turned off by {@code management.health.ordo.enabled=false}.
 */
@AutoConfiguration(after = OrdoPatternsAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(Store.class)
@ConditionalOnEnabledHealthIndicator("ordo")
public final class OrdoHealthAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoHealthAutoConfiguration() {
    }

    /**
     * The {@code ordo} health indicator.
     *
     * @param store      the store of the active mode
     * @param embedded   the in-process Ordo, in embedded mode
     * @return the indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "ordoHealthIndicator")
    public OrdoHealthIndicator ordoHealthIndicator(Store store, ObjectProvider<EmbeddedOrdo> embedded) {
        EmbeddedOrdo ordo = embedded.getIfAvailable();
        return new OrdoHealthIndicator(store, ordo != null ? "embedded" : "redis", ordo, Duration.ofSeconds(2));
    }
}
