package dev.ordo.engine.script.lib;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** CStrtod reads the longest number prefix as glibc's strtod does, decimals rounded as Java's parser rounds them. */
class CStrtodTest {

    private static CStrtod reading(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return new CStrtod(b, b.length);
    }

    @Property(tries = 20_000)
    void decimalPrefix_hasJavasCorrectlyRoundedValueAndEndsWhereTheNumberEnds(@ForAll("decimals") String number,
            @ForAll("tails") String tail) {
        CStrtod strtod = reading(number + tail);

        assertThat(strtod.parse(0)).isTrue();
        assertThat(strtod.end()).as(number + tail).isEqualTo(number.length());
        assertThat(Double.doubleToRawLongBits(strtod.value())).as(number)
                .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(number)));
    }

    @Test
    void negativeZero_keepsItsSign() {
        CStrtod strtod = reading("-0.000");
        assertThat(strtod.parse(0)).isTrue();
        assertThat(Double.doubleToRawLongBits(strtod.value())).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void anExponentWithoutDigits_isNotPartOfTheNumber() {
        CStrtod strtod = reading("12e+x");
        assertThat(strtod.parse(0)).isTrue();
        assertThat(strtod.end()).isEqualTo(2);
        assertThat(strtod.value()).isEqualTo(12.0);
    }

    @Test
    void aLoneDot_isNoNumber() {
        CStrtod strtod = reading("-.e5");
        assertThat(strtod.parse(0)).isFalse();
        assertThat(strtod.end()).isZero();
    }

    @Provide
    Arbitrary<String> decimals() {
        Arbitrary<String> sign = Arbitraries.of("", "+", "-");
        Arbitrary<String> digits = Arbitraries.strings().withChars("0123456789").ofMinLength(0).ofMaxLength(25);
        Arbitrary<String> exponent = Arbitraries.oneOf(Arbitraries.just(""),
                Combinators.combine(Arbitraries.of("e", "E"), Arbitraries.of("", "+", "-"),
                        Arbitraries.integers().between(0, 400)).as((e, s, n) -> e + s + n));
        return Combinators.combine(sign, digits, Arbitraries.of(true, false), digits, exponent)
                .filter((s, whole, dot, fraction, e) -> !whole.isEmpty() || dot && !fraction.isEmpty())
                .as((s, whole, dot, fraction, e) -> s + whole + (dot ? "." + fraction : "") + e);
    }

    @Provide
    Arbitrary<String> tails() {
        return Arbitraries.of("", " ", "x", ")", ",1", "\u0000");
    }
}
