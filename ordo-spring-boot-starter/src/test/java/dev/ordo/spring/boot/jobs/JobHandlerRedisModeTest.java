package dev.ordo.spring.boot.jobs;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.lettuce.LettuceStore;
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

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queue workers in redis mode, against a real redis-server: each worker thread claims on a
 * connection of its own (blocking there between jobs), and closing the context ends every worker
 * thread, leaving nothing claimed.
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
}
