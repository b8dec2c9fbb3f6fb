package dev.ordo.engine.script.lib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every snippet of {@link RedisRecordings} on a real redis-server started for the test and on LuaJ, and requires
 * the same result line from both, and from the recording. This keeps the recordings honest and is how a changed or
 * added snippet gets its expected line. Skipped when redis-server is not installed (a failure under {@code CI=true}).
 */
class LiveRedisConformanceTest {

    /** Redis gets {@code fmtnum} in Lua, printing as the tests' Java one does. */
    private static final String REDIS_FMTNUM = "local function fmtnum(n) if n ~= n then return 'nan' end "
            + "local s = string.format('%.14g', n) if tonumber(s) ~= n then s = string.format('%.17g', n) end "
            + "return s end\n";

    private static RedisServer server;
    private static RespSocket redis;

    @BeforeAll
    static void startRedis() throws IOException, InterruptedException {
        server = RedisServer.start();
        redis = new RespSocket(server.port());
    }

    @AfterAll
    static void stopRedis() throws IOException {
        if (redis != null) {
            redis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static String onRedis(String snippet) throws IOException {
        String script = REDIS_FMTNUM + RedisRecordings.PRELUDE + "\nreturn run(function()\n" + snippet + "\nend)";
        Reply reply = redis.call("EVAL".getBytes(StandardCharsets.US_ASCII),
                script.getBytes(StandardCharsets.ISO_8859_1), "0".getBytes(StandardCharsets.US_ASCII));
        assertThat(reply.kind()).as("%s: %s", snippet, reply).isEqualTo(Reply.Kind.BULK);
        return reply.textString();
    }

    @TestFactory
    Stream<DynamicTest> recordedSnippet_onLiveRedisAndLuaJ_printsTheRecordedLine() {
        LuaScripts lua = new LuaScripts();
        return RecordedRedisBehaviourTest.recordings().stream().map(r -> dynamicTest(r.snippet(), () -> {
            String live = onRedis(r.snippet());
            assertThat(live).as("redis-server %s now prints, for %s", server.version(), r.snippet())
                    .isEqualTo(r.expected());
            assertThat(lua.runRecorded(r.snippet())).as(r.snippet()).isEqualTo(live);
        }));
    }
}
