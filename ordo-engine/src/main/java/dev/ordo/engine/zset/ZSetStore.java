package dev.ordo.engine.zset;

/**
 * What an encoding provides to {@link ZSet}, which holds the command semantics. Members are byte
 * ranges; ranks are 0-based in ascending (score, member) order.
 *
 * <p>A handle names one present member and is valid until the next change to the store. Looking
 * a member up once and then acting on the handle keeps every write to a single lookup.
 */
abstract sealed class ZSetStore permits ListpackZSet, TreeZSet {

    abstract Encoding encoding();

    abstract int size();

    /** Returns a handle (&gt;= 0) for the member, or a negative token to pass to {@link #insert}. */
    abstract int find(byte[] m, int off, int len);

    abstract double scoreAt(int handle);

    /** Adds an absent member; {@code missToken} is what {@link #find} just returned for it. */
    abstract void insert(byte[] m, int off, int len, double score, int missToken);

    abstract void updateAt(int handle, double newScore);

    abstract void deleteAt(int handle);

    abstract int rankAt(int handle);

    /** Returns how many entries, from the first, satisfy {@code bound}. */
    abstract int countBelow(RankTree.Bound bound);

    /** Visits ranks [from, to) ascending, or descending when {@code reverse}; 0 &lt;= from &lt;= to &lt;= size. */
    abstract void visit(int from, int to, boolean reverse, EntryVisitor visitor);

    /** Removes ranks [from, to). */
    abstract void deleteRange(int from, int to);

    /** Visits some entries and returns the next cursor, 0 when the scan is complete. */
    abstract long scan(long cursor, int count, EntryVisitor visitor);

    /** Approximate bytes held, for MEMORY USAGE and the benchmarks. */
    abstract long allocatedBytes();

    /** Throws {@link AssertionError} when an internal invariant does not hold. */
    abstract void checkInvariants();
}
