package dev.ordo.patterns.metrics;

import dev.ordo.patterns.leaderboard.BoardObserver;
import io.micrometer.observation.Observation;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The {@link BoardObserver} of one board's name: each call an {@link
 * OrdoObservation#LEADERBOARD_WRITE} or {@code _READ} observation, keyed by the name and the
 * method, stopped when the call returns (or its stage completes) and carrying what it threw. What
 * every observed board reports to, whether it observes itself ({@code withObserver}) or is
 * wrapped ({@link ObservedBoard}).
 */
final class MeteredBoardObserver implements BoardObserver {
    private final OrdoMetrics metrics;
    private final String name;

    MeteredBoardObserver(OrdoMetrics metrics, String name) {
        this.metrics = metrics;
        this.name = name;
    }

    @Override
    public <R> R observe(Access access, String operation, Supplier<R> call) {
        return observation(access, operation).observe(call);
    }

    @Override
    public <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call) {
        return OrdoMetrics.observeStage(observation(access, operation), call, (value, failure) -> { });
    }

    private Observation observation(Access access, String operation) {
        OrdoObservation kind = access == Access.WRITE ? OrdoObservation.LEADERBOARD_WRITE : OrdoObservation.LEADERBOARD_READ;
        return metrics.observation(new OrdoObservationContext(kind, name, null, operation));
    }

    @Override
    public String toString() {
        return "observations of board " + name;
    }
}
