package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.Codec;

import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * What every kind of leaderboard answers alike: the plain {@link Leaderboard}, the {@link
 * PeriodicLeaderboard} family (through its primary board) and the {@link ShardedLeaderboard}.
 * Writes answer with the member's {@link Placement}, reads with {@link Entry} lines, ranks are
 * 1-based under the board's {@link TieRule} and empty for a member not on the board.
 *
 * <p>The hot operations have non-blocking twins ({@code ...Async}) whose stage completes with what
 * the blocking call returns, or fails with what it throws; bad arguments are thrown at once.
 * Over a network store the stage is returned before the server answers.
 *
 * <p>Members are strings as the boards store them; {@link #typed} gives a view of any string
 * board whose members are another type, through a {@link Codec}.
 *
 * @param <M> the type of the members
 */
public interface Board<M> {
    /**
     * Adds {@code points} (finite, may be negative) to the member's score, creating it at {@code points}.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return where the member stands afterwards
     */
    Placement<M> addPoints(M member, double points);

    /**
     * Sets the member's score.
     *
     * @param member the member whose score is set
     * @param score the new score
     * @return where the member stands afterwards
     */
    Placement<M> setScore(M member, double score);

    /**
     * Keeps the better of the member's score and {@code score}: higher on descending boards, lower on ascending.
     *
     * @param member the member whose score may improve
     * @param score the score just achieved
     * @return where the member stands afterwards, with its best score
     */
    Placement<M> keepBest(M member, double score);

    /**
     * Removes the member; true if it was on the board.
     *
     * @param member the member to take off the board
     * @return whether it was there
     */
    boolean remove(M member);

    /**
     * The member's score, empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its score, or empty
     */
    OptionalDouble score(M member);

    /**
     * The member's 1-based rank under the tie rule, empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its rank from 1, or empty
     */
    OptionalLong rank(M member);

    /**
     * The first {@code n} entries (0 to {@link Leaderboard#MAX_WINDOW}).
     *
     * @param n how many entries to read, from the top
     * @return the entries in rank order; fewer when the board is smaller
     */
    List<Entry<M>> top(int n);

    /**
     * A window of {@code size} entries holding the member, as central as the board's edges allow
     * and full whenever the board has {@code size} entries; empty when the member is absent.
     *
     * @param member the member the window is built around
     * @param size how many entries the window holds
     * @return the entries in rank order, or an empty list
     */
    List<Entry<M>> around(M member, int size);

    /**
     * How many members the board holds.
     *
     * @return the number of members
     */
    long count();

    /**
     * {@link #addPoints}, without blocking.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return a stage completing with where the member stands afterwards
     */
    CompletionStage<Placement<M>> addPointsAsync(M member, double points);

    /**
     * {@link #score}, without blocking.
     *
     * @param member the member to look up
     * @return a stage completing with its score, or empty
     */
    CompletionStage<OptionalDouble> scoreAsync(M member);

    /**
     * {@link #rank}, without blocking.
     *
     * @param member the member to look up
     * @return a stage completing with its rank from 1, or empty
     */
    CompletionStage<OptionalLong> rankAsync(M member);

    /**
     * {@link #top}, without blocking.
     *
     * @param n how many entries to read, from the top
     * @return a stage completing with the entries in rank order
     */
    CompletionStage<List<Entry<M>>> topAsync(int n);

    /**
     * A view of {@code board} whose members are {@code M}: each member goes to the board as
     * {@code codec.encode(member)} and comes back as {@code codec.decode(text)}. Writes and reads
     * go straight through; the view holds nothing.
     *
     * @param board a board of string members (any kind: plain, periodic, sharded)
     * @param codec turns a member into the text stored, and back
     * @param <M>   the type of the members
     * @return the typed view
     */
    static <M> Board<M> typed(Board<String> board, Codec<M> codec) {
        return new TypedBoard<>(board, codec);
    }
}
