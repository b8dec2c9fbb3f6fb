package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Plain;
import dev.ordo.patterns.Backend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Provide;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each board script with a Java twin gives, on the embedded engine, exactly the reply its Lua
 * gives there: same boards, same arguments, every tie rule, both orders, with and without
 * metadata, windows larger than the board, members not on it.
 */
class BoardScriptTwinsTest {
    private final Store store = Backend.EMBEDDED.store();

    /**
     * The same script without its twin, read afresh from its {@code .lua} resource, so the
     * embedded store interprets the Lua.
     */
    private static Script luaOnly(Script script) {
        String resource = RESOURCES.get(script);
        assertThat(resource).as("the resource of a twinned script").isNotNull();
        Script lua = Script.fromResource(BoardScripts.class, resource);
        assertThat(lua.sha1()).isEqualTo(script.sha1());
        return lua;
    }

    private static final Map<Script, String> RESOURCES = Map.of(BoardScripts.WRITE, "board_write.lua", BoardScripts.REMOVE, "board_remove.lua",
            BoardScripts.PLACEMENT, "board_placement.lua", BoardScripts.STANDING, "board_standing.lua", BoardScripts.RANGE, "board_range.lua",
            BoardScripts.AROUND, "board_around.lua");

    @Property(tries = 60)
    void around_twinRepliesAsTheLua(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 6) Integer> scores,
                                    @ForAll boolean descending, @ForAll TieRule tie, @ForAll boolean metadata,
                                    @ForAll @IntRange(min = 1, max = 12) int window) {
        Leaderboard board = board(scores, descending, tie, metadata);
        for (int i = 0; i <= 11; i++) {
            List<String> args = board.scriptArgs("m" + i, Integer.toString(window), metadata ? "1" : "0");
            Object twin = store.eval(BoardScripts.AROUND, board.scriptKeys(), args);
            Object lua = store.eval(luaOnly(BoardScripts.AROUND), board.scriptKeys(), args);
            assertThat(twin).as("m%d on %s", i, scores).isEqualTo(lua);
        }
    }

    /** A board built from {@code scores}: write i adds its points to member {@code m(i*7 % 11)}; every third also sets metadata. */
    private Leaderboard board(List<Integer> scores, boolean descending, TieRule tie, boolean metadata) {
        AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        InstantSource arrivals = () -> Instant.ofEpochMilli(clock.incrementAndGet());
        BoardOptions options = (descending ? BoardOptions.highestFirst() : BoardOptions.lowestFirst())
                .withTieRule(tie).withMetadata(metadata).withArrivalClock(arrivals);
        Leaderboard board = Leaderboard.create(store, Backend.uniqueName("twin"), options);
        for (int i = 0; i < scores.size(); i++) {
            String member = "m" + (i * 7 % 11);
            board.addPoints(member, scores.get(i));
            if (i % 3 == 0) {
                board.setMetadata(member, Map.of("name", "player " + i));
            }
        }
        return board;
    }

    @Property(tries = 60)
    void reads_twinsReplyAsTheLua(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 6) Integer> scores,
                                  @ForAll boolean descending, @ForAll TieRule tie, @ForAll boolean metadata,
                                  @ForAll @IntRange(min = 0, max = 12) int start, @ForAll @IntRange(min = 0, max = 12) int count) {
        Leaderboard board = board(scores, descending, tie, metadata);
        for (int i = 0; i <= 11; i++) {
            for (Script script : List.of(BoardScripts.PLACEMENT, BoardScripts.STANDING)) {
                List<String> args = board.scriptArgs("m" + i);
                Object twin = store.eval(script, board.scriptKeys(), args);
                Object lua = store.eval(luaOnly(script), board.scriptKeys(), args);
                assertThat(twin).as("m%d on %s", i, scores).isEqualTo(lua);
            }
        }
        List<String> args = board.rangeArgs(start, start + count - 1);
        assertThat(store.eval(BoardScripts.RANGE, board.scriptKeys(), args)).as("%s on %s", args, scores)
                .isEqualTo(store.eval(luaOnly(BoardScripts.RANGE), board.scriptKeys(), args));
    }

    /** Two sets of keys for {@code boards} boards under one metadata hash each: one for a twin, one for its Lua. */
    private static List<List<String>> keySets(int boards) {
        List<List<String>> keySets = new ArrayList<>();
        for (int side = 0; side < 2; side++) {
            String meta = Backend.uniqueName("{twin}:meta");
            List<String> keys = new ArrayList<>(List.of(meta));
            for (int b = 0; b < boards; b++) {
                keys.addAll(BoardKeys.of(meta + ":" + b).all());
            }
            keySets.add(keys);
        }
        return keySets;
    }

    @Property(tries = 40)
    void remove_twinRepliesAndRemovesAsTheLua(@ForAll @Size(max = 20) List<@IntRange(min = 0, max = 5) Integer> scores,
                                              @ForAll boolean descending, @ForAll TieRule tie,
                                              @ForAll @IntRange(min = 1, max = 2) int boards, @ForAll boolean dropMetadata) {
        List<List<String>> keySets = keySets(boards);
        String order = descending ? "desc" : "asc";
        for (List<String> keys : keySets) {
            for (int i = 0; i < scores.size(); i++) {
                List<String> argv = new ArrayList<>(List.of(order, tie.wire, "add", "m" + (i % 6), Integer.toString(scores.get(i)),
                        Long.toString(1_700_000_000_000L + i)));
                for (int b = 0; b < boards; b++) {
                    argv.add("0");
                }
                store.eval(BoardScripts.WRITE, keys, argv);
                store.call(StoreCommand.of("HSET").key(keys.get(0)).arg("m" + (i % 6)).arg("meta " + i));
            }
        }
        for (int i = 0; i < 8; i++) {
            List<String> argv = List.of(order, tie.wire, "m" + i, dropMetadata ? "1" : "0");
            Object twin = store.eval(BoardScripts.REMOVE, keySets.get(0), argv);
            Object lua = store.eval(luaOnly(BoardScripts.REMOVE), keySets.get(1), argv);
            assertThat(twin).as("m%d after %s", i, scores).isEqualTo(lua);
            assertThat(contents(keySets.get(0))).as("m%d after %s", i, scores).isEqualTo(contents(keySets.get(1)));
        }
    }

    /** One write of the property below: mode, member, and the value as WRITE takes it. */
    record Write(String mode, int member, String value) {
    }

    @Provide
    Arbitrary<Write> writes() {
        Arbitrary<Integer> members = Arbitraries.integers().between(0, 5);
        Arbitrary<String> points = Arbitraries.integers().between(-3, 12).map(v -> v % 4 == 3 ? v + ".5" : Integer.toString(v));
        Arbitrary<String> dims = Combinators.combine(Arbitraries.of(1, 8), Arbitraries.integers().between(-2, 9))
                .as((mult, v) -> mult + " 8 " + (v % 5 == 4 ? v + ".25" : Integer.toString(v)));
        return Arbitraries.oneOf(
                Combinators.combine(Arbitraries.of("add", "set", "best"), members, points).as(Write::new),
                Combinators.combine(Arbitraries.of("dim", "dimadd"), members, dims).as(Write::new));
    }

    @Property(tries = 80)
    void write_twinRepliesAndWritesAsTheLua(@ForAll @Size(max = 25) List<@From("writes") Write> writes,
                                           @ForAll boolean descending, @ForAll TieRule tie,
                                           @ForAll @IntRange(min = 1, max = 2) int boards, @ForAll boolean expiring) {
        List<List<String>> keySets = keySets(boards);
        long arrival = 1_700_000_000_000L;
        for (Write w : writes) {
            List<String> argv = new ArrayList<>(List.of(descending ? "desc" : "asc", tie.wire, w.mode(), "m" + w.member(), w.value(),
                    Long.toString(arrival++)));
            for (int b = 0; b < boards; b++) {
                argv.add(expiring && b == 0 ? "4102444800000" : "0");
            }
            Object twin = replyOrError(() -> store.eval(BoardScripts.WRITE, keySets.get(0), argv));
            Object lua = replyOrError(() -> store.eval(luaOnly(BoardScripts.WRITE), keySets.get(1), argv));
            assertThat(twin).as("%s after %s", w, writes).isEqualTo(lua);
            assertThat(contents(keySets.get(0))).as("%s after %s", w, writes).isEqualTo(contents(keySets.get(1)));
        }
    }

    @Test
    void write_withoutAGivenTime_stampsTheServersClock() {
        String meta = Backend.uniqueName("{twin}:meta");
        List<String> keys = new ArrayList<>(List.of(meta));
        keys.addAll(BoardKeys.of(meta + ":0").all());
        long before = System.currentTimeMillis();
        store.eval(BoardScripts.WRITE, keys, List.of("asc", "first", "add", "alice", "5", "", "0"));
        long after = System.currentTimeMillis();
        String name = store.call(StoreCommand.of("HGET").key(keys.get(2)).arg("alice")).asString();
        assertThat(name).endsWith(":alice").hasSize(13 + 1 + 5);
        assertThat(Long.parseLong(name.substring(0, 13))).isBetween(before, after);
    }

    /** A reply, or the error's text. */
    private static Object replyOrError(Supplier<Object> call) {
        try {
            return call.get();
        } catch (StoreException e) {
            return "error: " + e.getMessage();
        }
    }

    /** What the keys hold, by content: each sorted set with its scores, each hash (the metadata hash too), each key's expiry time. */
    private List<Object> contents(List<String> keys) {
        List<Object> out = new ArrayList<>();
        for (String key : keys) {
            String type = store.call(StoreCommand.of("TYPE").key(key)).asString();
            out.add(type.equals("zset") ? Plain.of(store.call(StoreCommand.of("ZRANGE").key(key).arg(0).arg(-1).arg("WITHSCORES")))
                    : type.equals("hash") ? new TreeMap<>(pairs(Plain.of(store.call(StoreCommand.of("HGETALL").key(key)).asList()))) : type);
            out.add(store.call(StoreCommand.of("PEXPIRETIME").key(key)).asLong());
        }
        return out;
    }

    private static Map<Object, Object> pairs(List<?> flat) {
        Map<Object, Object> map = new TreeMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            map.put(flat.get(i), flat.get(i + 1));
        }
        return map;
    }

    @Test
    void around_onAKeyOfAnotherType_bothFailWithTheCommandsError() {
        Leaderboard board = Leaderboard.create(store, Backend.uniqueName("twin"), BoardOptions.highestFirst());
        store.call(StoreCommand.of("SET").key(board.key()).arg("text"));
        List<String> args = board.scriptArgs("m", "3", "0");
        assertThatThrownBy(() -> store.eval(BoardScripts.AROUND, board.scriptKeys(), args)).isInstanceOf(StoreException.class)
                .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThatThrownBy(() -> store.eval(luaOnly(BoardScripts.AROUND), board.scriptKeys(), args)).isInstanceOf(StoreException.class)
                .hasMessageStartingWith("WRONGTYPE Operation against a key holding the wrong kind of value");
    }
}
