package dev.ordo.bench;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.store.Store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * Leaderboard operations per second on a board of 1,000,000 members, each pattern operation
 * beside the raw commands it is built on, on three back ends loaded side by side and measured in
 * alternating slices ({@link #measureInterleaved}): embedded Ordo (in this JVM), an Ordo server
 * (its own JVM, over Lettuce) and {@code redis-server} (over Lettuce). Then a 16-shard board
 * against one key on a three-master Redis Cluster, for top 100 and global rank.
 *
 * <p>One caller thread, synchronous calls, a random member per call, its name built for the
 * call ({@link #name}): the figures are what one request thread of an application sees. Wire
 * figures are round-trip bound on loopback.
 *
 * <p>The raw side of each pair is what an application would send by hand for the same answer:
 * one command, or, where the pattern answers in one script what takes two dependent commands
 * (add and then read the rank; read the rank and then the window around it, as the seeds do),
 * those two commands, one round trip each and not atomic.
 *
 * <p>Run: {@code ordo-bench/leaderboard-benchmark.sh} (builds first), or {@code java -cp
 * ordo-bench/target/benchmarks.jar dev.ordo.bench.LeaderboardBenchmark ordo-server/target/ordo-server.jar
 * [JVM flags for the Ordo server...]}. {@code -Dmembers=N} and {@code -Dseconds=S} (per figure) adjust the run.
 */
public final class LeaderboardBenchmark {
    private static final int MEMBERS = Integer.getInteger("members", 1_000_000);
    private static final double SECONDS = Double.parseDouble(System.getProperty("seconds", "4"));

    private LeaderboardBenchmark() {
    }

    private record Op(String name, IntConsumer pattern, IntConsumer raw) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: LeaderboardBenchmark <ordo-server.jar> [JVM flags for the Ordo server...]");
            System.exit(2);
        }
        RedisProcess.keepLettuceOnNio();
        Process ordoProcess = startOrdo(args);
        try (LettuceStore ordo = LettuceStore.connect("redis://127.0.0.1:" + ordoPort)) {
            String[] labels = {"embedded", "Ordo (wire)", "Redis (wire)"};
            Store[] stores = {Backend.EMBEDDED.store(), ordo, Backend.REDIS.store()};
            List<List<Op>> ops = new ArrayList<>();
            for (int s = 0; s < stores.length; s++) {
                Leaderboard board = Leaderboard.create(stores[s], "bench", BoardOptions.highestFirst());
                System.out.printf(Locale.ROOT, "loading %,d members on %s ...%n", MEMBERS, labels[s]);
                load(stores[s], board.key());
                ops.add(ops(stores[s], board));
            }
            System.out.printf(Locale.ROOT, "%n%-14s %13s %13s %13s %10s   %s%n", "operation", labels[0], labels[1], labels[2],
                    "emb/Redis", "pattern/raw: embedded, Ordo, Redis (raw ops/s)");
            for (int o = 0; o < ops.get(0).size(); o++) {
                int op = o;
                List<Op> row = ops.stream().map(perStore -> perStore.get(op)).toList();
                double[][] calls = measureInterleaved(row);
                double[] pattern = calls[0];
                double[] raw = calls[1];
                System.out.printf(Locale.ROOT, "%-14s %13.0f %13.0f %13.0f %9.1fx   %.2f, %.2f, %.2f (%.0f, %.0f, %.0f)%n", row.get(0).name(),
                        pattern[0], pattern[1], pattern[2], pattern[0] / pattern[2],
                        pattern[0] / raw[0], pattern[1] / raw[1], pattern[2] / raw[2], raw[0], raw[1], raw[2]);
            }
        } finally {
            ordoProcess.destroy();
            ordoProcess.waitFor();
        }
        cluster();
    }

    /**
     * The measured operations and the raw command each is built on: add-points returns the new
     * score (one ZINCRBY), add + rank also the rank in the same round trip (a script).
     */
    private static List<Op> ops(Store store, Leaderboard board) {
        String key = board.key();
        return List.of(
                new Op("add-points", i -> board.incrementScore(name(i), 1),
                        i -> store.call(StoreCommand.of("ZINCRBY").key(key).arg(1).arg(name(i)))),
                new Op("add + rank", i -> board.addPoints(name(i), 1),
                        i -> {
                            String member = name(i);
                            store.call(StoreCommand.of("ZINCRBY").key(key).arg(1).arg(member));
                            store.call(StoreCommand.of("ZREVRANK").key(key).arg(member));
                        }),
                new Op("rank", i -> board.rank(name(i)),
                        i -> store.call(StoreCommand.of("ZREVRANK").key(key).arg(name(i)))),
                new Op("top 10", i -> board.top(10),
                        i -> store.call(StoreCommand.of("ZREVRANGE").key(key).arg(0).arg(9).arg("WITHSCORES"))),
                new Op("around 10", i -> board.around(name(i), 10),
                        i -> {
                            long start = Math.max(0, store.call(StoreCommand.of("ZREVRANK").key(key).arg(name(i))).asLong() - 4);
                            store.call(StoreCommand.of("ZREVRANGE").key(key).arg(start).arg(start + 9).arg("WITHSCORES"));
                        }));
    }

    private static void cluster() {
        Store cluster = Backend.REDIS_CLUSTER.store();
        ShardedLeaderboard sharded = ShardedLeaderboard.create(cluster, "sbench", 16, BoardOptions.highestFirst());
        Leaderboard single = Leaderboard.create(cluster, "cbench", BoardOptions.highestFirst());
        System.out.printf(Locale.ROOT, "%nloading %,d members into 16 shards and into one key on a three-master Redis Cluster ...%n", MEMBERS);
        load(cluster, single.key());
        for (int from = 0; from < MEMBERS; from += 1000) {
            List<List<String>> perShard = new ArrayList<>();
            for (int s = 0; s < 16; s++) {
                perShard.add(new ArrayList<>());
            }
            for (int i = from; i < Math.min(MEMBERS, from + 1000); i++) {
                String member = name(i);
                perShard.get(sharded.shards().indexOf(sharded.shardOf(member))).add(member);
            }
            for (int s = 0; s < 16; s++) {
                if (!perShard.get(s).isEmpty()) {
                    StoreCommand add = StoreCommand.of("ZADD").key(sharded.shards().get(s).key());
                    perShard.get(s).forEach(m -> add.arg(score(m)).arg(m));
                    cluster.call(add);
                }
            }
        }
        double shardTop = measure(i -> sharded.top(100));
        double singleTop = measure(i -> single.top(100));
        double shardRank = measure(i -> sharded.rank(name(i)));
        double singleRank = measure(i -> single.rank(name(i)));
        System.out.printf(Locale.ROOT, "%-14s %13s %13s %8s%n", "Redis Cluster", "16 shards", "one key", "ratio");
        System.out.printf(Locale.ROOT, "%-14s %13.0f %13.0f %8.2f%n", "top 100", shardTop, singleTop, shardTop / singleTop);
        System.out.printf(Locale.ROOT, "%-14s %13.0f %13.0f %8.2f%n", "global rank", shardRank, singleRank, shardRank / singleRank);
    }

    /**
     * The name of member {@code i}, built for each call as a request handler builds it from the
     * request it decodes. A table of a million prebuilt names read at random would add the
     * harness's own cache misses (the string and its bytes) to every call: about 0.4 µs, which is
     * nothing beside a network round trip but a sixth of an embedded call.
     */
    private static String name(int i) {
        return "player:" + i;
    }

    /** Scores with many ties: 0 to 99,999 points, a function of the member so every back end holds the same board. */
    private static long score(String member) {
        return (member.hashCode() & 0x7fffffff) % 100_000;
    }

    private static void load(Store store, String key) {
        store.call(StoreCommand.of("DEL").key(key));
        for (int from = 0; from < MEMBERS; from += 1000) {
            StoreCommand add = StoreCommand.of("ZADD").key(key);
            for (int i = from; i < Math.min(MEMBERS, from + 1000); i++) {
                String member = name(i);
                add.arg(score(member)).arg(member);
            }
            store.call(add);
        }
    }

    /** Calls per second of {@code op} on random members, after a warm-up of a quarter of the run. */
    private static double measure(IntConsumer op) {
        SplittableRandom random = new SplittableRandom(42);
        run(op, random, SECONDS * 0.25);
        return run(op, random, SECONDS);
    }

    /**
     * Calls per second of one operation, pattern and raw, on every back end: {@code [0][s]} the
     * pattern's and {@code [1][s]} the raw commands' on back end {@code s}. After a warm-up of each,
     * they run in ten rounds of short slices, every back end and both sides in each round, so a
     * drift in the machine's speed (a neighbour on the host, a frequency change) hits every figure
     * of the row alike instead of the back end measured at that moment. Each back end draws from
     * the same seeded sequence of members.
     */
    private static double[][] measureInterleaved(List<Op> perStore) {
        int n = perStore.size();
        SplittableRandom[] randoms = new SplittableRandom[n];
        for (int s = 0; s < n; s++) {
            randoms[s] = new SplittableRandom(42);
            run(perStore.get(s).pattern(), randoms[s], SECONDS * 0.25);
            run(perStore.get(s).raw(), randoms[s], SECONDS * 0.25);
        }
        double[][] calls = new double[2][n];
        for (int slice = 0; slice < 10; slice++) {
            for (int s = 0; s < n; s++) {
                calls[0][s] += run(perStore.get(s).pattern(), randoms[s], SECONDS / 10) / 10;
                calls[1][s] += run(perStore.get(s).raw(), randoms[s], SECONDS / 10) / 10;
            }
        }
        return calls;
    }

    /** Runs {@code op} for {@code seconds}; returns calls per second. */
    private static double run(IntConsumer op, SplittableRandom random, double seconds) {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long n = 0;
        long now;
        do {
            for (int k = 0; k < 16; k++) {
                op.accept(random.nextInt(MEMBERS - 10));
            }
            n += 16;
            now = System.nanoTime();
        } while (now < end);
        return n / ((now - start) / 1e9);
    }

    private static int ordoPort;

    /** Starts the Ordo server jar ({@code args[0]}) with the JVM flags that follow it, as the wire benchmark does. */
    private static Process startOrdo(String[] args) throws Exception {
        ordoPort = WireBenchmark.freePort();
        Path dir = Files.createTempDirectory("ordo-leaderboard-bench");
        List<String> cmd = WireBenchmark.ordoCommand(args[0], List.of(args).subList(1, args.length), ordoPort, dir);
        return WireBenchmark.start(cmd, dir.resolve("ordo.log"), ordoPort);
    }
}
