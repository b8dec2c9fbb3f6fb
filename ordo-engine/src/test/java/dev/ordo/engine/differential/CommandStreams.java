package dev.ordo.engine.differential;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The command streams the differential test sends to Ordo and to Redis: a scripted list of edge
 * cases, and seeded random streams over every sorted-set command with valid and invalid
 * arguments, expiry, wrong types and binary members (including \0 and \r\n). Random streams leave
 * out what Redis itself answers randomly (ZRANDMEMBER, SPOP ...), relative TTL countdowns (which
 * depend on when each server runs a step; absolute expiry times are compared instead) and 7.2-only syntax (ZRANK
 * WITHSCORE), which have their own tests; lex commands run on keys whose members all share one
 * score, where Redis defines their result.
 */
public final class CommandStreams {
    /** One command, and whether its reply's elements may come in any order. */
    public record Step(byte[][] args, boolean unordered) {
        static Step of(boolean unordered, Object... parts) {
            byte[][] args = new byte[parts.length][];
            for (int i = 0; i < parts.length; i++) {
                args[i] = parts[i] instanceof byte[] b ? b : String.valueOf(parts[i]).getBytes(StandardCharsets.UTF_8);
            }
            return new Step(args, unordered);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (byte[] a : args) {
                String s = new String(a, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0");
                sb.append(sb.length() == 0 ? "" : " ").append(s.isEmpty() || s.contains(" ") ? "'" + s + "'" : s);
            }
            return sb.toString();
        }
    }

    private static final String[] ZKEYS = {"z1", "z2", "big"};
    private static final String[] SCORES = {"0", "1", "2", "3", "-1", "1.5", "-2.5", "10", "100", "1e3", "0.1", "inf", "-inf", "+inf",
        "-0", "2.0", "1E2", "-INF", "Infinity", "3.14159"};
    private static final String[] BAD_SCORES = {"nan", "abc", "", "1x", " 1", "1 ", "--1", "0x"};
    private static final String[] BOUNDS = {"-inf", "+inf", "0", "1", "(1", "2", "(2", "5", "(5", "-1", "(-1", "1.5", "inf", "(inf",
        "10", "(0"};
    private static final String[] LEX_BOUNDS = {"-", "+", "[a", "(a", "[b", "(c", "[d", "(zz", "[", "(", "[\0", "(a\0"};
    private static final String[] BAD_LEX = {"a", "", "{a", "+x"};

    private CommandStreams() {
    }

