package dev.ordo.bench;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Store;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.redisson.Redisson;
import org.redisson.api.RRateLimiter;
import org.redisson.api.RateType;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * Rate-limiter decisions per second, Ordo's three limiters beside Redisson's RRateLimiter and
 * Bucket4j over Lettuce (the anchors, on the same redis-server in the same run), and jobs per
 * second through the priority queue and the delayed queue end to end, on embedded Ordo, an Ordo
 * server (in this JVM, over Lettuce) and redis-server. Limiters: 8 caller threads, keys drawn
 * from 10,000 (limit 1,000 per second each, so nearly every decision is a grant). Queues: 4
 * producer threads and 8 workers.
 *
 * <p>Run: {@code java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.QueueLimiterBenchmark}
 * ({@code -Dseconds=S} per figure).
 */
public final class QueueLimiterBenchmark {
    private static final double SECONDS = Double.parseDouble(System.getProperty("seconds", "4"));
    private static final int THREADS = 8;
    private static final int KEYS = 10_000;
    private static final int PRODUCERS = 4;

    private QueueLimiterBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        RedisProcess.keepLettuceOnNio();
        Store redis = Backend.REDIS.store();
        String redisUri = redisUri();
        System.out.println("limiter decisions per second, " + THREADS + " threads, 1,000 per second per key over " + KEYS + " keys");
        System.out.printf(Locale.ROOT, "%-28s %14s %14s %14s%n", "limiter", "embedded", "Ordo (wire)", "Redis (wire)");
        Store[] stores = {Backend.EMBEDDED.store(), Backend.ORDO_SERVER.store(), redis};
        List<IntFunction<RateLimiter>> ordo = List.of(
                s -> SlidingLogLimiter.create(stores[s], "bench-log-" + s, Limit.perSecond(1000)),
                s -> SlidingWindowLimiter.create(stores[s], "bench-swc-" + s, Limit.perSecond(1000)),
                s -> TokenBucketLimiter.create(stores[s], "bench-tb-" + s, TokenBucketLimiter.Bucket.of(Limit.perSecond(1000))));
        String[] names = {"Ordo sliding log", "Ordo sliding-window counter", "Ordo token bucket"};
        for (int l = 0; l < ordo.size(); l++) {
            double[] r = new double[3];
            for (int s = 0; s < 3; s++) {
                RateLimiter limiter = ordo.get(l).apply(s);
                r[s] = rate(i -> limiter.tryAcquire("user:" + i));
            }
            System.out.printf(Locale.ROOT, "%-28s %14.0f %14.0f %14.0f%n", names[l], r[0], r[1], r[2]);
        }
        Config config = new Config();
        config.useSingleServer().setAddress(redisUri);
        RedissonClient redisson = Redisson.create(config);
        try {
            RRateLimiter[] limiters = new RRateLimiter[KEYS];
            double redissonRate = rate(i -> {
                RRateLimiter limiter = limiters[i];
                if (limiter == null) {
                    limiter = redisson.getRateLimiter("bench-redisson:" + i);
                    limiter.trySetRate(RateType.OVERALL, 1000, Duration.ofSeconds(1));
                    limiters[i] = limiter;
                }
                limiter.tryAcquire();
            });
            System.out.printf(Locale.ROOT, "%-28s %14s %14s %14.0f%n", "Redisson RRateLimiter", "-", "-", redissonRate);
        } finally {
            redisson.shutdown();
        }
        RedisClient lettuce = RedisClient.create(redisUri);
        try (StatefulRedisConnection<String, byte[]> connection = lettuce.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE))) {
            ProxyManager<String> buckets = Bucket4jLettuce.casBasedBuilder(connection).build();
            BucketConfiguration perSecond = BucketConfiguration.builder()
                    .addLimit(limit -> limit.capacity(1000).refillGreedy(1000, Duration.ofSeconds(1))).build();
            double bucket4j = rate(i -> buckets.getProxy("bench-bucket4j:" + i, () -> perSecond).tryConsume(1));
            System.out.printf(Locale.ROOT, "%-28s %14s %14s %14.0f%n", "Bucket4j (Lettuce, CAS)", "-", "-", bucket4j);
        } finally {
            lettuce.shutdown();
        }
        System.out.printf(Locale.ROOT, "%njobs per second end to end (%d producer and %d worker threads)%n", PRODUCERS, THREADS);
        System.out.printf(Locale.ROOT, "%-28s %14s %14s %14s%n", "queue", "embedded", "Ordo (wire)", "Redis (wire)");
        double[] pq = new double[3];
        double[] dq = new double[3];
        for (int s = 0; s < 3; s++) {
            pq[s] = priorityQueue(stores[s], "bench-pq-" + System.nanoTime());
            dq[s] = delayedQueue(stores[s], "bench-dq-" + System.nanoTime());
        }
        System.out.printf(Locale.ROOT, "%-28s %14.0f %14.0f %14.0f%n", "priority queue (offer, poll)", pq[0], pq[1], pq[2]);
        System.out.printf(Locale.ROOT, "%-28s %14.0f %14.0f %14.0f%n", "delayed queue (sched, claim, ack)", dq[0], dq[1], dq[2]);
    }

    /** The address of the fixture's redis-server, read from the server itself. */
    private static String redisUri() {
        List<Reply> port = Backend.REDIS.store().call(StoreCommand.of("CONFIG").arg("GET").arg("port")).asList();
        return "redis://127.0.0.1:" + port.get(1).asString();
    }

    /** Calls per second of {@code op} from {@link #THREADS} threads on random keys, after a warm-up. */
    private static double rate(IntConsumer op) throws Exception {
        run(op, SECONDS / 4);
        return run(op, SECONDS);
    }

    private static double run(IntConsumer op, double seconds) throws Exception {
        long[] calls = new long[THREADS];
        long start = System.nanoTime();
        onThreads(THREADS, seconds, t -> {
            SplittableRandom random = new SplittableRandom(t);
            return () -> {
                op.accept(random.nextInt(KEYS));
                calls[t]++;
            };
        });
        return java.util.Arrays.stream(calls).sum() / ((System.nanoTime() - start) / 1e9);
    }

    /** Producers offer batches of 10, 8 workers poll batches of 10, for the run's length; jobs taken per second. */
    private static double priorityQueue(Store store, String name) throws Exception {
        PriorityJobQueue<String> q = PriorityJobQueue.create(store, name);
        List<String> batch = java.util.Collections.nCopies(10, "payload");
        AtomicLong taken = new AtomicLong();
        long start = System.nanoTime();
        runRoles(i -> {
            if (i < PRODUCERS) {
                q.offerAll(i % 4, batch);
            } else {
                taken.addAndGet(q.poll(10).size());
            }
        });
        return taken.get() / ((System.nanoTime() - start) / 1e9);
    }

    /** Producers schedule batches of 10 due now, 8 workers claim batches of 10 and ack them; jobs acked per second. */
    private static double delayedQueue(Store store, String name) throws Exception {
        DelayedJobQueue<String> q = DelayedJobQueue.create(store, name);
        AtomicLong ids = new AtomicLong();
        AtomicLong acked = new AtomicLong();
        long start = System.nanoTime();
        runRoles(i -> {
            if (i < PRODUCERS) {
                List<DelayedJobQueue.NewJob<String>> jobs = new ArrayList<>(10);
                for (int k = 0; k < 10; k++) {
                    jobs.add(new DelayedJobQueue.NewJob<>("j" + ids.incrementAndGet(), "payload", 0, Due.now()));
                }
                q.scheduleAll(jobs, DelayedJobQueue.OnDuplicate.REJECT);
            } else {
                var claimed = q.claim(10);
                if (!claimed.isEmpty()) {
                    acked.addAndGet(q.ackAll(claimed));
                }
            }
        });
        return acked.get() / ((System.nanoTime() - start) / 1e9);
    }

    /** Runs {@link #PRODUCERS} producer threads (roles 0..) and {@link #THREADS} workers for the run's length. */
    private static void runRoles(IntConsumer step) throws Exception {
        onThreads(PRODUCERS + THREADS, SECONDS, role -> () -> step.accept(role));
    }

    /** Runs, on each of {@code threads} threads, the step {@code stepOf} gives it, over and over for {@code seconds}. */
    private static void onThreads(int threads, double seconds, IntFunction<Runnable> stepOf) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + (long) (seconds * 1e9);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Runnable step = stepOf.apply(t);
                work.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        step.run();
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
