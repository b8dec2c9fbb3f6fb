package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.number.Doubles;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * A sorted set with Redis's semantics: unique binary-safe members, each with a double score,
 * ordered by score and then by member bytes compared unsigned. Scores compare as C does (-0.0
 * equals 0.0, and the member decides); NaN is never stored.
 *
 * <p>Small sets use the {@link Encoding#LISTPACK listpack} encoding and convert to
 * {@link Encoding#SKIPLIST skiplist} on the insert that passes {@link ListpackLimits}; they never
 * convert back on removal. Ranks are 0-based. Members passed in are copied; members handed to an
 * {@link EntryVisitor} point into the set and are valid only during the call.
 *
 * <p>Not thread-safe: one thread (the keyspace's) owns each set.
 */
public final class ZSet implements ScoredMembers, Value {
    private static final int RANK_BATCH = 1024;

    private final ListpackLimits limits;
    private final TreeShape shape;
    private ZSetStore store;

    /** Creates an empty set with Redis's default listpack limits. */
    public ZSet() {
        this(ListpackLimits.DEFAULT);
    }

    /** Creates an empty set. */
    public ZSet(ListpackLimits limits) {
        this(limits, 0, 0);
    }

    /**
     * Creates an empty set that is about to receive {@code sizeHint} members, the longest
     * {@code memberLengthHint} bytes: it starts as skiplist when they would not fit a listpack.
     */
    public ZSet(ListpackLimits limits, int sizeHint, int memberLengthHint) {
        this(limits, TreeShape.DEFAULT, limits.fits(sizeHint, memberLengthHint)
                ? new ListpackZSet(sizeHint * EntryLayout.entrySize(memberLengthHint))
                : new TreeZSet(sizeHint, TreeShape.DEFAULT));
    }

    ZSet(ListpackLimits limits, TreeShape shape, ZSetStore store) {
        this.limits = limits;
        this.shape = shape;
        this.store = store;
    }

    /** An empty set whose skiplist encoding, once it has one, uses {@code shape}. */
    ZSet(ListpackLimits limits, TreeShape shape) {
        this(limits, shape, limits.maxEntries() > 0 ? new ListpackZSet(0) : new TreeZSet(0, shape));
    }

    /**
     * This set, built by {@link ZSetBuilder} or the algebra, made ready to be stored under a key:
     * in the listpack encoding a negative zero score becomes 0, as when Redis packs a set (a reply
     * computed without storing keeps {@code -0}). Returns this set.
     */
    public ZSet asStored() {
        if (store instanceof ListpackZSet packed) {
            packed.packZeros();
        }
        return this;
    }

    /** The current encoding. */
    public Encoding encoding() {
        return store.encoding();
    }

    /** The number of members. */
    @Override
    public int size() {
        return store.size();
    }

    public boolean isEmpty() {
        return store.size() == 0;
    }

    /** Returns the member's score, or NaN when it is not a member. */
    public double score(byte[] member) {
        return score(member, 0, member.length);
    }

    @Override
    public double score(byte[] m, int off, int len) {
        int h = store.find(m, off, len);
        return h >= 0 ? store.scoreAt(h) : Double.NaN;
    }

    public boolean contains(byte[] member) {
        return store.find(member, 0, member.length) >= 0;
    }

    /** Adds the member or sets its score. */
    public AddResult add(byte[] member, double score) {
        return add(member, score, ZAddOptions.NONE);
    }

    /** ZADD for one pair (without INCR): adds or updates under the options' conditions. */
    public AddResult add(byte[] member, double score, ZAddOptions options) {
        requireNotNaN(score);
        int h = store.find(member, 0, member.length);
        if (h >= 0) {
            if (options.isNx()) {
                return AddResult.SKIPPED;
            }
            double current = store.scoreAt(h);
            if (!options.permitsUpdate(current, score)) {
                return AddResult.SKIPPED;
            }
            if (score != current) {
                store.updateAt(h, score);
                return AddResult.UPDATED;
            }
            return AddResult.UNCHANGED;
        }
        if (options.isXx()) {
            return AddResult.SKIPPED;
        }
        insert(member, score, h);
        return AddResult.ADDED;
    }

    /** ZINCRBY: adds {@code delta} to the member's score (0 if absent); returns the new score. */
    public double increment(byte[] member, double delta) {
        return increment(member, delta, ZAddOptions.NONE);
    }

    /**
     * ZADD INCR: returns the new score, or NaN when a condition prevented the change (the nil
     * reply). Throws {@code ERR resulting score is not a number (NaN)} and changes nothing when
     * the sum is NaN.
     */
    public double increment(byte[] member, double delta, ZAddOptions options) {
        requireNotNaN(delta);
        int h = store.find(member, 0, member.length);
        if (h >= 0) {
            if (options.isNx()) {
                return Double.NaN;
            }
            double current = store.scoreAt(h);
            double next = current + delta;
            if (Double.isNaN(next)) {
                throw new ErrorReply(Errors.SCORE_NAN);
            }
            if (!options.permitsUpdate(current, next)) {
                return Double.NaN;
            }
            if (next != current) {
                store.updateAt(h, next);
            }
            return next;
        }
        if (options.isXx()) {
            return Double.NaN;
        }
        insert(member, delta, h);
        return delta;
    }

    /** Removes the member; returns whether it was present. */
    public boolean remove(byte[] member) {
        int h = store.find(member, 0, member.length);
        if (h < 0) {
            return false;
        }
        store.deleteAt(h);
        return true;
    }

    /** Returns the member's 0-based rank in ascending order, or -1. */
    public long rank(byte[] member) {
        int h = store.find(member, 0, member.length);
        return h >= 0 ? store.rankAt(h) : -1;
    }

    /** Returns the member's 0-based rank in descending order, or -1. */
    public long reverseRank(byte[] member) {
        long rank = rank(member);
        return rank < 0 ? -1 : store.size() - 1 - rank;
    }

    /**
     * ZRANK / ZREVRANK WITHSCORE in one lookup: the member's 0-based rank (descending when
     * {@code reverse}) and its score, or null when it is not a member.
     */
    public RankedScore rankWithScore(byte[] member, boolean reverse) {
        int h = store.find(member, 0, member.length);
        if (h < 0) {
            return null;
        }
        double score = store.scoreAt(h);
        int rank = store.rankAt(h);
        return new RankedScore(reverse ? store.size() - 1 - rank : rank, score);
    }

    /** A member's rank and score. */
    public record RankedScore(long rank, double score) {
    }

    /**
     * A run of consecutive ranks [from, to) in ascending order, to be visited ascending or, when
     * {@code reverse}, descending. Knowing its size before visiting lets a reply writer send the
     * array length first.
     */
    public record Span(int from, int to, boolean reverse) {
        /** No entries. */
        public static final Span EMPTY = new Span(0, 0, false);

        /** The number of entries the span visits. */
        public int size() {
            return to - from;
        }
    }

    /**
     * ZRANGE by index: positions start..stop inclusive, counted from the lowest score (or from the
     * highest when {@code reverse}); negative positions count from the end.
     */
    public Span indexSpan(long start, long stop, boolean reverse) {
        long[] span = normalizeIndexes(start, stop);
        if (span == null) {
            return Span.EMPTY;
        }
        int size = store.size();
        return reverse ? new Span((int) (size - span[1]), (int) (size - span[0]), true) : new Span((int) span[0], (int) span[1], false);
    }

    /**
     * Members whose score is in {@code range}, ascending (or descending when {@code reverse}),
     * skipping {@code offset} of them and keeping at most {@code count} (a negative count means
     * all; a negative offset gives nothing).
     */
    public Span scoreSpan(ScoreRange range, boolean reverse, long offset, long count) {
        return limitedSpan(range.belowMin, range.notAboveMax, reverse, offset, count);
    }

    /**
     * As {@link #scoreSpan}, for a member interval. Empty, as in Redis, when the last member is
     * below the interval or the first above it: in a set whose scores differ, where members are
     * not in lexicographic order and Redis leaves the result unspecified, that test decides the
     * answer in both servers before any walk.
     */
    public Span lexSpan(LexRange range, boolean reverse, long offset, long count) {
        if (!lexMayOverlap(range)) {
            return Span.EMPTY;
        }
        return limitedSpan(range.belowMin, range.notAboveMax, reverse, offset, count);
    }

    /** Redis's {@code zslIsInLexRange}: the last member is not below the interval and the first not above it. */
    private boolean lexMayOverlap(LexRange range) {
        int size = store.size();
        if (size == 0) {
            return false;
        }
        boolean[] overlap = {true};
        store.visit(size - 1, size, false, (buf, off, len, score) -> overlap[0] = !range.belowMin.below(score, buf, off, len));
        store.visit(0, 1, false, (buf, off, len, score) -> overlap[0] &= range.notAboveMax.below(score, buf, off, len));
        return overlap[0];
    }

    /** Visits the entries of {@code span} in its direction. */
    public void visit(Span span, EntryVisitor visitor) {
        store.visit(span.from(), span.to(), span.reverse(), visitor);
    }

    /** Visits {@link #indexSpan}'s entries. */
    public void range(long start, long stop, boolean reverse, EntryVisitor visitor) {
        visit(indexSpan(start, stop, reverse), visitor);
    }

    /** Visits {@link #scoreSpan}'s entries. */
    public void rangeByScore(ScoreRange range, boolean reverse, long offset, long count, EntryVisitor visitor) {
        visit(scoreSpan(range, reverse, offset, count), visitor);
    }

    /** Visits {@link #lexSpan}'s entries. */
    public void rangeByLex(LexRange range, boolean reverse, long offset, long count, EntryVisitor visitor) {
        visit(lexSpan(range, reverse, offset, count), visitor);
    }

    /** ZCOUNT: the number of members whose score is in the range, in O(log N). */
    public long count(ScoreRange range) {
        return countIn(range.belowMin, range.notAboveMax);
    }

    /** ZLEXCOUNT: the number of members in the interval, in O(log N); 0 when {@link #lexSpan} is empty. */
    public long lexCount(LexRange range) {
        return lexMayOverlap(range) ? countIn(range.belowMin, range.notAboveMax) : 0;
    }

    /** ZREMRANGEBYRANK: removes positions start..stop (ascending, negatives from the end). */
    public long removeRange(long start, long stop) {
        long[] span = normalizeIndexes(start, stop);
        return span == null ? 0 : deleteRanks((int) span[0], (int) span[1]);
    }

    /** ZREMRANGEBYSCORE: removes the members in the range; returns how many. */
    public long removeRangeByScore(ScoreRange range) {
        return deleteIn(range.belowMin, range.notAboveMax);
    }

    /**
     * ZREMRANGEBYLEX: removes the members in the interval; returns how many. Redis makes
     * {@link #lexSpan}'s emptiness test on a listpack only (its skiplist walks from the interval's
     * start), and so does this.
     */
    public long removeRangeByLex(LexRange range) {
        if (store.encoding() == Encoding.LISTPACK && !lexMayOverlap(range)) {
            return 0;
        }
        return deleteIn(range.belowMin, range.notAboveMax);
    }

    /** ZPOPMIN: visits then removes up to {@code count} lowest members, lowest first. */
    public void popMin(long count, EntryVisitor visitor) {
        int n = (int) Math.min(Math.max(count, 0), store.size());
        store.visit(0, n, false, visitor);
        store.deleteRange(0, n);
    }

    /** ZPOPMAX: visits then removes up to {@code count} highest members, highest first. */
    public void popMax(long count, EntryVisitor visitor) {
        int size = store.size();
        int n = (int) Math.min(Math.max(count, 0), size);
        store.visit(size - n, size, true, visitor);
        store.deleteRange(size - n, size);
    }

    /**
     * ZRANDMEMBER with a count: a positive count visits that many distinct members (the whole
     * set, highest first as Redis's iterator gives it, when it has no more); a negative count
     * visits |count| members chosen independently, so repeats occur.
     */
    public void randomMembers(long count, RandomGenerator random, EntryVisitor visitor) {
        int size = store.size();
        if (count == 0 || size == 0) {
            return;
        }
        if (count < 0) {
            int[] ranks = new int[(int) Math.min(-count, RANK_BATCH)];
            for (long left = -count; left > 0; left -= ranks.length) {
                int n = (int) Math.min(left, ranks.length);
                for (int i = 0; i < n; i++) {
                    ranks[i] = random.nextInt(size);
                }
                visitEach(ranks, n, visitor);
            }
        } else if (count >= size) {
            store.visit(0, size, true, visitor);
        } else {
            int[] ranks = distinctRanks((int) count, size, random);
            visitEach(ranks, ranks.length, visitor);
        }
    }

    /**
     * ZSCAN step: visits some members and returns the cursor for the next call, 0 when done.
     * Every member present from the first call to the last is visited at least once.
     */
    public long scan(long cursor, int count, EntryVisitor visitor) {
        return store.scan(cursor, count, visitor);
    }

    /** Visits every member in ascending order. */
    @Override
    public void forEachEntry(EntryVisitor visitor) {
        store.visit(0, store.size(), false, visitor);
    }

    @Override
    public KeyType type() {
        return KeyType.ZSET;
    }

    @Override
    public String encodingName() {
        return encoding().redisName();
    }

    @Override
    public long weight() {
        return size() + 1L;
    }

    @Override
    public void digest(ValueDigest digest) {
        forEachEntry((buf, off, len, score) -> digest.element(buf, off, len, Doubles.formatBytes(score)));
    }

    /**
     * A deep copy in this set's encoding, as Redis's COPY makes one: a listpack stays a listpack
     * whatever the limits say now, and a skiplist stays a skiplist even when small enough to pack.
     */
    @Override
    public ZSet copy() {
        if (store instanceof ListpackZSet lp) {
            return new ZSet(limits, shape, lp.copy());
        }
        if (!limits.fits(size(), 0)) { // too many members to pack: the builder makes a skiplist
            ZSetBuilder builder = new ZSetBuilder(limits, size());
            forEachEntry(builder::add);
            return builder.build();
        }
        ZSet copy = new ZSet(limits, shape, new TreeZSet(size(), shape));
        forEachEntry((buf, off, len, score) -> copy.add(Arrays.copyOfRange(buf, off, off + len), score));
        return copy;
    }

    @Override
    public long memoryUsage() {
        return Footprint.object(3, 0) + store.allocatedBytes();
    }

    /** Moves a listpack-encoded set to the skiplist encoding (Redis's SORT does this to every sorted set it reads). */
    public void convertToSkiplist() {
        if (store instanceof ListpackZSet lp) {
            store = lp.toTree(shape);
        }
    }

    /** Throws {@link AssertionError} when an internal invariant does not hold. */
    void checkInvariants() {
        store.checkInvariants();
        if (store instanceof ListpackZSet lp && !limits.fits(lp.size(), lp.longestMember())) {
            throw new AssertionError("listpack holds " + lp.size() + " entries up to " + lp.longestMember()
                    + " bytes, beyond " + limits);
        }
    }

    private void insert(byte[] member, double score, int missToken) {
        if (store instanceof ListpackZSet lp && !limits.fits(lp.size() + 1L, member.length)) {
            store = lp.toTree(shape);
            missToken = store.find(member, 0, member.length);
        }
        store.insert(member, 0, member.length, score, missToken);
    }

    /** Returns [from, to) ascending ranks for Redis's inclusive, possibly negative indexes, or null. */
    private long[] normalizeIndexes(long start, long stop) {
        long size = store.size();
        if (start < 0) {
            start += size;
        }
        if (stop < 0) {
            stop += size;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > stop || start >= size) {
            return null;
        }
        if (stop >= size) {
            stop = size - 1;
        }
        return new long[] {start, stop + 1};
    }

    /** An interval of keys is the ranks [count below min, count not above max). */
    private long countIn(RankTree.Bound belowMin, RankTree.Bound notAboveMax) {
        return Math.max(0, store.countBelow(notAboveMax) - store.countBelow(belowMin));
    }

    private long deleteIn(RankTree.Bound belowMin, RankTree.Bound notAboveMax) {
        return deleteRanks(store.countBelow(belowMin), store.countBelow(notAboveMax));
    }

    private Span limitedSpan(RankTree.Bound belowMin, RankTree.Bound notAboveMax, boolean reverse, long offset, long count) {
        if (offset < 0) {
            return Span.EMPTY;
        }
        int lo = store.countBelow(belowMin);
        int hi = store.countBelow(notAboveMax);
        if (hi <= lo || offset >= hi - lo) {
            return Span.EMPTY;
        }
        long available = hi - lo - offset;
        int n = (int) (count < 0 ? available : Math.min(count, available));
        if (reverse) {
            int top = (int) (hi - offset);
            return new Span(top - n, top, true);
        }
        int from = (int) (lo + offset);
        return new Span(from, from + n, false);
    }

    private long deleteRanks(int from, int to) {
        if (to <= from) {
            return 0;
        }
        store.deleteRange(from, to);
        return to - from;
    }

    private void visitEach(int[] ranks, int n, EntryVisitor visitor) {
        for (int i = 0; i < n; i++) {
            store.visit(ranks[i], ranks[i] + 1, false, visitor);
        }
    }

    /** Chooses {@code k} distinct ranks of {@code n} uniformly, in random order. */
    private static int[] distinctRanks(int k, int n, RandomGenerator random) {
        if (k * 3L > n) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            for (int i = 0; i < k; i++) {
                int j = i + random.nextInt(n - i);
                int t = all[i];
                all[i] = all[j];
                all[j] = t;
            }
            return Arrays.copyOf(all, k);
        }
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int j = n - k; j < n; j++) {
            int t = random.nextInt(j + 1);
            if (!chosen.add(t)) {
                chosen.add(j);
            }
        }
        int[] ranks = chosen.stream().mapToInt(Integer::intValue).toArray();
        for (int i = ranks.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = ranks[i];
            ranks[i] = ranks[j];
            ranks[j] = t;
        }
        return ranks;
    }

    private static void requireNotNaN(double score) {
        if (Double.isNaN(score)) {
            throw new ErrorReply(Errors.NOT_A_FLOAT);
        }
    }
}
