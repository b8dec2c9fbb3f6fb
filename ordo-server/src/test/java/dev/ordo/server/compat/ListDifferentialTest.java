package dev.ordo.server.compat;

import dev.ordo.engine.differential.CommandStreams.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;


/**
 * The list commands beside a real redis-server: a scripted stream of every command's edge cases
 * and errors, then seeded random streams over a few keys with small node limits (so that nodes
 * split, fill, compress and hold plain elements), in RESP2 and RESP3. Every reply must match,
 * DEBUG DIGEST-VALUE included. OBJECT ENCODING is not compared here: redis-server 7.0 has no
 * listpack lists (Ordo follows 7.2); {@code -Dordo.diff.seed=N} replays one stream.
 */
class ListDifferentialTest {
    private static final int STREAMS = Integer.getInteger("ordo.diff.streams", 6);
    private static final int STEPS = Integer.getInteger("ordo.diff.steps", 1500);
    private static final String[] KEYS = {"l1", "l2", "l3", "str"};
    private static final String[] ELEMENTS = {"a", "b", "c", "0", "1", "-1", "100", "-4096", "70000", "9223372036854775807",
        "01", "-0", "+1", "", "x y", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"};

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide(Map.of("enable-debug-command", "yes"));

    @Test
    void scriptedStream_bothProtocols_repliesMatchRedis() throws Exception {
        run(scripted(), 2, "scripted");
        run(scripted(), 3, "scripted");
    }

    @Test
    void randomStreams_smallNodes_repliesMatchRedis() throws Exception {
        Long only = Long.getLong("ordo.diff.seed");
        for (int i = 0; i < (only != null ? 1 : STREAMS); i++) {
            long seed = only != null ? only : 71 + i;
            run(random(seed, STEPS), seed % 2 == 0 ? 2 : 3, "seed " + seed + " (replay: -Dordo.diff.seed=" + seed + ")");
        }
    }

    private static Step step(String... parts) {
        byte[][] args = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            args[i] = parts[i].getBytes(StandardCharsets.UTF_8);
        }
        return new Step(args, false);
    }

    private static List<Step> lines(String... lines) {
        List<Step> out = new ArrayList<>();
        for (String line : lines) {
            out.add(new Step(SideBySide.words(line), false));
        }
        return out;
    }

