package dev.ordo.server.compat;

import dev.ordo.server.Ordo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed articles' Spring Data Redis code (the leaderboard and priority queue services, and the
 * Lua-scripted delayed job queue and sliding-window limiter, as written there) running against
 * an Ordo server through {@link StringRedisTemplate}, with the results the articles describe.
 * Spring sends the scripts with EVALSHA and falls back to EVAL on NOSCRIPT, so both paths run.
 */
class SpringDataRedisSeedTest {
    private static Ordo ordo;
    private static LettuceConnectionFactory factory;
    private static StringRedisTemplate template;

    @BeforeAll
    static void start() {
        ordo = Ordo.embedded();
        int port = ordo.openPort(0);
        factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        template = new StringRedisTemplate(factory);
    }

    @AfterAll
    static void stop() {
        factory.destroy();
        ordo.close();
    }

    @BeforeEach
    void flush() {
        ordo.client().call("FLUSHALL");
    }

    record PlayerScore(String player, double score) {
    }

    /** The article's LeaderboardService. */
    static final class LeaderboardService {
        private static final String KEY = "leaderboard:game:2048";
        private final ZSetOperations<String, String> zSet;

        LeaderboardService(StringRedisTemplate redis) {
            this.zSet = redis.opsForZSet();
        }

        double addPoints(String player, double points) {
            return zSet.incrementScore(KEY, player, points);
        }

        List<PlayerScore> top(int n) {
            Set<ZSetOperations.TypedTuple<String>> tuples = zSet.reverseRangeWithScores(KEY, 0, n - 1);
            if (tuples == null) {
                return List.of();
            }
            return tuples.stream().map(t -> new PlayerScore(t.getValue(), t.getScore())).toList();
        }

        Optional<Long> rankOf(String player) {
            Long rank = zSet.reverseRank(KEY, player);
            return Optional.ofNullable(rank).map(r -> r + 1);
        }
    }

    /** The article's JobQueue (priority queue), with the clock passed in so FIFO order is testable. */
    static final class JobQueue {
        private static final String KEY = "queue:email-jobs";
        private final ZSetOperations<String, String> zSet;

        JobQueue(StringRedisTemplate redis) {
            this.zSet = redis.opsForZSet();
        }

        void enqueue(String jobId, int priority, long nowMillis) {
            if (priority < 0 || priority > 9) {
                throw new IllegalArgumentException("priority must be 0..9");
            }
            double score = priority * 1e13 + nowMillis;
            zSet.add(KEY, jobId, score);
        }

        Optional<String> poll() {
            var tuple = zSet.popMin(KEY);
            return Optional.ofNullable(tuple).map(ZSetOperations.TypedTuple::getValue);
        }

        @SuppressWarnings("deprecation") // the article's call, kept as written
        Optional<String> take(Duration timeout) {
            var tuple = zSet.popMin(KEY, timeout.toSeconds(), TimeUnit.SECONDS);
            return Optional.ofNullable(tuple).map(ZSetOperations.TypedTuple::getValue);
        }
    }

    @Test
    void leaderboardService_articleExample_printsTheArticlesOutput() {
        LeaderboardService leaderboard = new LeaderboardService(template);
        leaderboard.addPoints("alice", 120);
        leaderboard.addPoints("bob", 95);
        leaderboard.addPoints("carol", 150);
        leaderboard.addPoints("bob", 60);
        assertThat(leaderboard.top(3).toString()).isEqualTo(
                "[PlayerScore[player=bob, score=155.0], PlayerScore[player=carol, score=150.0], PlayerScore[player=alice, score=120.0]]");
        assertThat(leaderboard.rankOf("alice")).contains(3L);
        assertThat(leaderboard.rankOf("nobody")).isEmpty();
    }

    @Test
    void jobQueue_priorityThenFifo_pollsInOrderAndTakeTimesOut() {
        JobQueue queue = new JobQueue(template);
        long t = 1_764_000_000_000L;
        queue.enqueue("low-1", 5, t);
        queue.enqueue("urgent", 0, t + 5);
        queue.enqueue("low-2", 5, t + 1);
        queue.enqueue("mid", 2, t + 2);
        List<String> order = new ArrayList<>();
        for (Optional<String> job = queue.poll(); job.isPresent(); job = queue.poll()) {
            order.add(job.get());
        }
        assertThat(order).containsExactly("urgent", "mid", "low-1", "low-2");
        assertThat(queue.take(Duration.ofSeconds(1))).isEmpty();
        queue.enqueue("late", 1, t);
        assertThat(queue.take(Duration.ofSeconds(1))).contains("late");
    }

