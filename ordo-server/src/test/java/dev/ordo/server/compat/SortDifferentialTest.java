package dev.ordo.server.compat;

import dev.ordo.engine.differential.CommandStreams.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;


/**
 * SORT and SORT_RO beside a real redis-server: a scripted stream of the options, their errors and
 * edge cases (LIMIT bounds, BY nosort per type, BY and GET patterns with hash fields, weights
 * strtod reads or refuses, STORE, GETKEYS, ACL refusals of patterns, a set sorted inside a
 * script), then seeded random streams over lists, sets and sorted sets of numbers, in RESP2 and
 * RESP3. Every reply must match; only a set's order under BY nosort, which depends on the hash
 * table, is compared as a multiset, and random streams have no ALPHA with a BY pattern (Redis
 * orders equal weights as its sort and, for sorted sets, its hash table happen to).
 */
class SortDifferentialTest {
    private static final int STREAMS = Integer.getInteger("ordo.diff.streams", 4);
    private static final int STEPS = Integer.getInteger("ordo.diff.steps", 800);
    private static final String[] SOURCES = {"l", "s", "z", "missing"};

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    @Test
    void scriptedStream_bothProtocols_repliesMatchRedis() throws Exception {
        run(scripted(), 2, "scripted");
        run(scripted(), 3, "scripted");
    }

    @Test
    void randomStreams_repliesMatchRedis() throws Exception {
        Long only = Long.getLong("ordo.diff.seed");
        for (int i = 0; i < (only != null ? 1 : STREAMS); i++) {
            long seed = only != null ? only : 301 + i;
            run(random(seed, STEPS), seed % 2 == 0 ? 2 : 3, "seed " + seed + " (replay: -Dordo.diff.seed=" + seed + ")");
        }
    }

    private static List<Step> lines(String... lines) {
        List<Step> out = new ArrayList<>();
        for (String line : lines) {
            boolean unordered = line.startsWith("~");
            out.add(new Step(SideBySide.words(unordered ? line.substring(1) : line), unordered));
        }
        return out;
    }

    static List<Step> scripted() {
        return lines(
                "RPUSH l 3 1 2 10 1.5",
                "SORT l", "SORT l DESC", "SORT l ASC DESC ASC", "SORT l ALPHA", "SORT l ALPHA DESC",
                "SORT l LIMIT 1 2", "SORT l LIMIT -1 2", "SORT l LIMIT 10 5", "SORT l LIMIT 2 -1", "SORT l LIMIT 0 0",
                "SORT l LIMIT 4 1", "SORT l LIMIT 5 1", "SORT l LIMIT x 1", "SORT l LIMIT 1 9223372036854775807",
                "SORT l BY nosort", "SORT l BY nosort DESC", "SORT l BY nosort LIMIT 1 2", "SORT l BY nosort DESC LIMIT 1 2",
                "SORT l BY nosort LIMIT 3 100", "SORT l BY nosort DESC LIMIT 9 2", "SORT l BY nosort LIMIT -5 -5",
                "RPUSH t b a 1", "SORT t", "SORT t ALPHA", "SORT t ALPHA DESC",
                "MSET w_a 3 w_b 1 w_c 2 w_1 -1", "RPUSH ties c b a", "SORT ties BY w_*", "SORT ties BY w_* DESC",
                "SORT ties BY w_* ALPHA", "SORT ties BY missing_*", "SORT ties BY missing_* DESC", "SORT ties BY *_w",
                "HSET h_a f 5 g x", "HSET h_b f 5", "HSET h_c f -2",
                "SORT ties BY h_*->f", "SORT ties BY h_*->f DESC", "SORT ties BY h_*->f ALPHA", "SORT ties BY h_*->g ALPHA",
                "SORT ties BY h_*->f GET # GET h_*->f GET w_* GET nokey GET h_*-> GET h_*->nofield GET #",
                "SORT ties GET # GET nostar", "SORT ties GET w_*->f", "SORT ties BY w_*->f", "SORT ties BY h_*",
                "SET n_a x", "SORT ties BY n_*", "SORT ties BY n_* ALPHA",
                "RPUSH nums 5 \" 7\" \"\" 0x10 -inf inf 1e2 -0", "SORT nums", "SORT nums DESC",
                "RPUSH bad2 nan", "SORT bad2", "RPUSH bad3 \"5 \"", "SORT bad3",
                "SADD s 5 3 9 1 -4", "SORT s", "SORT s DESC", "SORT s LIMIT 1 2", "~SORT s BY nosort",
                "SORT s BY nosort STORE dst", "LRANGE dst 0 -1", "TYPE dst", "TTL dst",
                "SADD sa b c a 10", "SORT sa ALPHA", "~SORT sa BY nosort ALPHA", "SORT sa BY nosort ALPHA STORE dst2",
                "LRANGE dst2 0 -1", "EVAL \"return redis.call('sort', KEYS[1], 'by', 'nosort')\" 1 sa",
                "EVAL \"return redis.call('sort_ro', KEYS[1], 'by', 'nosort')\" 1 sa",
                "ZADD z 1 a 2 b 3 c 4 d", "SORT z BY nosort", "SORT z BY nosort DESC", "SORT z BY nosort LIMIT 1 2",
                "SORT z BY nosort DESC LIMIT 1 2", "SORT z BY nosort LIMIT 10 1", "SORT z ALPHA DESC", "SORT z",
                "ZADD zn 3 10 1 20 2 30", "SORT zn", "SORT zn BY nosort GET #",
                "SET w_10 7", "SORT zn BY w_* GET w_*",
                "SET dst old", "EXPIRE dst 100", "SORT l STORE dst", "LRANGE dst 0 -1", "TTL dst",
                "SORT ties BY h_*->f GET h_*->g STORE dst", "LRANGE dst 0 -1",
                "SORT missing", "SORT missing STORE dst", "EXISTS dst", "SORT missing BY nosort LIMIT 0 1",
                "SET str x", "SORT str", "SORT str foo", "HSET hh f v", "SORT hh",
                "SORT l foo", "SORT l LIMIT 1", "SORT l STORE", "SORT l BY", "SORT l GET", "SORT l LIMIT 1 x",
                "SORT_RO l", "SORT_RO l STORE x", "SORT_RO l BY w_* GET # DESC", "SORT_RO l BY nosort DESC",
                "COMMAND GETKEYS SORT l STORE dst", "COMMAND GETKEYS SORT l LIMIT 0 1 GET store STORE d2 STORE d3",
                "COMMAND GETKEYS SORT l BY store", "COMMAND GETKEYS SORT_RO l BY w_*",
                "ACL SETUSER limited on nopass ~l* ~w_* +@all", "AUTH limited any",
                "SORT l", "SORT l BY w_*", "SORT l GET #", "SORT l BY nosort", "SORT l BY nokey", "SORT l LIMIT 0 1 GET w_*",
                "AUTH default any", "ACL SETUSER reader on nopass %R~* ~l* +@all", "AUTH reader any",
                "SORT l BY w_* GET #", "AUTH default any", "ACL DELUSER limited reader",
                "ZADD zo 1 a 2 b", "OBJECT ENCODING zo", "SORT_RO zo BY nosort", "OBJECT ENCODING zo",
                // Last: Redis leaves errno at ERANGE after these, and reads it after the next strtod on this connection.
                "RPUSH bad1 1 1e400", "SORT bad1", "RPUSH bad4 1e-400", "SORT bad4");
    }

