package dev.ordo.engine.zset;

/**
 * An input to the sorted-set algebra: a sorted set, or a plain set whose members all score 1
 * (as Redis treats sets given to ZUNIONSTORE and friends).
 */
public interface ScoredMembers {
    /** No members: what a missing key contributes. */
    ScoredMembers EMPTY = new ScoredMembers() {
        @Override
        public int size() {
            return 0;
        }

        @Override
        public void forEachEntry(EntryVisitor visitor) {
        }

        @Override
        public double score(byte[] m, int off, int len) {
            return Double.NaN;
        }
    };

    /**
     * The number of members.
     *
     * @return the number of members
     */
    int size();

    /**
     * Visits every member once, in any order.
     *
     * @param visitor called once per member
     */
    void forEachEntry(EntryVisitor visitor);

    /**
     * Returns the score of {@code m[off, off+len)}, or NaN when it is not a member.
     *
     * @param m the buffer holding the member
     * @param off where it starts
     * @param len its length
     * @return the score, or NaN
     */
    double score(byte[] m, int off, int len);
}
