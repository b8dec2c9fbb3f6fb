package dev.ordo.spring.boot.jobs;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.Leaderboards;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.metrics.JobObserver;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code spring.data.redis.timeout} in redis mode, against a real redis-server: with 300 ms, a
 * worker polling an empty queue with a 1 s poll-wait (a blocking claim longer than the timeout)
 * keeps polling without a single failed claim and still handles a job when one comes; and a
 * declared leaderboard's call to a server that stops answering (paused by {@code CLIENT PAUSE})
 * fails with a {@link StoreException} after about the timeout, not after the pause (nor Lettuce's
 * default 60 s).
 */
class RedisModeTimeoutTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, OrdoJobsAutoConfiguration.class));

    static class Handler {
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();
        final CountDownLatch handled = new CountDownLatch(1);

        @JobHandler("reminders")
        void send(String payload) {
            payloads.add(payload);
            handled.countDown();
        }
    }

    /** Counts the workers' claims, and keeps every claim that failed. */
    static class ClaimRecorder implements JobObserver {
        final AtomicInteger claims = new AtomicInteger();
        final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();

        @Override
        public <T> List<ClaimedJob<T>> claim(String queue, Supplier<List<ClaimedJob<T>>> claim) {
            try {
                List<ClaimedJob<T>> jobs = claim.get();
                claims.incrementAndGet();
                return jobs;
            } catch (RuntimeException e) {
                failures.add(e);
                throw e;
            }
        }

        @Override
        public Handling start(String queue) {
            return JobObserver.NONE.start(queue);
        }
    }

    @Test
    void timeout300ms_idleWorkerWithLongerPollWaitKeepsPolling_pausedServerFailsBoardCallsFast() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            ClaimRecorder recorder = new ClaimRecorder();
            runner.withBean(Handler.class).withBean(JobObserver.class, () -> recorder)
                    .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                            "spring.data.redis.timeout=300ms", "ordo.queues.reminders.poll-wait=1s",
                            "ordo.leaderboards.weekly.order=highest-first").run(context -> {
                assertThat(context.getBean(Store.class)).isInstanceOf(LettuceStore.class);

                // Three idle claims of 1 s each, none failed for taking longer than the 300 ms timeout.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
                while (recorder.claims.get() < 3 && recorder.failures.isEmpty()) {
                    assertThat(System.nanoTime()).as("waiting for three idle claims").isLessThan(deadline);
                    Thread.sleep(20);
                }
                assertThat(recorder.failures).as("claims that failed").isEmpty();

                context.getBean(JobQueues.class).delayed("reminders").schedule("r1", "hello", Due.now());
                assertThat(context.getBean(Handler.class).handled.await(10, TimeUnit.SECONDS)).as("the job was handled").isTrue();
                assertThat(context.getBean(Handler.class).payloads).containsExactly("hello");
                assertThat(recorder.failures).as("claims that failed").isEmpty();

                Leaderboard weekly = context.getBean(Leaderboards.class).get("weekly");
                weekly.addPoints("alice", 5);
                try (LettuceStore admin = LettuceStore.connect("redis://127.0.0.1:" + redis.port())) {
                    admin.call(StoreCommand.of("CLIENT").arg("PAUSE").arg(6000).arg("ALL"));
                }
                try {
                    long start = System.nanoTime();
                    Throwable failure = catchThrowable(() -> weekly.addPoints("bob", 7));
                    long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
                    assertThat(failure).isInstanceOf(StoreException.class).hasMessageContaining("timed out").hasMessageContaining("300 ms");
                    assertThat(elapsedMillis).as("failed after about the 300 ms timeout, not the 6 s pause").isLessThan(4000L);
                } finally {
                    awaitUnpaused(context.getBean(Store.class));
                }
                assertThat(weekly.score("alice")).hasValue(5);
            });
        }
    }

    /** Waits until the server answers again, so the context closes on a live server. */
    private static void awaitUnpaused(Store store) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                store.call(StoreCommand.of("PING"));
                return;
            } catch (StoreException e) {
                assertThat(System.nanoTime()).as("waiting for the pause to end").isLessThan(deadline);
                Thread.sleep(50);
            }
        }
    }
}
