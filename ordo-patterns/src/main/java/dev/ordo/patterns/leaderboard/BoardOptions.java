package dev.ordo.patterns.leaderboard;

import java.time.InstantSource;
import java.util.Objects;

/**
 * How a board sorts and ranks: descending (points: highest first) or ascending (race times:
 * lowest first), a tie rule, and whether reads return member metadata.
 *
 * @param descending true when the highest score ranks first
 * @param tieRule    how equal scores rank; fixed for the life of a board's keys
 * @param metadata   whether top, page and around return each member's metadata
 * @param arrivalClock the clock that stamps arrivals on {@link TieRule#FIRST_REACHED} boards;
 *                     null (the default) uses the server's clock, which every client shares
 */
public record BoardOptions(boolean descending, TieRule tieRule, boolean metadata, InstantSource arrivalClock) {
    /**
     * Checks the tie rule is given; start from {@link #highestFirst()} or {@link #lowestFirst()} rather than this constructor.
     *
     * @param descending true when the highest score ranks first
     * @param tieRule how equal scores rank
     * @param metadata whether top, page and around return each member's metadata
     * @param arrivalClock the clock stamping arrivals for {@link TieRule#FIRST_REACHED}, or null for the server's
     */
    public BoardOptions {
        Objects.requireNonNull(tieRule, "tieRule");
    }

    /**
     * Highest score first, Redis's member order for ties, no metadata.
     *
     * @return options for a points board
     */
    public static BoardOptions highestFirst() {
        return new BoardOptions(true, TieRule.MEMBER_ORDER, false, null);
    }

    /**
     * Lowest score first, Redis's member order for ties, no metadata.
     *
     * @return options for a board of times or costs, where less is better
     */
    public static BoardOptions lowestFirst() {
        return new BoardOptions(false, TieRule.MEMBER_ORDER, false, null);
    }

    /**
     * These options with another tie rule.
     *
     * @param rule how equal scores rank
     * @return new options, the rest unchanged
     */
    public BoardOptions withTieRule(TieRule rule) {
        return new BoardOptions(descending, rule, metadata, arrivalClock);
    }

    /**
     * These options with metadata returned (or not) by top, page and around.
     *
     * @param on whether reads return each member's metadata
     * @return new options, the rest unchanged
     */
    public BoardOptions withMetadata(boolean on) {
        return new BoardOptions(descending, tieRule, on, arrivalClock);
    }

    /**
     * These options with arrivals stamped by {@code clock} instead of the server's clock.
     *
     * @param clock the clock stamping arrivals, or null for the server's
     * @return new options, the rest unchanged
     */
    public BoardOptions withArrivalClock(InstantSource clock) {
        return new BoardOptions(descending, tieRule, metadata, clock);
    }

    /**
     * These options, highest score first ({@code true}) or lowest first.
     *
     * @param highestFirst true for highest score first, false for lowest first
     * @return new options, the rest unchanged
     */
    public BoardOptions withDescending(boolean highestFirst) {
        return new BoardOptions(highestFirst, tieRule, metadata, arrivalClock);
    }

    String order() {
        return descending ? "desc" : "asc";
    }
}