    static List<Step> scripted() {
        List<Step> s = new ArrayList<>(lines(
                "RPUSH l a b c a 1 2 -7 100000 \"\"",
                "LRANGE l 0 -1", "LRANGE l -100 100", "LRANGE l 5 2", "LRANGE l 20 30", "LRANGE l -3 -1", "LRANGE l x 1",
                "LRANGE nokey 0 -1", "LRANGE l 0 9223372036854775807", "LRANGE l -9223372036854775808 0",
                "LLEN l", "LLEN nokey",
                "LINDEX l 0", "LINDEX l -1", "LINDEX l 100", "LINDEX l -100", "LINDEX l x", "LINDEX nokey x",
                "LPOS l a", "LPOS l a RANK -1", "LPOS l a RANK 2", "LPOS l a RANK 3", "LPOS l a COUNT 0", "LPOS l a COUNT 1 RANK -1",
                "LPOS l a RANK 0", "LPOS l a COUNT -1", "LPOS l a MAXLEN -1", "LPOS l a COUNT x", "LPOS l a MAXLEN x",
                "LPOS l a RANK x", "LPOS l a MAXLEN 2 COUNT 0", "LPOS l a MAXLEN 4 COUNT 0 RANK -1", "LPOS l zz COUNT 0",
                "LPOS l zz", "LPOS nokey a", "LPOS nokey a COUNT 0", "LPOS l a foo", "LPOS l a RANK", "LPOS l 1", "LPOS l 01",
                "LPOS l \"\" COUNT 0", "LPOS l -7",
                "LSET l 0 z", "LSET l -1 last", "LSET l 100 x", "LSET l x y", "LSET nokey 0 x", "LRANGE l 0 -1",
                "LINSERT l BEFORE c x", "LINSERT l after c y", "LINSERT l middle c y", "LINSERT l BEFORE zz y",
                "LINSERT nokey BEFORE a b", "LRANGE l 0 -1",
                "LREM l 0 a", "LREM l 1 zz", "LREM l -1 c", "LREM l x c", "LREM nokey 0 a", "LRANGE l 0 -1",
                "LTRIM l 1 -2", "LRANGE l 0 -1", "LTRIM l x 1", "LTRIM nokey 0 1", "LTRIM l 5 1", "EXISTS l",
                "RPUSH l 1 2 3 4 5 6", "LPOP l", "RPOP l", "LPOP l 2", "RPOP l 2", "LPOP l 0", "LPOP l -1", "LPOP l x",
                "LPOP l 1 2", "LPOP nokey", "LPOP nokey 0", "LPOP nokey 2", "RPOP l 100", "EXISTS l",
                "LPUSHX l a", "RPUSHX l a", "LPUSH l a b", "LPUSHX l c d", "RPUSHX l e", "LRANGE l 0 -1",
                "LMOVE l m LEFT RIGHT", "LMOVE l m RIGHT LEFT", "LMOVE l l LEFT RIGHT", "LMOVE l m UP LEFT", "LMOVE nokey m LEFT LEFT",
                "RPOPLPUSH l m", "RPOPLPUSH nokey m", "LRANGE l 0 -1", "LRANGE m 0 -1", "TYPE m",
                "LMPOP 2 nokey m LEFT", "LMPOP 2 nokey m RIGHT COUNT 10", "LMPOP 1 nokey LEFT", "LMPOP 0 m LEFT",
                "LMPOP 1 m UP", "LMPOP 1 m LEFT COUNT 0", "LMPOP 1 m LEFT COUNT", "LMPOP 1 m LEFT COUNT 1 COUNT 1",
                "LMPOP 5 m LEFT", "LMPOP x m LEFT", "EXISTS m",
                "SET str v", "LPUSH str a", "RPUSHX str a", "LRANGE str 0 1", "LLEN str", "LINDEX str 0", "LPOS str a",
                "LSET str 0 a", "LPOP str", "LMOVE str l LEFT LEFT", "LMOVE l str LEFT LEFT", "LRANGE l 0 -1",
                "LMPOP 2 nokey str LEFT", "BLPOP str 0", "BLMOVE str l LEFT LEFT 0",
                "BLPOP nokey 0.01", "BRPOP nokey nokey2 0.01", "BLPOP l 0.01", "BRPOP nokey l 0.01", "BLPOP l -1", "BLPOP l x",
                "BLMOVE nokey l LEFT LEFT 0.01", "BRPOPLPUSH nokey l 0.01", "BLMOVE l l2 LEFT RIGHT 0.01", "BLMOVE l l2 UP RIGHT 0",
                "BRPOPLPUSH l l2 x", "BLMPOP 0.01 1 nokey LEFT", "BLMPOP 0.01 2 nokey l2 RIGHT COUNT 3", "BLMPOP -1 1 l LEFT",
                "BLMPOP 0 0 l LEFT",
                "MULTI", "BLPOP nokey 0", "BLMOVE nokey l LEFT LEFT 0", "BRPOPLPUSH nokey l 0", "BLMPOP 0 1 nokey LEFT",
                "LPUSH q 1", "BLPOP q 0", "EXEC",
                "RPUSH d a b c", "DEBUG DIGEST-VALUE d", "COPY d d2", "LRANGE d2 0 -1", "DEBUG DIGEST-VALUE d2"));
        // SCAN's order follows each server's hash table, so it runs where one list is left.
        s.addAll(lines("TYPE d", "DEL d", "SCAN 0 TYPE list COUNT 100", "DEL d2", "FLUSHALL"));
        // Large elements: plain nodes once a quicklist, and the listpack-to-quicklist conversion.
        String big = "q".repeat(10_000);
        s.add(step("RPUSH", "big", "a", big, "b"));
        s.add(step("LPUSH", "big", big + "x"));
        s.add(step("LINDEX", "big", "1"));
        s.add(step("LPOS", "big", big));
        s.add(step("LSET", "big", "0", "small"));
        s.add(step("LINSERT", "big", "AFTER", "b", big));
        s.add(step("LREM", "big", "0", big));
        s.add(step("LRANGE", "big", "0", "-1"));
        s.add(step("DEBUG", "DIGEST-VALUE", "big"));
        for (int i = 0; i < 1200; i += 100) {
            String[] push = new String[102];
            push[0] = "RPUSH";
            push[1] = "many";
            for (int j = 0; j < 100; j++) {
                push[j + 2] = "element-" + (i + j);
            }
            s.add(step(push));
        }
        s.addAll(lines("LINDEX many 600", "LINDEX many -1", "LRANGE many 590 610", "LPOS many element-1111",
                "LINSERT many BEFORE element-700 inserted", "LSET many 300 replaced", "LREM many -2 element-5",
                "LTRIM many 100 -100", "LLEN many", "LRANGE many 0 5", "LPOP many 3", "RPOP many 3", "DEBUG DIGEST-VALUE many",
                "FLUSHALL"));
        return s;
    }

