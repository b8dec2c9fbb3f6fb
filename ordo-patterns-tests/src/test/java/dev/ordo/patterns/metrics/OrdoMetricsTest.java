package dev.ordo.patterns.metrics;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.store.Store;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The patterns' meters and observations on the embedded back end: counters count, cached gauges
 * change only on refresh, observations carry their documented names and keys, and no member,
 * limiter key, job id or payload reaches a tag or a key value.
 */
class OrdoMetricsTest {
    /** Marks every member, key, job id and payload the tests use; no tag or key value may hold it. */
    private static final String SECRET = "s3cr3t-user";

    private final Store store = Backend.EMBEDDED.store();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final OrdoMetrics metrics = OrdoMetrics.create(meters, observations, Duration.ZERO);

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void instrument_limiterAllowsThenRefuses_countsEachResult() {
        String name = Backend.uniqueName("api");
        RateLimiter limiter = metrics.instrument(name, SlidingWindowLimiter.create(store, name, new Limit(2, Duration.ofMinutes(1))));

        List<Boolean> allowed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            allowed.add(limiter.tryAcquire(SECRET).allowed());
        }

        assertThat(allowed).containsExactly(true, true, false);
        assertThat(requests(name, "sliding-window", "allowed")).isEqualTo(2);
        assertThat(requests(name, "sliding-window", "refused")).isEqualTo(1);
    }

    @Test
    void instrument_limiterAsync_countsWhenTheStageCompletes() {
        String name = Backend.uniqueName("bucket");
        RateLimiter limiter = metrics.instrument(name,
                TokenBucketLimiter.create(store, name, TokenBucketLimiter.Bucket.of(new Limit(1, Duration.ofMinutes(1)))));

        Decision first = limiter.tryAcquireAsync(SECRET).toCompletableFuture().join();
        Decision second = limiter.tryAcquireAsync(SECRET).toCompletableFuture().join();

        assertThat(first.allowed()).isTrue();
        assertThat(second.allowed()).isFalse();
        assertThat(requests(name, "token-bucket", "allowed")).isEqualTo(1);
        assertThat(requests(name, "token-bucket", "refused")).isEqualTo(1);
        TestObservationRegistryAssert.assertThat(observations).hasNumberOfObservationsWithNameEqualTo("ordo.ratelimiter.acquire", 2)
                .hasAnObservationWithAKeyValue("result", "refused");
    }

    @Test
    void instrument_limiter_observesEachDecisionWithItsLowCardinalityKeys() {
        String name = Backend.uniqueName("login");
        RateLimiter limiter = metrics.instrument(name, SlidingWindowLimiter.create(store, name, new Limit(5, Duration.ofMinutes(1))));

        limiter.tryAcquire(SECRET);

        TestObservationRegistryAssert.assertThat(observations).hasObservationWithNameEqualTo("ordo.ratelimiter.acquire").that()
                .hasBeenStarted().hasBeenStopped()
                .hasLowCardinalityKeyValue("limiter", name)
                .hasLowCardinalityKeyValue("algorithm", "sliding-window")
                .hasLowCardinalityKeyValue("result", "allowed");
    }

    @Test
    void instrument_limiterThatThrows_rethrowsCountsNothingAndRecordsTheError() {
        RateLimiter failing = new RateLimiter() {
            @Override
            public Decision tryAcquire(String key, long permits) {
                throw new IllegalStateException("store down");
            }

            @Override
            public CompletionStage<Decision> tryAcquireAsync(String key, long permits) {
                return CompletableFuture.failedFuture(new IllegalStateException("store down"));
            }
        };
        RateLimiter limiter = metrics.instrument("failing", failing);

        assertThatThrownBy(() -> limiter.tryAcquire(SECRET)).isInstanceOf(IllegalStateException.class).hasMessage("store down");
        assertThatThrownBy(() -> limiter.tryAcquireAsync(SECRET).toCompletableFuture().join()).hasRootCauseMessage("store down");

        assertThat(requests("failing", "custom", "allowed") + requests("failing", "custom", "refused")).isZero();
        TestObservationRegistryAssert.assertThat(observations).forAllObservationsWithNameEqualTo("ordo.ratelimiter.acquire",
                o -> o.hasLowCardinalityKeyValue("result", "error").assertThatError().hasMessage("store down"));
        TestObservationRegistryAssert.assertThat(observations).hasObservationWithNameEqualTo("ordo.ratelimiter.acquire").that()
                .hasBeenStopped();
    }

    @Test
    void gauge_queueAfterRefresh_showsCountsByState() {
        String name = Backend.uniqueName("mail");
        DelayedJobQueue<String> queue = DelayedJobQueue.create(store, name, DelayedJobQueue.Options.defaults().withMaxAttempts(1));
        queue.schedule(SECRET + "-1", SECRET, Due.now());
        queue.schedule(SECRET + "-2", SECRET, Due.now());
        queue.schedule(SECRET + "-3", SECRET, Due.now());
        queue.schedule(SECRET + "-4", SECRET, Due.in(Duration.ofHours(1)));
        List<ClaimedJob<String>> claimed = queue.claim(2);
        queue.nack(claimed.get(0), "failed");
        metrics.gauge(name, queue);

        assertThat(jobs(name, "ready")).as("before the first read").isNaN();
        metrics.refresh();

        assertThat(jobs(name, "delayed")).isEqualTo(1);
        assertThat(jobs(name, "ready")).isEqualTo(1);
        assertThat(jobs(name, "in-flight")).isEqualTo(1);
        assertThat(jobs(name, "dead")).isEqualTo(1);
    }

    @Test
    void gauge_priorityQueue_showsItsReadyJobs() {
        String name = Backend.uniqueName("tickets");
        PriorityJobQueue<String> queue = PriorityJobQueue.create(store, name);
        queue.offer(0, SECRET);
        queue.offer(3, SECRET);
        metrics.gauge(name, queue);

        metrics.refresh();

        assertThat(jobs(name, "ready")).isEqualTo(2);
    }

    @Test
    void gauge_board_changesOnlyOnRefreshNotWhenRead() {
        String name = Backend.uniqueName("weekly");
        Leaderboard board = Leaderboard.create(store, name, BoardOptions.highestFirst());
        board.addPoints(SECRET + "-a", 1);
        board.addPoints(SECRET + "-b", 2);
        metrics.gauge(name, board);
        metrics.refresh();

        board.addPoints(SECRET + "-c", 3);
        double beforeRefresh = size(name);
        metrics.refresh();

        assertThat(beforeRefresh).isEqualTo(2);
        assertThat(size(name)).isEqualTo(3);
    }

    @Test
    void gauge_readFailsOnRefresh_showsNaNNotTheLastFigure() {
        String name = Backend.uniqueName("flaky");
        Leaderboard board = Leaderboard.create(store, name, BoardOptions.highestFirst());
        board.addPoints(SECRET, 1);
        boolean[] down = {false};
        @SuppressWarnings("unchecked")
        Board<String> flaky = (Board<String>) Proxy.newProxyInstance(Board.class.getClassLoader(), new Class<?>[] {Board.class},
                (proxy, method, args) -> {
                    if (down[0]) {
                        throw new IllegalStateException("store down");
                    }
                    return method.invoke(board, args);
                });
        metrics.gauge(name, flaky);
        metrics.refresh();
        double whileUp = size(name);

        down[0] = true;
        metrics.refresh();

        assertThat(whileUp).isEqualTo(1);
        assertThat(size(name)).isNaN();
    }

    @Test
    void instrument_board_observesWritesAndReadsByOperation() {
        String name = Backend.uniqueName("season");
        Board<String> board = metrics.instrument(name, Leaderboard.create(store, name, BoardOptions.highestFirst()));

        board.addPoints(SECRET, 10);
        board.top(3);
        board.rankAsync(SECRET).toCompletableFuture().join();

        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo("ordo.leaderboard.write", 1)
                .hasNumberOfObservationsWithNameEqualTo("ordo.leaderboard.read", 2)
                .forAllObservationsWithNameEqualTo("ordo.leaderboard.write",
                        o -> o.hasLowCardinalityKeyValue("board", name).hasLowCardinalityKeyValue("operation", "addPoints"))
                .hasAnObservation(o -> o.hasNameEqualTo("ordo.leaderboard.read").hasLowCardinalityKeyValue("operation", "top"))
                .hasAnObservation(o -> o.hasNameEqualTo("ordo.leaderboard.read").hasLowCardinalityKeyValue("operation", "rank"));
        assertThat(board.rank(SECRET)).hasValue(1);
    }

    @Test
    void instrument_eachKind_keepsItsTypeAndTimesEachCallOnceByBoardAndOperation() {
        try (OrdoMetrics timers = OrdoMetrics.create(meters)) {
            String plainName = Backend.uniqueName("plain");
            String familyName = Backend.uniqueName("family");
            String shardedName = Backend.uniqueName("sharded");
            Leaderboard plain = timers.instrument(plainName, Leaderboard.create(store, plainName, BoardOptions.highestFirst()));
            PeriodicLeaderboard family = timers.instrument(familyName,
                    PeriodicLeaderboard.builder(store, familyName).period(Period.daily()).allTime().build());
            ShardedLeaderboard sharded = timers.instrument(shardedName, ShardedLeaderboard.create(store, shardedName, 3, BoardOptions.highestFirst()));

            plain.addPoints(SECRET, 1);
            plain.page(1, 5);
            family.addPointsAll(SECRET, 1);
            family.current(Period.daily()).top(5);
            sharded.addPoints(SECRET, 1);
            sharded.top(5);

            for (String name : List.of(plainName, familyName, shardedName)) {
                assertThat(meters.get("ordo.leaderboard.write").tag("board", name).timer().count()).as(name).isEqualTo(1);
                assertThat(meters.get("ordo.leaderboard.read").tag("board", name).timer().count()).as(name).isEqualTo(1);
            }
            assertThat(meters.get("ordo.leaderboard.read").tags("board", plainName, "operation", "page").timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.leaderboard.write").tags("board", familyName, "operation", "addPointsAll").timer().count())
                    .isEqualTo(1);
            assertThat(meters.get("ordo.leaderboard.read").tags("board", shardedName, "operation", "top").timer().count()).isEqualTo(1);
        }
    }

    @Test
    void instrument_kindThatThrows_rethrowsAndRecordsTheError() {
        String name = Backend.uniqueName("failing");
        Leaderboard board = metrics.instrument(name, Leaderboard.create(store, name, BoardOptions.highestFirst()));

        assertThatThrownBy(() -> board.addPoints(SECRET, Double.NaN)).isInstanceOf(IllegalArgumentException.class);

        TestObservationRegistryAssert.assertThat(observations).hasObservationWithNameEqualTo("ordo.leaderboard.write").that()
                .hasBeenStopped().hasLowCardinalityKeyValue("board", name).hasLowCardinalityKeyValue("operation", "addPoints")
                .assertThatError().isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void gauge_ofAnObservedBoard_countsWithoutObservingTheRefresh() {
        String name = Backend.uniqueName("counted");
        Leaderboard board = metrics.instrument(name, Leaderboard.create(store, name, BoardOptions.highestFirst()));
        Board<String> anyBoard = board;
        Board<String> wrapped = metrics.instrument(name + "-view", anyBoard);
        board.addPoints(SECRET, 1);
        metrics.gauge(name, board);
        metrics.gauge(name + "-view", wrapped);

        metrics.refresh();

        assertThat(size(name)).isEqualTo(1);
        assertThat(size(name + "-view")).isEqualTo(1);
        TestObservationRegistryAssert.assertThat(observations).hasNumberOfObservationsWithNameEqualTo("ordo.leaderboard.write", 1)
                .hasNumberOfObservationsWithNameEqualTo("ordo.leaderboard.read", 0);
    }

    @Test
    void startJob_ackAndNack_timeEachJobByOutcomeWithoutObservationRegistry() {
        try (OrdoMetrics timersOnly = OrdoMetrics.create(meters)) {
            String name = Backend.uniqueName("jobs");
            DelayedJobQueue<String> queue = DelayedJobQueue.create(store, name);
            queue.schedule(SECRET + "-1", SECRET, Due.now());
            queue.schedule(SECRET + "-2", SECRET, Due.now());

            List<ClaimedJob<String>> jobs = timersOnly.claim(name, () -> queue.claim(2));
            boolean acked = timersOnly.startJob(name).ack(() -> queue.ack(jobs.get(0)));
            DelayedJobQueue.NackOutcome nacked = timersOnly.startJob(name)
                    .nack(() -> queue.nack(jobs.get(1), "failed"), new IllegalStateException("handler failed"));

            assertThat(acked).isTrue();
            assertThat(nacked).isEqualTo(DelayedJobQueue.NackOutcome.RETRY_SCHEDULED);
            assertThat(meters.get("ordo.queue.job.duration").tags("queue", name, "outcome", "acked").timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.job.duration").tags("queue", name, "outcome", "retried", "error", "IllegalStateException")
                    .timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.claim").tags("queue", name).timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.ack").tags("queue", name, "outcome", "acked").timer().count()).isEqualTo(1);
            assertThat(meters.get("ordo.queue.nack").tags("queue", name, "outcome", "retried").timer().count()).isEqualTo(1);
        }
    }

    @Test
    void startJob_ackAfterTheClaimMoved_endsStaleAndInsideTheJobObservation() {
        String name = Backend.uniqueName("stale");
        DelayedJobQueue<String> queue = DelayedJobQueue.create(store, name);
        queue.schedule(SECRET, SECRET, Due.now());
        ClaimedJob<String> job = queue.claim(1).get(0);
        queue.ack(job);

        JobObservation handling = metrics.startJob(name);
        boolean acked = handling.ack(() -> queue.ack(job));
        handling.abandon();

        assertThat(acked).isFalse();
        TestObservationRegistryAssert.assertThat(observations)
                .hasNumberOfObservationsWithNameEqualTo("ordo.queue.job.duration", 1)
                .forAllObservationsWithNameEqualTo("ordo.queue.job.duration",
                        o -> o.hasLowCardinalityKeyValue("queue", name).hasLowCardinalityKeyValue("outcome", "stale"))
                .forAllObservationsWithNameEqualTo("ordo.queue.ack",
                        o -> o.hasLowCardinalityKeyValue("outcome", "stale").hasParentObservationEqualTo(handling.observation()));
    }

    @Test
    void observations_globalConventionForOneKind_renamesOnlyThatOne() {
        observations.observationConfig().observationConvention(new Renamed());
        String name = Backend.uniqueName("renamed");
        DelayedJobQueue<String> queue = DelayedJobQueue.create(store, name);

        metrics.claim(name, () -> queue.claim(1));
        metrics.startJob(name).abandon();

        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("ordo.queue.claim").that().hasLowCardinalityKeyValue("queue", name);
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("jobs.handled").that().hasLowCardinalityKeyValue("outcome", "abandoned");
    }

    @Test
    void meters_afterEveryInstrumentedOperation_carryNoMemberKeyJobIdOrPayload() {
        try (OrdoMetrics both = OrdoMetrics.create(meters)) {
            String limiterName = Backend.uniqueName("limit");
            RateLimiter limiter = both.instrument(limiterName, SlidingWindowLimiter.create(store, limiterName, new Limit(1, Duration.ofMinutes(1))));
            limiter.tryAcquire(SECRET);
            limiter.tryAcquire(SECRET);
            String boardName = Backend.uniqueName("board");
            Leaderboard leaderboard = Leaderboard.create(store, boardName, BoardOptions.highestFirst());
            Board<String> board = both.instrument(boardName, leaderboard);
            board.addPoints(SECRET, 5);
            board.around(SECRET, 3);
            board.score(SECRET);
            both.gauge(boardName, leaderboard);
            String queueName = Backend.uniqueName("queue");
            DelayedJobQueue<String> queue = DelayedJobQueue.create(store, queueName);
            queue.schedule(SECRET + "-id", SECRET + "-payload", Due.now());
            both.gauge(queueName, queue);
            ClaimedJob<String> job = both.claim(queueName, () -> queue.claim(1)).get(0);
            both.startJob(queueName).ack(() -> queue.ack(job));
            both.refresh();

            List<Tag> tags = meters.getMeters().stream().flatMap(m -> m.getId().getTags().stream()).toList();
            assertThat(meters.getMeters()).extracting(m -> m.getId().getName()).contains("ordo.ratelimiter.requests",
                    "ordo.ratelimiter.acquire", "ordo.leaderboard.write", "ordo.leaderboard.read", "ordo.leaderboard.size",
                    "ordo.queue.jobs", "ordo.queue.claim", "ordo.queue.ack", "ordo.queue.job.duration");
            assertThat(tags).isNotEmpty().allSatisfy(t -> assertThat(t.getValue()).doesNotContain(SECRET));
        }
    }

    @Test
    void observations_afterEveryInstrumentedOperation_carryNoMemberKeyJobIdOrPayload() {
        String name = Backend.uniqueName("all");
        metrics.instrument(name, SlidingWindowLimiter.create(store, name, new Limit(1, Duration.ofMinutes(1)))).tryAcquire(SECRET);
        Board<String> board = metrics.instrument(name, Leaderboard.create(store, name + "b", BoardOptions.highestFirst()));
        board.setScore(SECRET, 1);
        board.keepBest(SECRET, 2);
        board.remove(SECRET);
        DelayedJobQueue<String> queue = DelayedJobQueue.create(store, name + "q");
        queue.schedule(SECRET, SECRET, Due.now());
        ClaimedJob<String> job = metrics.claim(name, () -> queue.claim(1)).get(0);
        metrics.startJob(name).nack(() -> queue.nack(job, SECRET), new IllegalStateException(SECRET));

        TestObservationRegistryAssert.assertThat(observations).hasHandledContextsThatSatisfy(contexts -> {
            assertThat(contexts).hasSizeGreaterThanOrEqualTo(7);
            for (Observation.Context context : contexts) {
                List<KeyValue> values = new ArrayList<>();
                context.getLowCardinalityKeyValues().forEach(values::add);
                context.getHighCardinalityKeyValues().forEach(values::add);
                assertThat(values).as(context.getName()).allSatisfy(v -> assertThat(v.getValue()).doesNotContain(SECRET));
                assertThat(String.valueOf(context.getContextualName())).as(context.getName()).doesNotContain(SECRET);
            }
        });
    }

    @Test
    void close_removesTheGaugesFromTheRegistry() {
        String name = Backend.uniqueName("closing");
        metrics.gauge(name, DelayedJobQueue.create(store, name));
        assertThat(meters.find("ordo.queue.jobs").tag("queue", name).gauges()).hasSize(4);

        metrics.close();

        assertThat(meters.find("ordo.queue.jobs").tag("queue", name).gauges()).isEmpty();
        assertThatThrownBy(() -> metrics.gauge(name, DelayedJobQueue.create(store, name))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void addRefreshTask_runsOnEachRefreshAfterTheGaugesUntilRemoved_andAThrowingTaskSkipsOnlyItself() {
        String name = Backend.uniqueName("tasked");
        Leaderboard board = Leaderboard.create(store, name, BoardOptions.highestFirst());
        board.addPoints(SECRET, 1);
        metrics.gauge(name, board);
        List<Double> sizesSeen = new ArrayList<>();
        Runnable failing = () -> {
            throw new IllegalStateException("engine closing");
        };
        Runnable task = () -> sizesSeen.add(size(name));
        metrics.addRefreshTask(failing);
        metrics.addRefreshTask(task);
        metrics.addRefreshTask(task);

        metrics.refresh();
        metrics.removeRefreshTask(task);
        metrics.refresh();

        assertThat(sizesSeen).as("run once per refresh, after the gauges were read").containsExactly(1.0);
    }

    @Test
    void addRefreshTask_runsOnTheOneRefreshThread() throws InterruptedException {
        try (OrdoMetrics refreshing = OrdoMetrics.create(meters, observations, Duration.ofMillis(20))) {
            String name = Backend.uniqueName("threaded");
            refreshing.gauge(name, DelayedJobQueue.create(store, name));
            CountDownLatch ran = new CountDownLatch(2);
            List<String> threads = new CopyOnWriteArrayList<>();
            refreshing.addRefreshTask(() -> {
                threads.add(Thread.currentThread().getName());
                ran.countDown();
            });

            assertThat(ran.await(10, TimeUnit.SECONDS)).as("the task ran on two scheduled refreshes").isTrue();
            assertThat(threads).containsOnly("ordo-metrics-refresh");
        }
    }

    @Test
    void addRefreshTask_afterClose_isRefused() {
        metrics.close();

        assertThatThrownBy(() -> metrics.addRefreshTask(() -> { })).isInstanceOf(IllegalStateException.class);
    }

    private double requests(String limiter, String algorithm, String result) {
        var counter = meters.find("ordo.ratelimiter.requests").tags("limiter", limiter, "algorithm", algorithm, "result", result).counter();
        return counter == null ? 0 : counter.count();
    }

    private double jobs(String queue, String state) {
        return meters.get("ordo.queue.jobs").tags("queue", queue, "state", state).gauge().value();
    }

    private double size(String board) {
        return meters.get("ordo.leaderboard.size").tag("board", board).gauge().value();
    }

    /** Renames the job observation, and only it, as an application would. */
    private static final class Renamed extends DefaultOrdoObservationConvention implements GlobalObservationConvention<OrdoObservationContext> {
        Renamed() {
            super(OrdoObservation.QUEUE_JOB);
        }

        @Override
        public String getName() {
            return "jobs.handled";
        }
    }
}
