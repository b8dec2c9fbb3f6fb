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
    /** Adds {@code points} (finite, may be negative) to the member's score, creating it at {@code points}. */
    Placement addPoints(String member, double points);

    /** Sets the member's score. */
    Placement setScore(String member, double score);

    /** Keeps the better of the member's score and {@code score}: higher on descending boards, lower on ascending. */
    Placement keepBest(String member, double score);

    /** Removes the member; true if it was on the board. */
    boolean remove(String member);

    /** The member's score, empty when it is not on the board. */
    OptionalDouble score(String member);

    /** The member's 1-based rank under the tie rule, empty when it is not on the board. */
    OptionalLong rank(String member);

    /** The first {@code n} entries (0 to {@link Leaderboard#MAX_WINDOW}). */
    List<Entry> top(int n);

    /**
     * A window of {@code size} entries holding the member, as central as the board's edges allow
     * and full whenever the board has {@code size} entries; empty when the member is absent.
     */
    List<Entry> around(String member, int size);

    /** How many members the board holds. */
    long count();

    /** {@link #addPoints}, without blocking. */
    CompletionStage<Placement> addPointsAsync(String member, double points);

    /** {@link #score}, without blocking. */
    CompletionStage<OptionalDouble> scoreAsync(String member);

    /** {@link #rank}, without blocking. */
    CompletionStage<OptionalLong> rankAsync(String member);

    /** {@link #top}, without blocking. */
    CompletionStage<List<Entry>> topAsync(int n);
}
