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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed article's Spring Data Redis code (its leaderboard and priority queue services, as
 * written there) running against an Ordo server through {@link StringRedisTemplate}, with the
 * output the article prints.
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
}