    static List<Step> random(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Step> s = new ArrayList<>();
        s.add(step("CONFIG", "SET", "list-max-listpack-size", String.valueOf(pick(r, new String[] {"2", "3", "5", "-1"}))));
        s.add(step("CONFIG", "SET", "list-compress-depth", String.valueOf(r.nextInt(3))));
        s.add(step("SET", "str", "v"));
        while (s.size() < n) {
            s.add(next(r));
        }
        return s;
    }

    private static Step next(SplittableRandom r) {
        String key = KEYS[r.nextInt(r.nextInt(10) == 0 ? KEYS.length : KEYS.length - 1)];
        String other = KEYS[r.nextInt(KEYS.length - 1)];
        int op = r.nextInt(24);
        switch (op) {
            case 0, 1, 2, 3: {
                String[] parts = new String[2 + 1 + r.nextInt(4)];
                parts[0] = pick(r, new String[] {"LPUSH", "RPUSH", "LPUSHX", "RPUSHX"});
                parts[1] = key;
                for (int i = 2; i < parts.length; i++) {
                    parts[i] = element(r);
                }
                return step(parts);
            }
            case 4:
                return r.nextBoolean() ? step(pick(r, new String[] {"LPOP", "RPOP"}), key)
                        : step(pick(r, new String[] {"LPOP", "RPOP"}), key, String.valueOf(r.nextInt(6) - 1));
            case 5, 6:
                return step("LRANGE", key, index(r), index(r));
            case 7:
                return step("LINDEX", key, index(r));
            case 8:
                return step("LSET", key, index(r), element(r));
            case 9:
                return step("LINSERT", key, r.nextBoolean() ? "BEFORE" : "AFTER", element(r), element(r));
            case 10:
                return step("LREM", key, String.valueOf(r.nextInt(7) - 3), element(r));
            case 11:
                return step("LTRIM", key, index(r), index(r));
            case 12: {
                List<String> parts = new ArrayList<>(Arrays.asList("LPOS", key, element(r)));
                if (r.nextBoolean()) {
                    parts.addAll(List.of("RANK", String.valueOf(r.nextBoolean() ? r.nextInt(3) + 1 : -(r.nextInt(3) + 1))));
                }
                if (r.nextBoolean()) {
                    parts.addAll(List.of("COUNT", String.valueOf(r.nextInt(4))));
                }
                if (r.nextInt(3) == 0) {
                    parts.addAll(List.of("MAXLEN", String.valueOf(r.nextInt(6))));
                }
                return step(parts.toArray(String[]::new));
            }
            case 13:
                return step("LMOVE", key, other, side(r), side(r));
            case 14:
                return step("RPOPLPUSH", key, other);
            case 15:
                return r.nextBoolean() ? step("LMPOP", "2", key, other, side(r))
                        : step("LMPOP", "2", key, other, side(r), "COUNT", String.valueOf(1 + r.nextInt(4)));
            case 16:
                return step("LLEN", key);
            case 17:
                return step("DEBUG", "DIGEST-VALUE", key);
            case 18:
                return step(pick(r, new String[] {"BLPOP", "BRPOP"}), key, other, "0.01");
            case 19:
                return step("BLMOVE", key, other, side(r), side(r), "0.01");
            case 20:
                return step("TYPE", key);
            case 21:
                return r.nextInt(4) == 0 ? step("DEL", key) : step("EXISTS", key);
            case 22:
                return step("RPUSH", key, "p".repeat(5000 + r.nextInt(5000)));
            default:
                return step("LRANGE", key, "0", "-1");
        }
    }

    private static String element(SplittableRandom r) {
        return r.nextInt(8) == 0 ? "e" + r.nextInt(40) : ELEMENTS[r.nextInt(ELEMENTS.length)];
    }

    private static String index(SplittableRandom r) {
        return String.valueOf(r.nextInt(20) - 10);
    }

    private static String side(SplittableRandom r) {
        return r.nextBoolean() ? "LEFT" : "RIGHT";
    }

    private static String pick(SplittableRandom r, String[] options) {
        return options[r.nextInt(options.length)];
    }

    private static void run(List<Step> steps, int protocol, String label) throws Exception {
        SERVERS.replay(steps, protocol, label);
    }
}
