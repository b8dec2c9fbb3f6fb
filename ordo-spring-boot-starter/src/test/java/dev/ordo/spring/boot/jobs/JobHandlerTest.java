package dev.ordo.spring.boot.jobs;

import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.DelayedJobQueue.Counts;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.store.Store;
import dev.ordo.server.Ordo;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Queue workers on the embedded mode: {@link JobHandler} methods and {@link JobWorker} beans
 * claim, ack and nack, run concurrency threads at once, stop without losing a job, and refuse a
 * queue they cannot handle at startup.
 */
class JobHandlerTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, OrdoJobsAutoConfiguration.class))
            .withPropertyValues("ordo.queues.reminders.visibility-timeout=1h", "ordo.queues.reminders.poll-wait=100ms");

    /** Waits up to 15 s for {@code condition}. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for %s", what).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static DelayedJobQueue<String> reminders(AssertableApplicationContext context) {
        return context.getBean(JobQueues.class).delayed("reminders");
    }

    static class PayloadHandler {
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        @JobHandler("reminders")
        void send(String payload) {
            threads.add(Thread.currentThread().getName());
            payloads.add(payload);
        }
    }

    @Test
    void jobHandler_scheduledJobs_handledAndAcked() {
        runner.withBean(PayloadHandler.class).run(context -> {
            PayloadHandler handler = context.getBean(PayloadHandler.class);
            DelayedJobQueue<String> queue = reminders(context);
            for (int i = 0; i < 5; i++) {
                queue.schedule("r" + i, "mail " + i, Due.now());
            }
            await("five jobs handled and acked", () -> handler.payloads.size() == 5 && queue.counts().equals(new Counts(0, 0, 0, 0)));
            assertThat(handler.payloads).containsExactlyInAnyOrder("mail 0", "mail 1", "mail 2", "mail 3", "mail 4");
            assertThat(handler.threads).containsExactly("ordo-job-reminders-1");
        });
    }

    static class FailingHandler {
        final Queue<Integer> attempts = new ConcurrentLinkedQueue<>();

        @JobHandler("reminders")
        void send(ClaimedJob<String> job) {
            attempts.add(job.attempt());
            throw new IllegalStateException("no mail server for " + job.payload());
        }
    }

    @Test
    void jobHandler_throws_jobRetriedThenDeadLetterWithTheException() {
        runner.withBean(FailingHandler.class).withPropertyValues("ordo.queues.reminders.max-attempts=2",
                "ordo.queues.reminders.backoff.kind=fixed", "ordo.queues.reminders.backoff.delay=10ms").run(context -> {
            DelayedJobQueue<String> queue = reminders(context);
            queue.schedule("r", "ann", Due.now());
            await("a dead letter", () -> queue.counts().dead() == 1);
            assertThat(context.getBean(FailingHandler.class).attempts).containsExactly(1, 2);
            assertThat(queue.deadLetters(10)).containsExactly(
                    new DelayedJobQueue.DeadJob<>("r", "ann", "java.lang.IllegalStateException: no mail server for ann"));
            assertThat(queue.counts()).isEqualTo(new Counts(0, 0, 0, 1));
        });
    }

    static class MeetingHandler {
        final CyclicBarrier allThree = new CyclicBarrier(3);
        final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        @JobHandler("reminders")
        void send(String payload) throws Exception {
            threads.add(Thread.currentThread().getName());
            try {
                allThree.await(10, TimeUnit.SECONDS);
            } catch (BrokenBarrierException | TimeoutException e) {
                failures.add(e);
                throw e;
            }
        }
    }

    @Test
    void concurrency_three_runsThreeJobsAtOnce() {
        runner.withBean(MeetingHandler.class).withPropertyValues("ordo.queues.reminders.concurrency=3").run(context -> {
            MeetingHandler handler = context.getBean(MeetingHandler.class);
            DelayedJobQueue<String> queue = reminders(context);
            for (int i = 0; i < 3; i++) {
                queue.schedule("r" + i, "", Due.now());
            }
            await("three jobs acked", () -> queue.counts().equals(new Counts(0, 0, 0, 0)) || !handler.failures.isEmpty());
            assertThat(handler.failures).as("every handler met the other two").isEmpty();
            assertThat(handler.threads).containsExactlyInAnyOrder("ordo-job-reminders-1", "ordo-job-reminders-2", "ordo-job-reminders-3");
        });
    }

    static class SlowHandler {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        final Queue<String> finished = new ConcurrentLinkedQueue<>();

        @JobHandler("reminders")
        void send(ClaimedJob<String> job) throws InterruptedException {
            started.countDown();
            assertThat(proceed.await(10, TimeUnit.SECONDS)).isTrue();
            finished.add(job.id());
        }
    }

    @Test
    void contextClosed_runningHandlerFinishesAndAcks_unstartedClaimsReleased(@TempDir Path dir) {
        String dataDir = "ordo.embedded.data-dir=" + dir.resolve("data");
        runner.withBean(SlowHandler.class).withPropertyValues(dataDir, "ordo.queues.reminders.batch=3").run(context -> {
            SlowHandler handler = context.getBean(SlowHandler.class);
            reminders(context).scheduleAll(List.of(new DelayedJobQueue.NewJob<>("a", "", 0, Due.now()),
                    new DelayedJobQueue.NewJob<>("b", "", 0, Due.now()), new DelayedJobQueue.NewJob<>("c", "", 0, Due.now())),
                    DelayedJobQueue.OnDuplicate.REJECT);
            assertThat(handler.started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(reminders(context).counts()).as("one batch claimed").isEqualTo(new Counts(0, 0, 3, 0));
            JobWorkerRegistry registry = context.getBean(JobWorkerRegistry.class);
            Thread closing = new Thread(context::close);
            closing.start();
            await("workers no longer claiming", () -> !registry.isRunning());
            assertThat(closing.isAlive()).as("closing waits for the running handler").isTrue();
            handler.proceed.countDown();
            closing.join(15_000);
            assertThat(closing.isAlive()).isFalse();
            assertThat(handler.finished).containsExactly("a");
        });
        runner.withPropertyValues(dataDir).run(context -> {
            DelayedJobQueue<String> queue = reminders(context);
            assertThat(queue.counts()).as("a acked, b and c ready again").isEqualTo(new Counts(0, 2, 0, 0));
            assertThat(queue.claim(3)).extracting(ClaimedJob::id, ClaimedJob::attempt)
                    .containsExactly(tuple("b", 1), tuple("c", 1));
        });
    }

    static class StuckHandler {
        final CountDownLatch started = new CountDownLatch(1);
        volatile Thread thread;
        volatile boolean interrupted;

        @JobHandler("reminders")
        void send(String payload) throws InterruptedException {
            thread = Thread.currentThread();
            started.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
                throw e;
            }
        }
    }

    @Test
    void shutdownTimeoutPassed_handlerInterrupted_claimLeftToTimeOutNotNacked() throws Exception {
        // A store that outlives the context, so a nack sent after the stop would land and show.
        try (Ordo ordo = Ordo.embedded(); Store store = EmbeddedStore.on(ordo.engine())) {
            StuckHandler handler = new StuckHandler();
            runner.withBean("ordoStore", Store.class, () -> store, definition -> definition.setDestroyMethodName(""))
                    .withBean(StuckHandler.class, () -> handler)
                    .withPropertyValues("ordo.queues.reminders.shutdown-timeout=100ms").run(context -> {
                        reminders(context).schedule("a", "", Due.now());
                        assertThat(handler.started.await(10, TimeUnit.SECONDS)).isTrue();
                    });
            handler.thread.join(10_000);
            assertThat(handler.thread.isAlive()).isFalse();
            assertThat(handler.interrupted).isTrue();
            assertThat(DelayedJobQueue.create(store, "reminders").counts()).as("still claimed, neither nacked nor released")
                    .isEqualTo(new Counts(0, 0, 1, 0));
        }
    }

    /** Ignores interrupts: holds the first job until released, then handles the rest at once. */
    static class DeafHandler {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Set<Thread> threads = ConcurrentHashMap.newKeySet();
        volatile Thread first;

        @JobHandler("reminders")
        void send(String payload) {
            threads.add(Thread.currentThread());
            if (payload.equals("stuck")) {
                first = Thread.currentThread();
                started.countDown();
                while (true) {
                    try {
                        if (release.await(30, TimeUnit.SECONDS)) {
                            return;
                        }
                    } catch (InterruptedException deaf) {
                        // keeps waiting
                    }
                }
            }
        }
    }

    @Test
    void restartAfterAnAbandonedStop_theLeftoverThreadEndsWithItsJob() throws Exception {
        DeafHandler handler = new DeafHandler();
        runner.withBean(DeafHandler.class, () -> handler).withPropertyValues("ordo.queues.reminders.shutdown-timeout=100ms").run(context -> {
            reminders(context).schedule("s", "stuck", Due.now());
            assertThat(handler.started.await(10, TimeUnit.SECONDS)).isTrue();
            context.stop();
            assertThat(handler.first.isAlive()).as("abandoned, still in its handler").isTrue();
            context.start();
            handler.release.countDown();
            handler.first.join(10_000);
            assertThat(handler.first.isAlive()).as("the abandoned thread claims nothing more after its job").isFalse();
            reminders(context).schedule("n", "next", Due.now());
            await("the new workers handle a job", () -> reminders(context).counts().ready() == 0 && reminders(context).counts().inFlight() <= 1);
        });
    }

    @Test
    void lazyHandlerBean_joinsTheRunningWorkersWhenCreated() {
        runner.withBean(PayloadHandler.class, PayloadHandler::new, definition -> definition.setLazyInit(true)).run(context -> {
            DelayedJobQueue<String> queue = reminders(context);
            queue.schedule("r1", "hello", Due.now());
            PayloadHandler handler = context.getBean(PayloadHandler.class);
            await("the job handled", () -> handler.payloads.contains("hello") && queue.counts().equals(new Counts(0, 0, 0, 0)));
        });
    }

    @Test
    void jobWorkerBean_handlesJobs() {
        Queue<String> payloads = new ConcurrentLinkedQueue<>();
        runner.withBean("reminderWorker", JobWorker.class, () -> JobWorker.of("reminders", job -> payloads.add(job.id() + ":" + job.payload())))
                .run(context -> {
                    DelayedJobQueue<String> queue = reminders(context);
                    queue.schedule("r1", "hello", Due.now());
                    await("the job acked", () -> payloads.size() == 1 && queue.counts().equals(new Counts(0, 0, 0, 0)));
                    assertThat(payloads).containsExactly("r1:hello");
                });
    }

    static class PlaceholderHandler {
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();

        @JobHandler("${app.reminder-queue}")
        void send(String payload) {
            payloads.add(payload);
        }
    }

    @Test
    void queueName_placeholder_resolvedFromTheEnvironment() {
        runner.withBean(PlaceholderHandler.class).withPropertyValues("app.reminder-queue=reminders").run(context -> {
            DelayedJobQueue<String> queue = reminders(context);
            queue.schedule("r1", "hello", Due.now());
            await("the job handled", () -> context.getBean(PlaceholderHandler.class).payloads.contains("hello"));
        });
    }

    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @JobHandler("reminders")
    @interface ReminderHandler {
    }

    static class MetaAnnotatedHandler {
        final Queue<String> payloads = new ConcurrentLinkedQueue<>();

        @ReminderHandler
        void send(String payload) {
            payloads.add(payload);
        }
    }

    @Test
    void jobHandler_asMetaAnnotation_found() {
        runner.withBean(MetaAnnotatedHandler.class).run(context -> {
            reminders(context).schedule("r1", "hello", Due.now());
            await("the job handled", () -> context.getBean(MetaAnnotatedHandler.class).payloads.contains("hello"));
        });
    }

    static class UnknownQueueHandler {
        @JobHandler("newsletters")
        void send(String payload) {
        }
    }

    @Test
    void undeclaredQueue_startupFailsNamingIt() {
        runner.withBean(UnknownQueueHandler.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("UnknownQueueHandler.send")
                    .hasMessageContaining("'newsletters', which is not declared")
                    .hasMessageContaining("ordo.queues.newsletters")
                    .hasMessageContaining("Declared queues: [reminders]");
        });
    }

    static class PriorityQueueHandler {
        @JobHandler("emails")
        void send(String payload) {
        }
    }

    @Test
    void priorityQueue_startupFailsSayingWhy() {
        runner.withBean(PriorityQueueHandler.class).withPropertyValues("ordo.queues.emails.type=priority").run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("ordo.queues.emails, a priority queue")
                    .hasMessageContaining("would be lost");
        });
    }

    static class TwoParameterHandler {
        @JobHandler("reminders")
        void send(String payload, String other) {
        }
    }

    @Test
    void handlerWithTwoParameters_startupFails() {
        runner.withBean(TwoParameterHandler.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                    .hasMessageContaining("TwoParameterHandler.send")
                    .hasMessageContaining("must take one parameter, the payload (String) or the job (ClaimedJob<String>)");
        });
    }

    @Test
    void twoHandlersForOneQueue_startupFails() {
        runner.withBean(PayloadHandler.class).withBean("second", JobWorker.class, () -> JobWorker.of("reminders", job -> { }))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                            .hasMessageContaining("ordo.queues.reminders has two handlers")
                            .hasMessageContaining("JobWorker bean 'second'");
                });
    }
}
