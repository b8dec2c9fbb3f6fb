package dev.ordo.patterns.store;

/** Scores on the wire: Redis's text for a double, both ways. */
public final class Scores {
    /** 2^62: Redis writes integral scores up to this magnitude as integers, and so does {@link #format}. */
    private static final double MAX_INTEGER_FORMATTED = 0x1p62;

    private Scores() {
    }

    /**
     * Text that the server parses back to exactly {@code score}: an integral score up to 2^62 in
     * magnitude as an integer ({@code 42}, as Redis writes it), infinities as {@code inf} and
     * {@code -inf}, anything else as Java's round-trip decimal ({@code 1.5}, {@code 1.0E-7}),
     * which C's {@code strtod} reads as Java wrote it.
     *
     * @param score the score to send
     * @return its text for a command argument
     */
    public static String format(double score) {
        if (Double.isNaN(score)) {
            return "nan";
        }
        if (Double.isInfinite(score)) {
            return score > 0 ? "inf" : "-inf";
        }
        if (score == 0) {
            return Double.doubleToRawLongBits(score) < 0 ? "-0" : "0";
        }
        if (Math.abs(score) <= MAX_INTEGER_FORMATTED && score == Math.rint(score)) {
            return Long.toString((long) score);
        }
        return Double.toString(score);
    }

    /**
     * Parses a score reply ("1.5", "inf", "-inf", "nan" never occurs in a sorted set). Whole
     * numbers of up to 18 digits, what boards mostly hold, are read as a {@code long} and
     * converted, which rounds as the general parser does and takes a fraction of its time.
     *
     * @param s a score as the server wrote it
     * @return the score
     */
    public static double parse(String s) {
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
