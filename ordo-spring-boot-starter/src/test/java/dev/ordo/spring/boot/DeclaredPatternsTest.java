package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Leaderboards, queues and rate limiters declared in properties: built at startup with their settings, injectable by name. */
class DeclaredPatternsTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class))
            .withPropertyValues(
                    "ordo.leaderboards.weekly.metadata=true",
                    "ordo.leaderboards.race.order=lowest-first",
                    "ordo.leaderboards.race.tie-rule=competition",
                    "ordo.queues.reminders.max-attempts=1",
                    "ordo.queues.reminders.visibility-timeout=5s",
                    "ordo.queues.emails.type=priority",
                    "ordo.rate-limits.api.limits=2/1h",
                    "ordo.rate-limits.login.limits=3/1m,5/1h",
                    "ordo.rate-limits.login.algorithm=sliding-log",
                    "ordo.rate-limits.burst.limits=1/1h",
                    "ordo.rate-limits.burst.algorithm=token-bucket");

    /** An application's service, injected by qualifier. */
    record Injected(Leaderboard weekly, DelayedJobQueue<String> reminders, PriorityJobQueue<String> emails, RateLimiter api) {
    }

    @Configuration(proxyBeanMethods = false)
    static class ByQualifier {
        @Bean
        Injected injected(@Qualifier("weekly") Leaderboard weekly, @Qualifier("reminders") DelayedJobQueue<String> reminders,
                          @Qualifier("emails") PriorityJobQueue<String> emails, @Qualifier("api") RateLimiter api) {
            return new Injected(weekly, reminders, emails, api);
        }
    }

    @Test
    void declaredEntries_areRegistryEntriesAndBeansOfTheirName() {
        runner.withUserConfiguration(ByQualifier.class).run(context -> {
            Injected injected = context.getBean(Injected.class);
            assertThat(injected.weekly()).isSameAs(context.getBean(Leaderboards.class).get("weekly")).isSameAs(context.getBean("weekly"));
            assertThat(injected.reminders()).isSameAs(context.getBean(JobQueues.class).delayed("reminders"));
            assertThat(injected.emails()).isSameAs(context.getBean(JobQueues.class).priority("emails"));
            assertThat(injected.api()).isSameAs(context.getBean(RateLimiters.class).get("api"));
            assertThat(context.getBean(Leaderboards.class).names()).containsExactly("race", "weekly");
            assertThat(context.getBean(JobQueues.class).names()).containsExactly("emails", "reminders");
            assertThat(context.getBean(RateLimiters.class).names()).containsExactly("api", "burst", "login");
        });
    }

    @Test
    void leaderboard_orderAndTieRuleFromProperties() {
        runner.run(context -> {
            Leaderboard race = context.getBean(Leaderboards.class).get("race");
            race.setScore("slow", 70.5);
            race.setScore("fast", 61.2);
            race.setScore("also-fast", 61.2);
            List<Entry<String>> top = race.top(3);
            assertThat(top).extracting(Entry::member).containsExactly("also-fast", "fast", "slow");
            assertThat(top).extracting(Entry::rank).containsExactly(1L, 1L, 3L);
            Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
            weekly.addPoints("alice", 10);
            weekly.addPoints("bob", 20);
            assertThat(weekly.top(2)).extracting(Entry::member).containsExactly("bob", "alice");
        });
    }

    @Test
    void delayedQueue_maxAttemptsFromProperties() {
        runner.run(context -> {
            DelayedJobQueue<String> reminders = context.getBean(JobQueues.class).delayed("reminders");
            assertThat(reminders.schedule("r1", "call mum", Due.now())).isTrue();
            List<ClaimedJob<String>> claimed = reminders.claim(10);
            assertThat(claimed).extracting(ClaimedJob::payload).containsExactly("call mum");
            assertThat(reminders.nack(claimed.get(0), "phone busy")).isEqualTo(DelayedJobQueue.NackOutcome.DEAD);
            assertThat(reminders.counts().dead()).isEqualTo(1);
        });
    }

    @Test
    void priorityQueue_takesTheMostUrgentFirst() {
        runner.run(context -> {
            PriorityJobQueue<String> emails = context.getBean(JobQueues.class).priority("emails");
            emails.offer(5, "newsletter");
            emails.offer(0, "password reset");
            assertThat(emails.poll()).get().extracting(job -> job.payload()).isEqualTo("password reset");
            assertThat(emails.poll()).get().extracting(job -> job.payload()).isEqualTo("newsletter");
            assertThat(emails.poll()).isEmpty();
        });
    }

    @Test
    void rateLimits_limitsAndAlgorithmFromProperties() {
        runner.run(context -> {
            RateLimiters limiters = context.getBean(RateLimiters.class);
            RateLimiter api = limiters.get("api");
            assertThat(api.tryAcquire("u1").allowed()).isTrue();
            assertThat(api.tryAcquire("u1").allowed()).isTrue();
            assertThat(api.tryAcquire("u1").allowed()).isFalse();
            assertThat(api.tryAcquire("u2").allowed()).isTrue();
            assertThat(limiters.get("login")).isInstanceOf(SlidingLogLimiter.class);
            RateLimiter burst = limiters.get("burst");
            assertThat(burst).isInstanceOf(TokenBucketLimiter.class);
            assertThat(burst.tryAcquire("u1").allowed()).isTrue();
            assertThat(burst.tryAcquire("u1").allowed()).isFalse();
        });
    }

    @Test
    void unknownName_namesThePropertyAndTheDeclaredOnes() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Leaderboards.class).get("daily"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ordo.leaderboards.daily").hasMessageContaining("[race, weekly]"));
    }

    @Test
    void malformedLimit_failsStartupNamingTheProperty() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        OrdoPatternsAutoConfiguration.class))
                .withPropertyValues("ordo.rate-limits.api.limits=ten/1s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("ordo.rate-limits.api.limits").hasMessageContaining("ten/1s"));
    }

    @Test
    void noDeclarations_emptyRegistries() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        OrdoPatternsAutoConfiguration.class))
                .run(context -> {
                    assertThat(context.getBean(Leaderboards.class).names()).isEmpty();
                    assertThat(context.getBean(JobQueues.class).names()).isEmpty();
                    assertThat(context.getBean(RateLimiters.class).names()).isEmpty();
                });
    }
}
