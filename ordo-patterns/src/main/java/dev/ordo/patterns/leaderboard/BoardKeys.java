package dev.ordo.patterns.leaderboard;

import java.util.List;

/**
 * The keys of one board: the sorted set itself and the helper keys some tie rules keep beside
 * it, all under the sorted set's hash tag.
 */
record BoardKeys(String scores, String names, String distinct) {
    static BoardKeys of(String scoresKey) {
        return new BoardKeys(scoresKey, scoresKey + ":names", scoresKey + ":ds");
    }

    List<String> all() {
        return List.of(scores, names, distinct);
    }

    /**
     * {@code name} itself when it holds a non-empty hash tag (Redis's rule: from the first
     * {@code '{'} to the next {@code '}'}), else {@code {name}}; names that would give an empty or
     * broken tag are refused, since their keys would land in different cluster slots.
     */
    static String tagged(String name) {
        int open = name.indexOf('{');
        if (open >= 0) {
            int close = name.indexOf('}', open + 1);
            if (close > open + 1) {
                return name;
            }
        }
        if (name.isEmpty() || open >= 0 || name.indexOf('}') >= 0) {
            throw new IllegalArgumentException("a board name must be non-empty and either hold a non-empty hash tag or no braces, got '" + name + "'");
        }
        return "{" + name + "}";
    }
}
