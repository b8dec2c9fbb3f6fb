package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.number.Doubles;

/**
 * A score interval as ZRANGEBYSCORE and friends take it: each bound a double, {@code (} in front
 * for exclusive, {@code -inf}, {@code +inf} and {@code inf} allowed. An interval with min &gt; max,
 * or min == max with either end exclusive, is empty.
 */
public final class ScoreRange {
    private final double min;
    private final double max;
    private final boolean minExclusive;
    private final boolean maxExclusive;
    final RankTree.Bound belowMin;
    final RankTree.Bound notAboveMax;

    private ScoreRange(double min, boolean minExclusive, double max, boolean maxExclusive) {
        this.min = min;
        this.max = max;
        this.minExclusive = minExclusive;
        this.maxExclusive = maxExclusive;
        this.belowMin = new ScoreBound(min, minExclusive);
        this.notAboveMax = new ScoreBound(max, !maxExclusive);
    }

    /** Returns the interval between two bounds. */
    public static ScoreRange of(double min, boolean minExclusive, double max, boolean maxExclusive) {
        if (Double.isNaN(min) || Double.isNaN(max)) {
            throw new IllegalArgumentException("NaN bound");
        }
        return new ScoreRange(min, minExclusive, max, maxExclusive);
    }

    /** Parses Redis's bound syntax; throws {@code ERR min or max is not a float}. */
    public static ScoreRange parse(byte[] min, byte[] max) {
        boolean minEx = min.length > 0 && min[0] == '(';
        boolean maxEx = max.length > 0 && max[0] == '(';
        double lo = Doubles.parseRangeBound(min, minEx ? 1 : 0, min.length - (minEx ? 1 : 0));
        double hi = Doubles.parseRangeBound(max, maxEx ? 1 : 0, max.length - (maxEx ? 1 : 0));
        if (Double.isNaN(lo) || Double.isNaN(hi)) {
            throw new ErrorReply(Errors.MIN_MAX_NOT_FLOAT);
        }
        return new ScoreRange(lo, minEx, hi, maxEx);
    }

    /** Whether {@code score} lies in the interval. */
    public boolean contains(double score) {
        return (minExclusive ? score > min : score >= min) && (maxExclusive ? score < max : score <= max);
    }

    /** Whether no score can lie in the interval. */
    public boolean isEmpty() {
        return min > max || (min == max && (minExclusive || maxExclusive));
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    public boolean minExclusive() {
        return minExclusive;
    }

    public boolean maxExclusive() {
        return maxExclusive;
    }

    @Override
    public String toString() {
        return (minExclusive ? "(" : "[") + min + ", " + max + (maxExclusive ? ")" : "]");
    }

    /** Holds for scores below {@code limit}, or at most {@code limit} when {@code inclusive}. */
    private record ScoreBound(double limit, boolean inclusive) implements RankTree.Bound {
        @Override
        public boolean below(double score, byte[] member, int off, int len) {
            return inclusive ? score <= limit : score < limit;
        }

        @Override
        public boolean below(double score, int addr, MemberArena arena) {
            return inclusive ? score <= limit : score < limit;
        }

        @Override
        public int countIn(RankTree tree) {
            return tree.countScoresBelow(limit, inclusive);
        }
    }
}
