package dev.ordo.patterns.metrics;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardObserver;
import dev.ordo.patterns.leaderboard.BoardObserver.Access;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Placement;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * A board of any other type (a typed view, an application's own) that tells its {@link
 * BoardObserver} of every call, then answers exactly as the board it wraps; the kinds of
 * ordo-patterns observe themselves instead ({@code withObserver}). Members and scores are never
 * key values.
 *
 * @param <M> the type of the members
 */
final class ObservedBoard<M> implements Board<M> {
    private final Board<M> board;
    private final BoardObserver observer;

    ObservedBoard(Board<M> board, BoardObserver observer) {
        this.board = board;
        this.observer = observer;
    }

    /** The board wrapped, which tells no one of its calls. */
    Board<M> board() {
        return board;
    }

    @Override
    public Placement<M> addPoints(M member, double points) {
        return observer.observe(Access.WRITE, "addPoints", () -> board.addPoints(member, points));
    }

    @Override
    public Placement<M> setScore(M member, double score) {
        return observer.observe(Access.WRITE, "setScore", () -> board.setScore(member, score));
    }

    @Override
    public Placement<M> keepBest(M member, double score) {
        return observer.observe(Access.WRITE, "keepBest", () -> board.keepBest(member, score));
    }

    @Override
    public boolean remove(M member) {
        return observer.observe(Access.WRITE, "remove", () -> board.remove(member));
    }

    @Override
    public OptionalDouble score(M member) {
        return observer.observe(Access.READ, "score", () -> board.score(member));
    }

    @Override
    public OptionalLong rank(M member) {
        return observer.observe(Access.READ, "rank", () -> board.rank(member));
    }

    @Override
    public List<Entry<M>> top(int n) {
        return observer.observe(Access.READ, "top", () -> board.top(n));
    }

    @Override
    public List<Entry<M>> around(M member, int size) {
        return observer.observe(Access.READ, "around", () -> board.around(member, size));
    }

    @Override
    public long count() {
        return observer.observe(Access.READ, "count", board::count);
    }

    @Override
    public CompletionStage<Placement<M>> addPointsAsync(M member, double points) {
        return observer.observeAsync(Access.WRITE, "addPoints", () -> board.addPointsAsync(member, points));
    }

    @Override
    public CompletionStage<OptionalDouble> scoreAsync(M member) {
        return observer.observeAsync(Access.READ, "score", () -> board.scoreAsync(member));
    }

    @Override
    public CompletionStage<OptionalLong> rankAsync(M member) {
        return observer.observeAsync(Access.READ, "rank", () -> board.rankAsync(member));
    }

    @Override
    public CompletionStage<List<Entry<M>>> topAsync(int n) {
        return observer.observeAsync(Access.READ, "top", () -> board.topAsync(n));
    }

    @Override
    public String toString() {
        return "observed " + board;
    }
}
