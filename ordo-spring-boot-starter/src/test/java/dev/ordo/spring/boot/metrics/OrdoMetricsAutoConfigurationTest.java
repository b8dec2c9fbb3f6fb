package dev.ordo.spring.boot.metrics;

import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.metrics.OrdoMetrics;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.Leaderboards;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.RateLimiters;
import dev.ordo.spring.boot.jobs.JobHandler;
import dev.ordo.spring.boot.jobs.OrdoJobsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The starter wires the patterns' meters: for every declared pattern, on Boot's registries, and the engine's figures in embedded mode. */
class OrdoMetricsAutoConfigurationTest {
    private static final String USER = "user-4711";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, OrdoMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
                    SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                    ObservationAutoConfiguration.class))
            .withPropertyValues(
                    "ordo.leaderboards.weekly.order=highest-first",
                    "ordo.queues.reminders.type=delayed",
                    "ordo.queues.emails.type=priority",
                    "ordo.rate-limits.api.limits=2/1h");

    /** A queue worker whose second job fails. */
    static class Reminders {
        @JobHandler("reminders")
        void remind(String payload) {
            if (payload.equals("fail")) {
                throw new IllegalStateException("unreachable");
            }
        }
    }

    @Test
    void jobHandler_withAMeterRegistry_workerRecordsClaimsAndEachJobsOutcome() {
        runner.withConfiguration(AutoConfigurations.of(OrdoJobsAutoConfiguration.class)).withBean(Reminders.class)
                .withPropertyValues("ordo.queues.reminders.poll-wait=100ms").run(context -> {
                    DelayedJobQueue<String> queue = context.getBean(JobQueues.class).delayed("reminders");
                    queue.schedule("ok", "ok", Due.now());
                    queue.schedule("bad", "fail", Due.now());
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    long deadline = System.nanoTime() + 15_000_000_000L;
                    while (meters.find("ordo.queue.job.duration").tags("outcome", "acked").timer() == null
                            || meters.find("ordo.queue.job.duration").tags("outcome", "retried").timer() == null) {
                        assertThat(System.nanoTime()).as("waiting for both jobs' outcomes").isLessThan(deadline);
                        Thread.sleep(10);
                    }
                    assertThat(meters.get("ordo.queue.job.duration").tags("queue", "reminders", "outcome", "acked").timer().count())
                            .isEqualTo(1);
                    assertThat(meters.get("ordo.queue.job.duration").tags("queue", "reminders", "outcome", "retried").timer().count())
                            .isEqualTo(1);
                    assertThat(meters.get("ordo.queue.claim").tags("queue", "reminders").timer().count()).isPositive();
                });
    }

    @Test
    void declaredRateLimiter_withAMeterRegistry_countsDecisionsByResult() {
        runner.run(context -> {
            RateLimiter api = context.getBean(RateLimiters.class).get("api");
            for (int i = 0; i < 3; i++) {
                api.tryAcquire(USER);
            }

            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("ordo.ratelimiter.requests").tags("limiter", "api", "algorithm", "sliding-window", "result", "allowed")
                    .counter().count()).isEqualTo(2);
            assertThat(meters.get("ordo.ratelimiter.requests").tags("limiter", "api", "result", "refused").counter().count()).isEqualTo(1);
            assertThat(context.getBean("api")).isSameAs(api);
        });
    }

    @Test
    void declaredRateLimiter_withBootsObservationRegistry_isATimerOfTheObservationsNameOnly() {
        runner.run(context -> {
            context.getBean(RateLimiters.class).get("api").tryAcquire(USER);

            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("ordo.ratelimiter.acquire").tags("limiter", "api", "result", "allowed").timer().count()).isEqualTo(1);
            assertThat(meters.find("ordo.ratelimiter.requests").timers()).isEmpty();
        });
    }

    @Test
    void declaredRateLimiter_withTheApplicationsObservationRegistry_observesThere() {
        runner.withUserConfiguration(TestObservations.class).run(context -> {
            context.getBean(RateLimiters.class).get("api").tryAcquire(USER);

            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                    .hasObservationWithNameEqualTo("ordo.ratelimiter.acquire").that()
                    .hasBeenStopped().hasLowCardinalityKeyValue("limiter", "api").hasLowCardinalityKeyValue("result", "allowed");
        });
    }

    @Test
    void declaredBoards_ofEveryKind_timeEachCallByBoardAndKeepTheirBeanTypes() {
        runner.withPropertyValues("ordo.leaderboards.games.period=daily,all-time", "ordo.leaderboards.global.shards=3",
                "ordo.leaderboards.hot.cache-top.size=5", "ordo.leaderboards.hot.cache-top.max-age=1h").run(context -> {
            Leaderboard weekly = context.getBean("weekly", Leaderboard.class);
            PeriodicLeaderboard games = context.getBean("games", PeriodicLeaderboard.class);
            ShardedLeaderboard global = context.getBean("global", ShardedLeaderboard.class);
            Leaderboards boards = context.getBean(Leaderboards.class);

            weekly.addPoints(USER, 1);
            weekly.page(1, 10);
            games.addPointsAll(USER, 1);
            games.current(Period.daily()).top(3);
            global.addPoints(USER, 1);
            global.rank(USER);
            boards.get("hot").setScore(USER, 2);
            List<Entry<String>> hotTop = boards.cachedTop("hot").get();
            boards.cachedTop("hot").get(); // served from the cache: no call on the board

            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(calls(meters, "ordo.leaderboard.write", "weekly", "addPoints")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.read", "weekly", "page")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.write", "games", "addPointsAll")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.read", "games", "top")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.write", "global", "addPoints")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.read", "global", "rank")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.write", "hot", "setScore")).isEqualTo(1);
            assertThat(calls(meters, "ordo.leaderboard.read", "hot", "top")).isEqualTo(1);
            assertThat(hotTop).extracting(Entry::member).containsExactly(USER);
            assertThat(boards.board("weekly")).isSameAs(weekly);
            assertThat(boards.periodic("games")).isSameAs(games);
            assertThat(boards.sharded("global")).isSameAs(global);
        });
    }

    @Test
    void declaredBoard_withTheApplicationsObservationRegistry_observesThere() {
        runner.withUserConfiguration(TestObservations.class).withPropertyValues("ordo.leaderboards.global.shards=2").run(context -> {
            context.getBean("global", ShardedLeaderboard.class).top(3);

            TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                    .hasNumberOfObservationsWithNameEqualTo("ordo.leaderboard.read", 1)
                    .hasObservationWithNameEqualTo("ordo.leaderboard.read").that()
                    .hasBeenStopped().hasLowCardinalityKeyValue("board", "global").hasLowCardinalityKeyValue("operation", "top");
        });
    }

    /** How many calls the timer of {@code name} counted for the board's operation; 0 when there is no such timer. */
    private static long calls(MeterRegistry meters, String name, String board, String operation) {
        var timer = meters.find(name).tags("board", board, "operation", operation).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void declaredQueuesAndBoards_afterRefresh_haveTheirGauges() {
        runner.withPropertyValues("ordo.leaderboards.games.period=daily,all-time", "ordo.leaderboards.global.shards=3").run(context -> {
            context.getBean(Leaderboards.class).periodic("games").addPointsAll(USER, 1);
            context.getBean(Leaderboards.class).sharded("global").addPoints(USER, 1);
            Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
            weekly.addPoints(USER, 3);
            weekly.addPoints(USER + "-b", 4);
            DelayedJobQueue<String> reminders = context.getBean(JobQueues.class).delayed("reminders");
            reminders.schedule(USER, "call", Due.now());
            reminders.schedule(USER + "-later", "call", Due.in(java.time.Duration.ofHours(1)));
            PriorityJobQueue<String> emails = context.getBean(JobQueues.class).priority("emails");
            emails.offer(1, USER);

            context.getBean(OrdoMetrics.class).refresh();

            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("ordo.leaderboard.size").tag("board", "weekly").gauge().value()).isEqualTo(2);
            assertThat(meters.get("ordo.leaderboard.size").tag("board", "games").gauge().value()).isEqualTo(1);
            assertThat(meters.get("ordo.leaderboard.size").tag("board", "global").gauge().value()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.jobs").tags("queue", "reminders", "state", "ready").gauge().value()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.jobs").tags("queue", "reminders", "state", "delayed").gauge().value()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.jobs").tags("queue", "reminders", "state", "dead").gauge().value()).isZero();
            assertThat(meters.get("ordo.queue.jobs").tags("queue", "emails", "state", "ready").gauge().value()).isEqualTo(1);
            assertThat(meters.find("ordo.leaderboard.read").timers()).as("the gauges' counts are no calls of the application's").isEmpty();
        });
    }

    @Test
    void embeddedMode_afterCommands_hasCommandDurationByCommandAndTheEngineFigures() {
        runner.run(context -> {
            Store store = context.getBean(Store.class);
            // commands no pattern and no gauge sends, so these are the only calls counted
            store.call(StoreCommand.of("APPEND").key("log").arg("a"));
            store.call(StoreCommand.of("APPEND").key("log").arg("b"));
            store.call(StoreCommand.of("STRLEN").key("log"));

            context.getBean(EngineMeters.class).refresh();

            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("ordo.command.duration").tag("command", "append").functionTimer().count()).isEqualTo(2);
            assertThat(meters.get("ordo.command.duration").tag("command", "strlen").functionTimer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.keys").gauge().value()).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("ordo.clients.connected").gauge().value()).isGreaterThanOrEqualTo(1);
            assertThat(meters.get("ordo.memory.used").gauge().value()).isPositive();
        });
    }

    @Test
    void embeddedMode_withMetrics_oneRefreshThreadServesGaugesAndEngineFigures() {
        // threads of other contexts (cached by other test classes, or closing) are there before this one starts
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        runner.withPropertyValues("ordo.metrics.refresh=20ms").run(context -> {
            context.getBean(Store.class).call(StoreCommand.of("GETRANGE").key("log").arg(0).arg(1));
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            long deadline = System.nanoTime() + 15_000_000_000L;
            while (meters.find("ordo.command.duration").tag("command", "getrange").functionTimer() == null
                    || meters.get("ordo.leaderboard.size").tag("board", "weekly").gauge().value() != 0) {
                assertThat(System.nanoTime()).as("waiting for a scheduled refresh of both").isLessThan(deadline);
                Thread.sleep(10);
            }

            assertThat(meters.get("ordo.command.duration").tag("command", "getrange").functionTimer().count()).isEqualTo(1);
            List<String> started = Thread.getAllStackTraces().keySet().stream().filter(t -> !before.contains(t) && t.isAlive())
                    .map(Thread::getName).filter(name -> name.startsWith("ordo-") && name.contains("metrics")).toList();
            assertThat(started).as("refresh threads this context started").containsExactly("ordo-metrics-refresh");
        });
    }

    @Test
    void everyMeter_afterUse_carriesNoMemberKeyOrPayload() {
        runner.run(context -> {
            context.getBean(RateLimiters.class).get("api").tryAcquire(USER);
            context.getBean(Leaderboards.class).get("weekly").addPoints(USER, 1);
            context.getBean(JobQueues.class).delayed("reminders").schedule(USER, USER, Due.now());
            context.getBean(OrdoMetrics.class).refresh();
            context.getBean(EngineMeters.class).refresh();

            List<Tag> tags = context.getBean(MeterRegistry.class).getMeters().stream()
                    .filter(m -> m.getId().getName().startsWith("ordo.")).flatMap(m -> m.getId().getTags().stream()).toList();
            assertThat(tags).isNotEmpty().allSatisfy(t -> assertThat(t.getValue()).doesNotContain(USER));
        });
    }

    @Test
    void jobObserver_aWorkersSteps_timeClaimsAndJobsByOutcome() {
        runner.run(context -> {
            DelayedJobQueue<String> reminders = context.getBean(JobQueues.class).delayed("reminders");
            reminders.schedule(USER + "-1", "call", Due.now());
            reminders.schedule(USER + "-2", "call", Due.now());
            JobObserver observer = context.getBean(JobObserver.class);

            List<ClaimedJob<String>> jobs = observer.claim("reminders", () -> reminders.claim(2));
            JobObserver.Handling first = observer.start("reminders");
            String handled = first.call(() -> jobs.get(0).payload());
            boolean acked = first.ack(() -> reminders.ack(jobs.get(0)));
            DelayedJobQueue.NackOutcome nacked = observer.start("reminders")
                    .nack(() -> reminders.nack(jobs.get(1), "failed"), new IllegalStateException("failed"));

            assertThat(handled).isEqualTo("call");
            assertThat(acked).isTrue();
            assertThat(nacked).isEqualTo(DelayedJobQueue.NackOutcome.RETRY_SCHEDULED);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("ordo.queue.claim").tag("queue", "reminders").timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.job.duration").tags("queue", "reminders", "outcome", "acked").timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.job.duration").tags("queue", "reminders", "outcome", "retried").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void jobObserver_handler_runsInsideTheJobsObservation() {
        runner.withUserConfiguration(TestObservations.class).run(context -> {
            ObservationRegistry observations = context.getBean(ObservationRegistry.class);
            JobObserver.Handling handling = context.getBean(JobObserver.class).start("reminders");

            String current = handling.call(() -> observations.getCurrentObservation().getContext().getName());
            handling.abandon();

            assertThat(current).isEqualTo("ordo.queue.job.duration");
            assertThat(observations.getCurrentObservation()).isNull();
        });
    }

    @Test
    void jobObserverNone_runsEachStepAsItIs() throws Exception {
        JobObserver.Handling handling = JobObserver.NONE.start("q");

        assertThat(JobObserver.NONE.<String>claim("q", List::of)).isEmpty();
        assertThat(handling.call(() -> 42)).isEqualTo(42);
        assertThat(handling.ack(() -> false)).isFalse();
        assertThat(handling.nack(() -> DelayedJobQueue.NackOutcome.DEAD, null)).isEqualTo(DelayedJobQueue.NackOutcome.DEAD);
    }

    @Test
    void jobObserver_refersToNoMicrometerType_soAWorkerMayHoldItWithoutMicrometer() throws IOException {
        for (String name : new String[] {"JobObserver", "JobObserver$1", "JobObserver$1$1", "JobObserver$Handling"}) {
            try (InputStream in = JobObserver.class.getResourceAsStream(name + ".class")) {
                assertThat(in).as(name).isNotNull();
                assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).as(name).doesNotContain("io/micrometer/");
            }
        }
        try (InputStream in = JobObserver.class.getResourceAsStream("MeteredJobObserver$1.class")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).as("the scan sees references").contains("io/micrometer/");
        }
    }

    @Test
    void withoutAMeterRegistry_limitersAreLeftUndecorated() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                        OrdoPatternsAutoConfiguration.class, OrdoMetricsAutoConfiguration.class))
                .withPropertyValues("ordo.rate-limits.api.limits=2/1h")
                .run(context -> {
                    assertThat(context).doesNotHaveBean(OrdoMetrics.class).doesNotHaveBean(EngineMeters.class);
                    assertThat(context.getBean(RateLimiters.class).get("api")).isInstanceOf(SlidingWindowLimiter.class);
                });
    }

    @Test
    void withoutTheEmbeddedOrdo_noEngineMeters() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OrdoMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(OrdoMetrics.class).doesNotHaveBean(EngineMeters.class);
                    assertThat(context.getBean(MeterRegistry.class).find("ordo.command.duration").meters()).isEmpty();
                });
    }

    @Test
    void refreshNotPositive_failsStartupNamingTheProperty() {
        runner.withPropertyValues("ordo.metrics.refresh=0s").run(context ->
                assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining("ordo.metrics.refresh"));
    }

    @Configuration(proxyBeanMethods = false)
    static class TestObservations {
        @Bean
        ObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }
    }
}