    static List<Step> random(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Step> s = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            s.addAll(lines("SET w_" + i + " " + (r.nextInt(9) - 4), "HSET h_" + i + " f " + (r.nextInt(9) - 4)));
        }
        while (s.size() < n) {
            s.add(next(r));
        }
        return s;
    }

    private static Step next(SplittableRandom r) {
        String key = SOURCES[r.nextInt(SOURCES.length)];
        String element = String.valueOf(r.nextInt(8));
        switch (r.nextInt(8)) {
            case 0:
                return lines("RPUSH l " + element + " " + (r.nextInt(20) - 5)).get(0);
            case 1:
                return lines("SADD s " + element).get(0);
            case 2:
                return lines("ZADD z " + r.nextInt(5) + " " + element).get(0);
            case 3:
                return lines(pick(r, "LPOP l", "SREM s " + element, "ZREM z " + element)).get(0);
            default: {
                StringBuilder line = new StringBuilder(r.nextInt(4) == 0 ? "SORT_RO " : "SORT ").append(key);
                boolean noSort = r.nextInt(4) == 0;
                if (noSort) {
                    line.append(" BY nosort");
                } else if (r.nextInt(3) == 0) {
                    line.append(pick(r, " BY w_*", " BY h_*->f", " BY nokey_*"));
                }
                if (r.nextBoolean()) {
                    line.append(" LIMIT ").append(r.nextInt(6) - 1).append(' ').append(r.nextInt(6) - 1);
                }
                if (r.nextBoolean()) {
                    line.append(pick(r, " DESC", " ASC"));
                }
                if (r.nextInt(4) == 0 && (line.indexOf(" BY ") < 0 || noSort)) {
                    line.append(" ALPHA"); // with BY, Redis orders equal weights as its sort and its hash table happen to
                }
                if (r.nextInt(3) == 0) {
                    line.append(pick(r, " GET #", " GET w_*", " GET # GET h_*->f"));
                }
                boolean store = line.charAt(4) == ' ' && r.nextInt(4) == 0;
                if (store) {
                    line.append(" STORE dst");
                }
                String text = line.toString();
                return lines((noSort && key.equals("s") && !store ? "~" : "") + text).get(0);
            }
        }
    }

    private static String pick(SplittableRandom r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static void run(List<Step> steps, int protocol, String label) throws Exception {
        SERVERS.replay(steps, protocol, label);
    }
}
