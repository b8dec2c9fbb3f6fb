package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.store.Store;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The leaderboards declared under {@code ordo.leaderboards.<name>}, built at startup. Each one is
 * also a bean named after its entry, for {@code @Qualifier("weekly") Leaderboard board}.
 */
public final class Leaderboards {
    private final Map<String, Leaderboard> boards;

    private Leaderboards(Map<String, Leaderboard> boards) {
        this.boards = boards;
    }

    /** Builds every declared board on {@code store}. */
    static Leaderboards build(Store store, Map<String, OrdoProperties.LeaderboardSpec> specs) {
        Map<String, Leaderboard> boards = new TreeMap<>();
        specs.forEach((name, spec) -> {
            BoardOptions options = spec.order() == OrdoProperties.Order.LOWEST_FIRST ? BoardOptions.lowestFirst() : BoardOptions.highestFirst();
            boards.put(name, Leaderboard.create(store, name, options.withTieRule(spec.tieRule()).withMetadata(spec.metadata())));
        });
        return new Leaderboards(boards);
    }

    /**
     * The board declared as {@code name}.
     *
     * @param name the entry's name under {@code ordo.leaderboards}
     * @return the board
     * @throws IllegalArgumentException when no board of that name is declared
     */
    public Leaderboard get(String name) {
        return Registries.lookUp(boards, name, "ordo.leaderboards");
    }

    /**
     * The names of the declared boards.
     *
     * @return the names, sorted
     */
    public Set<String> names() {
        return boards.keySet();
    }
}
