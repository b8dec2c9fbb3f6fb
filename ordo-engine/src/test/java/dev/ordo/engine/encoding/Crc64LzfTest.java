package dev.ordo.engine.encoding;

import dev.ordo.engine.encoding.Lzf;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The shared CRC-64 and LZF codecs: known values, agreement with the bitwise definition, round trips. */
class Crc64LzfTest {
    @Test
    void crcOfTheCheckStringIsRedisValue() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc64.of(check, 0, check.length)).isEqualTo(0xe9c6d914c4b8d9caL);
        assertThat(Crc64.of(new byte[0], 0, 0)).isZero();
    }

    @Property(tries = 200)
    void slicedCrcEqualsBitwiseCrcAndContinues(@ForAll byte[] data, @ForAll("cut") int cut) {
        long expected = bitwise(data);
        assertThat(Crc64.of(data, 0, data.length)).isEqualTo(expected);
        int at = Math.min(cut, data.length);
        assertThat(Crc64.update(Crc64.of(data, 0, at), data, at, data.length - at)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Integer> cut() {
        return Arbitraries.integers().between(0, 64);
    }

    @Property(tries = 300)
    void lzfRoundTripsWhateverItCompresses(@ForAll("compressible") byte[] data) {
        byte[] out = new byte[data.length + data.length / 32 + 2];
        int n = new Lzf().compress(data, 0, data.length, out, 0, out.length);
        if (data.length > 0) {
            assertThat(n).isPositive();
        }
        byte[] back = new byte[data.length];
        assertThat(Lzf.decompress(out, 0, n, back, 0, data.length)).isTrue();
        assertThat(back).isEqualTo(data);
        assertThat((long) data.length).isLessThanOrEqualTo(Lzf.maxExpansion(n));
    }

    @Provide
    Arbitrary<byte[]> compressible() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> repetitive = Arbitraries.strings().withChars("ab\0").ofMaxLength(20000)
                .map(s -> s.getBytes(StandardCharsets.ISO_8859_1));
        Arbitrary<byte[]> runs = Arbitraries.integers().between(0, 70000).map(n -> {
            byte[] b = new byte[n];
            Arrays.fill(b, (byte) 'x');
            return b;
        });
        return Arbitraries.oneOf(random, repetitive, runs);
    }

    @Test
    void lzfReportsWhenTheOutputDoesNotFitAndIsDeterministic() {
        byte[] noise = new byte[1000];
        new Random(7).nextBytes(noise);
        byte[] out = new byte[noise.length - 4];
        assertThat(new Lzf().compress(noise, 0, noise.length, out, 0, out.length)).isZero();
        byte[] text = "hello hello hello hello hello hello hello".repeat(50).getBytes(StandardCharsets.US_ASCII);
        Lzf reused = new Lzf();
        reused.compress(noise, 0, noise.length, new byte[2000], 0, 2000);
        byte[] a = new byte[text.length];
        byte[] b = new byte[text.length];
        int na = reused.compress(text, 0, text.length, a, 0, a.length);
        int nb = new Lzf().compress(text, 0, text.length, b, 0, b.length);
        assertThat(Arrays.copyOf(a, na)).isEqualTo(Arrays.copyOf(b, nb));
        assertThat(na).isLessThan(text.length / 4);
    }

    @Test
    void lzfRejectsCorruptInput() {
        byte[] out = new byte[10];
        assertThat(Lzf.decompress(new byte[] {5, 'a'}, 0, 2, out, 0, 6)).isFalse(); // literal run past the input
        assertThat(Lzf.decompress(new byte[] {0, 'a', 0x20, 5}, 0, 4, out, 0, 4)).isFalse(); // reference before the start
        assertThat(Lzf.decompress(new byte[] {0, 'a', 0x20, 0}, 0, 4, out, 0, 10)).isFalse(); // too short an output
        assertThat(Lzf.decompress(new byte[] {0, 'a', (byte) 0xE0}, 0, 3, out, 0, 4)).isFalse(); // cut reference
        assertThat(Lzf.decompress(new byte[] {0, 'a', 0x20, 0}, 0, 4, out, 0, 4)).isTrue();
        assertThat(new String(out, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("aaaa");
    }

    private static long bitwise(byte[] data) {
        long crc = 0;
        for (byte b : data) {
            crc ^= b & 0xFF;
            for (int i = 0; i < 8; i++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x95AC9329AC4BC9B5L : crc >>> 1;
            }
        }
        return crc;
    }
}
