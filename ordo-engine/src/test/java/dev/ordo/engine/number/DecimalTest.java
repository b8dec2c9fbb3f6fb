package dev.ordo.engine.number;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Decimal} against {@link Long#toString} at every digit-count boundary and on random values. */
class DecimalTest {

    private static String written(long value) {
        byte[] dst = new byte[3 + Decimal.MAX_LENGTH];
        dst[0] = 'x';
        int end = Decimal.write(value, dst, 1);
        assertThat(dst[0]).as("nothing before the offset is touched").isEqualTo((byte) 'x');
        return new String(dst, 1, end - 1, StandardCharsets.US_ASCII);
    }

    @Test
    void everyDigitCountBoundaryAndTheExtremes() {
        List<Long> values = new ArrayList<>(List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1));
        for (long power = 1; power > 0 && power <= Long.MAX_VALUE / 10 * 10; power *= 10) {
            values.addAll(List.of(power - 1, power, power + 1, -power, -power + 1, -power - 1));
            if (power > Long.MAX_VALUE / 10) {
                break;
            }
        }
        for (int bit = 0; bit < 63; bit++) {
            long p = 1L << bit;
            values.addAll(List.of(p - 1, p, -p));
        }
        for (long v : values) {
            assertThat(written(v)).as("%d", v).isEqualTo(Long.toString(v));
            byte[] text = Long.toString(v).getBytes(StandardCharsets.US_ASCII);
            assertThat(Decimal.parseOrMin(text)).as("parse %d", v).isEqualTo(v);
            assertThat(Decimal.isMinValue(text)).isEqualTo(v == Long.MIN_VALUE);
            if (v >= 0) {
                assertThat(Decimal.length(v)).as("length of %d", v).isEqualTo(Long.toString(v).length());
            }
        }
    }

    @Test
    void randomValuesOfEveryMagnitude() {
        SplittableRandom random = new SplittableRandom(20261202L);
        for (int i = 0; i < 200_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertThat(written(v)).isEqualTo(Long.toString(v));
        }
    }

    /** What Redis's string2ll refuses comes back as Long.MIN_VALUE, which isMinValue tells from the number itself. */
    @Test
    void parsingRefusesWhatString2llRefuses() {
        for (String bad : List.of("", "-", "+5", "05", "-0", " 5", "5 ", "1e3", "0x10", "9223372036854775808",
                "-9223372036854775809", "123456789012345678901")) {
            byte[] text = bad.getBytes(StandardCharsets.US_ASCII);
            assertThat(Decimal.parseOrMin(text)).as("'%s'", bad).isEqualTo(Long.MIN_VALUE);
            assertThat(Decimal.isMinValue(text)).as("'%s'", bad).isFalse();
        }
    }
}
