package dev.ordo.patterns.ratelimit;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The three limiters on every back end (with windows long enough that the real clock cannot
 * move a decision), and at their window edges on an embedded engine with a fake clock.
 */
class RateLimiterTest {
    private static final Duration HOUR = Duration.ofHours(1);

    /** The three limiters, each allowing 5 per hour on a key (the bucket: 5 tokens, 5 per hour). */
    private static List<RateLimiter> fivePerHour(Store store) {
        return List.of(SlidingLogLimiter.create(store, Backend.uniqueName("log"), Limit.perHour(5)),
                SlidingWindowLimiter.create(store, Backend.uniqueName("swc"), Limit.perHour(5)),
                TokenBucketLimiter.create(store, Backend.uniqueName("tb"), TokenBucketLimiter.Bucket.of(Limit.perHour(5))));
    }

    @OnEveryBackend
    void tryAcquire_fivePerHour_grantsFiveThenRefusesWithRetryAfter(Backend backend) {
        for (RateLimiter limiter : fivePerHour(backend.store())) {
            String what = limiter.getClass().getSimpleName() + " on " + backend;
            for (int i = 4; i >= 0; i--) {
                assertThat(limiter.tryAcquire("alice")).as(what).isEqualTo(new Decision(true, i, Duration.ZERO, 0));
            }
            Decision refused = limiter.tryAcquire("alice");
            assertThat(refused.allowed()).as(what).isFalse();
            assertThat(refused.remaining()).as(what).isZero();
            // The counter's previous window keeps weighing after its own ends: up to two windows.
            Duration longest = limiter instanceof SlidingWindowLimiter ? HOUR.multipliedBy(2) : HOUR;
            assertThat(refused.retryAfter()).as(what).isPositive().isLessThanOrEqualTo(longest);
            assertThat(limiter.tryAcquire("bob").allowed()).as(what + ": keys are independent").isTrue();
            assertThat(limiter.tryAcquire("carol", 5).remaining()).as(what).isZero();
            assertThat(limiter.tryAcquire("carol", 1).allowed()).as(what).isFalse();
        }
    }

