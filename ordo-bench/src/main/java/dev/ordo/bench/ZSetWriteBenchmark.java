package dev.ordo.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Adding new members to, and removing existing members from, a 1,000,000-member sorted set:
 * each measured invocation starts from a freshly loaded set and performs {@value #BATCH}
 * operations (so the set stays within 10% of 1M), reported per operation. Ordo beside the
 * ConcurrentSkipListMap + HashMap baseline in the same run.
 *
 * <p>Run: {@code ./mvnw -q -pl ordo-bench -am package -DskipTests && java -jar ordo-bench/target/benchmarks.jar ZSetWriteBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ZSetWriteBenchmark {
    static final int BATCH = 100_000;

    @Param({"ordo", "baseline"})
    public String impl;

    private BenchZSet set;
    private byte[][] fresh;
    private byte[][] existing;
    private double[] scores;

    @Setup(Level.Trial)
    public void data() {
        fresh = Members.names(Members.MILLION, BATCH);
        List<Integer> picks = new ArrayList<>();
        for (int i = 0; i < Members.MILLION; i++) {
            picks.add(i);
        }
        Collections.shuffle(picks, new Random(7));
        existing = new byte[BATCH][];
        scores = new double[BATCH];
        Random rnd = new Random(8);
        for (int i = 0; i < BATCH; i++) {
            existing[i] = Members.name(picks.get(i));
            scores[i] = Math.floor(rnd.nextDouble() * 1e9) / 1e3;
        }
    }

    /** A fresh 1M set per measured batch, collected once so no GC of the load's garbage lands in the batch. */
    @Setup(Level.Iteration)
    public void load() {
        set = null;
        set = "ordo".equals(impl) ? new OrdoBenchZSet() : new BaselineZSet();
        Members.load(set, Members.MILLION);
        System.gc();
    }

    /** ZADD of a member not yet in the set. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int addNew() {
        for (int i = 0; i < BATCH; i++) {
            set.add(fresh[i], scores[i]);
        }
        return set.size();
    }

    /** ZREM of a member in the set. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int remove() {
        for (int i = 0; i < BATCH; i++) {
            set.remove(existing[i]);
        }
        return set.size();
    }
}
