package dev.ordo.patterns.store;

/** Scores on the wire: Redis's text for a double, both ways. */
public final class Scores {
    private Scores() {
    }

    /** The shortest text that parses back to {@code score}; infinities as Redis writes them. */
    public static String format(double score) {
        if (score == Double.POSITIVE_INFINITY) {
            return "inf";
        }
        if (score == Double.NEGATIVE_INFINITY) {
            return "-inf";
        }
        if (score == Math.rint(score) && Math.abs(score) < 1e15) {
            return Long.toString((long) score);
        }
        return Double.toString(score);
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
