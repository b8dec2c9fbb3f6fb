package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.store.Command;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each board script with a Java twin gives, on the embedded engine, exactly the reply its Lua
 * gives there: same boards, same arguments, every tie rule, both orders, with and without
 * metadata, windows larger than the board, members not on it.
 */
class BoardScriptTwinsTest {
    private final Store store = Backend.EMBEDDED.store();

    /** The same script without its twin, so the embedded store interprets the Lua. */
    private static Script luaOnly(Script script) {
        return new Script(script.source());
    }

    @Property(tries = 60)
    void around_twinRepliesAsTheLua(@ForAll @Size(max = 30) List<@IntRange(min = 0, max = 6) Integer> scores,
                                    @ForAll boolean descending, @ForAll TieRule tie, @ForAll boolean metadata,
                                    @ForAll @IntRange(min = 1, max = 12) int window) {
        AtomicLong clock = new AtomicLong(1_700_000_000_000L);
        InstantSource arrivals = () -> Instant.ofEpochMilli(clock.incrementAndGet());
        BoardOptions options = (descending ? BoardOptions.highestFirst() : BoardOptions.lowestFirst())
                .tieRule(tie).withMetadata(metadata).arrivalClock(arrivals);
        Leaderboard board = Leaderboard.create(store, Backend.uniqueName("twin"), options);
        for (int i = 0; i < scores.size(); i++) {
            String member = "m" + (i * 7 % 11);
            board.addPoints(member, scores.get(i));
            if (i % 3 == 0) {
                board.setMetadata(member, Map.of("name", "player " + i));
            }
        }
        for (int i = 0; i <= 11; i++) {
            List<String> args = board.scriptArgs("m" + i, Integer.toString(window), metadata ? "1" : "0");
            Object twin = store.eval(BoardScripts.AROUND, board.scriptKeys(), args);
            Object lua = store.eval(luaOnly(BoardScripts.AROUND), board.scriptKeys(), args);
            assertThat(twin).as("m%d on %s", i, scores).isEqualTo(lua);
        }
    }

    @Test
    void around_onAKeyOfAnotherType_bothFailWithTheCommandsError() {
        Leaderboard board = Leaderboard.create(store, Backend.uniqueName("twin"), BoardOptions.highestFirst());
        store.call(Command.of("SET").key(board.key()).arg("text"));
        List<String> args = board.scriptArgs("m", "3", "0");
        assertThatThrownBy(() -> store.eval(BoardScripts.AROUND, board.scriptKeys(), args)).isInstanceOf(StoreException.class)
                .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
        assertThatThrownBy(() -> store.eval(luaOnly(BoardScripts.AROUND), board.scriptKeys(), args)).isInstanceOf(StoreException.class)
                .hasMessageStartingWith("WRONGTYPE Operation against a key holding the wrong kind of value");
    }
}
