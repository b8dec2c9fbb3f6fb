package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link LuaNumberFormat} prints doubles as glibc's {@code printf("%.<p>g")} does, which Redis's Lua uses. */
class LuaNumberFormatTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "0.1 | 0.1",
        "0.3333333333333333 | 0.33333333333333",
        "1e300 | 1e+300",
        "1e15 | 1e+15",
        "1e14 | 1e+14",
        "99999999999999 | 99999999999999",
        "123456789012345 | 1.2345678901234e+14",
        "123456789012345678 | 1.2345678901235e+17",
        "1e-4 | 0.0001",
        "1e-5 | 1e-05",
        "0.0001234 | 0.0001234",
        "-2.25 | -2.25",
        "100 | 100",
        "-2147483648 | -2147483648",
        "9.223372036854775807E18 | 9.2233720368548e+18",
        "4.9E-324 | 4.9406564584125e-324",
        "1.7976931348623157E308 | 1.7976931348623e+308",
        "0.30000000000000004 | 0.3",
    })
    void g14_redisProbes_printAsRedisTostring(double value, String expected) {
        assertThat(LuaNumberFormat.g14(value)).isEqualTo(expected);
    }

    @Test
    void g14_specialValues_printAsGlibc() {
        assertThat(LuaNumberFormat.g14(0.0)).isEqualTo("0");
        assertThat(LuaNumberFormat.g14(-0.0)).isEqualTo("-0");
        assertThat(LuaNumberFormat.g14(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(LuaNumberFormat.g14(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(LuaNumberFormat.g14(Double.NaN)).isEqualTo("nan");
        assertThat(LuaNumberFormat.g14(Double.longBitsToDouble(0xfff8000000000000L))).isEqualTo("-nan");
    }

    @Test
    void g_tiesAtThePrecision_roundHalfToEven() {
        assertThat(LuaNumberFormat.g(0.5, 1)).isEqualTo("0.5");
        assertThat(LuaNumberFormat.g(1.5, 1)).isEqualTo("2");
        assertThat(LuaNumberFormat.g(2.5, 1)).isEqualTo("2");
        assertThat(LuaNumberFormat.g(25, 1)).isEqualTo("2e+01");
        assertThat(LuaNumberFormat.g(0.25, 1)).isEqualTo("0.2");
        assertThat(LuaNumberFormat.g(1234.5, 3)).isEqualTo("1.23e+03");
    }

    @Test
    void g_roundingCarriesIntoANewDigit_switchesStyleByTheRoundedExponent() {
        assertThat(LuaNumberFormat.g(9.99999999999995e14, 14)).isEqualTo("1e+15");
        assertThat(LuaNumberFormat.g(99999999999999.5, 14)).isEqualTo("1e+14");
        assertThat(LuaNumberFormat.g(0.000099999999999999999, 14)).isEqualTo("0.0001");
        assertThat(LuaNumberFormat.g(9.5, 1)).isEqualTo("1e+01");
    }

    @Test
    void g_precisionZero_actsAsOne() {
        assertThat(LuaNumberFormat.g(123.0, 0)).isEqualTo("1e+02");
    }

    /** One recorded {@code string.format} call: the double's bits, the precision and Redis's text. */
    record Recorded(long bits, int precision, String expected) {
    }

    static List<Recorded> recordedFormats() {
        List<Recorded> all = new ArrayList<>();
        for (String line : RedisRecordings.numberFormats().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split(" ");
            all.add(new Recorded(Long.parseUnsignedLong(parts[0], 16), Integer.parseInt(parts[1]), parts[2]));
        }
        return all;
    }

    @Test
    void g_recordedRedisFormats_matchEveryOne() {
        List<Recorded> all = recordedFormats();
        assertThat(all).hasSizeGreaterThan(800);
        for (Recorded r : all) {
            double v = Double.longBitsToDouble(r.bits());
            assertThat(LuaNumberFormat.g(v, r.precision()))
                    .as("%%.%dg of %s (bits %016x)", r.precision(), v, r.bits())
                    .isEqualTo(r.expected());
        }
    }

    @Property(tries = 2000)
    void g17_anyFiniteDouble_readsBackAsTheSameDouble(@ForAll double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return;
        }
        assertThat(Double.parseDouble(LuaNumberFormat.g(v, 17))).isEqualTo(v);
    }

    @Property(tries = 2000)
    void g_anyFiniteDouble_isTheNearestDecimalWithThatManyDigits(@ForAll double v,
            @ForAll @IntRange(min = 1, max = 17) int precision) {
        if (Double.isNaN(v) || Double.isInfinite(v) || v == 0) {
            return;
        }
        BigDecimal exact = new BigDecimal(v);
        BigDecimal printed = new BigDecimal(LuaNumberFormat.g(v, precision));
        assertThat(printed.precision()).isLessThanOrEqualTo(precision);
        BigDecimal unit = BigDecimal.ONE.scaleByPowerOfTen(printed.precision() - printed.scale() - precision);
        assertThat(exact.subtract(printed).abs().multiply(BigDecimal.valueOf(2))).isLessThanOrEqualTo(unit);
    }
}
