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
    /** Checks the tie rule is given; start from {@link #highestFirst()} or {@link #lowestFirst()} rather than this constructor. */
    public BoardOptions {
        Objects.requireNonNull(tieRule, "tieRule");
    }

    /** Highest score first, Redis's member order for ties, no metadata. */
    public static BoardOptions highestFirst() {
        return new BoardOptions(true, TieRule.MEMBER_ORDER, false, null);
    }

    /** Lowest score first, Redis's member order for ties, no metadata. */
    public static BoardOptions lowestFirst() {
        return new BoardOptions(false, TieRule.MEMBER_ORDER, false, null);
    }

    /** These options with another tie rule. */
    public BoardOptions withTieRule(TieRule rule) {
        return new BoardOptions(descending, rule, metadata, arrivalClock);
    }

    /** These options with metadata returned (or not) by top, page and around. */
    public BoardOptions withMetadata(boolean on) {
        return new BoardOptions(descending, tieRule, on, arrivalClock);
    }

    /** These options with arrivals stamped by {@code clock} instead of the server's clock. */
    public BoardOptions withArrivalClock(InstantSource clock) {
        return new BoardOptions(descending, tieRule, metadata, clock);
    }

    /** These options, highest score first ({@code true}) or lowest first. */
    public BoardOptions withDescending(boolean highestFirst) {
        return new BoardOptions(highestFirst, tieRule, metadata, arrivalClock);
    }

    String order() {
        return descending ? "desc" : "asc";
    }
}
