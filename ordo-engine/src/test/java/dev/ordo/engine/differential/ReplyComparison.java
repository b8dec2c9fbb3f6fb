package dev.ordo.engine.differential;

import dev.ordo.engine.number.Doubles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Decides whether Ordo's reply matches Redis's: same RESP type, same text and integers; doubles
 * (RESP3 doubles, and RESP2 bulk strings that both parse as numbers) by value, because Redis 7.0
 * prints %.17g where 7.2 (and Ordo) print the shortest digits; and, for commands whose element
 * order Redis leaves unspecified, the same elements in any order.
 */
public final class ReplyComparison {
    private ReplyComparison() {
    }

    /** Returns null when the replies match, else a description of the first difference. */
    public static String difference(Reply ordo, Reply redis, boolean unordered) {
        if (ordo.kind() != redis.kind()) {
            return "type " + ordo.kind() + " vs " + redis.kind();
        }
        switch (ordo.kind()) {
            case INTEGER:
            case BOOLEAN:
                return ordo.integer() == redis.integer() ? null : ordo.integer() + " vs " + redis.integer();
            case DOUBLE:
                return sameDouble(ordo.dbl(), redis.dbl()) ? null : ordo.dbl() + " vs " + redis.dbl();
            case BULK:
                if (Arrays.equals(ordo.text(), redis.text()) || numericallyEqual(ordo.text(), redis.text())) {
                    return null;
                }
                return ordo + " vs " + redis;
            case STATUS:
            case ERROR:
            case VERBATIM:
            case BIG_NUMBER:
                return Arrays.equals(ordo.text(), redis.text()) ? null : ordo + " vs " + redis;
            case ARRAY:
            case MAP:
            case SET:
            case PUSH:
                return childrenDifference(ordo.children(), redis.children(), unordered || ordo.kind() == Reply.Kind.SET);
            default:
                return null;
        }
    }

    private static String childrenDifference(List<Reply> a, List<Reply> b, boolean unordered) {
        if (a.size() != b.size()) {
            return "length " + a.size() + " vs " + b.size();
        }
        List<Reply> x = a;
        List<Reply> y = b;
        if (unordered) {
            x = sorted(a);
            y = sorted(b);
        }
        for (int i = 0; i < x.size(); i++) {
            String d = difference(x.get(i), y.get(i), false);
            if (d != null) {
                return "[" + i + "] " + d;
            }
        }
        return null;
    }

    private static List<Reply> sorted(List<Reply> list) {
        List<Reply> copy = new ArrayList<>(list);
        copy.sort(Comparator.comparing(Reply::toString));
        return copy;
    }

    private static boolean sameDouble(double a, double b) {
        return Double.compare(a, b) == 0 || a == b;
    }

    private static boolean numericallyEqual(byte[] a, byte[] b) {
        double x = Doubles.parseStrict(a);
        double y = Doubles.parseStrict(b);
        return !Double.isNaN(x) && !Double.isNaN(y) && x == y;
    }
}
