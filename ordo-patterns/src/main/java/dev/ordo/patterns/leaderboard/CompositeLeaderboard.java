package dev.ordo.patterns.leaderboard;

import java.util.Objects;
import java.util.Optional;

/**
 * A leaderboard whose score packs several integer dimensions with a {@link ScoreCodec} (say
 * points, a paid flag, and an earlier-is-better time): setting all of them, or changing one
 * dimension while keeping the others, each in one atomic server-side step, with no client-side
 * read and compare-and-set loop. Reads go through {@link #board()} and decode with {@link #codec()}.
 */
public final class CompositeLeaderboard {
    private final Leaderboard board;
    private final ScoreCodec codec;

    /**
     * A composite board over {@code board} (highest first: a packed score ranks that way), its scores packed by {@code codec}.
     *
     * @param board the board holding the packed scores
     * @param codec how each member's dimensions pack into one score
     * @return the composite board
     */
    public static CompositeLeaderboard of(Leaderboard board, ScoreCodec codec) {
        return new CompositeLeaderboard(board, codec);
    }

    private CompositeLeaderboard(Leaderboard board, ScoreCodec codec) {
        this.board = Objects.requireNonNull(board, "board");
        this.codec = Objects.requireNonNull(codec, "codec");
        if (!board.options().descending()) {
            throw new IllegalArgumentException("a packed score ranks highest first: use BoardOptions.highestFirst()");
        }
    }

    /**
     * The board the packed scores live on, for reads (top, rank, around) to decode with {@link #codec()}.
     *
     * @return the underlying board
     */
    public Leaderboard board() {
        return board;
    }

    /**
     * How scores pack the dimensions.
     *
     * @return the codec packing and unpacking the scores
     */
    public ScoreCodec codec() {
        return codec;
    }

    /**
     * Sets every dimension (values in declaration order).
     *
     * @param member the member whose score is set
     * @param values one value per dimension, each within its dimension's range
     * @return where the member stands afterwards
     */
    public Placement<String> set(String member, long... values) {
        return board.setScore(member, codec.encode(values));
    }

    /**
     * Replaces one dimension of the member's score, keeping the others.
     *
     * @param member the member whose score changes
     * @param dimension the name of the dimension to replace
     * @param value its new value, within the dimension's range
     * @return where the member stands afterwards
     */
    public Placement<String> setDimension(String member, String dimension, long value) {
        ScoreCodec.Dimension d = codec.dimension(dimension);
        checkRange(d, value);
        return board.writeDimension(member, d, d.stored(value), false);
    }

    /**
     * Adds {@code delta} to one dimension's value, keeping the others; a result outside the
     * dimension's range is refused by the server before anything changes.
     *
     * @param member the member whose score changes
     * @param dimension the name of the dimension to change
     * @param delta what to add to its value; negative to subtract
     * @return where the member stands afterwards
     */
    public Placement<String> addToDimension(String member, String dimension, long delta) {
        ScoreCodec.Dimension d = codec.dimension(dimension);
        long storedDelta = d.direction() == ScoreCodec.Direction.HIGHER_RANKS_FIRST ? delta : -delta;
        return board.writeDimension(member, d, storedDelta, true);
    }

    /**
     * The member's dimension values, in declaration order; empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its values, one per dimension, or empty
     */
    public Optional<long[]> dimensions(String member) {
        var score = board.score(member);
        return score.isPresent() ? Optional.of(codec.decode(score.getAsDouble())) : Optional.empty();
    }

    private static void checkRange(ScoreCodec.Dimension d, long value) {
        if (value < 0 || value > d.maxValue()) {
            throw new IllegalArgumentException("dimension " + d.name() + " takes values in [0, " + d.maxValue() + "], got " + value);
        }
    }
}
