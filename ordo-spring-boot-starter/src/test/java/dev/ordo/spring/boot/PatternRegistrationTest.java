package dev.ordo.spring.boot;

import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Declared patterns are recorded in the pattern registry at startup, with the settings the console opens them by. */
class PatternRegistrationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class))
            .withPropertyValues(
                    "ordo.leaderboards.arena.order=lowest-first",
                    "ordo.leaderboards.arena.tie-rule=first-reached",
                    "ordo.leaderboards.weekly.period=weekly,all-time",
                    "ordo.leaderboards.weekly.zone=Europe/Paris",
                    "ordo.queues.mail.max-attempts=7",
                    "ordo.queues.urgent.type=priority",
                    "ordo.rate-limits.api.limits=10/1s,1000/1h",
                    "ordo.rate-limits.api.algorithm=token-bucket");

    @Test
    void startup_recordsEveryDeclaredPatternWithItsSettings() {
        runner.run(context -> {
            List<PatternInfo> recorded = PatternRegistry.on(context.getBean(Store.class)).list();

            assertThat(recorded).extracting(p -> p.kind().id() + ":" + p.name()).containsExactly(
                    "leaderboard:arena", "leaderboard:weekly", "delayed-queue:mail", "priority-queue:urgent", "rate-limiter:api");
            assertThat(recorded.get(0).settings()).containsEntry("order", "lowest-first").containsEntry("tie-rule", "first-reached")
                    .containsEntry("shards", "1");
            assertThat(recorded.get(1).settings()).containsEntry("period", "weekly,all-time").containsEntry("zone", "Europe/Paris");
            assertThat(recorded.get(2).settings()).isEqualTo(Map.of("visibility-timeout", "PT30S", "max-attempts", "7"));
            assertThat(recorded.get(4).settings()).isEqualTo(Map.of("algorithm", "token-bucket", "limits", "10/PT1S,1000/PT1H"));
        });
    }

    @Test
    void registryKeyAndSwitch_areProperties() {
        runner.withPropertyValues("ordo.registry.key=app1:registry").run(context -> {
            Store store = context.getBean(Store.class);
            assertThat(PatternRegistry.on(store, "app1:registry").list()).hasSize(5);
            assertThat(PatternRegistry.on(store).list()).isEmpty();
        });
        runner.withPropertyValues("ordo.registry.enabled=false").run(context ->
                assertThat(PatternRegistry.on(context.getBean(Store.class)).list()).isEmpty());
    }
}
