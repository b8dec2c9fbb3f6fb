package dev.ordo.bench;

import dev.ordo.engine.zset.ZSet;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.openjdk.jol.info.GraphLayout;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Bytes per member of a 1,000,000-member sorted set ({@code player:0000000} .. {@code
 * player:0999999}, random scores): Ordo's ZSet, the ConcurrentSkipListMap + HashMap baseline, and
 * a real {@code redis-server} loaded with the same data in the same run. Java figures are retained
 * heap after a full GC (the heap delta) and JOL's walk of the object graph; Redis's is the growth
 * of {@code used_memory}.
 *
 * <p>Run: {@code ./mvnw -q -pl ordo-bench -am package -DskipTests && java -Xmx4g -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.MemoryFootprint}
 */
public final class MemoryFootprint {
    private static final int N = Members.MILLION;

    private MemoryFootprint() {
    }

    public static void main(String[] args) throws Exception {
        // Records' field offsets are hidden from Unsafe; JOL then derives them itself.
        System.setProperty("jol.magicFieldOffset", "true");
        System.out.printf("%-34s %14s %14s%n", "1,000,000 members, 14-byte names", "heap delta", "object graph");
        report("Ordo ZSet (skiplist encoding)", () -> {
            OrdoBenchZSet z = new OrdoBenchZSet();
            Members.load(z, N);
            return z;
        });
        report("ConcurrentSkipListMap + HashMap", () -> {
            BaselineZSet z = new BaselineZSet();
            Members.load(z, N);
            return z;
        });
        Optional<RedisProcess> redis = RedisProcess.start();
        if (redis.isEmpty()) {
            System.out.println("redis-server                       not installed: no Redis anchor in this run");
            return;
        }
        try (RedisProcess server = redis.get()) {
            System.out.printf("%-34s %14.1f %14s%n", "redis-server " + redisVersion(server) + " (used_memory)", redisBytesPerMember(server), "-");
        }
    }

    private static void report(String name, Supplier<Object> build) {
        long before = retainedHeap();
        Object set = build.get();
        long after = retainedHeap();
        long graph = GraphLayout.parseInstance(set).totalSize();
        System.out.printf("%-34s %14.1f %14.1f%n", name, (after - before) / (double) N, graph / (double) N);
        sink = set;
        sink = null;
    }

    /** Keeps the measured set reachable until both measurements are taken. */
    private static volatile Object sink;

    private static long retainedHeap() {
        var memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static double redisBytesPerMember(RedisProcess server) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + server.port);
        try (StatefulRedisConnection<byte[], byte[]> conn = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> cmd = conn.sync();
            byte[] key = "bench:zset".getBytes(StandardCharsets.US_ASCII);
            long before = usedMemory(cmd);
            SplittableRandom rnd = new SplittableRandom(42);
            int batch = 1000;
            for (int from = 0; from < N; from += batch) {
                Object[] scoresAndMembers = new Object[2 * batch];
                for (int i = 0; i < batch; i++) {
                    scoresAndMembers[2 * i] = Math.floor(rnd.nextDouble() * 1e9) / 1e3;
                    scoresAndMembers[2 * i + 1] = Members.name(from + i);
                }
                cmd.zadd(key, scoresAndMembers);
            }
            long card = cmd.zcard(key);
            if (card != N) {
                throw new IllegalStateException("redis holds " + card + " members");
            }
            return (usedMemory(cmd) - before) / (double) N;
        } finally {
            client.shutdown();
        }
    }

    private static long usedMemory(RedisCommands<byte[], byte[]> cmd) {
        return Long.parseLong(infoField(cmd.info("memory"), "used_memory"));
    }

    private static String redisVersion(RedisProcess server) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + server.port);
        try (StatefulRedisConnection<byte[], byte[]> conn = client.connect(ByteArrayCodec.INSTANCE)) {
            return infoField(conn.sync().info("server"), "redis_version");
        } finally {
            client.shutdown();
        }
    }

    private static String infoField(String info, String field) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(field + ":")) {
                return line.substring(field.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO has no " + field);
    }
}
