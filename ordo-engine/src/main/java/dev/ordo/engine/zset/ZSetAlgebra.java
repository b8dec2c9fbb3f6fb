package dev.ordo.engine.zset;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Union, intersection and difference of sorted sets (and plain sets, scoring 1), with Redis's
 * arithmetic: a weighted score {@code weight * score} that is NaN (0 times infinity) counts as 0
 * where Redis zeroes it, {@link Aggregate#SUM} turns inf + -inf into 0, and the inputs of a union
 * or intersection are combined smallest first (a stable sort by size), the order in which Redis
 * folds them, so that floating-point sums agree bit for bit.
 */
public final class ZSetAlgebra {
    private ZSetAlgebra() {
    }

    /** ZUNION: every member of any input, its weighted scores folded with {@code aggregate}. */
    public static ZSet union(List<? extends ScoredMembers> inputs, double[] weights, Aggregate aggregate, ListpackLimits limits) {
        List<Weighted> sorted = bySize(inputs, weights);
        int largest = sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).members.size();
        ZSetBuilder builder = new ZSetBuilder(limits, largest);
        for (Weighted in : sorted) {
            in.members.forEachEntry((buf, off, len, score) ->
                    builder.aggregate(buf, off, len, zeroIfNaN(in.weight * score), aggregate));
        }
        return builder.build();
    }

    /** ZINTER: the members present in every input, their weighted scores folded with {@code aggregate}. */
    public static ZSet inter(List<? extends ScoredMembers> inputs, double[] weights, Aggregate aggregate, ListpackLimits limits) {
        List<Weighted> sorted = bySize(inputs, weights);
        if (sorted.isEmpty() || sorted.get(0).members.size() == 0) {
            return new ZSetBuilder(limits, 0).build();
        }
        Weighted smallest = sorted.get(0);
        ZSetBuilder builder = new ZSetBuilder(limits, smallest.members.size());
        smallest.members.forEachEntry((buf, off, len, score) -> {
            double acc = zeroIfNaN(smallest.weight * score);
            for (int j = 1; j < sorted.size(); j++) {
                Weighted other = sorted.get(j);
                double value = other.members.score(buf, off, len);
                if (Double.isNaN(value)) {
                    return;
                }
                acc = aggregate.combine(acc, value * other.weight);
            }
            builder.add(buf, off, len, acc);
        });
        return builder.build();
    }

    /** ZDIFF: the members of the first input found in no other, with their own scores. */
    public static ZSet diff(List<? extends ScoredMembers> inputs, ListpackLimits limits) {
        ScoredMembers first = inputs.get(0);
        ZSetBuilder builder = new ZSetBuilder(limits, first.size());
        first.forEachEntry((buf, off, len, score) -> {
            for (int j = 1; j < inputs.size(); j++) {
                if (!Double.isNaN(inputs.get(j).score(buf, off, len))) {
                    return;
                }
            }
            builder.add(buf, off, len, score);
        });
        return builder.build();
    }

    /** ZINTERCARD: the size of the intersection, counting no further than {@code limit} (0: no limit). */
    public static long interCard(List<? extends ScoredMembers> inputs, long limit) {
        List<Weighted> sorted = bySize(inputs, null);
        if (sorted.isEmpty()) {
            return 0;
        }
        long[] count = {0};
        sorted.get(0).members.forEachEntry((buf, off, len, score) -> {
            if (limit > 0 && count[0] >= limit) {
                return;
            }
            for (int j = 1; j < sorted.size(); j++) {
                if (Double.isNaN(sorted.get(j).members.score(buf, off, len))) {
                    return;
                }
            }
            count[0]++;
        });
        return count[0];
    }

    private record Weighted(ScoredMembers members, double weight) {
    }

    private static List<Weighted> bySize(List<? extends ScoredMembers> inputs, double[] weights) {
        List<Weighted> sorted = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            sorted.add(new Weighted(inputs.get(i), weights == null ? 1.0 : weights[i]));
        }
        sorted.sort(Comparator.comparingInt(w -> w.members.size()));
        return sorted;
    }

    private static double zeroIfNaN(double v) {
        return Double.isNaN(v) ? 0.0 : v;
    }
}
