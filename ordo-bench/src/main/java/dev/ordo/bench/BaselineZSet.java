package dev.ordo.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The anchor the issue names: what a Java developer writes first. A ConcurrentSkipListMap ordered
 * by (score, member bytes unsigned) plus a HashMap from member to score. It has no fast rank: rank
 * counts the head map, O(N).
 */
final class BaselineZSet implements BenchZSet {
    private final ConcurrentSkipListMap<Key, Boolean> ordered = new ConcurrentSkipListMap<>();
    private final Map<Member, Double> scores = new HashMap<>();

    private record Key(double score, byte[] member) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            if (score < o.score) {
                return -1;
            }
            if (score > o.score) {
                return 1;
            }
            return Arrays.compareUnsigned(member, o.member);
        }
    }

    private record Member(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Member m && Arrays.equals(bytes, m.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    @Override
    public void add(byte[] member, double score) {
        byte[] copy = member.clone();
        Double old = scores.put(new Member(copy), score);
        if (old != null) {
            ordered.remove(new Key(old, copy));
        }
        ordered.put(new Key(score, copy), Boolean.TRUE);
    }

    @Override
    public double increment(byte[] member, double delta) {
        Double old = scores.get(new Member(member));
        double next = (old == null ? 0 : old) + delta;
        add(member, next);
        return next;
    }

    @Override
    public double score(byte[] member) {
        Double s = scores.get(new Member(member));
        return s == null ? Double.NaN : s;
    }

    @Override
    public long rank(byte[] member) {
        Double s = scores.get(new Member(member));
        return s == null ? -1 : ordered.headMap(new Key(s, member)).size();
    }

    @Override
    public boolean remove(byte[] member) {
        Double old = scores.remove(new Member(member));
        if (old == null) {
            return false;
        }
        ordered.remove(new Key(old, member));
        return true;
    }

    @Override
    public long topReverse(int n) {
        long sum = 0;
        Iterator<Key> it = ordered.descendingKeySet().iterator();
        for (int i = 0; i < n && it.hasNext(); i++) {
            sum += checksum(it.next());
        }
        return sum;
    }

    @Override
    public long around(byte[] member, int n) {
        Key key = new Key(scores.get(new Member(member)), member);
        long rank = ordered.headMap(key).size();
        Key first = key;
        Iterator<Key> back = ordered.headMap(key).descendingKeySet().iterator();
        for (long i = Math.max(0, rank - (n - 1) / 2); i < rank; i++) {
            first = back.next();
        }
        long sum = rank;
        Iterator<Key> it = ordered.tailMap(first).keySet().iterator();
        for (int i = 0; i < n && it.hasNext(); i++) {
            sum += checksum(it.next());
        }
        return sum;
    }

    @Override
    public long rangeByScore(double min, int n) {
        long sum = 0;
        Iterator<Key> it = ordered.tailMap(new Key(min, new byte[0])).keySet().iterator();
        for (int i = 0; i < n && it.hasNext(); i++) {
            sum += checksum(it.next());
        }
        return sum;
    }

    @Override
    public int size() {
        return scores.size();
    }

    private static long checksum(Key k) {
        long h = Double.doubleToRawLongBits(k.score);
        for (byte b : k.member) {
            h = 31 * h + b;
        }
        return h;
    }
}
