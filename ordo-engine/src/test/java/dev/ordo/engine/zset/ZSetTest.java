package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each operation's edge cases, run on both encodings. */
class ZSetTest {

    static ZSet newSet(Encoding encoding) {
        ZSet z = new ZSet(encoding == Encoding.LISTPACK ? ListpackLimits.DEFAULT : ListpackLimits.of(0, 0));
        z.add(b("seed"), 0);
        z.remove(b("seed"));
        assertThat(z.encoding()).isEqualTo(encoding);
        return z;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static List<String> members(List<ZEntry> entries) {
        return entries.stream().map(e -> new String(e.member(), StandardCharsets.ISO_8859_1)).collect(Collectors.toList());
    }

    static List<String> all(ZSet z) {
        List<ZEntry> out = ZEntry.collect(z::forEachEntry);
        z.checkInvariants();
        return members(out);
    }

    static ZSet abcde(Encoding encoding) {
        ZSet z = newSet(encoding);
        z.add(b("a"), 1);
        z.add(b("b"), 2);
        z.add(b("c"), 3);
        z.add(b("d"), 4);
        z.add(b("e"), 5);
        return z;
    }

    // ------------------------------------------------------------------ add

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_newMember_returnsAdded(Encoding enc) {
        ZSet z = newSet(enc);
        assertThat(z.add(b("a"), 1.5)).isEqualTo(AddResult.ADDED);
        assertThat(z.score(b("a"))).isEqualTo(1.5);
        assertThat(z.size()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_existingMemberSameScore_returnsUnchanged(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 1);
        assertThat(z.add(b("a"), 1)).isEqualTo(AddResult.UNCHANGED);
        assertThat(z.size()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_existingMemberNewScore_updatesAndReorders(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.add(b("a"), 10)).isEqualTo(AddResult.UPDATED);
        assertThat(all(z)).containsExactly("b", "c", "d", "e", "a");
        assertThat(z.add(b("e"), -1)).isEqualTo(AddResult.UPDATED);
        assertThat(all(z)).containsExactly("e", "b", "c", "d", "a");
        assertThat(z.add(b("c"), 2.5)).isEqualTo(AddResult.UPDATED);
        assertThat(all(z)).containsExactly("e", "b", "c", "d", "a");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_nxOnExistingMember_keepsScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 1);
        assertThat(z.add(b("a"), 5, ZAddOptions.NONE.nx())).isEqualTo(AddResult.SKIPPED);
        assertThat(z.score(b("a"))).isEqualTo(1);
        assertThat(z.add(b("b"), 5, ZAddOptions.NONE.nx())).isEqualTo(AddResult.ADDED);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_xxOnMissingMember_doesNotAdd(Encoding enc) {
        ZSet z = newSet(enc);
        assertThat(z.add(b("a"), 1, ZAddOptions.NONE.xx())).isEqualTo(AddResult.SKIPPED);
        assertThat(z.size()).isZero();
        z.add(b("a"), 1);
        assertThat(z.add(b("a"), 2, ZAddOptions.NONE.xx())).isEqualTo(AddResult.UPDATED);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_gtWithLowerOrEqualScore_keepsScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 10);
        assertThat(z.add(b("a"), 5, ZAddOptions.NONE.gt())).isEqualTo(AddResult.SKIPPED);
        assertThat(z.add(b("a"), 10, ZAddOptions.NONE.gt())).isEqualTo(AddResult.SKIPPED);
        assertThat(z.add(b("a"), 11, ZAddOptions.NONE.gt())).isEqualTo(AddResult.UPDATED);
        assertThat(z.score(b("a"))).isEqualTo(11);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_gtOrLtOnNewMember_adds(Encoding enc) {
        ZSet z = newSet(enc);
        assertThat(z.add(b("a"), 5, ZAddOptions.NONE.gt())).isEqualTo(AddResult.ADDED);
        assertThat(z.add(b("b"), 5, ZAddOptions.NONE.lt())).isEqualTo(AddResult.ADDED);
        assertThat(z.add(b("c"), 5, ZAddOptions.NONE.gt().xx())).isEqualTo(AddResult.SKIPPED);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_ltWithHigherScore_keepsScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 10);
        assertThat(z.add(b("a"), 20, ZAddOptions.NONE.lt())).isEqualTo(AddResult.SKIPPED);
        assertThat(z.add(b("a"), 3, ZAddOptions.NONE.lt())).isEqualTo(AddResult.UPDATED);
        assertThat(z.score(b("a"))).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_negativeZeroOverZero_keepsStoredZero(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 0.0);
        assertThat(z.add(b("a"), -0.0)).isEqualTo(AddResult.UNCHANGED);
        assertThat(Double.doubleToRawLongBits(z.score(b("a")))).isEqualTo(Double.doubleToRawLongBits(0.0));
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_nan_isRejectedWithoutChange(Encoding enc) {
        ZSet z = newSet(enc);
        assertThatThrownBy(() -> z.add(b("a"), Double.NaN)).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR value is not a valid float");
        assertThat(z.size()).isZero();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void add_infiniteScores_orderAtTheEnds(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("max"), Double.POSITIVE_INFINITY);
        z.add(b("min"), Double.NEGATIVE_INFINITY);
        z.add(b("mid"), 0);
        assertThat(all(z)).containsExactly("min", "mid", "max");
    }

    // ------------------------------------------------------------------ increment

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_missingMember_startsFromZero(Encoding enc) {
        ZSet z = newSet(enc);
        assertThat(z.increment(b("a"), 2.5)).isEqualTo(2.5);
        assertThat(z.increment(b("a"), 2.5)).isEqualTo(5.0);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_infPlusNegativeInf_throwsAndKeepsScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), Double.POSITIVE_INFINITY);
        assertThatThrownBy(() -> z.increment(b("a"), Double.NEGATIVE_INFINITY)).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR resulting score is not a number (NaN)");
        assertThat(z.score(b("a"))).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_gtBlockingDecrease_returnsNilAndKeepsScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 10);
        assertThat(z.increment(b("a"), -1, ZAddOptions.NONE.incr().gt())).isNaN();
        assertThat(z.score(b("a"))).isEqualTo(10);
        assertThat(z.increment(b("a"), 1, ZAddOptions.NONE.incr().gt())).isEqualTo(11);
        assertThat(z.increment(b("a"), 0, ZAddOptions.NONE.incr().gt())).isNaN();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_nxOnExistingOrXxOnMissing_returnsNil(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 1);
        assertThat(z.increment(b("a"), 1, ZAddOptions.NONE.incr().nx())).isNaN();
        assertThat(z.increment(b("b"), 1, ZAddOptions.NONE.incr().xx())).isNaN();
        assertThat(z.contains(b("b"))).isFalse();
        assertThat(z.score(b("a"))).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_zeroDelta_returnsCurrentScore(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("a"), 7);
        assertThat(z.increment(b("a"), 0)).isEqualTo(7);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void increment_reordersMember(Encoding enc) {
        ZSet z = abcde(enc);
        z.increment(b("a"), 2.5);
        assertThat(all(z)).containsExactly("b", "c", "a", "d", "e");
    }

    /**
     * Leaves of four, filled by appends: [b c d e] [f g a h], the tie run at score 1 crossing the
     * leaf boundary. Moving a to score 1 must take it out of the second leaf, before b; a new score
     * equal to the leaf's first score is not inside the leaf's range.
     */
    @Test
    void update_toTheScoreOfATieRunCrossingALeafBoundary_keepsMemberOrder() {
        ZSet z = new ZSet(ListpackLimits.of(0, 0), new TreeShape(4, 4, 128));
        for (String m : new String[] {"b", "c", "d", "e", "f"}) {
            z.add(b(m), 1);
        }
        z.add(b("g"), 2);
        z.add(b("h"), 3);
        z.add(b("a"), 2.5);
        z.add(b("a"), 1);
        assertThat(all(z)).containsExactly("a", "b", "c", "d", "e", "f", "g", "h");
        z.increment(b("h"), -2);
        assertThat(all(z)).containsExactly("a", "b", "c", "d", "e", "f", "h", "g");
    }

    // ------------------------------------------------------------------ order

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void order_equalScores_sortByMemberBytesUnsigned(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(new byte[] {(byte) 0x80}, 1);
        z.add(new byte[] {0x7F}, 1);
        z.add(new byte[] {}, 1);
        z.add(new byte[] {0}, 1);
        z.add(new byte[] {0, 0}, 1);
        z.add(new byte[] {(byte) 0xFF}, 1);
        List<ZEntry> entries = ZEntry.collect(z::forEachEntry);
        assertThat(entries).extracting(ZEntry::member)
                .containsExactly(new byte[] {}, new byte[] {0}, new byte[] {0, 0}, new byte[] {0x7F},
                        new byte[] {(byte) 0x80}, new byte[] {(byte) 0xFF});
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void order_negativeZeroEqualsZero_memberDecides(Encoding enc) {
        ZSet z = newSet(enc);
        z.add(b("b"), -0.0);
        z.add(b("a"), 0.0);
        z.add(b("c"), -0.0);
        assertThat(all(z)).containsExactly("a", "b", "c");
        assertThat(z.count(ScoreRange.of(0, false, 0, false))).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void members_binaryWithNulAndCrlf_roundTrip(Encoding enc) {
        ZSet z = newSet(enc);
        byte[] m1 = {'a', 0, 'b', '\r', '\n'};
        byte[] m2 = {'a', 0};
        z.add(m1, 1);
        z.add(m2, 1);
        assertThat(z.score(m1)).isEqualTo(1);
        assertThat(z.score(new byte[] {'a'})).isNaN();
        assertThat(z.rank(m2)).isZero();
        assertThat(z.rank(m1)).isEqualTo(1);
    }

    // ------------------------------------------------------------------ remove, rank, score

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void remove_presentAndAbsent_reportsWhetherRemoved(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.remove(b("c"))).isTrue();
        assertThat(z.remove(b("c"))).isFalse();
        assertThat(z.remove(b("zz"))).isFalse();
        assertThat(all(z)).containsExactly("a", "b", "d", "e");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rank_presentAndAbsent(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.rank(b("a"))).isZero();
        assertThat(z.rank(b("e"))).isEqualTo(4);
        assertThat(z.reverseRank(b("e"))).isZero();
        assertThat(z.reverseRank(b("b"))).isEqualTo(3);
        assertThat(z.rank(b("x"))).isEqualTo(-1);
        assertThat(z.reverseRank(b("x"))).isEqualTo(-1);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rankWithScore_presentAndAbsent(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.rankWithScore(b("b"), false)).isEqualTo(new ZSet.RankedScore(1, 2));
        assertThat(z.rankWithScore(b("b"), true)).isEqualTo(new ZSet.RankedScore(3, 2));
        assertThat(z.rankWithScore(b("x"), false)).isNull();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void score_absentMember_isNaN(Encoding enc) {
        assertThat(abcde(enc).score(b("x"))).isNaN();
    }

    // ------------------------------------------------------------------ range by index

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void range_negativeIndexes_countFromTheEnd(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(members(ZEntry.collect(v -> z.range(-2, -1, false, v)))).containsExactly("d", "e");
        assertThat(members(ZEntry.collect(v -> z.range(0, -1, false, v)))).containsExactly("a", "b", "c", "d", "e");
        assertThat(members(ZEntry.collect(v -> z.range(-100, 1, false, v)))).containsExactly("a", "b");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void range_emptyOrOutOfRange_visitsNothing(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(ZEntry.collect(v -> z.range(3, 1, false, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.range(5, 10, false, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.range(-1, -2, false, v))).isEmpty();
        assertThat(members(ZEntry.collect(v -> z.range(3, 100, false, v)))).containsExactly("d", "e");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void range_reverse_countsFromTheTop(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(members(ZEntry.collect(v -> z.range(0, 2, true, v)))).containsExactly("e", "d", "c");
        assertThat(members(ZEntry.collect(v -> z.range(-2, -1, true, v)))).containsExactly("b", "a");
        List<ZEntry> top = ZEntry.collect(v -> z.range(0, 0, true, v));
        assertThat(top).containsExactly(ZEntry.of("e", 5));
    }

    // ------------------------------------------------------------------ range by score

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rangeByScore_inclusiveAndExclusiveBounds(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("2", "4"), false, 0, -1, v)))).containsExactly("b", "c", "d");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("(2", "(4"), false, 0, -1, v)))).containsExactly("c");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("-inf", "+inf"), false, 0, -1, v)))).hasSize(5);
        assertThat(ZEntry.collect(v -> z.rangeByScore(range("(3", "(3"), false, 0, -1, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.rangeByScore(range("4", "2"), false, 0, -1, v))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rangeByScore_offsetAndCount(Encoding enc) {
        ZSet z = abcde(enc);
        ScoreRange all = range("-inf", "inf");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(all, false, 1, 2, v)))).containsExactly("b", "c");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(all, false, 3, -1, v)))).containsExactly("d", "e");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(all, false, 3, -7, v)))).containsExactly("d", "e");
        assertThat(ZEntry.collect(v -> z.rangeByScore(all, false, -1, 2, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.rangeByScore(all, false, 5, 2, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.rangeByScore(all, false, 0, 0, v))).isEmpty();
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(all, false, 0, Long.MAX_VALUE, v)))).hasSize(5);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rangeByScore_reverseWithLimit_startsFromTheHighest(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("2", "5"), true, 0, 2, v)))).containsExactly("e", "d");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("2", "5"), true, 1, 10, v)))).containsExactly("d", "c", "b");
        assertThat(members(ZEntry.collect(v -> z.rangeByScore(range("(1", "(5"), true, 0, -1, v)))).containsExactly("d", "c", "b");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void count_scoreRange(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.count(range("2", "4"))).isEqualTo(3);
        assertThat(z.count(range("(2", "4"))).isEqualTo(2);
        assertThat(z.count(range("-inf", "(1"))).isZero();
        assertThat(z.count(range("5", "1"))).isZero();
        assertThat(z.count(range("-inf", "+inf"))).isEqualTo(5);
    }

    // ------------------------------------------------------------------ lex

    static ZSet lexSet(Encoding enc) {
        ZSet z = newSet(enc);
        for (String m : new String[] {"a", "b", "c", "d", "e", "f", "g"}) {
            z.add(b(m), 0);
        }
        return z;
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rangeByLex_boundsAndInfinities(Encoding enc) {
        ZSet z = lexSet(enc);
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("-", "[c"), false, 0, -1, v)))).containsExactly("a", "b", "c");
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("-", "(c"), false, 0, -1, v)))).containsExactly("a", "b");
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("[aaa", "(g"), false, 0, -1, v)))).containsExactly("b", "c", "d", "e", "f");
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("(e", "+"), false, 0, -1, v)))).containsExactly("f", "g");
        assertThat(ZEntry.collect(v -> z.rangeByLex(lex("+", "-"), false, 0, -1, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.rangeByLex(lex("[d", "[c"), false, 0, -1, v))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void rangeByLex_reverseWithLimit(Encoding enc) {
        ZSet z = lexSet(enc);
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("[b", "[f"), true, 1, 2, v)))).containsExactly("e", "d");
        assertThat(members(ZEntry.collect(v -> z.rangeByLex(lex("-", "+"), false, 5, 10, v)))).containsExactly("f", "g");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void lexCount_andRemoveRangeByLex(Encoding enc) {
        ZSet z = lexSet(enc);
        assertThat(z.lexCount(lex("[b", "(e"))).isEqualTo(3);
        assertThat(z.lexCount(lex("-", "+"))).isEqualTo(7);
        assertThat(z.lexCount(lex("(g", "+"))).isZero();
        assertThat(z.removeRangeByLex(lex("[b", "(e"))).isEqualTo(3);
        assertThat(all(z)).containsExactly("a", "e", "f", "g");
        assertThat(z.removeRangeByLex(lex("[x", "[z"))).isZero();
    }

    // ------------------------------------------------------------------ remove ranges, pops

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void removeRange_byIndexWithNegatives(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.removeRange(1, -2)).isEqualTo(3);
        assertThat(all(z)).containsExactly("a", "e");
        assertThat(z.removeRange(5, 10)).isZero();
        assertThat(z.removeRange(0, -1)).isEqualTo(2);
        assertThat(z.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void removeRangeByScore_removesOnlyTheRange(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(z.removeRangeByScore(range("(1", "4"))).isEqualTo(3);
        assertThat(all(z)).containsExactly("a", "e");
        assertThat(z.removeRangeByScore(range("10", "20"))).isZero();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void popMin_andPopMax_inOrderAndBounded(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(ZEntry.collect(v -> z.popMin(2, v))).containsExactly(ZEntry.of("a", 1), ZEntry.of("b", 2));
        assertThat(ZEntry.collect(v -> z.popMax(2, v))).containsExactly(ZEntry.of("e", 5), ZEntry.of("d", 4));
        assertThat(ZEntry.collect(v -> z.popMax(0, v))).isEmpty();
        assertThat(ZEntry.collect(v -> z.popMin(10, v))).containsExactly(ZEntry.of("c", 3));
        assertThat(z.isEmpty()).isTrue();
        assertThat(ZEntry.collect(v -> z.popMin(1, v))).isEmpty();
    }

    // ------------------------------------------------------------------ random members

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void randomMembers_positiveCount_distinct(Encoding enc) {
        ZSet z = abcde(enc);
        for (long seed = 0; seed < 50; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<String> picked = members(ZEntry.collect(v -> z.randomMembers(3, rnd, v)));
            assertThat(picked).hasSize(3).doesNotHaveDuplicates().isSubsetOf("a", "b", "c", "d", "e");
        }
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void randomMembers_countAtLeastSize_returnsWholeSetHighestFirst(Encoding enc) {
        ZSet z = abcde(enc);
        assertThat(members(ZEntry.collect(v -> z.randomMembers(5, new SplittableRandom(1), v)))).containsExactly("e", "d", "c", "b", "a");
        assertThat(members(ZEntry.collect(v -> z.randomMembers(50, new SplittableRandom(1), v)))).containsExactly("e", "d", "c", "b", "a");
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void randomMembers_negativeCount_allowsRepeatsAndReturnsExactCount(Encoding enc) {
        ZSet z = abcde(enc);
        List<ZEntry> picked = ZEntry.collect(v -> z.randomMembers(-3000, new SplittableRandom(7), v));
        assertThat(picked).hasSize(3000);
        Set<String> distinct = new HashSet<>(members(picked));
        assertThat(distinct).containsExactlyInAnyOrder("a", "b", "c", "d", "e");
        for (ZEntry e : picked) {
            assertThat(z.score(e.member())).isEqualTo(e.score());
        }
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void randomMembers_zeroCountOrEmptySet_visitsNothing(Encoding enc) {
        assertThat(ZEntry.collect(v -> abcde(enc).randomMembers(0, new SplittableRandom(1), v))).isEmpty();
        assertThat(ZEntry.collect(v -> newSet(enc).randomMembers(-5, new SplittableRandom(1), v))).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void randomMembers_distinctSampling_coversEveryMember(Encoding enc) {
        ZSet z = newSet(enc);
        for (int i = 0; i < 100; i++) {
            z.add(b("m" + i), i);
        }
        Set<String> seen = new HashSet<>();
        SplittableRandom rnd = new SplittableRandom(3);
        for (int round = 0; round < 200; round++) {
            List<String> picked = members(ZEntry.collect(v -> z.randomMembers(10, rnd, v)));
            assertThat(picked).hasSize(10).doesNotHaveDuplicates();
            seen.addAll(picked);
            List<String> many = members(ZEntry.collect(v -> z.randomMembers(60, rnd, v)));
            assertThat(many).hasSize(60).doesNotHaveDuplicates();
        }
        assertThat(seen).hasSize(100);
    }

    // ------------------------------------------------------------------ scan

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void scan_fullCycle_returnsEveryMemberOnce(Encoding enc) {
        ZSet z = newSet(enc);
        int n = enc == Encoding.LISTPACK ? 100 : 5000;
        for (int i = 0; i < n; i++) {
            z.add(b("m" + i), i);
        }
        List<ZEntry> seen = new ArrayList<>();
        long cursor = 0;
        int calls = 0;
        do {
            cursor = z.scan(cursor, 10, ZEntry.collectInto(seen));
            calls++;
        } while (cursor != 0);
        assertThat(members(seen)).hasSize(n).doesNotHaveDuplicates();
        for (ZEntry e : seen) {
            assertThat(z.score(e.member())).isEqualTo(e.score());
        }
        assertThat(calls).isGreaterThan(enc == Encoding.LISTPACK ? 0 : 100);
    }

    @ParameterizedTest
    @EnumSource(Encoding.class)
    void scan_whileTheSetGrowsAndShrinks_returnsEveryStableMember(Encoding enc) {
        ZSet z = newSet(enc);
        for (int i = 0; i < 100; i++) {
            z.add(b("stable" + i), i);
        }
        Set<String> seen = new HashSet<>();
        long cursor = 0;
        int step = 0;
        do {
            List<ZEntry> batch = new ArrayList<>();
            cursor = z.scan(cursor, 5, ZEntry.collectInto(batch));
            seen.addAll(members(batch));
            for (int i = 0; i < 300; i++) {
                z.add(b("grow" + step + "_" + i), i);
            }
            if (step % 3 == 2) {
                for (int s = step - 2; s <= step; s++) {
                    for (int i = 0; i < 300; i++) {
                        z.remove(b("grow" + s + "_" + i));
                    }
                }
            }
            step++;
        } while (cursor != 0 && step < 100_000);
        for (int i = 0; i < 100; i++) {
            assertThat(seen).contains("stable" + i);
        }
    }

    // ------------------------------------------------------------------ encodings

    @org.junit.jupiter.api.Test
    void encoding_crossesEntryLimit_convertsToSkiplistAndNeverBack() {
        ZSet z = new ZSet(ListpackLimits.of(4, 64));
        for (int i = 0; i < 4; i++) {
            z.add(b("m" + i), i);
        }
        assertThat(z.encoding()).isEqualTo(Encoding.LISTPACK);
        z.add(b("m4"), 4);
        assertThat(z.encoding()).isEqualTo(Encoding.SKIPLIST);
        assertThat(all(z)).containsExactly("m0", "m1", "m2", "m3", "m4");
        z.removeRange(0, -1);
        z.add(b("x"), 1);
        assertThat(z.encoding()).isEqualTo(Encoding.SKIPLIST);
    }

    @org.junit.jupiter.api.Test
    void encoding_updatingAnExistingMemberAtTheLimit_staysListpack() {
        ZSet z = new ZSet(ListpackLimits.of(2, 64));
        z.add(b("a"), 1);
        z.add(b("b"), 2);
        z.add(b("a"), 5);
        z.increment(b("b"), 5);
        assertThat(z.encoding()).isEqualTo(Encoding.LISTPACK);
    }

    @org.junit.jupiter.api.Test
    void encoding_memberLongerThanValueLimit_convertsToSkiplist() {
        ZSet z = new ZSet(ListpackLimits.DEFAULT);
        z.add(b("short"), 1);
        z.add(new byte[64], 2);
        assertThat(z.encoding()).isEqualTo(Encoding.LISTPACK);
        z.add(new byte[65], 3);
        assertThat(z.encoding()).isEqualTo(Encoding.SKIPLIST);
        assertThat(z.size()).isEqualTo(3);
        z.checkInvariants();
    }

    @org.junit.jupiter.api.Test
    void encoding_defaultLimits_convertOn129thMember() {
        ZSet z = new ZSet();
        for (int i = 0; i < 128; i++) {
            z.add(b(String.format("m%03d", i)), i);
        }
        assertThat(z.encoding()).isEqualTo(Encoding.LISTPACK);
        z.add(b("m128"), 128);
        assertThat(z.encoding()).isEqualTo(Encoding.SKIPLIST);
    }

    @org.junit.jupiter.api.Test
    void encoding_sizeHintBeyondLimits_startsAsSkiplist() {
        assertThat(new ZSet(ListpackLimits.DEFAULT, 200, 5).encoding()).isEqualTo(Encoding.SKIPLIST);
        assertThat(new ZSet(ListpackLimits.DEFAULT, 3, 100).encoding()).isEqualTo(Encoding.SKIPLIST);
        assertThat(new ZSet(ListpackLimits.DEFAULT, 3, 10).encoding()).isEqualTo(Encoding.LISTPACK);
    }

    @org.junit.jupiter.api.Test
    void encoding_largeMembers_areStoredAndRemovedIntact() {
        ZSet z = new ZSet(ListpackLimits.of(0, 0));
        SplittableRandom rnd = new SplittableRandom(5);
        List<byte[]> big = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            byte[] m = new byte[10_000 + rnd.nextInt(200_000)];
            rnd.nextBytes(m);
            big.add(m);
            z.add(m, i);
        }
        z.checkInvariants();
        for (int i = 0; i < 20; i += 2) {
            assertThat(z.remove(big.get(i))).isTrue();
        }
        z.checkInvariants();
        for (int i = 1; i < 20; i += 2) {
            assertThat(z.score(big.get(i))).isEqualTo(i);
        }
    }

    // ------------------------------------------------------------------ helpers

    static ScoreRange range(String min, String max) {
        return ScoreRange.parse(b(min), b(max));
    }

    static LexRange lex(String min, String max) {
        return LexRange.parse(b(min), b(max));
    }
}
