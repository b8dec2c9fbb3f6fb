package dev.ordo.patterns.leaderboard;

import java.util.List;

/**
 * The keys of one board: the sorted set itself and the helper keys some tie rules keep beside
 * it, all under the sorted set's hash tag.
 */
record BoardKeys(String scores, String names, String distinct, String distinctCounts) {
    static BoardKeys of(String scoresKey) {
        return new BoardKeys(scoresKey, scoresKey + ":names", scoresKey + ":ds", scoresKey + ":dc");
    }

    List<String> all() {
        return List.of(scores, names, distinct, distinctCounts);
    }

    /** {@code name} itself when it holds a non-empty hash tag, else {@code {name}}. */
    static String tagged(String name) {
        int open = name.indexOf('{');
        if (open >= 0) {
            int close = name.indexOf('}', open + 1);
            if (close > open + 1) {
                return name;
            }
        }
        return "{" + name + "}";
    }
}