    static byte[] member(SplittableRandom r) {
        switch (r.nextInt(12)) {
            case 0:
                return new byte[] {'x', 0, 'y'};
            case 1:
                return "line\r\nbreak".getBytes(StandardCharsets.ISO_8859_1);
            case 2:
                return new byte[0];
            case 3:
                return new byte[] {(byte) 0xFF, (byte) 0x80};
            default:
                return String.valueOf((char) ('a' + r.nextInt(8))).repeat(1 + r.nextInt(2)).getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * Glob patterns (through ZSCAN MATCH on a small set, which returns every match at once, and
     * KEYS): classes, escapes, bytes of 0x80 and more (Redis compares them as signed chars), the
     * empty member, and stars that a backtracking matcher takes exponential time over (sized to
     * take such a matcher about a second, not forever: GlobTest has the hopeless cases).
     */
    private static void globSteps(List<Step> s) {
        byte[] high = {(byte) 0xFF};
        List<Object> add = new ArrayList<>(List.of("ZADD", "g"));
        Object[] members = {"", "a", "b", "c", "-", "]", "[", "\\", "^", "!", "1", "9", "A", "Z", "h-llo", "hello", "h\u00e9llo", high,
            "a".repeat(40), "a".repeat(40) + "b"};
        for (Object m : members) {
            add.add("0");
            add.add(m);
        }
        s.add(Step.of(false, add.toArray()));
        Object[] patterns = {"**", "*", concat("[a-", high, "]"), "h[e-\u00e9]llo", "a*a*a*a*a*a*a*a*b", "*a*a*a*a*a*a*a*c",
            "[^a-z]", "\\a", "[\\]]", "[]", "?", "[", "[^", "a[", "*[A-Z]*", "[Z-a]", "[9-1]", "\\", "h?llo", "*llo*"};
        for (Object pattern : patterns) {
            s.add(Step.of(false, "ZSCAN", "g", "0", "MATCH", pattern, "COUNT", "1000"));
        }
        s.add(Step.of(false, "SET", "", "empty"));
        s.add(Step.of(false, "SET", "a".repeat(40), "x"));
        s.add(Step.of(true, "KEYS", "**"));
        s.add(Step.of(true, "KEYS", "a*a*a*a*a*a*a*a*b"));
        s.add(Step.of(true, "KEYS", "?*"));
        s.add(Step.of(false, "DEL", "", "a".repeat(40), "g"));
    }

    private static byte[] concat(String before, byte[] middle, String after) {
        byte[] a = before.getBytes(StandardCharsets.UTF_8);
        byte[] c = after.getBytes(StandardCharsets.UTF_8);
        byte[] out = java.util.Arrays.copyOf(a, a.length + middle.length + c.length);
        System.arraycopy(middle, 0, out, a.length, middle.length);
        System.arraycopy(c, 0, out, a.length + middle.length, c.length);
        return out;
    }

    /** Edge cases written out by hand. */
    public static List<Step> scripted() {
        List<Step> s = new ArrayList<>();
        s.add(Step.of(false, "ZADD", "z1", "1", "a", "2", "b", "3", "c"));
        s.add(Step.of(false, "ZADD", "z1", "NX", "XX", "1", "a"));
        s.add(Step.of(false, "ZADD", "z1", "GT", "LT", "1", "a"));
        s.add(Step.of(false, "ZADD", "z1", "GT", "NX", "1", "a"));
        s.add(Step.of(false, "ZADD", "z1", "INCR", "1", "a", "2", "b"));
        s.add(Step.of(false, "ZADD", "z1", "1"));
        s.add(Step.of(false, "ZADD", "z1", "1", "a", "2"));
        s.add(Step.of(false, "ZADD", "z1", "nan", "a"));
        s.add(Step.of(false, "ZADD", "z1", "CH", "5", "a", "2", "b", "9", "new"));
        s.add(Step.of(false, "ZADD", "z1", "XX", "CH", "GT", "1", "a", "20", "b", "1", "ghost"));
        s.add(Step.of(false, "ZADD", "z1", "INCR", "NX", "1", "a"));
        s.add(Step.of(false, "ZADD", "z1", "INCR", "XX", "1", "nobody"));
        s.add(Step.of(false, "ZADD", "z1", "INCR", "GT", "-1", "a"));
        s.add(Step.of(false, "ZADD", "z1", "inf", "top"));
        s.add(Step.of(false, "ZINCRBY", "z1", "-inf", "top"));
        s.add(Step.of(false, "ZSCORE", "z1", "top"));
        s.add(Step.of(false, "ZADD", "zx", "XX", "1", "a"));
        s.add(Step.of(false, "EXISTS", "zx"));
        s.add(Step.of(false, "ZRANGE", "z1", "0", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZRANGE", "z1", "0", "1", "LIMIT", "0", "1"));
        s.add(Step.of(false, "ZRANGE", "z1", "(1", "5", "BYSCORE", "LIMIT", "1", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZRANGE", "z1", "5", "(1", "BYSCORE", "REV", "WITHSCORES"));
        s.add(Step.of(false, "ZRANGE", "z1", "a", "b", "BYLEX", "WITHSCORES"));
        s.add(Step.of(false, "ZRANGE", "z1", "0", "1", "BYSCORE", "BYLEX"));
        s.add(Step.of(false, "ZRANGE", "z1", "0", "-1", "REV", "rev"));
        s.add(Step.of(false, "ZRANGE", "z1", "0", "-1", "WITHSCORES", "REV", "withscores", "LIMIT", "0", "1", "BYSCORE"));
        s.add(Step.of(false, "ZRANGESTORE", "dst", "z1", "0", "-1", "REV", "REV"));
        s.add(Step.of(false, "ZREVRANGE", "z1", "0", "-1", "REV"));
        s.add(Step.of(false, "ZRANGE", "z1", "x", "1"));
        s.add(Step.of(false, "ZRANGEBYSCORE", "z1", "-inf", "+inf", "WITHSCORES", "LIMIT", "1", "2"));
        s.add(Step.of(false, "ZREVRANGEBYSCORE", "z1", "+inf", "-inf", "LIMIT", "0", "2"));
        s.add(Step.of(false, "ZRANGEBYSCORE", "z1", "a", "b"));
        s.add(Step.of(false, "ZREVRANGE", "z1", "0", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZREVRANGE", "z1", "0", "1", "LIMIT", "0", "1"));
        s.add(Step.of(false, "ZRANGEBYLEX", "z1", "-", "+", "WITHSCORES"));
        s.add(Step.of(false, "ZRANK", "z1", "b"));
        s.add(Step.of(false, "ZREVRANK", "z1", "b"));
        s.add(Step.of(false, "ZRANK", "z1", "none"));
        s.add(Step.of(false, "ZRANK", "nokey", "none"));
        s.add(Step.of(false, "ZMSCORE", "z1", "a", "none", "b"));
        s.add(Step.of(false, "ZMSCORE", "nokey", "a"));
        s.add(Step.of(false, "ZCOUNT", "z1", "(1", "3"));
        s.add(Step.of(false, "ZCOUNT", "z1", "a", "3"));
        s.add(Step.of(false, "ZPOPMIN", "z1"));
        s.add(Step.of(false, "ZPOPMAX", "z1", "2"));
        s.add(Step.of(false, "ZPOPMIN", "z1", "-1"));
        s.add(Step.of(false, "ZPOPMIN", "z1", "x"));
        s.add(Step.of(false, "ZPOPMIN", "z1", "0"));
        s.add(Step.of(false, "ZPOPMIN", "nokey"));
        s.add(Step.of(false, "ZPOPMIN", "z1", "1", "2"));
        s.add(Step.of(false, "ZMPOP", "2", "nokey", "z1", "MAX", "COUNT", "10"));
        s.add(Step.of(false, "ZMPOP", "1", "nokey", "MIN"));
        s.add(Step.of(false, "ZMPOP", "0", "z1", "MIN"));
        s.add(Step.of(false, "ZMPOP", "1", "z1", "MIN", "COUNT", "0"));
        s.add(Step.of(false, "ZMPOP", "1", "z1", "MIN", "COUNT", "1", "COUNT", "1"));
        s.add(Step.of(false, "ZMPOP", "2", "z1", "MIN"));
        s.add(Step.of(false, "BZMPOP", "x", "1", "z1", "MIN"));
        s.add(Step.of(false, "BZPOPMIN", "z1", "-1"));
        s.add(Step.of(false, "ZADD", "lex", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e"));
        s.add(Step.of(false, "ZRANGEBYLEX", "lex", "[b", "(e"));
        s.add(Step.of(false, "ZREVRANGEBYLEX", "lex", "+", "[c", "LIMIT", "1", "5"));
        s.add(Step.of(false, "ZLEXCOUNT", "lex", "-", "+"));
        s.add(Step.of(false, "ZLEXCOUNT", "lex", "a", "+"));
        s.add(Step.of(false, "ZREMRANGEBYLEX", "lex", "[b", "[c"));
        s.add(Step.of(false, "ZRANGE", "lex", "0", "-1"));
        s.add(Step.of(false, "ZADD", "u1", "1", "a", "2", "b"));
        s.add(Step.of(false, "ZADD", "u2", "10", "b", "20", "c"));
        s.add(Step.of(false, "ZUNION", "2", "u1", "u2", "WITHSCORES"));
        s.add(Step.of(false, "ZUNION", "2", "u1", "u2", "WEIGHTS", "2", "0.5", "AGGREGATE", "MAX", "WITHSCORES"));
        s.add(Step.of(false, "ZINTER", "2", "u1", "u2", "AGGREGATE", "MIN", "WITHSCORES"));
        s.add(Step.of(false, "ZDIFF", "2", "u1", "u2", "WITHSCORES"));
        s.add(Step.of(false, "ZDIFF", "2", "u1", "u2", "WEIGHTS", "1", "2"));
        s.add(Step.of(false, "ZUNIONSTORE", "dst", "2", "u1", "u2"));
        s.add(Step.of(false, "ZRANGE", "dst", "0", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZINTERSTORE", "dst", "2", "u1", "nokey"));
        s.add(Step.of(false, "EXISTS", "dst"));
        s.add(Step.of(false, "ZUNION", "0", "u1"));
        s.add(Step.of(false, "ZUNIONSTORE", "dst", "3", "u1"));
        s.add(Step.of(false, "ZUNION", "1", "u1", "WEIGHTS", "x"));
        s.add(Step.of(false, "ZUNION", "1", "u1", "AGGREGATE", "avg"));
        s.add(Step.of(false, "ZINTERCARD", "2", "u1", "u2"));
        s.add(Step.of(false, "ZINTERCARD", "2", "u1", "u2", "LIMIT", "-1"));
        s.add(Step.of(false, "ZINTERCARD", "0", "u1"));
        s.add(Step.of(false, "ZRANGESTORE", "dst", "u2", "0", "-1"));
        s.add(Step.of(false, "ZRANGESTORE", "dst", "u2", "5", "1"));
        s.add(Step.of(false, "EXISTS", "dst"));
        s.add(Step.of(false, "ZRANGESTORE", "dst", "u2", "0", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZREMRANGEBYRANK", "u2", "0", "0"));
        s.add(Step.of(false, "ZREMRANGEBYSCORE", "u2", "-inf", "+inf"));
        s.add(Step.of(false, "EXISTS", "u2"));
        s.add(Step.of(false, "ZSCAN", "u1", "0"));
        s.add(Step.of(false, "ZSCAN", "u1", "0", "MATCH", "a*", "COUNT", "100"));
        s.add(Step.of(false, "ZSCAN", "u1", "x"));
        globSteps(s);
        for (String db : new String[] {"abc", "1.5", "+1", "2147483648", "99999999999999999999", "16", "-1", "0"}) {
            s.add(Step.of(false, "SELECT", db));
        }
        s.add(Step.of(false, "ZSCAN", "u1", "0", "COUNT", "0"));
        s.add(Step.of(false, "ZCARD", "u1"));
        s.add(Step.of(false, "ZCARD", "nokey"));
        s.add(Step.of(false, "ZINCRBY", "u1", "x", "a"));
        s.add(Step.of(false, "ZREM", "u1", "a", "b", "c"));
        s.add(Step.of(false, "EXISTS", "u1"));
        s.add(Step.of(false, "ZADD", "wrong", "1", "a"));
        s.add(Step.of(false, "ZRANDMEMBER", "nokey"));
        s.add(Step.of(false, "ZRANDMEMBER", "nokey", "3"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "0"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "-9223372036854775808"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "9223372036854775807", "WITHSCORES"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "x", "y"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "1", "y"));
        s.add(Step.of(false, "ZRANDMEMBER", "wrong", "5", "WITHSCORES"));
        s.add(Step.of(false, "ZADD", "sci", "1e17", "a", "5e18", "b", "1e20", "c", "1e-5", "d", "0.1", "e", "1e-310", "f"));
        s.add(Step.of(false, "ZRANGE", "sci", "0", "-1", "WITHSCORES"));
        s.add(Step.of(false, "ZINCRBY", "sci", "0.2", "e"));
        return s;
    }

    /** A random stream of {@code n} commands from {@code seed}. */
    public static List<Step> random(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Step> s = new ArrayList<>();
        s.add(Step.of(false, "ZADD", "big", "0", "seed"));
        for (int i = 0; i < 300; i++) {
            s.add(Step.of(false, "ZADD", "big", String.valueOf(r.nextInt(50)), "m" + r.nextInt(400)));
        }
        while (s.size() < n) {
            s.add(next(r));
        }
        return s;
    }

    private static Step next(SplittableRandom r) {
        String key = pick(r, ZKEYS);
        int pick = r.nextInt(100);
        if (pick < 20) {
            return zadd(r, key);
        }
        if (pick < 25) {
            return Step.of(false, "ZINCRBY", key, score(r), member(r));
        }
        if (pick < 30) {
            return Step.of(false, "ZREM", key, member(r), member(r));
        }
        if (pick < 38) {
            return zrange(r, key);
        }
        if (pick < 42) {
            return Step.of(false, r.nextBoolean() ? "ZRANK" : "ZREVRANK", key, member(r));
        }
        if (pick < 46) {
            return Step.of(false, "ZSCORE", key, member(r));
        }
        if (pick < 48) {
            return Step.of(false, "ZMSCORE", key, member(r), member(r), member(r));
        }
        if (pick < 52) {
            return Step.of(false, "ZCOUNT", key, bound(r), bound(r));
        }
        if (pick < 56) {
            return lex(r);
        }
        if (pick < 60) {
            return removeRange(r, key);
        }
        if (pick < 65) {
            return pop(r, key);
        }
        if (pick < 72) {
            return algebra(r);
        }
        if (pick < 75) {
            return Step.of(false, "ZCARD", key);
        }
        if (pick < 80) {
            return keyspace(r, key);
        }
        if (pick < 84) {
            return Step.of(false, "ZRANGESTORE", pick(r, ZKEYS), key, bound(r), bound(r), "BYSCORE");
        }
        if (pick < 88) {
            return Step.of(false, "ZINTERCARD", "2", key, pick(r, ZKEYS), "LIMIT", String.valueOf(r.nextInt(4)));
        }
        return Step.of(false, "ZRANGE", key, "0", "-1", "WITHSCORES");
    }

    private static Step zadd(SplittableRandom r, String key) {
        List<Object> parts = new ArrayList<>(List.of("ZADD", key));
        String[] flags = {"NX", "XX", "GT", "LT", "CH", "INCR"};
        for (String f : flags) {
            if (r.nextInt(10) == 0) {
                parts.add(f);
            }
        }
        int pairs = 1 + r.nextInt(3);
        for (int p = 0; p < pairs; p++) {
            parts.add(score(r));
            parts.add(member(r));
        }
        if (r.nextInt(30) == 0) {
            parts.remove(parts.size() - 1);
        }
        return Step.of(false, parts.toArray());
    }

    private static Step zrange(SplittableRandom r, String key) {
        List<Object> parts = new ArrayList<>(List.of("ZRANGE", key));
        int kind = r.nextInt(3);
        if (kind == 0) {
            parts.add(String.valueOf(r.nextInt(12) - 6));
            parts.add(String.valueOf(r.nextInt(12) - 6));
        } else {
            parts.add(bound(r));
            parts.add(bound(r));
            parts.add("BYSCORE");
        }
        if (r.nextBoolean()) {
            parts.add("REV");
        }
        if (r.nextInt(3) == 0) {
            parts.add("LIMIT");
            parts.add(String.valueOf(r.nextInt(6) - 1));
            parts.add(String.valueOf(r.nextInt(8) - 2));
        }
        if (r.nextBoolean()) {
            parts.add("WITHSCORES");
        }
        return Step.of(false, parts.toArray());
    }

    private static Step lex(SplittableRandom r) {
        String min = r.nextInt(15) == 0 ? pick(r, BAD_LEX) : pick(r, LEX_BOUNDS);
        String max = pick(r, LEX_BOUNDS);
        switch (r.nextInt(6)) {
            case 0:
                return Step.of(false, "ZADD", "lex", "0", member(r), "0", member(r));
            case 1:
                return Step.of(false, "ZLEXCOUNT", "lex", min, max);
            case 2:
                return Step.of(false, "ZREMRANGEBYLEX", "lex", min, max);
            case 3:
                return Step.of(false, "ZREVRANGEBYLEX", "lex", max, min, "LIMIT", String.valueOf(r.nextInt(3)), String.valueOf(r.nextInt(4) - 1));
            case 4:
                return Step.of(false, "ZRANGE", "lex", min, max, "BYLEX");
            default:
                return Step.of(false, "ZRANGEBYLEX", "lex", min, max);
        }
    }

    private static Step removeRange(SplittableRandom r, String key) {
        switch (r.nextInt(3)) {
            case 0:
                return Step.of(false, "ZREMRANGEBYRANK", key, String.valueOf(r.nextInt(10) - 5), String.valueOf(r.nextInt(10) - 5));
            case 1:
                return Step.of(false, "ZREMRANGEBYSCORE", key, bound(r), bound(r));
            default:
                return Step.of(false, "ZREMRANGEBYSCORE", key, pick(r, BAD_SCORES), bound(r));
        }
    }

    private static Step pop(SplittableRandom r, String key) {
        switch (r.nextInt(5)) {
            case 0:
                return Step.of(false, "ZPOPMIN", key);
            case 1:
                return Step.of(false, "ZPOPMAX", key, String.valueOf(r.nextInt(4)));
            case 2:
                return Step.of(false, "ZMPOP", "2", key, pick(r, ZKEYS), r.nextBoolean() ? "MIN" : "MAX", "COUNT", String.valueOf(1 + r.nextInt(3)));
            case 3:
                return Step.of(false, "BZPOPMAX", key, pick(r, ZKEYS), "0.01");
            default:
                return Step.of(false, "BZMPOP", "0.01", "1", key, "MIN");
        }
    }

    private static Step algebra(SplittableRandom r) {
        String[] ops = {"ZUNION", "ZINTER", "ZDIFF", "ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"};
        String op = pick(r, ops);
        boolean store = op.endsWith("STORE");
        List<Object> parts = new ArrayList<>();
        parts.add(op);
        if (store) {
            parts.add(pick(r, ZKEYS));
        }
        int n = 1 + r.nextInt(3);
        parts.add(String.valueOf(n));
        for (int i = 0; i < n; i++) {
            parts.add(r.nextInt(5) == 0 ? "setkey" : pick(r, ZKEYS));
        }
        if (!op.startsWith("ZDIFF") && r.nextBoolean()) {
            parts.add("WEIGHTS");
            for (int i = 0; i < n; i++) {
                parts.add(pick(r, new String[] {"1", "2", "0", "-1", "0.5", "inf"}));
            }
        }
        if (!op.startsWith("ZDIFF") && r.nextBoolean()) {
            parts.add("AGGREGATE");
            parts.add(pick(r, new String[] {"SUM", "MIN", "MAX"}));
        }
        if (!store && r.nextBoolean()) {
            parts.add("WITHSCORES");
        }
        return Step.of(false, parts.toArray());
    }

    /**
     * Expiry with replies that cannot depend on when each server runs the step: absolute times
     * (far in the future, or in the past, which deletes the key), their conditions, and reads of
     * the absolute expiry, never a relative TTL countdown.
     */
    private static Step expiry(SplittableRandom r, String key) {
        String future = String.valueOf(4_000_000_000L + r.nextInt(1000));
        switch (r.nextInt(7)) {
            case 0:
                return Step.of(false, "EXPIREAT", key, future);
            case 1:
                return Step.of(false, "EXPIREAT", key, future, pick(r, new String[] {"NX", "XX", "GT", "LT"}));
            case 2:
                return Step.of(false, "PEXPIREAT", key, "1");
            case 3:
                return Step.of(false, "EXPIRETIME", key);
            case 4:
                return Step.of(false, "PERSIST", key);
            case 5:
                return Step.of(false, "EXPIRE", key, "100", "NX", "XX");
            default:
                return Step.of(false, "PEXPIRETIME", key);
        }
    }

    private static Step keyspace(SplittableRandom r, String key) {
        if (r.nextInt(3) == 0) {
            return expiry(r, key);
        }
        switch (r.nextInt(6)) {
            case 0:
                return Step.of(false, "DEL", key);
            case 1:
                return Step.of(false, "TYPE", key);
            case 2:
                return Step.of(false, "EXISTS", key, "lex", "nokey");
            case 3:
                return Step.of(false, "SADD", "setkey", member(r));
            case 4:
                return Step.of(false, "SET", key, "a string now");
            default:
                return Step.of(false, "ZADD", "setkey", "1", "x");
        }
    }

    private static String score(SplittableRandom r) {
        return r.nextInt(25) == 0 ? pick(r, BAD_SCORES) : pick(r, SCORES);
    }

    private static String bound(SplittableRandom r) {
        return r.nextInt(30) == 0 ? pick(r, BAD_SCORES) : pick(r, BOUNDS);
    }

    private static String pick(SplittableRandom r, String[] options) {
        return options[r.nextInt(options.length)];
    }

    public static String describe(List<Step> steps, int upTo) {
        return Arrays.toString(steps.subList(Math.max(0, upTo - 5), upTo + 1).toArray());
    }
}
