package dev.ordo.bench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** The benchmark data: members {@code player:0000000} .. (14 bytes) with seeded random scores. */
final class Members {
    static final int MILLION = 1_000_000;

    private Members() {
    }

    static byte[] name(int i) {
        return String.format("player:%07d", i).getBytes(StandardCharsets.US_ASCII);
    }

    /** Overwrites the seven digits of a 14-byte {@code player:nnnnnnn} buffer with {@code i}. */
    static void writeName(int i, byte[] buf) {
        for (int p = 13; p >= 7; p--) {
            buf[p] = (byte) ('0' + i % 10);
            i /= 10;
        }
    }

    static byte[][] names(int from, int count) {
        byte[][] out = new byte[count][];
        for (int i = 0; i < count; i++) {
            out[i] = name(from + i);
        }
        return out;
    }

    /** Loads members 0..n-1 with scores in [0, 1e6) from a fixed seed. */
    static void load(BenchZSet set, int n) {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < n; i++) {
            set.add(name(i), Math.floor(rnd.nextDouble() * 1e9) / 1e3);
        }
    }
}
