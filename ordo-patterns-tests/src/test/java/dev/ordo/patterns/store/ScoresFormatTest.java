package dev.ordo.patterns.store;

import dev.ordo.engine.number.Doubles;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The patterns' own score text ({@link Scores#format}) reads back, through the engine's copy of
 * Redis's {@code string2d}, as the very double written; integral scores are written as the
 * engine (and Redis) writes them.
 */
class ScoresFormatTest {
    @Property(tries = 5000)
    void format_anyScore_serverParsesTheSameDouble(@ForAll("scores") double score) {
        String text = Scores.format(score);
        double parsed = Doubles.parseStrict(text.getBytes(StandardCharsets.US_ASCII));
        assertThat(Double.doubleToRawLongBits(parsed)).as(text).isEqualTo(Double.doubleToRawLongBits(score));
        assertThat(Scores.parse(text)).isEqualTo(score);
    }

    @Property(tries = 2000)
    void format_integralScore_asTheEngine(@ForAll("integral") double score) {
        assertThat(Scores.format(score)).isEqualTo(Doubles.format(score));
    }

    @Provide
    Arbitrary<Double> scores() {
        return Arbitraries.oneOf(
                Arbitraries.longs().map(Double::longBitsToDouble).filter(d -> !Double.isNaN(d)),
                Arbitraries.doubles().between(-1e9, 1e9).ofScale(4),
                Arbitraries.of(0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 0x1p62, -0x1p62, 0x1p63));
    }

    @Provide
    Arbitrary<Double> integral() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(-(1L << 62), 1L << 62).map(Long::doubleValue),
                Arbitraries.integers().between(0, 62).map(e -> Math.scalb(1.0, e)));
    }

    @Test
    void format_examples() {
        assertThat(Scores.format(42)).isEqualTo("42");
        assertThat(Scores.format(-0.0)).isEqualTo("-0");
        assertThat(Scores.format(1.5)).isEqualTo("1.5");
        assertThat(Scores.format(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
    }
}
