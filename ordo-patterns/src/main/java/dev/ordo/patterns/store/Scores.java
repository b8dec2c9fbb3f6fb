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

    /** Parses a score reply ("1.5", "inf", "-inf", "nan" never occurs in a sorted set). */
    public static double parse(Object reply) {
        String s = (String) reply;
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
