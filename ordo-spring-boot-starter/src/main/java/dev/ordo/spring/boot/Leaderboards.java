package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.CachedTop;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.store.Store;
import dev.ordo.spring.boot.OrdoProperties.BoardPeriod;
import dev.ordo.spring.boot.OrdoProperties.LeaderboardSpec;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The leaderboards declared under {@code ordo.leaderboards.<name>}, built at startup. Each one is
 * also a bean named after its entry, of its kind: a {@link Leaderboard}, or a
 * {@link PeriodicLeaderboard} when it declares a {@code period}, or a {@link ShardedLeaderboard}
 * when it has more than one shard; so {@code @Qualifier("weekly") Leaderboard board} finds it.
 * Every kind is a {@code Board<String>}, which {@link #board} returns whatever the kind. Each is
 * decorated as it is built by the {@link LeaderboardDecorator} beans (with metrics on, observed
 * per call), keeping its kind.
 */
public final class Leaderboards {
    private final Map<String, Board<String>> boards;
    private final Map<String, CachedTop> cachedTops;

    private Leaderboards(Map<String, Board<String>> boards, Map<String, CachedTop> cachedTops) {
        this.boards = boards;
        this.cachedTops = cachedTops;
    }

    /**
     * Builds every declared board on {@code store}, each then decorated by {@code decorators} in
     * order, before its cached top reads it; a sharded periodic board is refused.
     */
    static Leaderboards build(Store store, Map<String, LeaderboardSpec> specs, List<LeaderboardDecorator> decorators) {
        Map<String, Board<String>> boards = new TreeMap<>();
        Map<String, CachedTop> cachedTops = new TreeMap<>();
        specs.forEach((name, spec) -> {
            Board<String> board = board(store, name, spec);
            for (LeaderboardDecorator decorator : decorators) {
                board = decorate(decorator, name, board);
            }
            Board<String> built = board;
            boards.put(name, built);
            if (spec.cacheTop() != null) {
                cachedTops.put(name, CachedTop.of(() -> built.top(spec.cacheTop().size()), spec.cacheTop().maxAge()));
            }
        });
        return new Leaderboards(boards, cachedTops);
    }

    /** {@code board} through the decorator's method for its kind, which returns the same kind. */
    private static Board<String> decorate(LeaderboardDecorator decorator, String name, Board<String> board) {
        Board<String> decorated;
        if (board instanceof Leaderboard single) {
            decorated = decorator.decorate(name, single);
        } else if (board instanceof PeriodicLeaderboard periodic) {
            decorated = decorator.decorate(name, periodic);
        } else if (board instanceof ShardedLeaderboard sharded) {
            decorated = decorator.decorate(name, sharded);
        } else {
            throw new IllegalStateException("no decorator method for " + board.getClass());
        }
        if (decorated == null) {
            throw new IllegalStateException(decorator + " returned null for ordo.leaderboards." + name);
        }
        return decorated;
    }

    /** What an entry declares, and the getter that returns it as its own kind (its bean's factory method). */
    private enum Kind {
        SINGLE("get"), PERIODIC("periodic"), SHARDED("sharded");

        final String getter;

        Kind(String getter) {
            this.getter = getter;
        }

        /** Sharded when it has more than one shard, else periodic when it declares a period, else single. */
        static Kind of(LeaderboardSpec spec) {
            return spec.shards() != 1 ? SHARDED : spec.period().isEmpty() ? SINGLE : PERIODIC;
        }
    }

    private static Board<String> board(Store store, String name, LeaderboardSpec spec) {
        BoardOptions options = (spec.order() == OrdoProperties.Order.LOWEST_FIRST ? BoardOptions.lowestFirst() : BoardOptions.highestFirst())
                .withTieRule(spec.tieRule()).withMetadata(spec.metadata());
        if (spec.shards() != 1 && !spec.period().isEmpty()) {
            throw new IllegalArgumentException("ordo.leaderboards." + name + " declares both shards and a period; a board can be one or the other");
        }
        return switch (Kind.of(spec)) {
            case SINGLE -> Leaderboard.create(store, name, options);
            case SHARDED -> ShardedLeaderboard.create(store, name, spec.shards(), options);
            case PERIODIC -> periodic(store, name, spec, options);
        };
    }

    private static PeriodicLeaderboard periodic(Store store, String name, LeaderboardSpec spec, BoardOptions options) {
        PeriodicLeaderboard.Builder periodic = PeriodicLeaderboard.builder(store, name).options(options)
                .zone(spec.zone()).retention(spec.retention());
        for (BoardPeriod period : spec.period()) {
            switch (period) {
                case DAILY -> periodic.period(Period.daily());
                case WEEKLY -> periodic.period(Period.weekly());
                case MONTHLY -> periodic.period(Period.monthly());
                case ALL_TIME -> periodic.allTime();
            }
        }
        return periodic.build();
    }

    /** The getter that returns the declared board's own kind, for its bean. */
    static String getterFor(LeaderboardSpec spec) {
        return Kind.of(spec).getter;
    }

    /**
     * The single board declared as {@code name} (no period, one shard).
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the board
     * @throws IllegalArgumentException when no such board is declared, or it is periodic or sharded
     */
    public Leaderboard get(String name) {
        return kind(name, Leaderboard.class, "a single board (no period, one shard)");
    }

    /**
     * The periodic board family declared as {@code name} (with a {@code period}).
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the family of period boards
     * @throws IllegalArgumentException when no such board is declared, or it has no period
     */
    public PeriodicLeaderboard periodic(String name) {
        return kind(name, PeriodicLeaderboard.class, "periodic (with a period)");
    }

    /**
     * The sharded board declared as {@code name} (with more than one shard).
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the sharded board
     * @throws IllegalArgumentException when no such board is declared, or it has one shard
     */
    public ShardedLeaderboard sharded(String name) {
        return kind(name, ShardedLeaderboard.class, "sharded (with shards above 1)");
    }

    /**
     * The board declared as {@code name}, whatever its kind.
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the board
     * @throws IllegalArgumentException when no board of that name is declared
     */
    public Board<String> board(String name) {
        return Registries.lookUp(boards, name, "ordo.leaderboards");
    }

    /**
     * The local cache of the top of the board declared as {@code name}, as its {@code cache-top} says.
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the cache
     * @throws IllegalArgumentException when the board is not declared or declares no {@code cache-top}
     */
    public CachedTop cachedTop(String name) {
        board(name);
        CachedTop top = cachedTops.get(name);
        if (top == null) {
            throw new IllegalArgumentException("ordo.leaderboards." + name + ".cache-top is not set");
        }
        return top;
    }

    /**
     * The names of the declared boards.
     *
     * @return the names, sorted
     */
    public Set<String> names() {
        return boards.keySet();
    }

    private <T> T kind(String name, Class<T> kind, String what) {
        Board<String> board = board(name);
        if (!kind.isInstance(board)) {
            throw new IllegalArgumentException("ordo.leaderboards." + name + " is a " + board.getClass().getSimpleName()
                    + ", not " + what + "; board(name) returns any kind");
        }
        return kind.cast(board);
    }
}
