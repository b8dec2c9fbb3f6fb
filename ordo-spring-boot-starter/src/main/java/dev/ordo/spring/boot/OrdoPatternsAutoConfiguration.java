package dev.ordo.spring.boot;

import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.Store;
import io.lettuce.core.resource.ClientResources;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionBuilder;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;


/**
 * The patterns: a {@link Store} for the active mode, and the leaderboards, queues and rate
 * limiters declared in {@code ordo.*}, in the registries {@link Leaderboards}, {@link JobQueues}
 * and {@link RateLimiters} and as beans named after their entries.
 */
@AutoConfiguration(after = {OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class})
@EnableConfigurationProperties({OrdoProperties.class, OrdoRegistryProperties.class})
public final class OrdoPatternsAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoPatternsAutoConfiguration() {
    }

    /**
     * Registers one bean per declared leaderboard, queue and limiter, named after its entry.
     *
     * @return the registrar
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    public static BeanDefinitionRegistryPostProcessor ordoNamedPatterns() {
        return new NamedPatterns();
    }

    /**
     * The leaderboards declared under {@code ordo.leaderboards}.
     *
     * @param store      the store of the active mode
     * @param properties {@code ordo.*}
     * @param decorators decorate each board keeping its kind (the metrics' observing one among them), in their order
     * @return the registry
     */
    @Bean
    @ConditionalOnBean(Store.class)
    public Leaderboards ordoLeaderboards(Store store, OrdoProperties properties, ObjectProvider<LeaderboardDecorator> decorators) {
        return Leaderboards.build(store, properties.leaderboards(), decorators.orderedStream().toList());
    }

    /**
     * The job queues declared under {@code ordo.queues}.
     *
     * @param store      the store of the active mode
     * @param properties {@code ordo.*}
     * @return the registry
     */
    @Bean
    @ConditionalOnBean(Store.class)
    public JobQueues ordoJobQueues(Store store, OrdoProperties properties) {
        return JobQueues.build(store, properties.queues());
    }

    /**
     * The rate limiters declared under {@code ordo.rate-limits}.
     *
     * @param store      the store of the active mode
     * @param properties {@code ordo.*}
     * @param decorators wrap each limiter (the metrics' counting one among them), in their order
     * @return the registry
     */
    @Bean
    @ConditionalOnBean(Store.class)
    public RateLimiters ordoRateLimiters(Store store, OrdoProperties properties, ObjectProvider<RateLimiterDecorator> decorators) {
        return RateLimiters.build(store, properties.rateLimits(), decorators.orderedStream().toList());
    }

    /**
     * Records the declared patterns in the database's pattern registry once the beans are built
     * (so after the registries above have checked every declaration), for the Ordo Console.
     *
     * @param store      the store of the active mode
     * @param properties {@code ordo.*}
     * @param registry   {@code ordo.registry.*}
     * @return the registration
     */
    @Bean
    @ConditionalOnBean(Store.class)
    @ConditionalOnProperty(name = "ordo.registry.enabled", havingValue = "true", matchIfMissing = true)
    public SmartInitializingSingleton ordoPatternRegistration(Store store, OrdoProperties properties, OrdoRegistryProperties registry) {
        return new PatternRegistration(store, registry.key(), properties);
    }

    /** Embedded mode's store: the engine itself, called in-process with no socket. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(EmbeddedOrdo.class)
    static class EmbeddedModeStore {
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(Store.class)
        Store ordoStore(EmbeddedOrdo ordo) {
            return EmbeddedStore.on(ordo.ordo().engine());
        }
    }

    /** Redis mode's store: Lettuce, on the server of the application's Redis connection. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(ModeCondition.Redis.class)
    @ConditionalOnBean(DataRedisConnectionDetails.class)
    static class RedisModeStore {
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(Store.class)
        Store ordoStore(DataRedisConnectionDetails details, ObjectProvider<DataRedisProperties> properties,
                        ObjectProvider<ClientResources> resources) {
            DataRedisProperties redis = properties.getIfAvailable(DataRedisProperties::new);
            boolean tls = redis.getSsl().isEnabled() || (redis.getUrl() != null && redis.getUrl().startsWith("rediss:"));
            return RedisModeConnection.connect(details, resources.getObject(), tls, redis.getTimeout());
        }

        /** Client resources for Ordo's connection when the application has none (its Redis client is Jedis). */
        @Bean(destroyMethod = "shutdown")
        @ConditionalOnMissingBean(ClientResources.class)
        ClientResources ordoClientResources() {
            return ClientResources.create();
        }
    }

    /**
     * Registers each declared entry as a bean named after it, made by its registry's getter, so
     * {@code @Qualifier("weekly")} finds it. Reads the names from the environment, before any bean exists.
     */
    static final class NamedPatterns implements BeanDefinitionRegistryPostProcessor, EnvironmentAware {
        private Environment environment;

        @Override
        public void setEnvironment(Environment environment) {
            this.environment = environment;
        }

        @Override
        public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
            OrdoProperties properties = Binder.get(environment).bind("ordo", OrdoProperties.class).orElse(null);
            if (properties == null) {
                return;
            }
            properties.leaderboards().forEach((name, spec) -> register(registry, name, "ordoLeaderboards", Leaderboards.getterFor(spec)));
            properties.queues().forEach((name, spec) -> register(registry, name, "ordoJobQueues",
                    spec.type() == OrdoProperties.QueueType.PRIORITY ? "priority" : "delayed"));
            properties.rateLimits().keySet().forEach(name -> register(registry, name, "ordoRateLimiters", "get"));
        }

        private static void register(BeanDefinitionRegistry registry, String name, String factoryBean, String getter) {
            registry.registerBeanDefinition(name, BeanDefinitionBuilder.genericBeanDefinition()
                    .setFactoryMethodOnBean(getter, factoryBean).addConstructorArgValue(name).getBeanDefinition());
        }

        @Override
        public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        }
    }
}
