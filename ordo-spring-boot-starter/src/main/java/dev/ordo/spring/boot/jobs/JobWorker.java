package dev.ordo.spring.boot.jobs;

import dev.ordo.patterns.queue.ClaimedJob;

import java.util.Objects;

/**
 * A handler for a delayed queue's jobs, declared as a bean instead of with {@link JobHandler}:
 * {@code @Bean JobWorker reminders() { return JobWorker.of("reminders", job -> send(job.payload())); }}.
 * It runs exactly as a {@code @JobHandler} method does, with the same settings and checks.
 */
public final class JobWorker {
    /** Handles one claimed job: returning acks it, throwing nacks it with the exception as the reason. */
    @FunctionalInterface
    public interface Handler {
        /**
         * Handles {@code job}.
         *
         * @param job the job as it was claimed
         * @throws Exception when the attempt failed; the job is retried or becomes a dead letter
         */
        void handle(ClaimedJob<String> job) throws Exception;
    }

    private final String queue;
    private final Handler handler;
    /** What declared this worker, for error messages ("JobWorker bean 'x'", a method). */
    private final String source;

    private JobWorker(String queue, Handler handler, String source) {
        this.queue = queue;
        this.handler = handler;
        this.source = source;
    }

    /**
     * A worker for the delayed queue declared as {@code ordo.queues.<queue>}.
     *
     * @param queue   the queue's name under {@code ordo.queues}
     * @param handler what to do with each job
     * @return the worker, to return from a {@code @Bean} method
     */
    public static JobWorker of(String queue, Handler handler) {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(handler, "handler");
        return new JobWorker(queue, handler, "a JobWorker");
    }

    /**
     * The queue this worker handles.
     *
     * @return the queue's name under {@code ordo.queues}
     */
    public String queue() {
        return queue;
    }

    static JobWorker declaredBy(String source, String queue, Handler handler) {
        return new JobWorker(queue, handler, source);
    }

    /** This worker, named after the bean that declared it. */
    JobWorker describedAs(String source) {
        return new JobWorker(queue, handler, source);
    }

    Handler handler() {
        return handler;
    }

    String source() {
        return source;
    }
}
