package dev.ordo.patterns.leaderboard;

/**
 * Where a member stands on a board.
 *
 * @param member the member
 * @param score  its score
 * @param rank   its 1-based rank under the board's tie rule
 */
public record Placement(String member, double score, long rank) {
}
