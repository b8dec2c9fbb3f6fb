package dev.ordo.patterns.metrics;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Placement;
import io.micrometer.observation.Observation;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A board that observes every call ({@link OrdoObservation#LEADERBOARD_WRITE} or {@code _READ},
 * keyed by the board's name and the method), then answers exactly as the board it wraps. Members
 * and scores are never key values.
 *
 * @param <M> the type of the members
 */
final class ObservedBoard<M> implements Board<M> {
    private final Board<M> board;
    private final OrdoMetrics metrics;
    private final String name;

    ObservedBoard(Board<M> board, OrdoMetrics metrics, String name) {
        this.board = board;
        this.metrics = metrics;
        this.name = name;
    }

    @Override
    public Placement<M> addPoints(M member, double points) {
        return write("addPoints", () -> board.addPoints(member, points));
    }

    @Override
    public Placement<M> setScore(M member, double score) {
        return write("setScore", () -> board.setScore(member, score));
    }

    @Override
    public Placement<M> keepBest(M member, double score) {
        return write("keepBest", () -> board.keepBest(member, score));
    }

    @Override
    public boolean remove(M member) {
        return write("remove", () -> board.remove(member));
    }

    @Override
    public OptionalDouble score(M member) {
        return read("score", () -> board.score(member));
    }

    @Override
    public OptionalLong rank(M member) {
        return read("rank", () -> board.rank(member));
    }

    @Override
    public List<Entry<M>> top(int n) {
        return read("top", () -> board.top(n));
    }

    @Override
    public List<Entry<M>> around(M member, int size) {
        return read("around", () -> board.around(member, size));
    }

    @Override
    public long count() {
        return read("count", board::count);
    }

    @Override
    public CompletionStage<Placement<M>> addPointsAsync(M member, double points) {
        return async(OrdoObservation.LEADERBOARD_WRITE, "addPoints", () -> board.addPointsAsync(member, points));
    }

    @Override
    public CompletionStage<OptionalDouble> scoreAsync(M member) {
        return async(OrdoObservation.LEADERBOARD_READ, "score", () -> board.scoreAsync(member));
    }

    @Override
    public CompletionStage<OptionalLong> rankAsync(M member) {
        return async(OrdoObservation.LEADERBOARD_READ, "rank", () -> board.rankAsync(member));
    }

    @Override
    public CompletionStage<List<Entry<M>>> topAsync(int n) {
        return async(OrdoObservation.LEADERBOARD_READ, "top", () -> board.topAsync(n));
    }

    private <R> R write(String operation, Supplier<R> call) {
        return observe(OrdoObservation.LEADERBOARD_WRITE, operation, call);
    }

    private <R> R read(String operation, Supplier<R> call) {
        return observe(OrdoObservation.LEADERBOARD_READ, operation, call);
    }

    private <R> R observe(OrdoObservation kind, String operation, Supplier<R> call) {
        return metrics.observation(new OrdoObservationContext(kind, name, null, operation)).observe(call);
    }

    private <R> CompletionStage<R> async(OrdoObservation kind, String operation, Supplier<CompletionStage<R>> call) {
        Observation observation = metrics.observation(new OrdoObservationContext(kind, name, null, operation)).start();
        CompletionStage<R> stage;
        try {
            stage = call.get();
        } catch (RuntimeException | Error e) {
            observation.error(e);
            observation.stop();
            throw e;
        }
        CompletableFuture<R> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
            if (failure == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(failure);
            }
        });
        return out;
    }

    @Override
    public String toString() {
        return "observed " + board;
    }
}
