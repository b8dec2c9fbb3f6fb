package dev.ordo.engine.zset;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Union, intersection, difference and intersection cardinality, with Redis's arithmetic. */
class ZSetAlgebraTest {
    private static final ListpackLimits LIMITS = ListpackLimits.DEFAULT;

    private static ZSet set(Object... memberScorePairs) {
        ZSet z = new ZSet();
        for (int i = 0; i < memberScorePairs.length; i += 2) {
            z.add(((String) memberScorePairs[i]).getBytes(StandardCharsets.UTF_8), ((Number) memberScorePairs[i + 1]).doubleValue());
        }
        return z;
    }

    private static List<ZEntry> entries(ZSet z) {
        z.checkInvariants();
        return ZEntry.collect(z::forEachEntry);
    }

    @Test
    void union_sumWithWeights_addsWeightedScores() {
        ZSet a = set("x", 1, "y", 2);
        ZSet b = set("y", 3, "z", 4);
        ZSet u = ZSetAlgebra.union(List.of(a, b), new double[] {2, 3}, Aggregate.SUM, LIMITS);
        assertThat(entries(u)).containsExactly(ZEntry.of("x", 2), ZEntry.of("z", 12), ZEntry.of("y", 13));
    }

    @Test
    void union_minAndMax_keepTheExtreme() {
        ZSet a = set("x", 1, "y", 5);
        ZSet b = set("x", 3, "y", 2);
        assertThat(entries(ZSetAlgebra.union(List.of(a, b), new double[] {1, 1}, Aggregate.MIN, LIMITS)))
                .containsExactly(ZEntry.of("x", 1), ZEntry.of("y", 2));
        assertThat(entries(ZSetAlgebra.union(List.of(a, b), new double[] {1, 1}, Aggregate.MAX, LIMITS)))
                .containsExactly(ZEntry.of("x", 3), ZEntry.of("y", 5));
    }

    @Test
    void union_infPlusNegativeInf_isZeroNotNaN() {
        ZSet a = set("x", Double.POSITIVE_INFINITY);
        ZSet b = set("x", Double.NEGATIVE_INFINITY);
        assertThat(entries(ZSetAlgebra.union(List.of(a, b), new double[] {1, 1}, Aggregate.SUM, LIMITS)))
                .containsExactly(ZEntry.of("x", 0));
    }

    @Test
    void union_zeroWeightTimesInfinity_countsAsZero() {
        ZSet a = set("x", Double.POSITIVE_INFINITY, "y", 1);
        assertThat(entries(ZSetAlgebra.union(List.of(a), new double[] {0}, Aggregate.SUM, LIMITS)))
                .containsExactly(ZEntry.of("x", 0), ZEntry.of("y", 0));
    }

    @Test
    void inter_keepsMembersInEveryInput() {
        ZSet a = set("x", 1, "y", 2, "z", 3);
        ZSet b = set("y", 10, "z", 20, "w", 30);
        ZSet c = set("z", 100, "y", 100);
        assertThat(entries(ZSetAlgebra.inter(List.of(a, b, c), new double[] {1, 1, 1}, Aggregate.SUM, LIMITS)))
                .containsExactly(ZEntry.of("y", 112), ZEntry.of("z", 123));
    }

    @Test
    void inter_nanFromLaterInput_followsRedisAggregation() {
        // Redis zeroes only the first (smallest) input's NaN; a later NaN makes SUM's result 0
        // and is ignored by MIN and MAX.
        ZSet small = set("x", 5);
        ZSet large = set("x", Double.POSITIVE_INFINITY, "other", 1);
        double[] w = {1, 0};
        assertThat(entries(ZSetAlgebra.inter(List.of(small, large), w, Aggregate.SUM, LIMITS))).containsExactly(ZEntry.of("x", 0));
        assertThat(entries(ZSetAlgebra.inter(List.of(small, large), w, Aggregate.MIN, LIMITS))).containsExactly(ZEntry.of("x", 5));
        assertThat(entries(ZSetAlgebra.inter(List.of(small, large), w, Aggregate.MAX, LIMITS))).containsExactly(ZEntry.of("x", 5));
    }

    @Test
    void inter_withEmptyInput_isEmpty() {
        ZSet a = set("x", 1);
        assertThat(ZSetAlgebra.inter(List.of(a, ScoredMembers.EMPTY), new double[] {1, 1}, Aggregate.SUM, LIMITS).size()).isZero();
    }

