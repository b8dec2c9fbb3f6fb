package dev.ordo.patterns.leaderboard;

import dev.ordo.engine.script.lib.LuaNumberFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The patterns' own {@code %.14g} ({@link LuaNumbers}) writes every number as the engine's Lua does. */
class LuaNumbersTest {
    @Property(tries = 5000)
    void g14_anyDouble_asTheEngine(@ForAll("doubles") double v) {
        assertThat(LuaNumbers.g14(v)).as("%s", v).isEqualTo(LuaNumberFormat.g14(v));
    }

    @Provide
    Arbitrary<Double> doubles() {
        return Arbitraries.oneOf(
                Arbitraries.longs().map(Double::longBitsToDouble),
                Arbitraries.longs().between(-1L << 55, 1L << 55).map(Long::doubleValue),
                Arbitraries.doubles().between(-1e6, 1e6).ofScale(3),
                Arbitraries.integers().between(-330, 330).map(e -> Math.pow(10, e)));
    }

    @Test
    void g14_edges_asTheEngineAndAsLua() {
        List<Double> edges = List.of(0.0, -0.0, 1.0, -1.0, 0.1, 1e14, 1e15, 99999999999999.0, 99999999999999.5, 999999999999995.0,
                0.0001, 0.00001, 1e-5, 123456789012345678.0, 0x1p53, 0x1p53 + 2, 1.0 / 3, 2.0 / 3, 1e308, Double.MIN_VALUE, Double.MAX_VALUE,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, -Double.NaN, 4294967296.0, 0.5e-4, 9.99999999999995e-5);
        for (double v : edges) {
            assertThat(LuaNumbers.g14(v)).as("%s", v).isEqualTo(LuaNumberFormat.g14(v));
        }
        assertThat(LuaNumbers.g14(1e15)).isEqualTo("1e+15");
        assertThat(LuaNumbers.g14(0.1)).isEqualTo("0.1");
        assertThat(LuaNumbers.g14(1.0 / 3)).isEqualTo("0.33333333333333");
        assertThat(LuaNumbers.g14(1e-5)).isEqualTo("1e-05");
        assertThat(LuaNumbers.g14(99999999999999.5)).isEqualTo("1e+14");
    }
}
