package dev.ordo.patterns.leaderboard;

/** How members with equal scores are ranked. Every rule is computed on the server. */
public enum TieRule {
    /** Redis's own order: equal scores are ranked by member bytes (reversed on descending boards); ranks 1, 2, 3, 4. */
    MEMBER_ORDER("member"),
    /**
     * The member that reached the score first ranks first, to the millisecond and whatever the
     * score (arrival time is kept in the member name, not squeezed into the double).
     */
    FIRST_REACHED("first"),
    /** Standard competition ranking: equal scores share a rank and leave a gap (1, 2, 2, 4). */
    COMPETITION("competition"),
    /** Dense ranking: equal scores share a rank, no gaps (1, 2, 2, 3). */
    DENSE("dense");

    final String wire;

    TieRule(String wire) {
        this.wire = wire;
    }
}
