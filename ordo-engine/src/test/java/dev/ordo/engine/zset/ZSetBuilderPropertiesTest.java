package dev.ordo.engine.zset;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ZSetBuilder} against {@link SortedListModel}: members whose first part (any length, from
 * none to all) is sorted, so that the ascending-run road is taken and then left part-way (an
 * out-of-order member, often at an equal score, a duplicate, a member too long, one too many). Every add's answer, the content, the encoding rule and
 * the invariants must match what adding one by one into the model gives.
 */
class ZSetBuilderPropertiesTest {
    record Entry(byte[] member, double score) {
    }

    private static final Comparator<Entry> ASCENDING = (a, b) -> a.score < b.score ? -1
            : a.score > b.score ? 1 : java.util.Arrays.compareUnsigned(a.member, b.member);

    @Property(tries = 400)
    void build_matchesAddingOneByOne(@ForAll("entries") List<Entry> input, @ForAll @IntRange(max = 150) int sortedPrefix,
            @ForAll("limits") ListpackLimits limits, @ForAll @IntRange(max = 200) int expectedSize) {
        List<Entry> entries = new ArrayList<>(input);
        entries.subList(0, Math.min(sortedPrefix, entries.size())).sort(ASCENDING);
        ZSetBuilder builder = new ZSetBuilder(limits, expectedSize);
        SortedListModel model = new SortedListModel();
        int longest = 0;
        for (Entry e : entries) {
            boolean added = model.indexOf(e.member) < 0;
            if (added) {
                model.add(e.member, e.score, ZAddOptions.NONE);
                longest = Math.max(longest, e.member.length);
            }
            assertThat(builder.add(e.member, 0, e.member.length, e.score)).as("add %s", e).isEqualTo(added);
            assertThat(builder.size()).isEqualTo(model.size());
        }
        ZSet z = builder.build();
        z.checkInvariants();
        assertThat(ZEntry.collect(z::forEachEntry)).isEqualTo(model.entries());
        assertThat(z.encoding()).isEqualTo(limits.fits(model.size(), longest) ? Encoding.LISTPACK : Encoding.SKIPLIST);
    }

    @net.jqwik.api.Example
    void equalScoresOutOfMemberOrder_leaveTheRunAndStillSort() {
        ZSetBuilder builder = new ZSetBuilder(ListpackLimits.of(128, 64), 4);
        for (String m : List.of("b", "a", "c")) {
            builder.add(m.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 1, 1);
        }
        assertThat(ZEntry.collect(builder.build()::forEachEntry)).containsExactly(ZEntry.of("a", 1), ZEntry.of("b", 1), ZEntry.of("c", 1));
    }

    @Provide
    Arbitrary<List<Entry>> entries() {
        Arbitrary<byte[]> members = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, ZSetPropertiesTest.members()),
                net.jqwik.api.Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(60).ofMaxSize(70)));
        Arbitrary<Double> scores = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.of(0.0, -0.0, 1.0, 2.0)),
                net.jqwik.api.Tuple.of(1, ZSetPropertiesTest.scores()));
        return Combinators.combine(members, scores).as(Entry::new).list().ofMaxSize(150);
    }

    @Provide
    Arbitrary<ListpackLimits> limits() {
        return Arbitraries.of(ListpackLimits.of(128, 64), ListpackLimits.of(24, 2), ListpackLimits.of(3, 64), ListpackLimits.of(0, 0));
    }
}
