package dev.ordo.engine.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.fail;

/**
 * Sends the same command streams to Ordo's engine (in process) and to a real {@code
 * redis-server} started by the test, in RESP2 and in RESP3, and requires every reply to match
 * (see {@link ReplyComparison}). Random streams are seeded; a failure prints the seed and the
 * steps leading to it, and {@code -Dordo.diff.seed=N} replays one stream.
 */
class EngineDifferentialTest {
    private static final int STREAMS = Integer.getInteger("ordo.diff.streams", 12);
    private static final int STEPS = Integer.getInteger("ordo.diff.steps", 800);

    private static RedisServer redis;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void scriptedStream_resp2_repliesMatchRedis() throws Exception {
        run(CommandStreams.scripted(), 2, "scripted");
    }

    @Test
    void scriptedStream_resp3_repliesMatchRedis() throws Exception {
        run(CommandStreams.scripted(), 3, "scripted");
    }

    @Test
    void randomStreams_bothProtocols_repliesMatchRedis() throws Exception {
        Long only = Long.getLong("ordo.diff.seed");
        List<Long> seeds = new ArrayList<>();
        if (only != null) {
            seeds.add(only);
        } else {
            long base = Long.getLong("ordo.diff.base", 20261130L);
            for (int i = 0; i < STREAMS; i++) {
                seeds.add(base + i);
            }
        }
        for (long seed : seeds) {
            run(CommandStreams.random(seed, STEPS), seed % 2 == 0 ? 2 : 3, "seed " + seed + " (replay: -Dordo.diff.seed=" + seed + ")");
        }
    }

    private static void run(List<CommandStreams.Step> steps, int protocol, String label) throws Exception {
        try (EngineTarget ordo = new EngineTarget(); RespSocket real = new RespSocket(redis.port())) {
            byte[][] flush = {"FLUSHALL".getBytes(StandardCharsets.US_ASCII)};
            ordo.call(flush);
            real.call(flush);
            if (protocol == 3) {
                byte[][] hello = {"HELLO".getBytes(StandardCharsets.US_ASCII), "3".getBytes(StandardCharsets.US_ASCII)};
                ordo.call(hello);
                real.call(hello);
            }
            for (int i = 0; i < steps.size(); i++) {
                CommandStreams.Step step = steps.get(i);
                Reply expected = real.call(step.args());
                Reply actual = ordo.call(step.args());
                String difference = ReplyComparison.difference(actual, expected, step.unordered());
                if (difference != null) {
                    fail("%s, RESP%d, step %d: %s%n  Redis: %s%n  Ordo:  %s%n  difference: %s%n  preceding steps: %s", label, protocol, i,
                            step, expected, actual, difference, CommandStreams.describe(steps, i));
                }
            }
        }
    }
}
