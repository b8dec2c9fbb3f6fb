package dev.ordo.engine.number;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Redis 7.2 parity of {@link Doubles}: {@code string2d}, {@code zslParseRange} bounds and {@code d2string}. */
class DoublesTest {

    private static final long RANDOM_SEED = 0xD0_0B1E5L;
    private static final double INVALID = Double.NaN;

    private static Arguments valid(String label, String text, double expected) {
        return Arguments.of(label, text, expected);
    }

    private static Arguments invalid(String label, String text) {
        return Arguments.of(label, text, INVALID);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Same double bit for bit (so -0.0 differs from 0.0); every NaN counts as the same "invalid". */
    private static void assertSameDouble(double actual, double expected, String context) {
        assertThat(Double.doubleToLongBits(actual)).as("%s: got %s, expected %s", context, actual, expected)
                .isEqualTo(Double.doubleToLongBits(expected));
    }

    static Stream<Arguments> strictCases() {
        return Stream.of(
                valid("integer", "1", 1),
                valid("negative decimal", "-1.5", -1.5),
                valid("explicit plus sign", "+1", 1),
                valid("no integer part", ".5", 0.5),
                valid("no fraction digits", "5.", 5),
                valid("exponent", "1e10", 1e10),
                valid("upper-case exponent with sign", "1E+10", 1e10),
                valid("negative exponent", "1e-5", 1e-5),
                valid("fraction and exponent", "-2.5e-3", -2.5e-3),
                valid("inf", "inf", Double.POSITIVE_INFINITY),
                valid("negative inf", "-inf", Double.NEGATIVE_INFINITY),
                valid("plus inf", "+inf", Double.POSITIVE_INFINITY),
                valid("infinity", "infinity", Double.POSITIVE_INFINITY),
                valid("mixed-case negative infinity", "-InFiNiTy", Double.NEGATIVE_INFINITY),
                valid("upper-case INF", "INF", Double.POSITIVE_INFINITY),
                valid("hex integer", "0x10", 16),
                valid("hex fraction with exponent", "0x1.8p1", 3),
                valid("hex negative exponent", "0x1p-2", 0.25),
                valid("upper-case hex", "0X1P3", 8),
                valid("negative hex", "-0x10", -16),
                valid("hex fraction without exponent", "0x.8", 0.5),
                valid("hex trailing point", "0x1.", 1),
                valid("hex letter digits", "0xff", 255),
                valid("hex subnormal", "0x1p-1074", Double.MIN_VALUE),
                valid("subnormal result", "1e-310", 1e-310),
                valid("smallest subnormal", "4.9e-324", Double.MIN_VALUE),
                valid("just above half the smallest subnormal", "2.4703282292062328e-324", Double.MIN_VALUE),
                valid("largest double", "1.7976931348623157e308", Double.MAX_VALUE),
                valid("rounds down to the largest double", "1.7976931348623158e308", Double.MAX_VALUE),
                valid("zero", "0", 0.0),
                valid("negative zero", "-0", -0.0),
                valid("zero with exponent", "0e5", 0.0),
                valid("zero with huge exponent", "0e99999999999999999999", 0.0),
                valid("zero with fraction", "0.000", 0.0),
                valid("hex zero with huge exponent", "0x0p99999", 0.0),
                valid("leading zeros", "007", 7),
                valid("halfway case rounds to even", "9007199254740993", 9007199254740992.0),
                valid("seventeen digits", "0.30000000000000004", 0.30000000000000004),
                valid("nineteen digits", "1234567890123456789", 1234567890123456789.0),
                valid("thirty digits", "123456789012345678901234567890", 1.2345678901234568e29),
                invalid("empty", ""),
                invalid("leading space", " 1"),
                invalid("leading tab", "\t1"),
                invalid("leading newline", "\n1"),
                invalid("leading vertical tab", "\u000b1"),
                invalid("leading form feed", "\f1"),
                invalid("leading carriage return", "\r1"),
                invalid("trailing space", "1 "),
                invalid("trailing tab", "1\t"),
                invalid("only space", " "),
                invalid("trailing NUL", "1\0"),
                invalid("embedded NUL", "1\0junk"),
                invalid("trailing junk", "1abc"),
                invalid("letters", "abc"),
                invalid("comma decimal separator", "1,5"),
                invalid("two points", "1.2.3"),
                invalid("nan", "nan"),
                invalid("upper-case NaN", "NaN"),
                invalid("negative nan", "-nan"),
                invalid("nan with payload", "nan(123)"),
                invalid("overflow", "1e400"),
                invalid("negative overflow", "-1e400"),
                invalid("rounds up to infinity", "1.7976931348623159e308"),
                invalid("hex overflow", "0x1p99999"),
                invalid("underflow", "1e-400"),
                invalid("negative underflow", "-1e-400"),
                invalid("half the smallest subnormal rounds to zero", "2.4703282292062327e-324"),
                invalid("hex underflow", "0x1p-99999"),
                invalid("hex prefix only", "0x"),
                invalid("hex prefix and point", "0x."),
                invalid("hex prefix and non-hex", "0xg"),
                invalid("hex exponent without digits", "0x1p"),
                invalid("exponent without digits", "1e"),
                invalid("exponent sign without digits", "1e+"),
                invalid("negative exponent sign without digits", "1e-"),
                invalid("lone point", "."),
                invalid("lone minus", "-"),
                invalid("lone plus", "+"),
                invalid("exponent without significand", "e5"),
                invalid("double sign", "--1"),
                invalid("mixed signs", "+-1"),
                invalid("truncated infinity", "infinit"),
                invalid("inf with junk", "infx"));
    }

    @ParameterizedTest(name = "parseStrict: {0}")
    @MethodSource("strictCases")
    void parseStrict_followsString2d(String label, String text, double expected) {
        assertSameDouble(Doubles.parseStrict(ascii(text)), expected, label);
    }

    @ParameterizedTest(name = "parseStrict slice: {0}")
    @MethodSource("strictCases")
    void parseStrict_sliceOfLargerArray_readsOnlyTheSlice(String label, String text, double expected) {
        byte[] padded = ascii("9 " + text + "x9");
        assertSameDouble(Doubles.parseStrict(padded, 2, text.length()), expected, label);
    }

    static Stream<Arguments> rangeBoundCases() {
        return Stream.of(
                valid("integer", "5", 5),
                valid("leading space is skipped", " 5", 5),
                valid("leading whitespace mix is skipped", "\t\n\u000b\f\r -1.5", -1.5),
                valid("everything after NUL is ignored", "1\0junk", 1),
                valid("NUL first reads as empty", "\0junk", 0.0),
                valid("empty reads as zero", "", 0.0),
                valid("overflow gives infinity", "1e400", Double.POSITIVE_INFINITY),
                valid("negative overflow gives minus infinity", "-1e400", Double.NEGATIVE_INFINITY),
                valid("underflow gives zero", "1e-400", 0.0),
                valid("negative underflow gives minus zero", "-1e-400", -0.0),
                valid("inf", "inf", Double.POSITIVE_INFINITY),
                valid("minus inf", "-inf", Double.NEGATIVE_INFINITY),
                valid("plus inf", "+inf", Double.POSITIVE_INFINITY),
                valid("infinity", "infinity", Double.POSITIVE_INFINITY),
                valid("hex", "0x10", 16),
                valid("negative zero", "-0", -0.0),
                valid("exponent", "1.5e3", 1500),
                invalid("only whitespace", " "),
                invalid("whitespace then NUL", " \0"),
                invalid("trailing space", "5 "),
                invalid("trailing space before NUL", "5 \0"),
                invalid("trailing junk", "5x"),
                invalid("nan", "nan"),
                invalid("negative nan", "-nan"),
                invalid("letters", "abc"),
                invalid("unstripped parenthesis", "(5"),
                invalid("exponent without digits", "1e"),
                invalid("hex prefix only", "0x"),
                invalid("lone minus", "-"));
    }

    @ParameterizedTest(name = "parseRangeBound: {0}")
    @MethodSource("rangeBoundCases")
    void parseRangeBound_followsStrtodUpToNul(String label, String text, double expected) {
        byte[] bytes = ascii(text);
        assertSameDouble(Doubles.parseRangeBound(bytes, 0, bytes.length), expected, label);
    }

    @ParameterizedTest(name = "parseRangeBound slice: {0}")
    @MethodSource("rangeBoundCases")
    void parseRangeBound_sliceOfLargerArray_readsOnlyTheSlice(String label, String text, double expected) {
        byte[] padded = ascii("(" + text + "x9");
        assertSameDouble(Doubles.parseRangeBound(padded, 1, text.length()), expected, label);
    }

    static Stream<Arguments> formatCases() {
        return Stream.of(
                Arguments.of(1.5, "1.5"),
                Arguments.of(0.1, "0.1"),
                Arguments.of(3.0, "3"),
                Arguments.of(-42.0, "-42"),
                Arguments.of(1e17, "100000000000000000"),
                Arguments.of(5e18, "5e+18"),
                Arguments.of(1e20, "1e+20"),
                Arguments.of(-1e20, "-1e+20"),
                Arguments.of(1e-5, "0.00001"),
                Arguments.of(1e-310, "1e-310"),
                Arguments.of(-1e-310, "-1e-310"),
                Arguments.of(Double.POSITIVE_INFINITY, "inf"),
                Arguments.of(Double.NEGATIVE_INFINITY, "-inf"),
                Arguments.of(Double.NaN, "nan"),
                Arguments.of(-0.0, "-0"),
                Arguments.of(0.0, "0"),
                Arguments.of(4611686018427387904.0, "4611686018427387904"),
                Arguments.of(-4611686018427387904.0, "-4611686018427387904"),
                Arguments.of(Math.nextUp(4611686018427387904.0), "4611686018427389000"),
                Arguments.of(Math.nextDown(-4611686018427387904.0), "-4611686018427389000"),
                Arguments.of(1.2345678901234567e19, "12345678901234567000"),
                Arguments.of(0.3, "0.3"),
                Arguments.of(Double.MIN_VALUE, "5e-324"),
                Arguments.of(123456.789, "123456.789"),
                Arguments.of(1e-6, "0.000001"),
                Arguments.of(1e-7, "1e-7"),
                Arguments.of(1.5e-7, "1.5e-7"),
                Arguments.of(-1.5e-7, "-1.5e-7"),
                Arguments.of(1.23e-7, "1.23e-7"),
                Arguments.of(1234567.125, "1234567.125"),
                Arguments.of(1e21, "1e+21"),
                Arguments.of(9007199254740992.0, "9007199254740992"),
                Arguments.of(Double.MAX_VALUE, "1.7976931348623157e+308"),
                Arguments.of(123.456, "123.456"),
                Arguments.of(0.30000000000000004, "0.30000000000000004"),
                Arguments.of(1.2345678, "1.2345678"),
                Arguments.of(1.2e-4, "0.00012"),
                Arguments.of(1.2345678e-3, "0.0012345678"),
                Arguments.of(1.2345678e-4, "1.2345678e-4"),
                Arguments.of(1e100, "1e+100"),
                Arguments.of(1e105, "1e+105"),
                Arguments.of(1e-100, "1e-100"),
                Arguments.of(1.5e300, "1.5e+300"),
                Arguments.of(-1.2345678901234567e23, "-123456789012345670000000"),
                Arguments.of(-1.2345678901234568e-300, "-1.2345678901234568e-300"));
    }

    @ParameterizedTest(name = "format({0}) = {1}")
    @MethodSource("formatCases")
    void format_matchesD2string(double value, String expected) {
        assertThat(Doubles.format(value)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "formatBytes({0}) = {1}")
    @MethodSource("formatCases")
    void formatBytes_isAsciiOfFormat(double value, String expected) {
        assertThat(Doubles.formatBytes(value)).isEqualTo(ascii(expected));
    }

    @ParameterizedTest(name = "format({0}) into buffer = {1}")
    @MethodSource("formatCases")
    void formatIntoBuffer_writesAtOffsetAndReturnsLength(double value, String expected) {
        byte[] buffer = new byte[3 + Doubles.MAX_FORMATTED_LENGTH + 2];
        Arrays.fill(buffer, (byte) '#');
        int written = Doubles.format(value, buffer, 3);
        assertThat(written).isEqualTo(expected.length());
        String all = new String(buffer, StandardCharsets.ISO_8859_1);
        assertThat(all).isEqualTo("###" + expected + "#".repeat(buffer.length - 3 - expected.length()));
    }

    @Test
    void format_longestOutput_isMaxFormattedLength() {
        assertThat(Doubles.format(-1.2345678901234567e23)).hasSize(Doubles.MAX_FORMATTED_LENGTH);
    }

    @Test
    void format_randomDoubles_neverExceedMaxFormattedLength() {
        SplittableRandom random = new SplittableRandom(RANDOM_SEED);
        byte[] buffer = new byte[Doubles.MAX_FORMATTED_LENGTH];
        for (int i = 0; i < 200_000; i++) {
            double value = Double.longBitsToDouble(random.nextLong());
            assertThat(Doubles.format(value, buffer, 0)).isLessThanOrEqualTo(Doubles.MAX_FORMATTED_LENGTH);
        }
    }

    @Test
    void format_negativeZero_readsBackAsNegativeZero() {
        assertSameDouble(Double.parseDouble(Doubles.format(-0.0)), -0.0, "-0.0");
    }

    @Test
    void parseStrict_randomDecimals_agreeWithCorrectRoundingAndRangeRules() {
        SplittableRandom random = new SplittableRandom(RANDOM_SEED);
        for (int i = 0; i < 200_000; i++) {
            String text = randomDecimal(random);
            assertParsesLikeJava(text, "seed=" + Long.toHexString(RANDOM_SEED) + " sample=" + i);
        }
    }

    @Test
    void parseStrict_decimalsNearHalfwayPoints_roundToNearestEven() {
        SplittableRandom random = new SplittableRandom(RANDOM_SEED);
        for (int i = 0; i < 20_000; i++) {
            double low = Double.longBitsToDouble(random.nextLong(Double.doubleToRawLongBits(Double.MAX_VALUE)));
            BigDecimal midpoint = new BigDecimal(low).add(new BigDecimal(Math.nextUp(low)))
                    .divide(BigDecimal.valueOf(2));
            for (int digits = 15; digits <= 20; digits++) {
                BigDecimal rounded = midpoint.round(new MathContext(digits, RoundingMode.HALF_EVEN));
                BigDecimal step = rounded.ulp();
                String context = "seed=" + Long.toHexString(RANDOM_SEED) + " sample=" + i;
                assertParsesLikeJava(rounded.toString(), context);
                assertParsesLikeJava(rounded.add(step).toString(), context);
                assertParsesLikeJava(rounded.subtract(step).toString(), context);
            }
            if (midpoint.precision() <= 19) {
                assertParsesLikeJava(midpoint.toString(), "exact midpoint " + midpoint);
            }
        }
    }

    @Property(tries = 20_000)
    void format_readsBackAsTheSameDouble(@ForAll("finiteDoubles") double value) {
        assertSameDouble(Double.parseDouble(Doubles.format(value)), value, Doubles.format(value));
    }

    @Property(tries = 20_000)
    void parseStrict_ofFormat_isTheSameDouble(@ForAll("finiteDoubles") double value) {
        assertSameDouble(Doubles.parseStrict(Doubles.formatBytes(value)), value, Doubles.format(value));
    }

    @Provide
    Arbitrary<Double> finiteDoubles() {
        Arbitrary<Double> anyBits = Arbitraries.longs()
                .withDistribution(RandomDistribution.uniform())
                .map(Double::longBitsToDouble)
                .filter(Double::isFinite);
        return Arbitraries.oneOf(List.of(anyBits, Arbitraries.of(-0.0, 0.0, Double.MIN_VALUE, -Double.MAX_VALUE, 0.1)));
    }

    private static void assertParsesLikeJava(String text, String context) {
        double javaValue = Double.parseDouble(text);
        boolean rangeError = Double.isInfinite(javaValue) || (javaValue == 0 && text.matches("[-+]?[0.]*[1-9].*"));
        double expected = rangeError ? INVALID : javaValue;
        double actual = Doubles.parseStrict(ascii(text));
        if (Double.doubleToLongBits(actual) != Double.doubleToLongBits(expected)) {
            fail("%s: parseStrict(\"%s\") = %s, expected %s", context, text, actual, expected);
        }
    }

    /** A random strtod-valid decimal: sign, 1 to 25 digits with an optional point, optional exponent. */
    private static String randomDecimal(SplittableRandom random) {
        StringBuilder text = new StringBuilder();
        int sign = random.nextInt(3);
        if (sign > 0) {
            text.append(sign == 1 ? '-' : '+');
        }
        int digits = 1 + random.nextInt(random.nextBoolean() ? 19 : 25);
        int point = random.nextInt(digits + 2) - 1;
        for (int d = 0; d < digits; d++) {
            if (d == point) {
                text.append('.');
            }
            text.append((char) ('0' + random.nextInt(10)));
        }
        if (point == digits) {
            text.append('.');
        }
        if (random.nextBoolean()) {
            text.append(random.nextBoolean() ? 'e' : 'E');
            int exponent = random.nextInt(-360, 330);
            text.append(exponent >= 0 && random.nextBoolean() ? "+" : "").append(exponent);
        }
        return text.toString();
    }
}
