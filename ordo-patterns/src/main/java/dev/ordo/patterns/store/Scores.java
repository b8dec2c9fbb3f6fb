package dev.ordo.patterns.store;

import dev.ordo.engine.number.Doubles;

/** Scores on the wire: Redis's text for a double, both ways. */
public final class Scores {
    private Scores() {
    }

    /** The shortest text that parses back to {@code score}, as Redis 7.2 writes it ({@code inf}, {@code -inf}). */
    public static String format(double score) {
        return Doubles.format(score);
    }

    /**
     * Parses a score reply ("1.5", "inf", "-inf", "nan" never occurs in a sorted set). Whole
     * numbers of up to 18 digits, what boards mostly hold, are read as a {@code long} and
     * converted, which rounds as the general parser does and takes a fraction of its time.
     */
    public static double parse(Object reply) {
        String s = (String) reply;
        int n = s.length();
        boolean negative = n > 0 && s.charAt(0) == '-';
        int i = negative ? 1 : 0;
        if (n > i && n - i <= 18) {
            long v = 0;
            for (; i < n; i++) {
                char c = s.charAt(i);
                if (c < '0' || c > '9') {
                    break;
                }
                v = v * 10 + (c - '0');
            }
            if (i == n) {
                return negative ? -(double) v : v;
            }
        }
        switch (s) {
            case "inf":
            case "+inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                return Double.parseDouble(s);
        }
    }
}
