package dev.ordo.server.compat;

import dev.ordo.engine.differential.CommandStreams;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.ReplyComparison;
import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * maxmemory side by side with redis-server: the same sequences, with {@code maxmemory 1} so that
 * both are over the limit whatever they hold, get the same replies: the OOM refusals of plain
 * commands, MULTI/EXEC (the cases of Redis's own unit/multi tests), scripts and functions by
 * their flags (unit/scripting and unit/functions), the statistics they leave, random command
 * streams, and under allkeys-lru (which then evicts every key before each command) the same
 * evictions.
 */
class MaxmemoryDifferentialTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    /** One client of each server running the steps, and one of each changing the configuration. */
    private final List<RespSocket> main = new ArrayList<>();
    private final List<RespSocket> admin = new ArrayList<>();

    @BeforeEach
    void connect() throws IOException {
        for (int port : new int[] {SERVERS.redis().port(), SERVERS.ordoPort()}) {
            main.add(new RespSocket(port));
            admin.add(new RespSocket(port));
        }
        both(admin, "FLUSHALL");
        both(admin, "FUNCTION", "FLUSH");
        both(admin, "SCRIPT", "FLUSH");
        both(admin, "CONFIG", "RESETSTAT");
    }

    @AfterEach
    void reset() throws IOException {
        both(admin, "CONFIG", "SET", "maxmemory", "0", "maxmemory-policy", "noeviction", "maxmemory-eviction-tenacity", "10");
        for (RespSocket s : main) {
            s.close();
        }
        for (RespSocket s : admin) {
            s.close();
        }
    }

    private static byte[][] args(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    /** Sends a command to both servers and requires the same reply; returns Redis's. */
    private static Reply both(List<RespSocket> clients, String... command) throws IOException {
        Reply redis = clients.get(0).call(args(command));
        Reply ordo = clients.get(1).call(args(command));
        String difference = ReplyComparison.difference(ordo, redis, false);
        if (difference != null) {
            fail("%s%n  Redis: %s%n  Ordo:  %s%n  difference: %s", String.join(" ", command), redis, ordo, difference);
        }
        return redis;
    }

    private Reply step(String... command) throws IOException {
        return both(main, command);
    }

    private void overLimit() throws IOException {
        both(admin, "CONFIG", "SET", "maxmemory", "1");
    }

    private void underLimit() throws IOException {
        both(admin, "CONFIG", "SET", "maxmemory", "0");
    }

    @Test
    void plainCommands_overTheLimit_sameRefusalsAndStatistics() throws IOException {
        step("SET", "x", "old");
        step("ZADD", "z", "1", "a");
        overLimit();
        assertThat(step("SET", "x", "new").kind()).isEqualTo(Reply.Kind.ERROR);
        step("ZADD", "z", "2", "b");
        step("ZINCRBY", "z", "1", "a");
        step("ZUNIONSTORE", "u", "1", "z");
        step("HSET", "h", "f", "v");
        step("SADD", "s", "m");
        step("INCR", "n");
        step("APPEND", "x", "more");
        step("COPY", "x", "y");
        step("GET", "x");
        step("ZRANGE", "z", "0", "-1", "WITHSCORES");
        step("ZREM", "z", "a");
        step("EXPIRE", "x", "100");
        step("DEL", "x");
        step("PING");
        step("MEMORY", "USAGE", "nothing");
        step("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)");
        step("SCRIPT", "LOAD", "return 1");
        for (String cmd : new String[] {"set", "zadd", "zincrby", "get", "del"}) {
            assertThat(commandStats(1, cmd)).as(cmd).isEqualTo(commandStats(0, cmd));
        }
        assertThat(field(1, "errorstats", "errorstat_OOM")).isEqualTo(field(0, "errorstats", "errorstat_OOM"));
    }

    /** calls, rejected_calls and failed_calls of one command in INFO commandstats. */
    private String commandStats(int server, String command) throws IOException {
        String info = admin.get(server).call(args("INFO", "commandstats")).textString();
        for (String line : info.split("\r\n")) {
            if (line.startsWith("cmdstat_" + command + ":")) {
                return line.replaceAll("usec=[0-9]+,usec_per_call=[0-9.]+,", "");
            }
        }
        return "(none)";
    }

    private String field(int server, String section, String name) throws IOException {
        String info = admin.get(server).call(args("INFO", section)).textString();
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line;
            }
        }
        return "(none)";
    }

    @Test
    void multi_redisOwnOomCases_sameReplies() throws IOException {
        // EXEC fails if there are errors while queueing commands #2
        step("DEL", "foo1{t}", "foo2{t}");
        step("MULTI");
        step("SET", "foo1{t}", "bar1");
        overLimit();
        step("ZADD", "myset{t}", "1", "myvalue");
        underLimit();
        step("SET", "foo2{t}", "bar2");
        step("EXEC");
        step("EXISTS", "foo1{t}", "foo2{t}");
        // DISCARD should not fail during OOM
        overLimit();
        step("MULTI");
        step("SET", "x", "1");
        step("PING");
        step("GET", "x");
        step("WATCH", "x");
        step("MULTI");
        step("SAVE");
        step("DISCARD");
        underLimit();
        step("PING");
        // EXEC with only read commands should not be rejected when OOM
        step("SET", "x", "value");
        step("MULTI");
        step("GET", "x");
        step("PING");
        overLimit();
        step("EXEC");
        underLimit();
        // EXEC with at least one use-memory command should fail
        step("MULTI");
        step("SET", "x", "1");
        step("GET", "x");
        overLimit();
        step("EXEC");
        step("PING");
        step("GET", "x");
    }

    @Test
    void scripts_overTheLimit_followTheirFlagsAsRedis() throws IOException {
        step("SET", "x", "123");
        overLimit();
        step("EVAL", "redis.call('set', 'x', 1)", "0");
        step("EVAL", "redis.call('set','x',1) return 1", "1", "x");
        step("EVAL", "return redis.call('get','x')", "1", "x");
        step("EVAL", "#!lua flags=\n return 1", "0");
        step("EVAL", "#!lua\n return 1", "0");
        step("EVAL", "#!lua flags=allow-stale,no-cluster\n return 1", "0");
        step("EVAL", "#!lua flags=allow-oom\n redis.call('set','x',1) return 1", "1", "x");
        step("EVAL", "#!lua flags=no-writes\n redis.call('get','x') return 1", "0");
        step("EVAL_RO", "#!lua flags=no-writes\n redis.call('get','x') return 1", "1", "x");
        step("EVAL", "redis.call('get','x') return 1", "1", "x");
        step("EVAL_RO", "redis.call('get','x') return 1", "1", "x");
        step("EVAL_RO", "#!lua\n return 1", "0");
        step("EVAL", "return redis.pcall('set','x','y')", "0");
        step("EVAL", "local r = redis.pcall('set','x','y') return type(r) == 'table' and r.err", "0");
        step("EVAL", "redis.call('del','nothing') return redis.call('set','x','5')", "0");
        step("GET", "x");
        // a transaction keeps the state EXEC started with
        underLimit();
        step("MULTI");
        step("EVAL", "redis.call('set','x','9') return 1", "0");
        step("EVAL", "#!lua flags=no-writes\nreturn 2", "0");
        overLimit();
        step("EXEC");
        // an EVALSHA queued before its script was loaded: the script's own OOM text
        underLimit();
        step("MULTI");
        step("SCRIPT", "LOAD", "#!lua\nreturn 1");
        step("EVALSHA", "cb70127618f0b0be70c53cf6bfcfa54a29d9b0c0", "0");
        overLimit();
        step("EXEC");
        for (String cmd : new String[] {"set", "eval", "eval_ro"}) {
            assertThat(commandStats(1, cmd)).as(cmd).isEqualTo(commandStats(0, cmd));
        }
        assertThat(field(1, "errorstats", "errorstat_OOM")).isEqualTo(field(0, "errorstats", "errorstat_OOM"));
    }

    @Test
    void functions_overTheLimit_followTheirFlagsAsRedis() throws IOException {
        step("FUNCTION", "LOAD", "#!lua name=test\n"
                + "redis.register_function('f1', function() return redis.call('set','x','1') end)\n"
                + "redis.register_function{function_name='f2', callback=function() return 'hello' end, flags={'no-writes'}}\n"
                + "redis.register_function{function_name='f3', callback=function() return redis.call('set','x','3') end, flags={'allow-oom'}}\n"
                + "redis.register_function{function_name='f4', callback=function() return redis.call('set','x','4') end, flags={'no-writes'}}");
        overLimit();
        step("FCALL", "f1", "1", "x");
        step("FCALL_RO", "f1", "1", "x");
        step("FCALL", "f2", "1", "k");
        step("FCALL_RO", "f2", "1", "k");
        step("FCALL", "f3", "1", "x");
        step("FCALL", "f4", "1", "x");
        step("GET", "x");
    }

    @Test
    void randomStreams_overTheLimitWithNoeviction_sameReplies() throws IOException {
        for (long seed = 501; seed < 504; seed++) {
            List<CommandStreams.Step> steps = CommandStreams.random(seed, 600);
            both(admin, "FLUSHALL");
            for (int i = 0; i < steps.size(); i++) {
                if (i == 300) {
                    overLimit();
                }
                CommandStreams.Step s = steps.get(i);
                Reply redis = main.get(0).call(s.args());
                Reply ordo = main.get(1).call(s.args());
                String difference = ReplyComparison.difference(ordo, redis, s.unordered());
                if (difference != null) {
                    fail("seed %d, step %d%s: %s%n  Redis: %s%n  Ordo:  %s%n  difference: %s%n  preceding steps: %s", seed, i,
                            i >= 300 ? " (over the limit)" : "", s, redis, ordo, difference, CommandStreams.describe(steps, i));
                }
            }
            underLimit();
        }
    }

    @Test
    void allkeysLru_atOneByte_evictsEveryKeyBeforeEachCommandAsRedis() throws IOException {
        for (int i = 0; i < 50; i++) {
            step("SET", "key:" + i, "value");
        }
        step("ZADD", "z", "1", "a", "2", "b");
        // No time budget: a round cut short (as a cold JVM's first one may be) would leave keys to a timer.
        both(admin, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru", "maxmemory-eviction-tenacity", "100");
        overLimit();
        step("DBSIZE");
        step("SET", "x", "1");
        step("GET", "key:1");
        step("DBSIZE");
        assertThat(field(1, "stats", "evicted_keys")).isEqualTo(field(0, "stats", "evicted_keys")).isEqualTo("evicted_keys:51");
        both(admin, "CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
        underLimit();
        step("SET", "a", "1", "EX", "100");
        step("SET", "b", "2");
        overLimit();
        step("SET", "c", "3");
        step("EXISTS", "a", "b");
    }
}
