package dev.ordo.spring.boot.web;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.function.BiFunction;

/**
 * Registers one bean per entry of {@code ordo.web.rate-limit.filters}, named
 * {@code ordoRateLimitFilter<index>}, so each entry is a filter of its own with its own order
 * among the application's filters (a servlet filter registration, or a WebFilter). Reads the
 * entries from the environment, before any bean exists; each bean is made when the web server
 * starts, and an entry naming an unknown limiter fails startup there.
 */
final class UrlFilterBeans implements BeanDefinitionRegistryPostProcessor, EnvironmentAware, BeanFactoryAware {
    private final Class<?> beanClass;
    private final BiFunction<UrlRateLimit, String, Object> factory;
    private Environment environment;
    private BeanFactory beanFactory;

    /** Registers beans of {@code beanClass}, which {@code factory} makes from an entry and the bean's name. */
    UrlFilterBeans(Class<?> beanClass, BiFunction<UrlRateLimit, String, Object> factory) {
        this.beanClass = beanClass;
        this.factory = factory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
        List<WebRateLimitProperties.Filter> filters = Binder.get(environment).bind("ordo.web.rate-limit", WebRateLimitProperties.class)
                .map(WebRateLimitProperties::filters).orElse(List.of());
        for (int i = 0; i < filters.size(); i++) {
            int index = i;
            WebRateLimitProperties.Filter filter = filters.get(i);
            String name = "ordoRateLimitFilter" + i;
            RootBeanDefinition definition = new RootBeanDefinition(beanClass);
            definition.setInstanceSupplier(() -> factory.apply(UrlRateLimit.of(index, filter, beanFactory.getBean(WebRateLimits.class)), name));
            registry.registerBeanDefinition(name, definition);
        }
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
    }
}
