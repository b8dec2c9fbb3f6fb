package dev.ordo.engine.zset;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * An obviously correct sorted set for property tests: a list kept sorted by (score with C
 * comparison, member bytes unsigned), searched linearly. Mirrors Redis's documented semantics
 * independently of the engine's code.
 */
final class SortedListModel {
    static final Comparator<ZEntry> ORDER = (a, b) -> {
        if (a.score() < b.score()) {
            return -1;
        }
        if (a.score() > b.score()) {
            return 1;
        }
        return Arrays.compareUnsigned(a.member(), b.member());
    };

    private final List<ZEntry> entries = new ArrayList<>();

    List<ZEntry> entries() {
        return entries;
    }

    int size() {
        return entries.size();
    }

    /**
     * Turns negative zero scores into 0, as a listpack-encoded set holds them (Redis's listpack
     * stores an integral score as an integer, so -0 reads back as 0).
     */
    void packZeros() {
        entries.replaceAll(e -> e.score() == 0 ? new ZEntry(e.member(), 0.0) : e);
    }

    int indexOf(byte[] m) {
        for (int i = 0; i < entries.size(); i++) {
            if (Arrays.equals(entries.get(i).member(), m)) {
                return i;
            }
        }
        return -1;
    }

    double score(byte[] m) {
        int i = indexOf(m);
        return i < 0 ? Double.NaN : entries.get(i).score();
    }

    AddResult add(byte[] m, double s, ZAddOptions o) {
        int i = indexOf(m);
        if (i >= 0) {
            double cur = entries.get(i).score();
            if (o.isNx() || (o.isLt() && s >= cur) || (o.isGt() && s <= cur)) {
                return AddResult.SKIPPED;
            }
            if (s == cur) {
                return AddResult.UNCHANGED;
            }
            put(i, m, s);
            return AddResult.UPDATED;
        }
        if (o.isXx()) {
            return AddResult.SKIPPED;
        }
        put(-1, m, s);
        return AddResult.ADDED;
    }

    /** Returns the new score, NaN for nil; null when the sum is NaN (an error, nothing changes). */
    Double increment(byte[] m, double d, ZAddOptions o) {
        int i = indexOf(m);
        if (i >= 0) {
            if (o.isNx()) {
                return Double.NaN;
            }
            double cur = entries.get(i).score();
            double next = cur + d;
            if (Double.isNaN(next)) {
                return null;
            }
            if ((o.isLt() && next >= cur) || (o.isGt() && next <= cur)) {
                return Double.NaN;
            }
            if (next != cur) {
                put(i, m, next);
            }
            return next;
        }
        if (o.isXx()) {
            return Double.NaN;
        }
        put(-1, m, d);
        return d;
    }

    boolean remove(byte[] m) {
        int i = indexOf(m);
        if (i < 0) {
            return false;
        }
        entries.remove(i);
        return true;
    }

    /** Positions [from, to) for Redis's inclusive indexes, or null when empty. */
    int[] indexSpan(long start, long stop) {
        int n = entries.size();
        if (start < 0) {
            start = n + start;
        }
        if (stop < 0) {
            stop = n + stop;
        }
        if (start < 0) {
            start = 0;
        }
        if (start > stop || start >= n) {
            return null;
        }
        if (stop >= n) {
            stop = n - 1;
        }
        return new int[] {(int) start, (int) stop + 1};
    }

    List<ZEntry> range(long start, long stop, boolean reverse) {
        List<ZEntry> ordered = ordered(reverse);
        int[] span = indexSpan(start, stop);
        return span == null ? List.of() : new ArrayList<>(ordered.subList(span[0], span[1]));
    }

    List<ZEntry> rangeByScore(ScoreRange r, boolean reverse, long offset, long count) {
        return rangeWhere(e -> r.contains(e.score()), reverse, offset, count);
    }

    List<ZEntry> rangeByLex(LexRange r, boolean reverse, long offset, long count) {
        return rangeWhere(e -> r.contains(e.member()), reverse, offset, count);
    }

    private List<ZEntry> rangeWhere(java.util.function.Predicate<ZEntry> in, boolean reverse, long offset, long count) {
        List<ZEntry> matching = new ArrayList<>();
        for (ZEntry e : ordered(reverse)) {
            if (in.test(e)) {
                matching.add(e);
            }
        }
        return limit(matching, offset, count);
    }

    long removeWhere(java.util.function.Predicate<ZEntry> p) {
        int before = entries.size();
        entries.removeIf(p);
        return before - entries.size();
    }

    List<ZEntry> pop(long count, boolean max) {
        List<ZEntry> out = new ArrayList<>();
        for (long k = 0; k < count && !entries.isEmpty(); k++) {
            out.add(entries.remove(max ? entries.size() - 1 : 0));
        }
        return out;
    }

    private static List<ZEntry> limit(List<ZEntry> list, long offset, long count) {
        if (offset < 0 || offset >= list.size()) {
            return List.of();
        }
        long end = count < 0 ? list.size() : Math.min(list.size(), offset + count);
        return new ArrayList<>(list.subList((int) offset, (int) end));
    }

    private List<ZEntry> ordered(boolean reverse) {
        List<ZEntry> copy = new ArrayList<>(entries);
        if (reverse) {
            java.util.Collections.reverse(copy);
        }
        return copy;
    }

    private void put(int existing, byte[] m, double s) {
        if (existing >= 0) {
            entries.remove(existing);
        }
        ZEntry e = new ZEntry(m.clone(), s);
        int at = 0;
        while (at < entries.size() && ORDER.compare(entries.get(at), e) < 0) {
            at++;
        }
        entries.add(at, e);
    }
}
