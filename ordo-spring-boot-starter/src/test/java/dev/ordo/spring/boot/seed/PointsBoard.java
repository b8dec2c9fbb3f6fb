package dev.ordo.spring.boot.seed;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.stereotype.Service;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Players' points in one sorted set: the member is the player, the score their total. */
@Service
public class PointsBoard {
    static final String KEY = "game:points";

    private final ZSetOperations<String, String> zset;

    PointsBoard(StringRedisTemplate redis) {
        this.zset = redis.opsForZSet();
    }

    /** A player and their total. */
    public record Standing(String player, long points) {
    }

    /** Adds {@code points} to the player's total and returns the new total. */
    public long award(String player, long points) {
        return Objects.requireNonNull(zset.incrementScore(KEY, player, points)).longValue();
    }

    /** The {@code n} best players, highest total first. */
    public List<Standing> best(int n) {
        var tuples = Objects.requireNonNull(zset.reverseRangeWithScores(KEY, 0, n - 1L));
        return tuples.stream().map(t -> new Standing(t.getValue(), Objects.requireNonNull(t.getScore()).longValue())).toList();
    }

    /** The player's 1-based position, highest total first; empty for a player with no points. */
    public Optional<Long> position(String player) {
        return Optional.ofNullable(zset.reverseRank(KEY, player)).map(rank -> rank + 1);
    }
}
