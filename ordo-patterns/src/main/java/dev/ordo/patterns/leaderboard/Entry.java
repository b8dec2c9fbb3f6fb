package dev.ordo.patterns.leaderboard;

import java.util.Map;

/**
 * One line of a board as read by top, page or around.
 *
 * @param member   the member
 * @param score    its score
 * @param rank     its 1-based rank under the board's tie rule
 * @param metadata the member's metadata when the board returns it, else empty
 * @param <M>      the type of the member
 */
public record Entry<M>(M member, double score, long rank, Map<String, String> metadata) {
    /**
     * Copies {@code metadata}, so an entry never changes.
     *
     * @param member the member
     * @param score its score
     * @param rank its 1-based rank under the board's tie rule
     * @param metadata the member's metadata when the board returns it, else empty; copied
     */
    public Entry {
        metadata = Map.copyOf(metadata);
    }
}
