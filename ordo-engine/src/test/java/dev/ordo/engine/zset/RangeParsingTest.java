package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Redis's syntax for score and lex bounds, and its error texts. */
class RangeParsingTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void scoreRange_parenthesis_makesBoundExclusive() {
        ScoreRange r = ScoreRange.parse(b("(1.5"), b("3"));
        assertThat(r.min()).isEqualTo(1.5);
        assertThat(r.minExclusive()).isTrue();
        assertThat(r.maxExclusive()).isFalse();
        assertThat(r.contains(1.5)).isFalse();
        assertThat(r.contains(3)).isTrue();
    }

    @Test
    void scoreRange_infinitiesInEveryForm_parse() {
        assertThat(ScoreRange.parse(b("-inf"), b("+inf")).max()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(ScoreRange.parse(b("-INF"), b("inf")).min()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(ScoreRange.parse(b("-infinity"), b("(Infinity")).maxExclusive()).isTrue();
    }

    @Test
    void scoreRange_boundsStrtodAccepts_parseAsRedisDoes() {
        assertThat(ScoreRange.parse(b(" 5"), b("1e400")).min()).isEqualTo(5);
        assertThat(ScoreRange.parse(b(""), b("(")).min()).isZero();
        assertThat(ScoreRange.parse(b("1\0junk"), b("2")).min()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "1x", "nan", "(nan", "1 ", "((1", "--1"})
    void scoreRange_invalidBound_failsWithRedisText(String bad) {
        assertThatThrownBy(() -> ScoreRange.parse(b(bad), b("1"))).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR min or max is not a float");
        assertThatThrownBy(() -> ScoreRange.parse(b("1"), b(bad))).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR min or max is not a float");
    }

    @Test
    void scoreRange_emptyIntervals_areEmpty() {
        assertThat(ScoreRange.parse(b("2"), b("1")).isEmpty()).isTrue();
        assertThat(ScoreRange.parse(b("(1"), b("1")).isEmpty()).isTrue();
        assertThat(ScoreRange.parse(b("1"), b("(1")).isEmpty()).isTrue();
        assertThat(ScoreRange.parse(b("1"), b("1")).isEmpty()).isFalse();
    }

    @Test
    void lexRange_bracketsAndSigns_parse() {
        LexRange r = LexRange.parse(b("[b"), b("(d"));
        assertThat(r.contains(b("b"))).isTrue();
        assertThat(r.contains(b("c"))).isTrue();
        assertThat(r.contains(b("d"))).isFalse();
        assertThat(r.contains(b("a"))).isFalse();
        LexRange all = LexRange.parse(b("-"), b("+"));
        assertThat(all.contains(b(""))).isTrue();
        assertThat(all.contains(new byte[] {(byte) 0xFF})).isTrue();
        assertThat(LexRange.parse(b("["), b("(")).contains(b(""))).isFalse();
        assertThat(LexRange.parse(b("["), b("[")).contains(b(""))).isTrue();
    }

    @Test
    void lexRange_signFollowedByNul_countsAsBareSign() {
        LexRange r = LexRange.parse(new byte[] {'-', 0, 'x'}, new byte[] {'+', 0});
        assertThat(r.contains(b("anything"))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "", "--", "+a", "-a", "{a"})
    void lexRange_invalidItem_failsWithRedisText(String bad) {
        assertThatThrownBy(() -> LexRange.parse(b(bad), b("+"))).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR min or max not valid string range item");
        assertThatThrownBy(() -> LexRange.parse(b("-"), b(bad))).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR min or max not valid string range item");
    }

    @Test
    void zaddOptions_incompatibleCombinations_failWithRedisText() {
        assertThatThrownBy(() -> ZAddOptions.NONE.nx().xx().validate(1)).hasMessage("ERR XX and NX options at the same time are not compatible");
        assertThatThrownBy(() -> ZAddOptions.NONE.gt().lt().validate(1)).hasMessage("ERR GT, LT, and/or NX options at the same time are not compatible");
        assertThatThrownBy(() -> ZAddOptions.NONE.gt().nx().validate(1)).hasMessage("ERR GT, LT, and/or NX options at the same time are not compatible");
        assertThatThrownBy(() -> ZAddOptions.NONE.incr().validate(2)).hasMessage("ERR INCR option supports a single increment-element pair");
        assertThat(ZAddOptions.NONE.xx().gt().ch().incr().validate(1).isGt()).isTrue();
    }

    @Test
    void addResult_counts_addedAlwaysUpdatedOnlyWithCh() {
        assertThat(AddResult.ADDED.counts(false)).isTrue();
        assertThat(AddResult.UPDATED.counts(false)).isFalse();
        assertThat(AddResult.UPDATED.counts(true)).isTrue();
        assertThat(AddResult.UNCHANGED.counts(true)).isFalse();
        assertThat(AddResult.SKIPPED.counts(true)).isFalse();
    }
}
