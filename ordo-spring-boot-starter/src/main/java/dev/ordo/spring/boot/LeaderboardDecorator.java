package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;

/**
 * Wraps each leaderboard declared under {@code ordo.leaderboards} as it is built, as a {@link
 * RateLimiterDecorator} wraps limiters, so what {@link Leaderboards} and the bean of the entry's
 * name hand out is the decorated board (the starter's metrics observe every call this way, through
 * the board's own {@code withObserver}). Each kind has its method, returning the same kind, so a
 * board's bean keeps its type; each leaves the board as it is unless overridden. A cached top
 * ({@code cache-top}) reads the decorated board. Beans of this type apply in their {@code @Order}.
 */
public interface LeaderboardDecorator {
    /**
     * Decorates a single board (no period, one shard).
     *
     * @param name  the entry's name under {@code ordo.leaderboards}
     * @param board the board as built so far
     * @return the board to hand out, on the same keys
     */
    default Leaderboard decorate(String name, Leaderboard board) {
        return board;
    }

    /**
     * Decorates a periodic family (one declaring a {@code period}).
     *
     * @param name   the entry's name under {@code ordo.leaderboards}
     * @param family the family as built so far
     * @return the family to hand out, on the same keys
     */
    default PeriodicLeaderboard decorate(String name, PeriodicLeaderboard family) {
        return family;
    }

    /**
     * Decorates a sharded board (more than one shard).
     *
     * @param name  the entry's name under {@code ordo.leaderboards}
     * @param board the board as built so far
     * @return the board to hand out, on the same shards
     */
    default ShardedLeaderboard decorate(String name, ShardedLeaderboard board) {
        return board;
    }
}