    @OnEveryBackend
    void tryAcquire_twoLimits_bothCheckedAndChargedTogether(Backend backend) {
        Store store = backend.store();
        List<RateLimiter> limiters = List.of(
                SlidingLogLimiter.create(store, Backend.uniqueName("log2"), Limit.perHour(3), new Limit(5, Duration.ofDays(1))),
                SlidingWindowLimiter.create(store, Backend.uniqueName("swc2"), Limit.perHour(3), new Limit(5, Duration.ofDays(1))),
                TokenBucketLimiter.create(store, Backend.uniqueName("tb2"), TokenBucketLimiter.Bucket.of(Limit.perHour(3)),
                        new TokenBucketLimiter.Bucket(5, 1, Duration.ofDays(1))));
        for (RateLimiter limiter : limiters) {
            String what = limiter.getClass().getSimpleName() + " on " + backend;
            assertThat(limiter.tryAcquire("k", 2).remaining()).as(what + ": the tighter limit").isEqualTo(1);
            assertThat(limiter.tryAcquire("k", 2).allowed()).as(what).isFalse();
            assertThat(limiter.tryAcquire("k", 1)).as(what).isEqualTo(new Decision(true, 0, Duration.ZERO, 0));
            assertThatThrownBy(() -> limiter.tryAcquire("k", 4)).as(what).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> limiter.tryAcquire("k", 0)).as(what).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @OnEveryBackend
    void tryAcquire_secondLimitTighter_decisionNamesIt(Backend backend) {
        Store store = backend.store();
        List<RateLimiter> limiters = List.of(
                SlidingLogLimiter.create(store, Backend.uniqueName("log3"), Limit.perHour(5), new Limit(3, Duration.ofDays(1))),
                SlidingWindowLimiter.create(store, Backend.uniqueName("swc3"), Limit.perHour(5), new Limit(3, Duration.ofDays(1))),
                TokenBucketLimiter.create(store, Backend.uniqueName("tb3"), TokenBucketLimiter.Bucket.of(Limit.perHour(5)),
                        new TokenBucketLimiter.Bucket(3, 1, Duration.ofDays(1))));
        for (RateLimiter limiter : limiters) {
            String what = limiter.getClass().getSimpleName() + " on " + backend;
            assertThat(limiter.tryAcquire("k", 3)).as(what + ": the daily limit is spent").isEqualTo(new Decision(true, 0, Duration.ZERO, 1));
            Decision refused = limiter.tryAcquire("k");
            assertThat(refused.allowed()).as(what).isFalse();
            assertThat(refused.limit()).as(what + ": refused by the daily limit, the hourly has 2 left").isEqualTo(1);
            assertThat(refused.retryAfter()).as(what).isGreaterThan(Duration.ofHours(1));
        }
    }

    /** A limiter's name as its keys hold it: {@code \\} and {@code :} escaped. */
    private static String tagged(String name) {
        return name.replace("\\", "\\\\").replace(":", "\\:");
    }

    @OnEveryBackend
    void tryAcquire_nameWithAColonAndAKeyWithOne_neverShareAState(Backend backend) {
        Store store = backend.store();
        String base = Backend.uniqueName("login");
        // {base:sms:victim} would be both limiters' key if names were not escaped
        RateLimiter sms = SlidingLogLimiter.create(store, base + ":sms", Limit.perHour(1));
        RateLimiter login = SlidingLogLimiter.create(store, base, Limit.perHour(1));
        assertThat(login.tryAcquire("sms:victim").allowed()).as("an attacker's key on the login limiter").isTrue();
        assertThat(sms.tryAcquire("victim").allowed()).as("the victim's own budget on the sms limiter").isTrue();
    }

    @OnEveryBackend
    void tryAcquire_state_expiresWhenIdle(Backend backend) {
        Store store = backend.store();
        String name = Backend.uniqueName("ttl");
        SlidingLogLimiter.create(store, name, Limit.perMinute(10)).tryAcquire("k");
        long ttl = store.call(StoreCommand.of("PTTL").key("{" + tagged(name) + ":k}:log:10/60000000us")).asLong();
        assertThat(ttl).isPositive().isLessThanOrEqualTo(60_002);
        String swc = Backend.uniqueName("ttl");
        SlidingWindowLimiter.create(store, swc, Limit.perMinute(10)).tryAcquire("k");
        assertThat(store.call(StoreCommand.of("PTTL").key("{" + tagged(swc) + ":k}:swc:10/60000000us")).asLong()).isPositive().isLessThanOrEqualTo(120_002);
        String tb = Backend.uniqueName("ttl");
        TokenBucketLimiter.create(store, tb, TokenBucketLimiter.Bucket.of(Limit.perMinute(10))).tryAcquire("k");
        assertThat(store.call(StoreCommand.of("PTTL").key("{" + tagged(tb) + ":k}:tb:10/10/60000000us")).asLong()).isPositive().isLessThanOrEqualTo(8_001);
    }

    @OnEveryBackend
    void tryAcquire_32ThreadsOnOneKey_grantExactlyTheLimit(Backend backend) throws Exception {
        Store store = backend.store();
        List<RateLimiter> limiters = List.of(SlidingLogLimiter.create(store, Backend.uniqueName("hlog"), Limit.perHour(300)),
                SlidingWindowLimiter.create(store, Backend.uniqueName("hswc"), Limit.perHour(300)),
                TokenBucketLimiter.create(store, Backend.uniqueName("htb"), new TokenBucketLimiter.Bucket(300, 1, Duration.ofDays(1))));
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            for (RateLimiter limiter : limiters) {
                List<Future<Integer>> granted = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    granted.add(pool.submit(() -> {
                        int n = 0;
                        for (int i = 0; i < 20; i++) {
                            n += limiter.tryAcquire("hot").allowed() ? 1 : 0;
                        }
                        return n;
                    }));
                }
                int total = 0;
                for (Future<Integer> f : granted) {
                    total += f.get();
                }
                assertThat(total).as(limiter.getClass().getSimpleName() + " on " + backend + ": 640 asked, 300 allowed").isEqualTo(300);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- window edges, on a fake clock -----------------------------------------------------------

    @Test
    void slidingLog_grantCountsWhileYoungerThanTheWindow_exactToTheMicrosecond() {
        try (FakeClockStore clock = new FakeClockStore()) {
            RateLimiter limiter = SlidingLogLimiter.create(clock.store, "edge", new Limit(3, Duration.ofSeconds(1)));
            assertThat(limiter.tryAcquire("k", 2).allowed()).isTrue();
            clock.advanceMillis(400);
            assertThat(limiter.tryAcquire("k").allowed()).isTrue();
            clock.advanceMillis(599.999);
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(false, 0, Duration.ofNanos(1000), 0));
            clock.advanceMillis(0.001);
            assertThat(limiter.tryAcquire("k", 2)).isEqualTo(new Decision(true, 0, Duration.ZERO, 0));
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(false, 0, Duration.ofMillis(400), 0));
        }
    }

    @Test
    void slidingLog_manyRequestsInOneMicrosecond_grantExactlyTheLimit() {
        try (FakeClockStore clock = new FakeClockStore()) {
            RateLimiter limiter = SlidingLogLimiter.create(clock.store, "same", new Limit(20, Duration.ofMillis(100)));
            int granted = 0;
            for (int i = 0; i < 25; i++) {
                granted += limiter.tryAcquire("k").allowed() ? 1 : 0;
            }
            assertThat(granted).isEqualTo(20);
            clock.advanceMillis(150);
            granted = 0;
            for (int i = 0; i < 25; i++) {
                granted += limiter.tryAcquire("k").allowed() ? 1 : 0;
            }
            assertThat(granted).as("after the key expired").isEqualTo(20);
        }
    }

