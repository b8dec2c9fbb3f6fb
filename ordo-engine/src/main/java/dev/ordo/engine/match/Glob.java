package dev.ordo.engine.match;

/**
 * Redis's glob matching (KEYS, SCAN MATCH, CONFIG GET, HSCAN ...): {@code *}, {@code ?},
 * {@code [abc]}, {@code [^a]}, {@code [a-z]} and {@code \} escapes, over bytes.
 *
 * <p>It follows Redis 7.2's matcher where clients can see it:
 * <ul>
 *   <li>Range ends and the byte tested are compared as C's signed chars, so a range ending at a
 *       byte of 0x80 or more runs backwards ({@code [a-\xff]} is {@code [\xff-a]}).</li>
 *   <li>Case folding ({@code nocase}) is ASCII only, as in the C locale.</li>
 *   <li>An empty string matches only the empty pattern: callers test a lone {@code *} first, as
 *       Redis's KEYS and SCAN do.</li>
 * </ul>
 * Time is polynomial, not exponential, in the number of stars: once the rest of a pattern after
 * a star fails at every position of the string, no earlier star can make it match by taking
 * more, so the whole match fails at once ({@code a*a*a*a*b} against a long run of {@code a}).
 * Nesting is also limited to 1000 stars, beyond which a match fails, as in Redis.
 */
public final class Glob {
    private static final int MAX_NESTING = 1000;

    private final byte[] p;
    private final byte[] s;
    private final boolean nocase;
    /** Set when a star's rest failed everywhere: every pending star fails too. */
    private boolean skipLongerMatches;

    private Glob(byte[] pattern, byte[] string, boolean nocase) {
        this.p = pattern;
        this.s = string;
        this.nocase = nocase;
    }

    /** Whether {@code string} matches {@code pattern}; {@code nocase} folds ASCII case. */
    public static boolean matches(byte[] pattern, byte[] string, boolean nocase) {
        return new Glob(pattern, string, nocase).match(0, 0, 0);
    }

    private boolean match(int pi, int si, int nesting) {
        if (nesting > MAX_NESTING) {
            return false;
        }
        while (pi < p.length && si < s.length) {
            switch (p[pi]) {
                case '*' -> {
                    while (pi + 1 < p.length && p[pi + 1] == '*') {
                        pi++;
                    }
                    if (pi + 1 == p.length) {
                        return true;
                    }
                    for (; si < s.length; si++) {
                        if (match(pi + 1, si, nesting + 1)) {
                            return true;
                        }
                        if (skipLongerMatches) {
                            return false;
                        }
                    }
                    skipLongerMatches = true;
                    return false;
                }
                case '?' -> si++;
                case '[' -> {
                    pi = classEnd(pi + 1, s[si]);
                    if (pi < 0) {
                        return false;
                    }
                    si++;
                }
                default -> {
                    if (p[pi] == '\\' && pi + 1 < p.length) {
                        pi++;
                    }
                    if (!same(p[pi], s[si])) {
                        return false;
                    }
                    si++;
                }
            }
            pi++;
            if (si == s.length) {
                while (pi < p.length && p[pi] == '*') {
                    pi++;
                }
                break;
            }
        }
        return pi == p.length && si == s.length;
    }

    /**
     * Tests {@code ch} against the class whose body starts at {@code pi} (after the {@code [}):
     * the index of its closing {@code ]} (or of the pattern's last byte, for an unclosed class)
     * if it matches, else -1.
     */
    private int classEnd(int pi, byte ch) {
        boolean not = pi < p.length && p[pi] == '^';
        if (not) {
            pi++;
        }
        boolean found = false;
        while (true) {
            if (pi >= p.length) {
                pi--;
                break;
            }
            if (p[pi] == '\\' && pi + 1 < p.length) {
                pi++;
                found |= p[pi] == ch;
            } else if (p[pi] == ']') {
                break;
            } else if (pi + 2 < p.length && p[pi + 1] == '-') {
                // Ordered before folding, as Redis does: with nocase, [Z-a] matches nothing.
                int start = Math.min(p[pi], p[pi + 2]);
                int end = Math.max(p[pi], p[pi + 2]);
                int c = fold(ch);
                found |= c >= fold(start) && c <= fold(end);
                pi += 2;
            } else {
                found |= same(p[pi], ch);
            }
            pi++;
        }
        return found != not ? pi : -1;
    }

    private boolean same(byte a, byte b) {
        return a == b || (nocase && fold(a) == fold(b));
    }

    /** The byte as C's signed char, lowercased in ASCII when folding. */
    private int fold(int b) {
        return nocase && b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
    }
}
