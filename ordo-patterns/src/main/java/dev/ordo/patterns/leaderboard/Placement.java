package dev.ordo.patterns.leaderboard;

/**
 * Where a member stands on a board.
 *
 * @param member the member
 * @param score  its score
 * @param rank   its 1-based rank under the board's tie rule
 * @param <M>    the type of the member
 */
public record Placement<M>(M member, double score, long rank) {
}
