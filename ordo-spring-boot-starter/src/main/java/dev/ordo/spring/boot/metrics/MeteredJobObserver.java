package dev.ordo.spring.boot.metrics;

import dev.ordo.patterns.metrics.JobObservation;
import dev.ordo.patterns.metrics.OrdoMetrics;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import io.micrometer.observation.Observation;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The {@link JobObserver} of Ordo's metrics: each step through {@link OrdoMetrics} and a {@link JobObservation}. */
final class MeteredJobObserver implements JobObserver {
    private final OrdoMetrics metrics;

    MeteredJobObserver(OrdoMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public <T> List<ClaimedJob<T>> claim(String queue, Supplier<List<ClaimedJob<T>>> claim) {
        return metrics.claim(queue, claim);
    }

    @Override
    public Handling start(String queue) {
        JobObservation observation = metrics.startJob(queue);
        return new Handling() {
            @Override
            public <R> R call(Callable<R> handler) throws Exception {
                Observation.Scope scope = observation.observation().openScope();
                try {
                    return handler.call();
                } finally {
                    scope.close();
                }
            }

            @Override
            public boolean ack(BooleanSupplier ack) {
                return observation.ack(ack);
            }

            @Override
            public DelayedJobQueue.NackOutcome nack(Supplier<DelayedJobQueue.NackOutcome> nack, Throwable failure) {
                return observation.nack(nack, failure);
            }

            @Override
            public void abandon() {
                observation.abandon();
            }
        };
    }
}
