package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.number.Doubles;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ListpackEncoder} entry by entry against {@link RawRdb#listpack}, which lays entries out
 * from the format description alone: scores (integers up to 2^53, else exactly the text
 * {@link Doubles#format} writes, whichever path the encoder takes to it) and strings (integers
 * exactly when {@link StringValue#isCanonicalLong} says so).
 */
class RdbListpackEncoderTest {
    private final ListpackEncoder encoder = new ListpackEncoder();

    @Test
    void scoresAreIntegersUpTo2To53AndElseDoublesFormatText() {
        Random r = new Random(99);
        int checked = 0;
        for (double d : RdbTestSupport.EDGE_SCORES) {
            assertScore(d);
            checked++;
        }
        for (int i = 0; i < 300_000; i++) {
            assertScore(randomScore(r));
            checked++;
        }
        for (int decimals = 1; decimals <= 8; decimals++) {
            double scale = Math.pow(10, decimals);
            for (long v : new long[] {1, 5, 9, 10, 99, 101, 999_999, 1_000_001, (1L << 50) / (long) scale,
                (1L << 50) / (long) scale + 1, 4_503_599_627_370_495L, 9_007_199_254_740_991L}) {
                assertScore(v / scale);
                assertScore(-v / scale);
                assertScore(Math.nextUp(v / scale));
                assertScore(Math.nextDown(v / scale));
                checked += 4;
            }
        }
        assertThat(checked).isGreaterThan(300_000);
    }

    @Test
    void stringsAreIntegersExactlyWhenString2llAcceptsThem() {
        Random r = new Random(7);
        for (String s : RdbTestSupport.EDGE_STRINGS) {
            assertString(RdbTestSupport.bytes(s));
        }
        byte[] alphabet = "0123456789-+ .e".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 200_000; i++) {
            byte[] s = new byte[r.nextInt(22)];
            for (int j = 0; j < s.length; j++) {
                s[j] = alphabet[r.nextInt(j == 0 ? alphabet.length : 10 + (r.nextInt(20) == 0 ? 5 : 0))];
            }
            assertString(s);
        }
        for (long v : new long[] {0, 127, 128, 4095, 4096, -4096, -4097, 32767, 32768, -32768, -32769, 8388607, 8388608,
            -8388608, -8388609, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE, Integer.MIN_VALUE - 1L,
            Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertString(Long.toString(v).getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void theCountSaturatesAt65535AndTheBufferIsReused() {
        encoder.reset();
        for (int i = 0; i < 70_000; i++) {
            encoder.addInt(i % 100);
        }
        int size = encoder.finish();
        assertThat(encoder.count()).isEqualTo(70_000);
        assertThat(PackedList.u16(encoder.buffer(), 4)).isEqualTo(65535);
        assertThat(size).isEqualTo(6 + 70_000 * 2 + 1);
        byte[] big = encoder.buffer();
        encoder.shrink();
        assertThat(encoder.buffer()).as("under 1 MB the buffer stays").isSameAs(big);
        encoder.reset();
        encoder.addInt(1);
        assertThat(encoder.finish()).isEqualTo(9);
        assertThat(Arrays.copyOf(encoder.buffer(), 9)).isEqualTo(RawRdb.listpack(1L));
    }

    private void assertScore(double d) {
        encoder.reset();
        encoder.addScore(d);
        int n = encoder.finish();
        assertThat(Arrays.copyOf(encoder.buffer(), n)).as("score %s (%s)", d, Doubles.format(d))
                .isEqualTo(RawRdb.listpack(RdbTestSupport.listpackScore(d)));
    }

    private void assertString(byte[] s) {
        encoder.reset();
        encoder.addString(s, 0, s.length);
        int n = encoder.finish();
        assertThat(Arrays.copyOf(encoder.buffer(), n)).as("string '%s'", RdbTestSupport.latin1(s))
                .isEqualTo(RawRdb.listpack(RdbTestSupport.listpackEntry(s)));
    }

    /** Decimals of 1 to 8 places at every magnitude, integers, and random bit patterns. */
    private static double randomScore(Random r) {
        switch (r.nextInt(6)) {
            case 0:
                return Double.longBitsToDouble(r.nextLong());
            case 1:
                return (r.nextBoolean() ? 1 : -1) * (double) r.nextLong() / (1L << r.nextInt(64));
            case 2:
                return r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20);
            default: {
                double scale = Math.pow(10, 1 + r.nextInt(8));
                long digits = r.nextLong() >> r.nextInt(64);
                return digits / scale;
            }
        }
    }
}
