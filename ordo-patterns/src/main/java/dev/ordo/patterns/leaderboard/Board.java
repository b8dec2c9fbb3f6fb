package dev.ordo.patterns.leaderboard;

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
 */
public interface Board {
    /**
     * Adds {@code points} (finite, may be negative) to the member's score, creating it at {@code points}.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return where the member stands afterwards
     */
    Placement addPoints(String member, double points);

    /**
     * Sets the member's score.
     *
     * @param member the member whose score is set
     * @param score the new score
     * @return where the member stands afterwards
     */
    Placement setScore(String member, double score);

    /**
     * Keeps the better of the member's score and {@code score}: higher on descending boards, lower on ascending.
     *
     * @param member the member whose score may improve
     * @param score the score just achieved
     * @return where the member stands afterwards, with its best score
     */
    Placement keepBest(String member, double score);

    /**
     * Removes the member; true if it was on the board.
     *
     * @param member the member to take off the board
     * @return whether it was there
     */
    boolean remove(String member);

    /**
     * The member's score, empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its score, or empty
     */
    OptionalDouble score(String member);

    /**
     * The member's 1-based rank under the tie rule, empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its rank from 1, or empty
     */
    OptionalLong rank(String member);

    /**
     * The first {@code n} entries (0 to {@link Leaderboard#MAX_WINDOW}).
     *
     * @param n how many entries to read, from the top
     * @return the entries in rank order; fewer when the board is smaller
     */
    List<Entry> top(int n);

    /**
     * A window of {@code size} entries holding the member, as central as the board's edges allow
     * and full whenever the board has {@code size} entries; empty when the member is absent.
     *
     * @param member the member the window is built around
     * @param size how many entries the window holds
     * @return the entries in rank order, or an empty list
     */
    List<Entry> around(String member, int size);

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
    CompletionStage<Placement> addPointsAsync(String member, double points);

    /**
     * {@link #score}, without blocking.
     *
     * @param member the member to look up
     * @return a stage completing with its score, or empty
     */
    CompletionStage<OptionalDouble> scoreAsync(String member);

    /**
     * {@link #rank}, without blocking.
     *
     * @param member the member to look up
     * @return a stage completing with its rank from 1, or empty
     */
    CompletionStage<OptionalLong> rankAsync(String member);

    /**
     * {@link #top}, without blocking.
     *
     * @param n how many entries to read, from the top
     * @return a stage completing with the entries in rank order
     */
    CompletionStage<List<Entry>> topAsync(int n);
}
