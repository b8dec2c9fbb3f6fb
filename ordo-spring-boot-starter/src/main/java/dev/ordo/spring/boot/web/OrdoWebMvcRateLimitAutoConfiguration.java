package dev.ordo.spring.boot.web;

import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.RateLimiters;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Rate limiting in a Spring MVC application: {@link RateLimited} handler methods, through a
 * {@code HandlerInterceptor}, and the URL filters of {@code ordo.web.rate-limit.filters}, each a
 * servlet filter. On when the application has declared limiters (a {@link RateLimiters} bean) and
 * {@code ordo.web.rate-limit.enabled} is not false. At startup every mapped handler's annotation
 * is checked, so an unknown limiter or a key that is not SpEL fails there, naming the method.
 */
@AutoConfiguration(after = OrdoPatternsAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({WebMvcConfigurer.class, FilterRegistrationBean.class})
@ConditionalOnBean(RateLimiters.class)
@ConditionalOnBooleanProperty(name = "ordo.web.rate-limit.enabled", matchIfMissing = true)
@EnableConfigurationProperties(WebRateLimitProperties.class)
public final class OrdoWebMvcRateLimitAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoWebMvcRateLimitAutoConfiguration() {
    }

    /**
     * Registers a servlet filter per entry of {@code ordo.web.rate-limit.filters}.
     *
     * @return the registrar
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static BeanDefinitionRegistryPostProcessor ordoRateLimitFilters() {
        return new UrlFilterBeans(FilterRegistrationBean.class, (url, name) -> {
            FilterRegistrationBean<ServletRateLimitFilter> registration = new FilterRegistrationBean<>(new ServletRateLimitFilter(url));
            registration.setName(name);
            registration.setOrder(url.order());
            return registration;
        });
    }

    @Bean
    WebRateLimits ordoWebRateLimits(RateLimiters limiters, BeanFactory beanFactory) {
        return new WebRateLimits(limiters, beanFactory);
    }

    @Bean
    WebMvcConfigurer ordoRateLimitInterceptor(WebRateLimits limits) {
        return new WebMvcConfigurer() {
            @Override
            public void addInterceptors(InterceptorRegistry registry) {
                registry.addInterceptor(new RateLimitInterceptor(limits));
            }
        };
    }

    @Bean
    SmartInitializingSingleton ordoRateLimitedHandlersCheck(WebRateLimits limits, ListableBeanFactory beanFactory) {
        return () -> limits.checkAll(beanFactory.getBeansOfType(RequestMappingHandlerMapping.class).values().stream()
                .flatMap(mapping -> mapping.getHandlerMethods().values().stream()));
    }
}