    @Test
    void slidingWindow_previousWindowWeighedByWhatIsLeftOfIt() {
        try (FakeClockStore clock = new FakeClockStore()) {
            RateLimiter limiter = SlidingWindowLimiter.create(clock.store, "edge", new Limit(10, Duration.ofSeconds(1)));
            clock.micros.set(1_800_000_000_500_000L);
            assertThat(limiter.tryAcquire("k", 10).allowed()).isTrue();
            assertThat(limiter.tryAcquire("k")).as("the current window is full until it ends, then the previous weighs 1 - (10-1)/10")
                    .isEqualTo(new Decision(false, 0, Duration.ofMillis(600), 0));
            clock.micros.set(1_800_000_001_000_000L);
            assertThat(limiter.tryAcquire("k")).as("previous 10 weighs fully at the window start")
                    .isEqualTo(new Decision(false, 0, Duration.ofMillis(100), 0));
            clock.micros.set(1_800_000_001_500_000L);
            assertThat(limiter.tryAcquire("k", 5)).as("previous 10 weighs half").isEqualTo(new Decision(true, 0, Duration.ZERO, 0));
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(false, 0, Duration.ofMillis(100), 0));
            clock.micros.set(1_800_000_003_000_000L);
            assertThat(limiter.tryAcquire("k", 10).allowed()).as("two windows later both counts are gone").isTrue();
        }
    }

    @Test
    void tokenBucket_refillsContinuouslyUpToCapacity() {
        try (FakeClockStore clock = new FakeClockStore()) {
            RateLimiter limiter = TokenBucketLimiter.create(clock.store, "edge", new TokenBucketLimiter.Bucket(4, 2, Duration.ofSeconds(1)));
            assertThat(limiter.tryAcquire("k", 4)).isEqualTo(new Decision(true, 0, Duration.ZERO, 0));
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(false, 0, Duration.ofMillis(500), 0));
            clock.advanceMillis(250);
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(false, 0, Duration.ofMillis(250), 0));
            clock.advanceMillis(250);
            assertThat(limiter.tryAcquire("k")).isEqualTo(new Decision(true, 0, Duration.ZERO, 0));
            clock.advanceMillis(60_000);
            assertThat(limiter.tryAcquire("k")).as("never above capacity").isEqualTo(new Decision(true, 3, Duration.ZERO, 0));
        }
    }

    /** 32 threads against one key while the fake clock moves; the grant times the server read are replayed. */
    @Test
    void hammer_32ThreadsOnMovingFakeClock_replayShowsNoWindowOverTheLimit() throws Exception {
        try (FakeClockStore clock = new FakeClockStore()) {
            ExecutorService ticker = Executors.newSingleThreadExecutor();
            try {
                ticker.submit(() -> {
                    java.util.SplittableRandom random = new java.util.SplittableRandom(7);
                    while (!Thread.currentThread().isInterrupted()) {
                        clock.micros.addAndGet(random.nextInt(1, 3_000));
                        Thread.onSpinWait();
                    }
                });
                checkReplays(clock.store, "fake clock");
            } finally {
                ticker.shutdownNow();
            }
        }
    }

    /** The same on every back end, on the server's own clock: the decisions carry the server time. */
    @OnEveryBackend
    void hammer_32ThreadsOnOneKey_replayOfServerTimesShowsNoWindowOverTheLimit(Backend backend) throws Exception {
        checkReplays(backend.store(), backend.toString());
    }

    /** Sliding log: exact; sliding-window counter: every fixed window exact, any window at most twice; bucket: capacity plus refill. */
    private static void checkReplays(Store store, String where) throws Exception {
        long window = 100_000;
        List<Long> log = grantTimes(SlidingLogLimiter.create(store, Backend.uniqueName("rlog"), new Limit(20, Duration.ofMillis(100))));
        checkWindows(log, 20, window, where + " sliding log");
        List<Long> swc = grantTimes(SlidingWindowLimiter.create(store, Backend.uniqueName("rswc"), new Limit(20, Duration.ofMillis(100))));
        checkWindows(swc, 40, window, where + " sliding-window counter");
        java.util.Map<Long, Integer> perFixedWindow = new java.util.HashMap<>();
        swc.forEach(t -> perFixedWindow.merge(t / window, 1, Integer::sum));
        assertThat(perFixedWindow.values()).as(where + " fixed windows").allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(20));
        List<Long> tb = grantTimes(TokenBucketLimiter.create(store, Backend.uniqueName("rtb"), new TokenBucketLimiter.Bucket(20, 5, Duration.ofMillis(100))));
        for (int i = 0; i < tb.size(); i++) {
            for (int j = i; j < tb.size(); j++) {
                double allowance = 20 + (tb.get(j) - tb.get(i)) * 5 / 100_000.0;
                assertThat(j - i + 1.0).as(where + " bucket grants from " + tb.get(i) + " to " + tb.get(j)).isLessThanOrEqualTo(allowance + 1e-9);
            }
        }
    }

    private static void checkWindows(List<Long> times, int most, long windowMicros, String where) {
        assertThat(times).as(where).isNotEmpty();
        for (int i = 0; i < times.size(); i++) {
            long end = times.get(i);
            int inWindow = 0;
            for (int j = i; j >= 0 && times.get(j) > end - windowMicros; j--) {
                inWindow++;
            }
            assertThat(inWindow).as(where + ": grants in the window ending at " + end).isLessThanOrEqualTo(most);
        }
    }

    /** Hammers one key from 32 threads (200 requests each); returns the server times of the grants, sorted. */
    private static List<Long> grantTimes(RateLimiter limiter) throws Exception {
        ScriptedLimiter scripted = (ScriptedLimiter) limiter;
        List<Long> grants = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                work.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        ScriptedLimiter.Timed d = scripted.tryAcquireTimed("hot", 1);
                        if (d.decision().allowed()) {
                            grants.add(d.serverMicros());
                        }
                    }
                }));
            }
            for (Future<?> f : work) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        List<Long> times = new ArrayList<>(grants);
        times.sort(null);
        return times;
    }

    /** Every key of {@code pattern} on every node of {@code backend}. */
    private static List<String> scanAll(Backend backend, String pattern) {
        List<String> out = new ArrayList<>();
        for (Store node : backend.nodes()) {
            String cursor = "0";
            do {
                List<dev.ordo.patterns.store.Reply> r = node.call(StoreCommand.of("SCAN").arg(cursor).arg("MATCH").arg(pattern).arg("COUNT").arg(1000)).asList();
                cursor = r.get(0).asString();
                r.get(1).asList().forEach(k -> out.add(k.asString()));
            } while (!cursor.equals("0"));
        }
        return out;
    }

    @OnEveryBackend
    void peek_readsTheStandingWithoutTakingOrWriting_andScanPatternFindsOnlyThisLimitersKeys(Backend backend) {
        Store store = backend.store();
        String name = "a*b:[x]?\\" + Backend.uniqueName("peek");
        Limit limit = new Limit(5, Duration.ofMinutes(1));
        List<ScriptedLimiter> limiters = List.of(SlidingWindowLimiter.create(store, name + "w", limit),
                SlidingLogLimiter.create(store, name + "l", limit), TokenBucketLimiter.create(store, name + "t", TokenBucketLimiter.Bucket.of(limit)));
        SlidingWindowLimiter other = SlidingWindowLimiter.create(store, "a", limit);
        for (ScriptedLimiter limiter : limiters) {
            limiter.tryAcquire("k:1", 2);
            limiter.tryAcquire("k}2", 1);
            other.tryAcquire(name.substring(2) + "w:k:1");

            Decision fresh = limiter.peek("never");
            Decision used = limiter.peek("k:1");

            assertThat(fresh.remaining()).isEqualTo(5);
            assertThat(used.remaining()).isEqualTo(3);
            assertThat(limiter.peek("k:1").remaining()).as("peeking took nothing").isEqualTo(3);
            List<String> stored = scanAll(backend, limiter.scanPattern());
            assertThat(stored).hasSize(2);
            assertThat(stored.stream().map(k -> limiter.keyOf(k).orElseThrow()).sorted()).containsExactly("k:1", "k}2");
            assertThat(limiter.keyOf("{a:k:1}:x")).isEmpty();
        }
    }

    @OnEveryBackend
    void peek_onASlidingLog_leavesExpiredEntriesWhereTheyAre_andDoesNotCountThem(Backend backend) {
        Store store = backend.store();
        SlidingLogLimiter limiter = SlidingLogLimiter.create(store, Backend.uniqueName("peeklog"), new Limit(5, Duration.ofMinutes(1)));
        limiter.tryAcquire("k", 2);
        String key = scanAll(backend, limiter.scanPattern()).get(0);
        store.call(StoreCommand.of("ZADD").key(key).arg(0).arg("long-expired"));

        Decision standing = limiter.peek("k");

        assertThat(standing.remaining()).as("the expired entry does not count").isEqualTo(3);
        assertThat(store.call(StoreCommand.of("ZCARD").key(key)).asLong()).as("a peek removes nothing").isEqualTo(3);
    }
}
