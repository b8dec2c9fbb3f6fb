package dev.ordo.bench;

import dev.ordo.engine.zset.EntryVisitor;
import dev.ordo.engine.zset.ScoreRange;
import dev.ordo.engine.zset.ZSet;

/** Ordo's ZSet behind the benchmark interface; ranges hand entries to a checksum, as a reply writer would. */
final class OrdoBenchZSet implements BenchZSet {
    private final ZSet set = new ZSet();
    private final Checksum checksum = new Checksum();

    @Override
    public void add(byte[] member, double score) {
        set.add(member, score);
    }

    @Override
    public double increment(byte[] member, double delta) {
        return set.increment(member, delta);
    }

    @Override
    public double score(byte[] member) {
        return set.score(member);
    }

    @Override
    public long rank(byte[] member) {
        return set.rank(member);
    }

    @Override
    public boolean remove(byte[] member) {
        return set.remove(member);
    }

    @Override
    public long topReverse(int n) {
        checksum.value = 0;
        set.range(0, n - 1, true, checksum);
        return checksum.value;
    }

    @Override
    public long around(byte[] member, int n) {
        long rank = set.rank(member);
        long start = Math.max(0, rank - (n - 1) / 2);
        checksum.value = rank;
        set.range(start, start + n - 1, false, checksum);
        return checksum.value;
    }

    @Override
    public long rangeByScore(double min, int n) {
        checksum.value = 0;
        set.rangeByScore(ScoreRange.of(min, false, Double.POSITIVE_INFINITY, false), false, 0, n, checksum);
        return checksum.value;
    }

    @Override
    public int size() {
        return set.size();
    }

    /** Reads every member byte and the score, so no visit is optimized away. */
    private static final class Checksum implements EntryVisitor {
        long value;

        @Override
        public void visit(byte[] buf, int off, int len, double score) {
            long h = Double.doubleToRawLongBits(score);
            for (int i = off; i < off + len; i++) {
                h = 31 * h + buf[i];
            }
            value += h;
        }
    }
}
