package dev.ordo.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Steady-state operations on a 1,000,000-member sorted set, single thread, Ordo beside the
 * ConcurrentSkipListMap + HashMap baseline in the same run. Members are picked at random, so
 * every lookup is a cache miss as it would be under real traffic.
 *
 * <p>Run: {@code ./mvnw -q -pl ordo-bench -am package -DskipTests && java -jar ordo-bench/target/benchmarks.jar ZSetReadBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ZSetReadBenchmark {
    @Param({"ordo", "baseline"})
    public String impl;

    private BenchZSet set;
    private final byte[] key = Members.name(0);
    private long seed = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void load() {
        set = "ordo".equals(impl) ? new OrdoBenchZSet() : new BaselineZSet();
        Members.load(set, Members.MILLION);
        System.gc();
    }

    private int next() {
        seed ^= seed << 13;
        seed ^= seed >>> 7;
        seed ^= seed << 17;
        return (int) ((seed >>> 1) % Members.MILLION);
    }

    /**
     * Writes a random member's name into one reused buffer, as a request's bytes would arrive in
     * a connection's (cache-hot) buffer: the lookup, not the harness, pays for the cache misses.
     */
    private byte[] randomMember() {
        Members.writeName(next(), key);
        return key;
    }

    /** ZSCORE. */
    @Benchmark
    public double score() {
        return set.score(randomMember());
    }

    /** ZRANK. */
    @Benchmark
    public long rank() {
        return set.rank(randomMember());
    }

    /** ZINCRBY on an existing member. */
    @Benchmark
    public double increment() {
        return set.increment(randomMember(), 1.0);
    }

    /** ZREVRANGE 0 9 WITHSCORES. */
    @Benchmark
    public long reverseRangeTop10() {
        return set.topReverse(10);
    }

    /** ZRANK, then ZRANGE of the 10 entries around that rank: a leaderboard's window. */
    @Benchmark
    public long around10() {
        return set.around(randomMember(), 10);
    }

    /**
     * ZRANGEBYSCORE min +inf LIMIT 0 10 from a random point of the score range ({@link
     * Members#load}'s scores lie in [0, 1e6)).
     */
    @Benchmark
    public long rangeByScoreLimit10() {
        return set.rangeByScore(next(), 10);
    }
}
