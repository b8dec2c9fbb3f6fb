package dev.ordo.spring.boot.metrics;

import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What a queue worker tells the metrics: each claim, and each job's handling from claim to ack
 * or nack. It names no Micrometer type, so a worker can hold one whether or not Micrometer is on
 * the class path: the bean exists when Ordo's metrics are on, and {@link #NONE} stands in
 * otherwise ({@code observers.getIfAvailable(() -> JobObserver.NONE)}). The metrics' one records
 * {@code ordo.queue.claim}, {@code ordo.queue.job.duration}, {@code ordo.queue.ack} and
 * {@code ordo.queue.nack}. A worker runs a job so:
 * <pre>{@code
 * for (ClaimedJob<String> job : observer.claim("reminders", () -> worker.claim(10, Duration.ofSeconds(1)))) {
 *     JobObserver.Handling handling = observer.start("reminders");
 *     try {
 *         handling.call(() -> handler.handle(job));
 *     } catch (Exception e) {
 *         handling.nack(() -> queue.nack(job, String.valueOf(e)), e);
 *         continue;
 *     }
 *     handling.ack(() -> queue.ack(job));
 * }
 * }</pre>
 */
public interface JobObserver {
    /** Observes nothing: runs each step as it is. */
    JobObserver NONE = new JobObserver() {
        @Override
        public <T> List<ClaimedJob<T>> claim(String queue, Supplier<List<ClaimedJob<T>>> claim) {
            return claim.get();
        }

        @Override
        public Handling start(String queue) {
            return new Handling() {
                @Override
                public <R> R call(Callable<R> handler) throws Exception {
                    return handler.call();
                }

                @Override
                public boolean ack(BooleanSupplier ack) {
                    return ack.getAsBoolean();
                }

                @Override
                public DelayedJobQueue.NackOutcome nack(Supplier<DelayedJobQueue.NackOutcome> nack, Throwable failure) {
                    return nack.get();
                }

                @Override
                public void abandon() {
                }
            };
        }
    };

    /**
     * Runs {@code claim}, a queue's or a worker's claim.
     *
     * @param queue the queue's name
     * @param claim the claim to run
     * @param <T>   the payloads' type
     * @return what {@code claim} returned
     */
    <T> List<ClaimedJob<T>> claim(String queue, Supplier<List<ClaimedJob<T>>> claim);

    /**
     * Starts the handling of one claimed job; call it as the job is claimed.
     *
     * @param queue the queue's name
     * @return the handling, to end with {@link Handling#ack}, {@link Handling#nack} or {@link Handling#abandon}
     */
    Handling start(String queue);

    /** One job's handling, ended exactly once. */
    interface Handling {
        /**
         * Runs the handler as part of the handling (a tracer nests the handler's spans in it).
         *
         * @param handler the application's handler
         * @param <R>     what it returns
         * @return what it returned
         * @throws Exception what it threw
         */
        <R> R call(Callable<R> handler) throws Exception;

        /**
         * Runs the queue's ack and ends the handling with its outcome.
         *
         * @param ack the ack to run
         * @return what {@code ack} returned
         */
        boolean ack(BooleanSupplier ack);

        /**
         * Runs the queue's nack and ends the handling with its outcome and {@code failure}.
         *
         * @param nack    the nack to run
         * @param failure why the handler failed, or null
         * @return what {@code nack} returned
         */
        DelayedJobQueue.NackOutcome nack(Supplier<DelayedJobQueue.NackOutcome> nack, Throwable failure);

        /** Ends the handling with neither ack nor nack (the worker stopped; the claim times out). */
        void abandon();
    }
}
