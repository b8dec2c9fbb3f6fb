package dev.ordo.patterns.store;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScoresTest {
    @Property
    void parse_readsBackWhatFormatWrites(@ForAll double score) {
        if (!Double.isNaN(score)) {
            assertThat(Scores.parse(Scores.format(score))).isEqualTo(score);
        }
    }

    /** Digit strings around the integer path's 18-digit limit (a long overflows past it), signed or not, as Redis 7.0 or 7.2 may send them. */
    @Property
    void parse_agreesWithJavaOnDigitStrings(@ForAll("digits") String text) {
        assertThat(Scores.parse(text)).isEqualTo(Double.parseDouble(text));
    }

    @Provide
    Arbitrary<String> digits() {
        Arbitrary<String> unsigned = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(20);
        return Arbitraries.oneOf(unsigned, unsigned.map(s -> "-" + s), unsigned.map(s -> s + ".5"), unsigned.map(s -> s + "e+20"));
    }

    @Test
    void parse_keepsTheSignOfZeroAndReadsInfinities() {
        assertThat(Scores.parse("-0")).isEqualTo(-0.0);
        assertThat(Scores.parse("0")).isEqualTo(0.0);
        assertThat(Scores.parse("9007199254740993")).isEqualTo(9007199254740992.0);
        assertThat(Scores.parse("inf")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Scores.parse("-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
    }
}
