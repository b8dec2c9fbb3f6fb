package dev.ordo.engine.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * A seeded 64-bit hash of a byte range, for the sorted sets' member index and the keyspace. It reads eight bytes per step and
 * finishes with a full avalanche, so every bit of the result depends on every input byte. The
 * process-wide seed is random unless the system property {@code ordo.hashSeed} fixes it (to replay
 * a failure), which keeps a client from choosing members that all land in one probe chain.
 */
public final class Hashing {
    /** The seed every member index in this process uses. */
    public static final long SEED = initialSeed();

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long K1 = 0x9E3779B97F4A7C15L;
    private static final long K2 = 0xC2B2AE3D27D4EB4FL;

    private Hashing() {
    }

    /** Returns the hash of {@code b[off, off+len)} under {@code seed}. */
    public static long hash(byte[] b, int off, int len, long seed) {
        long h = seed ^ (len * K1);
        int i = 0;
        for (; i + Long.BYTES <= len; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ ((long) LONG.get(b, off + i) * K2), 29) * K1;
        }
        if (i < len) {
            long tail = 0;
            for (int shift = 0; i < len; i++, shift += 8) {
                tail |= (b[off + i] & 0xFFL) << shift;
            }
            h = Long.rotateLeft(h ^ (tail * K2), 29) * K1;
        }
        return avalanche(h);
    }

    private static long avalanche(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }

    private static long initialSeed() {
        String fixed = System.getProperty("ordo.hashSeed");
        return fixed != null ? Long.parseLong(fixed) : new SplittableRandom().nextLong();
    }
}