    @Test
    void diff_keepsFirstInputMembersFoundNowhereElse() {
        ZSet a = set("x", 3, "y", 2, "z", 1);
        ZSet b = set("y", 100);
        ZSet c = set("q", 1);
        assertThat(entries(ZSetAlgebra.diff(List.of(a, b, c), LIMITS))).containsExactly(ZEntry.of("z", 1), ZEntry.of("x", 3));
        assertThat(ZSetAlgebra.diff(List.of(ScoredMembers.EMPTY, a), LIMITS).size()).isZero();
    }

    @Test
    void interCard_limitStopsCounting() {
        ZSet a = set("a", 1, "b", 2, "c", 3, "d", 4);
        ZSet b = set("a", 1, "b", 2, "c", 3, "e", 4);
        assertThat(ZSetAlgebra.interCard(List.of(a, b), 0)).isEqualTo(3);
        assertThat(ZSetAlgebra.interCard(List.of(a, b), 2)).isEqualTo(2);
        assertThat(ZSetAlgebra.interCard(List.of(a, b), 10)).isEqualTo(3);
        assertThat(ZSetAlgebra.interCard(List.of(a, ScoredMembers.EMPTY), 0)).isZero();
    }

    @Test
    void results_startInTheEncodingThatFits() {
        ZSet big = new ZSet(ListpackLimits.of(0, 0));
        for (int i = 0; i < 500; i++) {
            big.add(("m" + i).getBytes(StandardCharsets.UTF_8), i);
        }
        ZSet few = set("m1", 1, "m2", 2);
        assertThat(ZSetAlgebra.inter(List.of(big, few), new double[] {1, 1}, Aggregate.SUM, LIMITS).encoding()).isEqualTo(Encoding.LISTPACK);
        ZSet union = ZSetAlgebra.union(List.of(big, few), new double[] {1, 1}, Aggregate.SUM, LIMITS);
        assertThat(union.encoding()).isEqualTo(Encoding.SKIPLIST);
        assertThat(union.size()).isEqualTo(500);
        union.checkInvariants();
        ZSet wide = set("x", 1);
        ZSet longMember = set("y".repeat(65), 2);
        assertThat(ZSetAlgebra.union(List.of(wide, longMember), new double[] {1, 1}, Aggregate.SUM, LIMITS).encoding()).isEqualTo(Encoding.SKIPLIST);
    }

    @Test
    void builder_loadsManyUnorderedMembers_intoAValidTree() {
        ZSetBuilder builder = new ZSetBuilder(LIMITS, 0);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        for (int i = 0; i < 20_000; i++) {
            builder.add(("k" + rnd.nextInt(15_000)).getBytes(StandardCharsets.UTF_8), rnd.nextInt(100));
        }
        int distinct = builder.size();
        ZSet z = builder.build();
        z.checkInvariants();
        assertThat(z.size()).isEqualTo(distinct);
        List<ZEntry> all = entries(z);
        for (int i = 1; i < all.size(); i++) {
            assertThat(SortedListModel.ORDER.compare(all.get(i - 1), all.get(i))).isNegative();
        }
        z.add("new".getBytes(StandardCharsets.UTF_8), 50);
        z.removeRange(0, 5000);
        z.checkInvariants();
    }

    /** Snapshots arrive in order (Ordo's) or in reverse (Redis's): both skip the sort, ties included. */
    @Test
    void builder_acceptsInputInOrderAndInReverse() {
        List<ZEntry> ordered = new java.util.ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            ordered.add(new ZEntry(("m" + (10_000 + i)).getBytes(StandardCharsets.UTF_8), i / 7));
        }
        List<ZEntry> reversed = new java.util.ArrayList<>(ordered);
        java.util.Collections.reverse(reversed);
        List<ZEntry> almost = new java.util.ArrayList<>(ordered);
        java.util.Collections.swap(almost, 1000, 1001);
        for (List<ZEntry> input : List.of(ordered, reversed, almost)) {
            ZSetBuilder builder = new ZSetBuilder(LIMITS, 10);
            input.forEach(e -> builder.add(e.member(), e.score()));
            ZSet z = builder.build();
            z.checkInvariants();
            List<ZEntry> all = entries(z);
            assertThat(all).hasSize(ordered.size());
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i).member()).isEqualTo(ordered.get(i).member());
                assertThat(all.get(i).score()).isEqualTo(ordered.get(i).score());
            }
        }
    }
}
