package dev.ordo.patterns.metrics;

import dev.ordo.patterns.queue.DelayedJobQueue;
import io.micrometer.observation.Observation;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The handling of one claimed job, observed from {@link OrdoMetrics#startJob} to the ack or
 * nack that ends it ({@link OrdoObservation#QUEUE_JOB}; the timer {@code ordo.queue.job.duration}
 * with tags {@code queue} and {@code outcome}). End it exactly once, with {@link #ack}, {@link
 * #nack} or {@link #abandon}; later ends are ignored. A worker runs it so:
 * <pre>{@code
 * JobObservation handling = metrics.startJob("reminders");
 * try {
 *     handling.observation().scoped(() -> handler.accept(job.payload()));
 * } catch (RuntimeException e) {
 *     handling.nack(() -> queue.nack(job, String.valueOf(e)), e);
 *     continue;
 * }
 * handling.ack(() -> queue.ack(job));
 * }</pre>
 */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public final class JobObservation {
    private final OrdoMetrics metrics;
    private final String queue;
    private final OrdoObservationContext context;
    private final Observation observation;
    private final AtomicBoolean ended = new AtomicBoolean();

    JobObservation(OrdoMetrics metrics, String queue, OrdoObservationContext context, Observation observation) {
        this.metrics = metrics;
        this.queue = queue;
        this.context = context;
        this.observation = observation;
    }

    /**
     * The running observation, to open a scope around the handler (so a tracer nests its spans) or add key values.
     *
     * @return the job's observation
     */
    public Observation observation() {
        return observation;
    }

    /**
     * Runs {@code ack} (the queue's {@code ack(job)}) as an {@link OrdoObservation#QUEUE_ACK}
     * observation inside this one, then ends this one: outcome {@code acked}, {@code stale} when
     * the ack found a newer claim, {@code error} when it threw (rethrown).
     *
     * @param ack the ack to run
     * @return what {@code ack} returned
     */
    public boolean ack(BooleanSupplier ack) {
        Objects.requireNonNull(ack, "ack");
        return settle(OrdoObservation.QUEUE_ACK, ack::getAsBoolean, acked -> acked ? "acked" : "stale", null);
    }

    /**
     * Runs {@code nack} (the queue's {@code nack(job, reason)}) as an {@link OrdoObservation#QUEUE_NACK}
     * observation inside this one, then ends this one: outcome {@code retried}, {@code dead},
     * {@code stale} or {@code error} (rethrown); {@code failure}, what made the handler fail, is
     * recorded as this observation's error.
     *
     * @param nack    the nack to run
     * @param failure why handling failed, or null
     * @return what {@code nack} returned
     */
    public DelayedJobQueue.NackOutcome nack(Supplier<DelayedJobQueue.NackOutcome> nack, Throwable failure) {
        Objects.requireNonNull(nack, "nack");
        return settle(OrdoObservation.QUEUE_NACK, nack, n -> switch (n) {
            case RETRY_SCHEDULED -> "retried";
            case DEAD -> "dead";
            case NOT_CLAIMED -> "stale";
        }, failure);
    }

    /** Ends this observation with outcome {@code abandoned}: the job was neither acked nor nacked (its claim times out). */
    public void abandon() {
        end("abandoned", null);
    }

    private <R> R settle(OrdoObservation kind, Supplier<R> call, Function<R, String> outcomeOf, Throwable failure) {
        OrdoObservationContext settling = new OrdoObservationContext(kind, queue, null, null);
        Observation step = metrics.observation(settling).parentObservation(observation).start();
        R result;
        try {
            result = call.get();
        } catch (RuntimeException | Error e) {
            settling.outcome("error");
            step.error(e);
            step.stop();
            end("error", e);
            throw e;
        }
        String outcome = outcomeOf.apply(result);
        settling.outcome(outcome);
        step.stop();
        end(outcome, failure);
        return result;
    }

    private void end(String outcome, Throwable error) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        context.outcome(outcome);
        if (error != null) {
            observation.error(error);
        }
        observation.stop();
    }
}