    /** Seed 000's DelayedJobQueue: the due job is popped by a Lua script, atomically. */
    static final class DelayedJobQueue {
        private static final String KEY = "jobs:delayed";
        private static final RedisScript<String> POP_DUE = new DefaultRedisScript<>("""
                local jobs = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
                if #jobs == 0 then return false end
                redis.call('ZREM', KEYS[1], jobs[1])
                return jobs[1]
                """, String.class);

        private final StringRedisTemplate redis;

        DelayedJobQueue(StringRedisTemplate redis) {
            this.redis = redis;
        }

        void schedule(String jobId, Instant runAt) {
            redis.opsForZSet().add(KEY, jobId, runAt.toEpochMilli());
        }

        Optional<String> pollDue(Instant now) {
            String job = redis.execute(POP_DUE, List.of(KEY), String.valueOf(now.toEpochMilli()));
            return Optional.ofNullable(job);
        }
    }

    /** Seed 000's SlidingWindowRateLimiter, its script unchanged. */
    static final class SlidingWindowRateLimiter {
        private static final RedisScript<Long> SCRIPT = new DefaultRedisScript<>("""
                local key    = KEYS[1]
                local now    = tonumber(ARGV[1])
                local window = tonumber(ARGV[2])
                local limit  = tonumber(ARGV[3])
                redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
                if redis.call('ZCARD', key) < limit then
                    redis.call('ZADD', key, now, ARGV[4])
                    redis.call('PEXPIRE', key, window)
                    return 1
                end
                return 0
                """, Long.class);

        private final StringRedisTemplate redis;
        private final Clock clock;

        SlidingWindowRateLimiter(StringRedisTemplate redis, Clock clock) {
            this.redis = redis;
            this.clock = clock;
        }

        boolean tryAcquire(String customerId, int limit, Duration window) {
            Long allowed = redis.execute(SCRIPT, List.of("rate:" + customerId), String.valueOf(clock.millis()),
                    String.valueOf(window.toMillis()), String.valueOf(limit), java.util.UUID.randomUUID().toString());
            return Long.valueOf(1L).equals(allowed);
        }
    }

    @Test
    void delayedJobQueue_popsDueJobsOnceInOrder_andNothingEarly() {
        DelayedJobQueue queue = new DelayedJobQueue(template);
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        queue.schedule("later", t.plusSeconds(60));
        queue.schedule("first", t.minusSeconds(10));
        queue.schedule("second", t.minusSeconds(5));
        assertThat(queue.pollDue(t)).contains("first");
        assertThat(queue.pollDue(t)).contains("second");
        assertThat(queue.pollDue(t)).isEmpty();
        assertThat(queue.pollDue(t.plusSeconds(60))).contains("later");
        assertThat(template.opsForZSet().zCard("jobs:delayed")).isZero();
    }

    @Test
    void slidingWindowLimiter_admitsLimitPerWindow_andFreesOldSlots() {
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        SlidingWindowRateLimiter first = new SlidingWindowRateLimiter(template, Clock.fixed(t, ZoneOffset.UTC));
        List<Boolean> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(first.tryAcquire("c1", 3, Duration.ofSeconds(10)));
        }
        assertThat(answers).containsExactly(true, true, true, false, false);
        template.getConnectionFactory().getConnection().scriptingCommands().scriptFlush();
        SlidingWindowRateLimiter later = new SlidingWindowRateLimiter(template, Clock.fixed(t.plusSeconds(11), ZoneOffset.UTC));
        assertThat(later.tryAcquire("c1", 3, Duration.ofSeconds(10))).isTrue();
        assertThat(template.opsForZSet().zCard("rate:c1")).isEqualTo(1L);
        assertThat(template.getExpire("rate:c1", TimeUnit.MILLISECONDS)).isBetween(1L, 10_000L);
    }
}
