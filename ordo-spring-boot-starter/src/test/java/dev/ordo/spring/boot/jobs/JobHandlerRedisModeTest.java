package dev.ordo.spring.boot.jobs;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.DelayedJobQueue.Counts;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.store.Store;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Queue workers in redis mode, against a real redis-server: each worker thread claims on a
 * connection of its own (blocking there between jobs), and closing the context ends every worker
 * thread, leaving nothing claimed; closed in the middle of a batch, the running job is acked and
 * the claimed ones not started are back in the queue, checked from a connection of the test's own.
 */
class JobHandlerRedisModeTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, OrdoJobsAutoConfiguration.class));

    static class Handler {
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();

        @JobHandler("reminders")
        void send(String payload) {
            payloads.add(payload);
        }
    }

    @Test
    void redisServer_jobsHandledOnDedicatedConnections_closeEndsEveryWorker() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            runner.withBean(Handler.class).withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                    "ordo.queues.reminders.concurrency=2", "ordo.queues.reminders.batch=2", "ordo.queues.reminders.poll-wait=200ms").run(context -> {
                assertThat(context.getBean(Store.class)).isInstanceOf(LettuceStore.class);
                Handler handler = context.getBean(Handler.class);
                DelayedJobQueue<String> queue = context.getBean(JobQueues.class).delayed("reminders");
                IntStream.range(0, 10).forEach(i -> queue.schedule("r" + i, "p" + i, Due.now()));
                long deadline = System.nanoTime() + 15_000_000_000L;
                while (!(handler.payloads.size() == 10 && queue.counts().equals(new Counts(0, 0, 0, 0)))) {
                    assertThat(System.nanoTime()).as("waiting for ten jobs acked").isLessThan(deadline);
                    Thread.sleep(10);
                }
                assertThat(handler.payloads).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 10).mapToObj(i -> "p" + i).toList());
            });
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).noneMatch(name -> name.startsWith("ordo-job-"));
            try (LettuceStore store = LettuceStore.connect("redis://127.0.0.1:" + redis.port())) {
                assertThat(DelayedJobQueue.create(store, "reminders").counts()).isEqualTo(new Counts(0, 0, 0, 0));
            }
        }
    }

    @Test
    void redisServer_contextClosedMidBatch_runningHandlerAcks_unstartedClaimsReleased() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            JobHandlerTest.SlowHandler handler = new JobHandlerTest.SlowHandler();
            runner.withBean(JobHandlerTest.SlowHandler.class, () -> handler)
                    .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
                            "ordo.queues.reminders.batch=3", "ordo.queues.reminders.visibility-timeout=1h").run(context -> {
                        DelayedJobQueue<String> queue = context.getBean(JobQueues.class).delayed("reminders");
                        queue.scheduleAll(List.of(new DelayedJobQueue.NewJob<>("a", "", 0, Due.now()),
                                new DelayedJobQueue.NewJob<>("b", "", 0, Due.now()), new DelayedJobQueue.NewJob<>("c", "", 0, Due.now())),
                                DelayedJobQueue.OnDuplicate.REJECT);
                        assertThat(handler.started.await(10, TimeUnit.SECONDS)).isTrue();
                        assertThat(queue.counts()).as("one batch claimed").isEqualTo(new Counts(0, 0, 3, 0));
                        Thread closing = new Thread(context::close);
                        closing.start();
                        long deadline = System.nanoTime() + 15_000_000_000L;
                        while (context.getBean(JobWorkerRegistry.class).isRunning()) {
                            assertThat(System.nanoTime()).as("waiting for the workers to stop claiming").isLessThan(deadline);
                            Thread.sleep(10);
                        }
                        handler.proceed.countDown();
                        closing.join(15_000);
                        assertThat(closing.isAlive()).isFalse();
                        assertThat(handler.finished).containsExactly("a");
                    });
            try (LettuceStore store = LettuceStore.connect("redis://127.0.0.1:" + redis.port())) {
                DelayedJobQueue<String> queue = DelayedJobQueue.create(store, "reminders");
                assertThat(queue.counts()).as("a acked, b and c ready again").isEqualTo(new Counts(0, 2, 0, 0));
                assertThat(queue.claim(3)).extracting(ClaimedJob::id, ClaimedJob::attempt).containsExactly(tuple("b", 1), tuple("c", 1));
            }
        }
    }
}
