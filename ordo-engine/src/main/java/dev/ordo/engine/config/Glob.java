package dev.ordo.engine.config;

/**
 * Redis's glob matching (KEYS, SCAN MATCH, CONFIG GET, HSCAN ...): {@code *}, {@code ?},
 * {@code [abc]}, {@code [^a]}, {@code [a-z]} and {@code \} escapes, over bytes.
 */
public final class Glob {
    private Glob() {
    }

    /** Whether {@code string} matches {@code pattern}; {@code nocase} folds ASCII case. */
    public static boolean matches(byte[] pattern, byte[] string, boolean nocase) {
        return match(pattern, 0, string, 0, nocase, 0);
    }

    private static boolean match(byte[] p, int pi, byte[] s, int si, boolean nocase, int depth) {
        if (depth > 1000) {
            return false;
        }
        while (pi < p.length && si <= s.length) {
            byte c = p[pi];
            switch (c) {
                case '*': {
                    while (pi + 1 < p.length && p[pi + 1] == '*') {
                        pi++;
                    }
                    if (pi + 1 == p.length) {
                        return true;
                    }
                    for (int k = si; k <= s.length; k++) {
                        if (match(p, pi + 1, s, k, nocase, depth + 1)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?':
                    if (si >= s.length) {
                        return false;
                    }
                    si++;
                    pi++;
                    break;
                case '[': {
                    if (si >= s.length) {
                        return false;
                    }
                    pi++;
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
                            if (p[pi] == s[si]) {
                                found = true;
                            }
                        } else if (p[pi] == ']') {
                            break;
                        } else if (pi + 2 < p.length && p[pi + 1] == '-') {
                            int start = p[pi] & 0xFF;
                            int end = p[pi + 2] & 0xFF;
                            int ch = s[si] & 0xFF;
                            if (start > end) {
                                int t = start;
                                start = end;
                                end = t;
                            }
                            if (nocase) {
                                start = Character.toLowerCase(start);
                                end = Character.toLowerCase(end);
                                ch = Character.toLowerCase(ch);
                            }
                            pi += 2;
                            if (ch >= start && ch <= end) {
                                found = true;
                            }
                        } else if (eq(p[pi], s[si], nocase)) {
                            found = true;
                        }
                        pi++;
                    }
                    if (not) {
                        found = !found;
                    }
                    if (!found) {
                        return false;
                    }
                    si++;
                    pi++;
                    break;
                }
                default:
                    if (c == '\\' && pi + 1 < p.length) {
                        pi++;
                    }
                    if (si >= s.length || !eq(p[pi], s[si], nocase)) {
                        return false;
                    }
                    si++;
                    pi++;
                    break;
            }
        }
        return pi == p.length && si == s.length;
    }

    private static boolean eq(byte a, byte b, boolean nocase) {
        return a == b || (nocase && Character.toLowerCase(a & 0xFF) == Character.toLowerCase(b & 0xFF));
    }
}
