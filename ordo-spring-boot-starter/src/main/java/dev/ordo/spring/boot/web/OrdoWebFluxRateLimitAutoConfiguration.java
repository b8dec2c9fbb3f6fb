package dev.ordo.spring.boot.web;

import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.RateLimiters;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.WebFilter;

/**
 * Rate limiting in a Spring WebFlux application: {@link RateLimited} handler methods, through a
 * WebFilter that finds the handler method, and the URL filters of
 * {@code ordo.web.rate-limit.filters}, each a WebFilter. Both call the limiter asynchronously.
 * On when the application has declared limiters (a {@link RateLimiters} bean) and
 * {@code ordo.web.rate-limit.enabled} is not false. At startup every mapped handler's annotation
 * is checked, so an unknown limiter or a key that is not SpEL fails there, naming the method.
 */
@AutoConfiguration(after = OrdoPatternsAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({WebFilter.class, RequestMappingHandlerMapping.class})
@ConditionalOnBean(RateLimiters.class)
@ConditionalOnBooleanProperty(name = "ordo.web.rate-limit.enabled", matchIfMissing = true)
@EnableConfigurationProperties(WebRateLimitProperties.class)
public final class OrdoWebFluxRateLimitAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoWebFluxRateLimitAutoConfiguration() {
    }

    /**
     * Registers a WebFilter per entry of {@code ordo.web.rate-limit.filters}.
     *
     * @return the registrar
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static BeanDefinitionRegistryPostProcessor ordoRateLimitFilters() {
        return new UrlFilterBeans(UrlRateLimitWebFilter.class, (url, name) -> new UrlRateLimitWebFilter(url));
    }

    @Bean
    WebRateLimits ordoWebRateLimits(RateLimiters limiters, BeanFactory beanFactory) {
        return new WebRateLimits(limiters, beanFactory);
    }

    @Bean
    RateLimitedWebFilter ordoRateLimitedWebFilter(WebRateLimits limits, ObjectProvider<RequestMappingHandlerMapping> mappings) {
        return new RateLimitedWebFilter(limits, mappings);
    }
}
