package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.Scores;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.StoreException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The Lua scripts behind every multi-step leaderboard operation. Each runs atomically on the
 * server and touches only keys under the board's hash tag.
 *
 * <p>Calling convention, shared by all scripts: {@code KEYS[1]} is the metadata hash, then one
 * group of three keys per board (the sorted set, the id-to-name hash of first-reached boards, and
 * the distinct-score set of dense boards). {@code ARGV[1]} is {@code desc} or
 * {@code asc}, {@code ARGV[2]} the tie rule ({@code member}, {@code first}, {@code competition},
 * {@code dense}); the rest is per script.
 *
 * <p>Storage per tie rule: a first-reached board stores each member as {@code <13-digit time>:<id>}
 * (time inverted on descending boards), so that among equal scores Redis's member order is the
 * order of arrival, exactly, whatever the score; the hash maps id to that name. A dense board
 * keeps a sorted set holding each distinct score once (kept by score, never by its text, which
 * differs between Redis versions), so a dense rank is one ZCOUNT away: 1 + the distinct scores
 * strictly better.
 *
 * <p>The Lua lives in {@code board_*.lua} beside this class, each script after {@code
 * board_prelude.lua} (the helpers above), as {@link Script#fromResource} joins them.
 */
final class BoardScripts {
    private BoardScripts() {
    }

    /**
     * Adds points, sets a score, or keeps the better of the old and new score, on every board
     * given; or replaces ({@code dim}) or adds to ({@code dimadd}) one packed dimension of the
     * score, value {@code "<2^shift> <2^bits> <stored value or delta>"}, keeping the others
     * (double arithmetic, exact below 2^53; a result outside the dimension's range is an error
     * before any write). ARGV: mode ({@code add}, {@code set}, {@code best}, {@code dim},
     * {@code dimadd}), id, value, arrival time in ms
     * (empty: the server's clock), then one PEXPIREAT time per board ({@code 0}: none).
     * Returns score and rank per board. It has a Java twin ({@link #write}): interpreting the
     * script cost an in-process caller about three times its commands, on the board's main write.
     */
    static final Script WRITE = Script.fromResource(BoardScripts.class, "board_write.lua", BoardScripts::write);

    /**
     * Removes a member from every board given. ARGV: id, drop metadata (1/0). Returns 1 if it was
     * on any. It has a Java twin ({@link #remove}).
     */
    static final Script REMOVE = Script.fromResource(BoardScripts.class, "board_remove.lua", BoardScripts::remove);

    /** {@link #REMOVE} in Java, line for line. */
    private static Reply remove(Script.Calls redis, List<String> keys, List<String> argv) {
        String id = argv.get(2);
        long removed = 0;
        for (int g = 0; g < (keys.size() - 1) / 3; g++) {
            Twin b = new Twin(redis, keys, argv, g);
            String name = b.nameOf(id);
            String old = b.scoreOf(name);
            if (old != null) {
                redis.call("ZREM", b.z, name);
                if (b.timed) {
                    redis.call("HDEL", b.names, id);
                }
                b.dense(old, null);
                removed = 1;
            }
        }
        if (argv.get(3).equals("1")) {
            redis.call("HDEL", keys.get(0), id);
        }
        return Reply.of(removed);
    }

    /**
     * Score, rank and board size of a member; nil when absent. ARGV: id. Every rank, score and
     * placement read of a board whose tie rule is not member order; it has a Java twin ({@link
     * #placement}).
     */
    static final Script PLACEMENT = Script.fromResource(BoardScripts.class, "board_placement.lua", BoardScripts::placement);

    /** {@link #PLACEMENT} in Java, line for line. */
    private static Reply placement(Script.Calls redis, List<String> keys, List<String> argv) {
        Twin b = new Twin(redis, keys, argv, 0);
        String name = b.nameOf(argv.get(2));
        String s = b.scoreOf(name);
        if (s == null) {
            return Reply.Nil.NIL;
        }
        return Reply.of(Reply.of(s), Reply.of(b.rankOf(name, s)), redis.call("ZCARD", b.z));
    }

    /**
     * Members strictly behind, members level with, and board size; nil when absent. ARGV: id.
     * It has a Java twin ({@link #standing}).
     */
    static final Script STANDING = Script.fromResource(BoardScripts.class, "board_standing.lua", BoardScripts::standing);

    /** {@link #STANDING} in Java, line for line. */
    private static Reply standing(Script.Calls redis, List<String> keys, List<String> argv) {
        Twin b = new Twin(redis, keys, argv, 0);
        String s = b.scoreOf(b.nameOf(argv.get(2)));
        if (s == null) {
            return Reply.Nil.NIL;
        }
        Reply behind = b.desc ? redis.call("ZCOUNT", b.z, "-inf", "(" + s) : redis.call("ZCOUNT", b.z, "(" + s, "+inf");
        return Reply.of(behind, redis.call("ZCOUNT", b.z, s, s), redis.call("ZCARD", b.z));
    }

    /**
     * Entries at positions start..stop (0-based, inclusive). ARGV: start, stop, with metadata
     * (1/0). Returns {start, the range WITHSCORES as stored, ranks (competition and dense
     * boards only; empty otherwise: position + 1), metadata values (when asked)}. Every top and
     * page of a board with metadata or a tie rule other than member order; it has a Java twin
     * ({@link #range}).
     */
    static final Script RANGE = Script.fromResource(BoardScripts.class, "board_range.lua", BoardScripts::range);

    /** {@link #RANGE} in Java, line for line. */
    private static Reply range(Script.Calls redis, List<String> keys, List<String> argv) {
        Twin b = new Twin(redis, keys, argv, 0);
        long start = Long.parseLong(argv.get(2));
        return b.entries(start, b.range(start, Long.parseLong(argv.get(3))), argv.get(4).equals("1"));
    }

    /**
     * A window of entries holding a member, the member as central as the edges allow and the
     * window full whenever the board has enough entries. ARGV: id, window size, with metadata.
     * Returns what RANGE returns, or nil when the member is absent. It has a Java twin ({@link
     * #around}): interpreting the script cost an in-process caller about three times its two
     * commands.
     */
    static final Script AROUND = Script.fromResource(BoardScripts.class, "board_around.lua", BoardScripts::around);

    /** {@link #AROUND} in Java, line for line. */
    private static Reply around(Script.Calls redis, List<String> keys, List<String> argv) {
        Twin b = new Twin(redis, keys, argv, 0);
        String name = b.nameOf(argv.get(2));
        Long pos = name == null ? null : b.position(name);
        if (pos == null) {
            return Reply.Nil.NIL;
        }
        long size = Long.parseLong(argv.get(3));
        long start = Math.max(0, pos - (size - 1) / 2);
        List<Reply> r = b.range(start, start + size - 1);
        if (r.size() < 2 * size && start > 0) {
            long shifted = Math.max(0, redis.call("ZCARD", b.z).asLong() - size);
            if (shifted != start) {
                start = shifted;
                r = b.range(start, start + size - 1);
            }
        }
        return b.entries(start, r, argv.get(4).equals("1"));
    }

    /** {@link #WRITE} in Java, line for line. */
    private static Reply write(Script.Calls redis, List<String> keys, List<String> argv) {
        String mode = argv.get(2);
        String id = argv.get(3);
        Arrival arrival = new Arrival(redis, argv.get(0).equals("desc"), argv.get(5));
        boolean dim = mode.equals("dim") || mode.equals("dimadd");
        List<Reply> out = new ArrayList<>();
        for (int g = 0; g < (keys.size() - 1) / 3; g++) {
            Twin b = new Twin(redis, keys, argv, g);
            String name = b.nameOf(id);
            String old = b.timed || b.denseTies || dim ? b.scoreOf(name) : null;
            String op = dim ? "set" : mode;
            String value = dim ? packed(mode, argv.get(4), old) : argv.get(4);
            String score = null;
            if (!b.timed) {
                if (op.equals("add")) {
                    score = redis.call("ZINCRBY", b.z, value, id).asString();
                } else if (op.equals("set")) {
                    redis.call("ZADD", b.z, value, id);
                } else {
                    redis.call("ZADD", b.z, b.desc ? "GT" : "LT", value, id);
                }
            } else if (op.equals("add")) {
                if (name == null) {
                    name = arrival.get() + id;
                    redis.call("HSET", b.names, id, name);
                }
                score = redis.call("ZINCRBY", b.z, value, name).asString();
                if (old != null && !score.equals(old)) {
                    redis.call("ZREM", b.z, name);
                    name = arrival.get() + id;
                    redis.call("ZADD", b.z, score, name);
                    redis.call("HSET", b.names, id, name);
                }
            } else if (old == null || (op.equals("set") && Scores.parse(value) != Scores.parse(old))
                    || (op.equals("best") && b.improves(Scores.parse(value), Scores.parse(old)))) {
                if (name != null) {
                    redis.call("ZREM", b.z, name);
                }
                name = arrival.get() + id;
                redis.call("ZADD", b.z, value, name);
                redis.call("HSET", b.names, id, name);
            }
            if (score == null) {
                score = redis.call("ZSCORE", b.z, name).asString();
            }
            b.dense(old, score);
            out.add(Reply.of(score));
            out.add(Reply.of(b.rankOf(name, score)));
            String at = argv.get(6 + g);
            if (!at.equals("0")) {
                redis.call("PEXPIREAT", b.z, at);
                if (b.timed) {
                    redis.call("PEXPIREAT", b.names, at);
                }
                if (b.denseTies) {
                    redis.call("PEXPIREAT", b.ds, at);
                }
            }
        }
        return Reply.of(out);
    }

    /**
     * WRITE's packed-dimension step: the score {@code old} (none: 0) with one dimension replaced
     * ({@code dim}) or added to ({@code dimadd}), {@code value} being {@code "<2^shift> <2^bits> <v>"};
     * the script's error replies when {@code old} is no packed score or the result leaves the
     * dimension's range.
     */
    private static String packed(String mode, String value, String old) {
        String[] parts = value.split(" ");
        double mult = Double.parseDouble(parts[0]);
        double mod = Double.parseDouble(parts[1]);
        double v = Double.parseDouble(parts[2]);
        double s = Scores.parse(old == null ? "0" : old);
        if (s != Math.floor(s) || s < 0 || s >= 9007199254740992.0) {
            throw new StoreException("ERR score " + old + " is not a packed score", null);
        }
        double q = Math.floor(s / mult);
        double cur = q - Math.floor(q / mod) * mod;
        if (mode.equals("dimadd")) {
            v = cur + v;
        }
        if (v < 0 || v >= mod) {
            throw new StoreException("ERR dimension value " + LuaNumbers.g14(v) + " is out of range [0, " + LuaNumbers.g14(mod) + ")", null);
        }
        return Scores.format(s - cur * mult + v * mult);
    }

    /**
     * WRITE's {@code arrival()}: the stamp that orders first-reached ties, made on first use and
     * kept for the call. The given time in ms, or else the server's clock; inverted on descending
     * boards; 13 digits and a colon.
     */
    private static final class Arrival {
        private final Script.Calls redis;
        private final boolean desc;
        private final String given;
        private String stamp;

        Arrival(Script.Calls redis, boolean desc, String given) {
            this.redis = redis;
            this.desc = desc;
            this.given = given;
        }

        String get() {
            if (stamp == null) {
                long ms;
                if (given.isEmpty()) {
                    List<Reply> t = redis.call("TIME").asList();
                    ms = Long.parseLong(t.get(0).asString()) * 1000 + Long.parseLong(t.get(1).asString()) / 1000;
                } else {
                    ms = Long.parseLong(given);
                }
                if (desc) {
                    ms = 9999999999999L - ms;
                }
                stamp = String.format(Locale.ROOT, "%013d", ms) + ":";
            }
            return stamp;
        }
    }

    /** The prelude's helpers, in Java, on one board group of the keys. */
    private static final class Twin {
        private final Script.Calls redis;
        private final boolean desc;
        /** First-reached ties: members are stored under an arrival-stamped name. */
        private final boolean timed;
        /** Dense ties: a second set holds each distinct score once. */
        private final boolean denseTies;
        /** Competition or dense ties: a rank counts the scores ahead, not the members. */
        private final boolean rankedByScore;
        private final String meta;
        private final String z;
        private final String names;
        private final String ds;

        /** The helpers on board group {@code g} (0-based: the prelude's {@code board(g + 1)}). */
        Twin(Script.Calls redis, List<String> keys, List<String> argv, int g) {
            this.redis = redis;
            this.desc = argv.get(0).equals("desc");
            String tie = argv.get(1);
            this.timed = tie.equals("first");
            this.denseTies = tie.equals("dense");
            this.rankedByScore = denseTies || tie.equals("competition");
            this.meta = keys.get(0);
            this.z = keys.get(1 + 3 * g);
            this.names = keys.get(2 + 3 * g);
            this.ds = keys.get(3 + 3 * g);
        }

        boolean improves(double next, double old) {
            return desc ? next > old : next < old;
        }

        /** Keeps a dense board's distinct-score set in step with a score that moved from {@code old} to {@code next}. */
        void dense(String old, String next) {
            if (!denseTies || Objects.equals(old, next)) {
                return;
            }
            if (old != null && redis.call("ZCOUNT", z, old, old).asLong() == 0) {
                redis.call("ZREMRANGEBYSCORE", ds, old, old);
            }
            if (next != null && redis.call("ZCOUNT", z, next, next).asLong() == 1) {
                redis.call("ZADD", ds, next, next);
            }
        }

        String nameOf(String id) {
            return timed ? redis.call("HGET", names, id).asString() : id;
        }

        String idOf(String name) {
            return timed ? name.substring(Math.min(14, name.length())) : name;
        }

        /** The score of the member stored as {@code name}, or null when there is no such name or member (the scripts' {@code name and ZSCORE}). */
        String scoreOf(String name) {
            return name == null ? null : redis.call("ZSCORE", z, name).asString();
        }

        Long position(String name) {
            Reply position = redis.call(desc ? "ZREVRANK" : "ZRANK", z, name);
            return position.isNil() ? null : position.asLong();
        }

        long rankOf(String name, String score) {
            if (rankedByScore) {
                String key = denseTies ? ds : z;
                Reply better = desc ? redis.call("ZCOUNT", key, "(" + score, "+inf") : redis.call("ZCOUNT", key, "-inf", "(" + score);
                return better.asLong() + 1;
            }
            return position(name) + 1;
        }

        List<Reply> range(long start, long stop) {
            return redis.call(desc ? "ZREVRANGE" : "ZRANGE", z, Long.toString(start), Long.toString(stop), "WITHSCORES").asList();
        }

        Reply entries(long start, List<Reply> r, boolean withMeta) {
            List<Reply> ranks = new ArrayList<>();
            List<Reply> metas = new ArrayList<>();
            if (rankedByScore && !r.isEmpty()) {
                long rank = rankOf(r.get(0).asString(), r.get(1).asString());
                ranks.add(Reply.of(rank));
                for (int i = 2; i < r.size(); i += 2) {
                    if (!r.get(i + 1).equals(r.get(i - 1))) {
                        rank = denseTies ? rank + 1 : start + i / 2 + 1;
                    }
                    ranks.add(Reply.of(rank));
                }
            }
            if (withMeta && !r.isEmpty()) {
                String[] hmget = new String[2 + r.size() / 2];
                hmget[0] = "HMGET";
                hmget[1] = meta;
                for (int i = 0; i < r.size(); i += 2) {
                    hmget[2 + i / 2] = idOf(r.get(i).asString());
                }
                metas.addAll(redis.call(hmget).asList());
            }
            return Reply.of(Reply.of(start), Reply.of(r), Reply.of(ranks), Reply.of(metas));
        }
    }
}
