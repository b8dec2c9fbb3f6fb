package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.Codec;

import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * {@link Board#typed}: a board of {@code M} members over a board of their encoded text. Holds
 * nothing but the two; every call encodes the member, goes straight through, and decodes what
 * comes back, so the underlying board's atomicity, tie rules and cluster layout are unchanged.
 */
final class TypedBoard<M> implements Board<M> {
    private final Board<String> board;
    private final Codec<M> codec;

    TypedBoard(Board<String> board, Codec<M> codec) {
        this.board = Objects.requireNonNull(board, "board");
        this.codec = Objects.requireNonNull(codec, "codec");
    }

    private Placement<M> placement(Placement<String> p) {
        return new Placement<>(codec.decode(p.member()), p.score(), p.rank());
    }

    private List<Entry<M>> entries(List<Entry<String>> entries) {
        return entries.stream().map(e -> new Entry<>(codec.decode(e.member()), e.score(), e.rank(), e.metadata())).toList();
    }

    @Override
    public Placement<M> addPoints(M member, double points) {
        return placement(board.addPoints(codec.encode(member), points));
    }

    @Override
    public Placement<M> setScore(M member, double score) {
        return placement(board.setScore(codec.encode(member), score));
    }

    @Override
    public Placement<M> keepBest(M member, double score) {
        return placement(board.keepBest(codec.encode(member), score));
    }

    @Override
    public boolean remove(M member) {
        return board.remove(codec.encode(member));
    }

    @Override
    public OptionalDouble score(M member) {
        return board.score(codec.encode(member));
    }

    @Override
    public OptionalLong rank(M member) {
        return board.rank(codec.encode(member));
    }

    @Override
    public List<Entry<M>> top(int n) {
        return entries(board.top(n));
    }

    @Override
    public List<Entry<M>> around(M member, int size) {
        return entries(board.around(codec.encode(member), size));
    }

    @Override
    public long count() {
        return board.count();
    }

    @Override
    public CompletionStage<Placement<M>> addPointsAsync(M member, double points) {
        return board.addPointsAsync(codec.encode(member), points).thenApply(this::placement);
    }

    @Override
    public CompletionStage<OptionalDouble> scoreAsync(M member) {
        return board.scoreAsync(codec.encode(member));
    }

    @Override
    public CompletionStage<OptionalLong> rankAsync(M member) {
        return board.rankAsync(codec.encode(member));
    }

    @Override
    public CompletionStage<List<Entry<M>>> topAsync(int n) {
        return board.topAsync(n).thenApply(this::entries);
    }
}
