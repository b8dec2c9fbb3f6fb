package dev.ordo.engine;

import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a command's clock starts ({@link HostedEngine#executeNext}): the next command of a
 * pipeline begins at the reading that ended the command before it; any other command, and one
 * that follows a command that was refused or blocked, reads the clock. Keyspace time never goes back.
 */
class CommandClockTest {
    private final Engine engine = new Engine(new Config(), Clock.SYSTEM, (task, delay) -> () -> { });
    private final EngineCore core = (EngineCore) HostedEngine.of(engine);
    private final Session session = core.newSession();

    @AfterEach
    void close() {
        engine.close();
    }

    private HostedEngine.Outcome run(boolean next, String... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        ObjectReplyWriter out = EmbeddedClient.replyWriter(session, true);
        return next ? core.executeNext(session, raw, out, () -> { }) : core.execute(session, raw, out, () -> { });
    }

    @Test
    void theNextCommandOfAPipeline_beginsWhereTheOneBeforeEnded() {
        run(false, "RPUSH", "queue", "a", "b");
        assertThat(core.dispatcher().ranToEnd()).isTrue();
        long end = core.dispatcher().endNanos();
        assertThat(end).isGreaterThanOrEqualTo(core.keyspace().commandNanos());

        run(true, "LPOP", "queue");

        assertThat(core.keyspace().commandNanos()).isEqualTo(end);
        assertThat(core.dispatcher().endNanos()).isGreaterThanOrEqualTo(end);
    }

    @Test
    void aCommandOfItsOwn_readsTheClock() {
        run(false, "RPUSH", "queue", "a");
        long end = core.dispatcher().endNanos();
        long before = System.nanoTime();

        run(false, "LLEN", "queue");

        assertThat(core.keyspace().commandNanos()).isGreaterThanOrEqualTo(before).isGreaterThan(end);
    }

    @Test
    void afterARefusedCommand_theNextReadsTheClock() {
        run(false, "RPUSH", "queue", "a");
        run(true, "NOSUCHCOMMAND", "x");

        assertTheNextReadsTheClock();
    }

    @Test
    void afterABlockedCommand_theNextReadsTheClock() {
        Session other = core.newSession();
        byte[][] blpop = {"BLPOP".getBytes(StandardCharsets.UTF_8), "empty".getBytes(StandardCharsets.UTF_8),
                "0".getBytes(StandardCharsets.UTF_8)};
        assertThat(core.execute(other, blpop, EmbeddedClient.replyWriter(other, true), () -> { }))
                .isEqualTo(HostedEngine.Outcome.BLOCKED);

        assertTheNextReadsTheClock();
    }

    /** The last command left no end reading, so the next one, though it follows at once, begins no earlier than now. */
    private void assertTheNextReadsTheClock() {
        assertThat(core.dispatcher().ranToEnd()).isFalse();
        long before = System.nanoTime();

        run(true, "LLEN", "queue");

        assertThat(core.keyspace().commandNanos()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void anOlderReading_doesNotTurnTimeBack() {
        core.withLock(() -> {
            core.keyspace().beginCommand();
            long began = core.keyspace().commandNanos();
            long now = core.keyspace().now();

            core.keyspace().beginCommandAt(began - 5_000_000_000L);

            assertThat(core.keyspace().commandNanos()).isEqualTo(began);
            assertThat(core.keyspace().now()).isEqualTo(now);
        });
    }
}
