package dev.ordo.spring.boot.metrics;

import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.metrics.OrdoMetrics;
import dev.ordo.spring.boot.EmbeddedOrdo;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.LeaderboardDecorator;
import dev.ordo.spring.boot.Leaderboards;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.OrdoProperties;
import dev.ordo.spring.boot.RateLimiterDecorator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Ordo's meters, when the application has a {@link MeterRegistry} (Spring Boot's actuator makes
 * one): an {@link OrdoMetrics} on it and on the application's {@link ObservationRegistry} (whose
 * meter handler turns each observation into a timer; without one, a registry of its own does);
 * every declared rate limiter counted and observed; every call on every declared board observed;
 * gauges for every declared queue and board; a
 * {@link JobObserver} for queue workers; and in embedded mode the in-process Ordo's own figures.
 * The patterns' meters live in ordo-patterns and work without Spring; this only wires them.
 */
@AutoConfiguration(after = {OrdoEmbeddedAutoConfiguration.class, OrdoPatternsAutoConfiguration.class},
        afterName = {"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
                "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@EnableConfigurationProperties(OrdoMetricsProperties.class)
public final class OrdoMetricsAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoMetricsAutoConfiguration() {
    }

    /**
     * The patterns' meters and observations, for the declared patterns and for the application's own
     * ({@code instrument}, {@code gauge}), and the API a queue worker times its jobs with ({@code startJob}).
     *
     * @param meters       the application's meter registry
     * @param observations the application's observation registry, if it has one
     * @param properties   {@code ordo.metrics.*}
     * @return the metrics, closed with the context
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public OrdoMetrics ordoMetrics(MeterRegistry meters, ObjectProvider<ObservationRegistry> observations, OrdoMetricsProperties properties) {
        ObservationRegistry registry = observations.getIfAvailable(() -> {
            ObservationRegistry own = ObservationRegistry.create();
            own.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
            return own;
        });
        return OrdoMetrics.create(meters, registry, properties.refresh());
    }

    /**
     * Counts and observes every rate limiter declared under {@code ordo.rate-limits}.
     *
     * @param metrics the patterns' metrics
     * @return the decorator the limiters' registry applies
     */
    @Bean
    public RateLimiterDecorator ordoRateLimiterMetrics(OrdoMetrics metrics) {
        return metrics::instrument;
    }

    /**
     * Observes every call on every leaderboard declared under {@code ordo.leaderboards}, of every
     * kind, keeping its kind ({@code ordo.leaderboard.write} and {@code ordo.leaderboard.read},
     * keys {@code board} and {@code operation}).
     *
     * @param metrics the patterns' metrics
     * @return the decorator the boards' registry applies
     */
    @Bean
    public LeaderboardDecorator ordoLeaderboardMetrics(OrdoMetrics metrics) {
        return new LeaderboardDecorator() {
            @Override
            public Leaderboard decorate(String name, Leaderboard board) {
                return metrics.instrument(name, board);
            }

            @Override
            public PeriodicLeaderboard decorate(String name, PeriodicLeaderboard family) {
                return metrics.instrument(name, family);
            }

            @Override
            public ShardedLeaderboard decorate(String name, ShardedLeaderboard board) {
                return metrics.instrument(name, board);
            }

            @Override
            public String toString() {
                return "observations of each declared board";
            }
        };
    }

    /**
     * Times claims and the handling of jobs, for queue workers.
     *
     * @param metrics the patterns' metrics
     * @return the observer workers report to
     */
    @Bean
    @ConditionalOnMissingBean
    public JobObserver ordoJobObserver(OrdoMetrics metrics) {
        return new MeteredJobObserver(metrics);
    }

    /**
     * Binds {@code ordo.queue.jobs} for every declared queue and {@code ordo.leaderboard.size} for
     * every declared board, once every bean exists.
     *
     * @param metrics    the patterns' metrics
     * @param properties {@code ordo.*}, for each queue's kind (there when the queues are)
     * @param boards     the declared boards, when there is a store
     * @param queues     the declared queues, when there is a store
     * @return the binder
     */
    @Bean
    public SmartInitializingSingleton ordoPatternGauges(OrdoMetrics metrics, ObjectProvider<OrdoProperties> properties,
                                                        ObjectProvider<Leaderboards> boards, ObjectProvider<JobQueues> queues) {
        return () -> {
            boards.ifAvailable(registry -> registry.names().forEach(name -> metrics.gauge(name, registry.board(name))));
            queues.ifAvailable(registry -> properties.getObject().queues().forEach((name, spec) -> {
                if (spec.type() == OrdoProperties.QueueType.PRIORITY) {
                    metrics.gauge(name, registry.priority(name));
                } else {
                    metrics.gauge(name, registry.delayed(name));
                }
            }));
        };
    }

    /** Embedded mode: the in-process Ordo's commands, memory, keys and clients. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(EmbeddedOrdo.class)
    static class EmbeddedEngineMeters {
        @Bean(destroyMethod = "close")
        EngineMeters ordoEngineMeters(EmbeddedOrdo ordo, MeterRegistry meters, OrdoMetrics metrics) {
            return new EngineMeters(ordo.ordo().engine(), meters, metrics);
        }
    }
}
