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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The floor under every sorted-set figure: the cost of one dependent cache miss on this machine,
 * measured by chasing a random cyclic chain of cache lines through a buffer of the given size.
 * A lookup of a random member among 1,000,000 must leave the caches at least once (the index
 * alone is 8 MB), so no ZSCORE at that size can be faster than one such miss.
 *
 * <p>Run: {@code java -jar ordo-bench/target/benchmarks.jar MemoryLatencyBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MemoryLatencyBenchmark {
    private static final int INTS_PER_LINE = 16;

    @Param({"1", "8", "16", "32", "64"})
    public int megabytes;

    private int[] next;
    private int position;

    @Setup(Level.Trial)
    public void chain() {
        int lines = megabytes * 1024 * 1024 / 64;
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) {
            order[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = lines - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        next = new int[lines * INTS_PER_LINE];
        for (int i = 0; i < lines; i++) {
            next[order[i] * INTS_PER_LINE] = order[(i + 1) % lines] * INTS_PER_LINE;
        }
    }

    /** One dependent load to a random cache line. */
    @Benchmark
    public int dependentMiss() {
        position = next[position];
        return position;
    }
}
