package dev.ordo.patterns.leaderboard;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A plain in-memory leaderboard: what every read of a real board must equal. */
final class BoardModel {
    private final boolean descending;
    private final TieRule tie;
    private final Map<String, Double> scores = new HashMap<>();
    private final Map<String, Long> arrivals = new HashMap<>();

    BoardModel(boolean descending, TieRule tie) {
        this.descending = descending;
        this.tie = tie;
    }

    void add(String member, double delta, long now) {
        Double old = scores.get(member);
        put(member, (old == null ? 0 : old) + delta, now);
    }

    void set(String member, double score, long now) {
        put(member, score, now);
    }

    void best(String member, double score, long now) {
        Double old = scores.get(member);
        if (old == null || (descending ? score > old : score < old)) {
            put(member, score, now);
        }
    }

    void remove(String member) {
        scores.remove(member);
        arrivals.remove(member);
    }

    private void put(String member, double score, long now) {
        Double old = scores.put(member, score);
        if (old == null || old != score) {
            arrivals.put(member, now);
        }
    }

    /** Members in board order. */
    List<String> order() {
        Comparator<String> byScore = Comparator.comparingDouble(scores::get);
        if (descending) {
            byScore = byScore.reversed();
        }
        Comparator<String> byMember = (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        if (descending) {
            byMember = byMember.reversed();
        }
        Comparator<String> full = tie == TieRule.FIRST_REACHED
                ? byScore.thenComparingLong(arrivals::get).thenComparing(byMember)
                : byScore.thenComparing(byMember);
        List<String> out = new ArrayList<>(scores.keySet());
        out.sort(full);
        return out;
    }

    Double score(String member) {
        return scores.get(member);
    }

    OptionalLong rank(String member) {
        Double s = scores.get(member);
        if (s == null) {
            return OptionalLong.empty();
        }
        return switch (tie) {
            case COMPETITION -> OptionalLong.of(1 + scores.values().stream().filter(better(s)).count());
            case DENSE -> OptionalLong.of(1 + scores.values().stream().filter(better(s)).distinct().count());
            default -> OptionalLong.of(order().indexOf(member) + 1);
        };
    }

    private java.util.function.Predicate<Double> better(double s) {
        return v -> descending ? v > s : v < s;
    }

    List<Entry<String>> range(int start, int count) {
        List<String> order = order();
        List<Entry<String>> out = new ArrayList<>();
        for (int i = start; i < Math.min(order.size(), start + count); i++) {
            String m = order.get(i);
            out.add(new Entry<>(m, scores.get(m), rank(m).getAsLong(), Map.of()));
        }
        return out;
    }

    List<Entry<String>> around(String member, int size) {
        List<String> order = order();
        int pos = order.indexOf(member);
        if (pos < 0 || size == 0) {
            return List.of();
        }
        int start = Math.max(0, Math.min(pos - (size - 1) / 2, order.size() - size));
        return range(start, size);
    }

    int size() {
        return scores.size();
    }
}
