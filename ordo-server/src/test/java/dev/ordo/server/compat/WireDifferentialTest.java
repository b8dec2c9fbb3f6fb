package dev.ordo.server.compat;

import dev.ordo.engine.differential.CommandStreams;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.ReplyComparison;
import dev.ordo.engine.differential.RespSocket;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.fail;

/**
 * The differential test over the wire: the same scripted and seeded random command streams go,
 * through one raw RESP client, to an Ordo server and to a real {@code redis-server}, each on a
 * free loopback port, in RESP2 and RESP3. Every reply must match type for type (doubles by
 * value). {@code -Dordo.diff.seed=N} replays one stream.
 */
class WireDifferentialTest {
    private static final int STREAMS = Integer.getInteger("ordo.diff.streams", 8);
    private static final int STEPS = Integer.getInteger("ordo.diff.steps", 1000);

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    @Test
    void scriptedStream_bothProtocols_repliesMatchRedis() throws Exception {
        run(CommandStreams.scripted(), 2, "scripted");
        run(CommandStreams.scripted(), 3, "scripted");
    }

    @Test
    void randomStreams_bothProtocols_repliesMatchRedis() throws Exception {
        Long only = Long.getLong("ordo.diff.seed");
        long base = Long.getLong("ordo.diff.base", 31L);
        for (int i = 0; i < (only != null ? 1 : STREAMS); i++) {
            long seed = only != null ? only : base + i;
            run(CommandStreams.random(seed, STEPS), seed % 2 == 0 ? 2 : 3, "seed " + seed + " (replay: -Dordo.diff.seed=" + seed + ")");
        }
    }

    private static void run(List<CommandStreams.Step> steps, int protocol, String label) throws Exception {
        try (RespSocket ours = new RespSocket(SERVERS.ordoPort()); RespSocket real = new RespSocket(SERVERS.redis().port())) {
            byte[][] flush = {"FLUSHALL".getBytes(StandardCharsets.US_ASCII)};
            ours.call(flush);
            real.call(flush);
            if (protocol == 3) {
                byte[][] hello = {"HELLO".getBytes(StandardCharsets.US_ASCII), "3".getBytes(StandardCharsets.US_ASCII)};
                ours.call(hello);
                real.call(hello);
            }
            for (int i = 0; i < steps.size(); i++) {
                CommandStreams.Step step = steps.get(i);
                Reply expected = real.call(step.args());
                Reply actual = ours.call(step.args());
                String difference = ReplyComparison.difference(actual, expected, step.unordered());
                if (difference != null) {
                    fail("%s, RESP%d, step %d: %s%n  Redis: %s%n  Ordo:  %s%n  difference: %s%n  preceding steps: %s", label, protocol, i,
                            step, expected, actual, difference, CommandStreams.describe(steps, i));
                }
            }
        }
    }
}
