package dev.ordo.engine.command;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.memory.HeapBudget;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * maxmemory as Redis 7.2 enforces it: denyoom commands refused with the OOM error when nothing
 * can be evicted, MULTI/EXEC's queue-time and exec-time rules, scripts' rules by their flags, the
 * heap's implicit limit when maxmemory is 0, and eviction before commands.
 */
class MaxMemoryTest extends CommandTestSupport {
    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";

    private void overLimit() {
        client.call("CONFIG", "SET", "maxmemory", "1");
    }

    @Test
    void eviction_roundSlowerThanTheThreshold_isALatencySpike() {
        // Every reading of the fake clock is 2 ms after the last, so any eviction round lasts at least 2 ms.
        AtomicLong nanos = new AtomicLong();
        Keyspace keyspace = new Keyspace(16, () -> 1_700_000_000_000L, new SplittableRandom(7));
        Config config = new Config();
        config.set("maxmemory-policy", "allkeys-random", true);
        LatencyMonitor latency = new LatencyMonitor(() -> 1, () -> 1_700_000_000_000L);
        MaxMemory memory = new MaxMemory(config, keyspace, () -> 0, () -> 0, HeapBudget.ofThisJvm(), () -> 1_700_000_000_000L,
                () -> nanos.addAndGet(2_000_000), latency);
        keyspace.beginCommand();
        keyspace.db(0).add(Key.of("k"), new StringValue(new byte[100]));
        assertThat(memory.beforeCommand()).isFalse();
        assertThat(latency.events()).isEmpty();
        config.set("maxmemory", "1", true);
        memory.beforeCommand();
        assertThat(latency.events()).containsExactly("eviction-cycle");
        assertThat(latency.history("eviction-cycle").get(0).millis()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void set_overMaxmemoryWithNoeviction_isRefusedAndChangesNothing() {
        client.call("SET", "x", "old");
        overLimit();
        fails(OOM, "SET", "x", "new");
        fails(OOM, "ZADD", "z", "1", "a");
        assertThat(s(client.call("GET", "x"))).isEqualTo("old");
        assertThat(client.call("DEL", "x")).isEqualTo(1L);
        String stats = s(client.call("INFO", "commandstats"));
        assertThat(stats).contains("cmdstat_set:calls=1,").contains("rejected_calls=1,failed_calls=0");
        assertThat(s(client.call("INFO", "errorstats"))).contains("errorstat_OOM:count=2");
    }

    @Test
    void multi_underOom_refusesEveryQueuedCommandButDiscardRuns() {
        client.call("MULTI");
        other().call("CONFIG", "SET", "maxmemory", "1"); // as in Redis's "DISCARD should not fail during OOM"
        fails(OOM, "SET", "x", "1");
        fails(OOM, "PING");
        fails(OOM, "GET", "x");
        fails("ERR Command not allowed inside a transaction", "SAVE");
        assertThat(client.call("DISCARD")).isEqualTo("OK");
        assertThat(client.call("PING")).isEqualTo("PONG");
    }

    private EmbeddedClient other() {
        return support.client();
    }

    @Test
    void exec_queueRefusedUnderOom_abortsTheWholeTransaction() {
        client.call("MULTI");
        client.call("SET", "foo1", "bar1");
        other().call("CONFIG", "SET", "maxmemory", "1");
        fails(OOM, "ZADD", "myset", "1", "myvalue");
        other().call("CONFIG", "SET", "maxmemory", "0");
        client.call("SET", "foo2", "bar2");
        fails("EXECABORT Transaction discarded because of previous errors.", "EXEC");
        assertThat(client.call("EXISTS", "foo1", "foo2")).isEqualTo(0L);
    }

    @Test
    void exec_onlyReadsQueued_runsUnderOom() {
        client.call("SET", "x", "value");
        client.call("MULTI");
        client.call("GET", "x");
        client.call("PING");
        other().call("CONFIG", "SET", "maxmemory", "1");
        assertThat(strings(client.call("EXEC"))).containsExactly("value", "PONG");
    }

    @Test
    void exec_withADenyoomCommandQueued_isAbortedWithOom() {
        client.call("MULTI");
        client.call("SET", "x", "1");
        client.call("GET", "x");
        other().call("CONFIG", "SET", "maxmemory", "1");
        fails("EXECABORT Transaction discarded because of: " + OOM, "EXEC");
        assertThat(client.call("PING")).isEqualTo("PONG");
        assertThat(client.call("EXISTS", "x")).isEqualTo(0L);
    }

    @Test
    void eval_compatScript_mayNotStartWritingUnderOom() {
        client.call("SET", "x", "123");
        overLimit();
        assertThatThrownBy(() -> client.call("EVAL", "redis.call('set','x',1) return 1", "1", "x"))
                .isInstanceOf(ErrorReply.class).hasMessageStartingWith(OOM + " script: ");
        assertThat(s(client.call("EVAL", "return redis.call('get','x')", "1", "x"))).isEqualTo("123");
        // Once it wrote (even a DEL of nothing) it must finish: later writes are allowed.
        assertThat(client.call("EVAL", "redis.call('del','zz') return redis.call('set','x',5)", "1", "x")).isEqualTo("OK");
        assertThat(s(client.call("GET", "x"))).isEqualTo("5");
    }

    @Test
    void eval_flaggedScripts_followTheirFlagsUnderOom() {
        client.call("SET", "x", "123");
        overLimit();
        fails(OOM, "EVAL", "#!lua flags=\n return 1", "0");
        fails(OOM, "EVAL", "#!lua\n return 1", "0");
        fails(OOM, "EVAL", "#!lua flags=allow-stale\n return 1", "0");
        assertThat(client.call("EVAL", "#!lua flags=allow-oom\n redis.call('set','x',1) return 1", "1", "x")).isEqualTo(1L);
        assertThat(client.call("EVAL", "#!lua flags=no-writes\n redis.call('get','x') return 1", "0")).isEqualTo(1L);
        assertThat(client.call("EVAL_RO", "#!lua flags=no-writes\n redis.call('get','x') return 1", "1", "x")).isEqualTo(1L);
        assertThat(client.call("EVAL_RO", "redis.call('get','x') return 1", "1", "x")).isEqualTo(1L);
        for (int i = 0; i < 50; i++) {
            fails(OOM, "EVAL", "#!lua\n return 1", "0");
        }
        client.call("CONFIG", "SET", "maxmemory", "0");
        assertThat(client.call("EVAL", "#!lua\n return 1", "0")).isEqualTo(1L);
    }

    @Test
    void fcall_functionWithoutFlags_isRefusedUnderOom_noWritesOneRuns() {
        client.call("FUNCTION", "LOAD", "#!lua name=test\n"
                + "redis.register_function('f1', function() return redis.call('set','x','1') end)\n"
                + "redis.register_function{function_name='f2', callback=function() return 'hello' end, flags={'no-writes'}}");
        overLimit();
        fails(OOM, "FCALL", "f1", "1", "x");
        assertThat(s(client.call("FCALL", "f2", "1", "k"))).isEqualTo("hello");
        assertThat(s(client.call("FCALL_RO", "f2", "1", "k"))).isEqualTo("hello");
    }

    @Test
    void evalsha_loadedInTheSameTransaction_getsTheScriptsOwnOomError() {
        client.call("MULTI");
        client.call("SCRIPT", "LOAD", "#!lua\nreturn 1");
        client.call("EVALSHA", sha1("#!lua\nreturn 1"), "0");
        other().call("CONFIG", "SET", "maxmemory", "1");
        List<?> replies = (List<?>) client.call("EXEC");
        assertThat(replies.get(1)).isInstanceOf(ErrorReply.class);
        assertThat(((ErrorReply) replies.get(1)).getMessage())
                .isEqualTo("OOM allow-oom flag is not set on the script, can not run it when used memory > 'maxmemory'");
    }

    private static String sha1(String text) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-1").digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            StringBuilder sb = new StringBuilder();
            for (byte b : d) {
                sb.append(String.format("%02x", b));
            }
            return sb.toString();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void implicitLimit_maxmemoryZero_refusesWritesPastTheHeapsLimit() {
        HeapBudget small = new HeapBudget(8L << 20); // an 8 MB heap: 4 MB of data at most
        try (EngineTestSupport tiny = new EngineTestSupport(new Config(), small)) {
            EmbeddedClient c = tiny.client();
            assertThat(small.implicitMaxmemory()).isEqualTo(4L << 20);
            String value = "v".repeat(10_000);
            int stored = 0;
            ErrorReply refused = null;
            while (refused == null && stored < 10_000) {
                try {
                    c.call("SET", "k" + stored, value);
                    stored++;
                } catch (ErrorReply e) {
                    refused = e;
                }
            }
            assertThat(refused).hasMessage(OOM);
            // About 4 MB of 10 KB values; the one that went over was allowed, as Redis allows it.
            assertThat(stored).isBetween(390, 420);
            assertThat(c.call("DBSIZE")).isEqualTo((long) stored);
            String info = new String((byte[]) c.call("INFO", "memory"), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(info).contains("maxmemory:0\r\n").contains("maxmemory_effective:" + (4L << 20) + "\r\n")
                    .contains("maxmemory_effective_source:heap");
            // The implicit limit never evicts, whatever the policy.
            c.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            assertThatThrownBy(() -> c.call("SET", "more", value)).hasMessage(OOM);
            assertThat(c.call("DBSIZE")).isEqualTo((long) stored);
        }
    }

    @Test
    void allkeysLru_overTheLimit_evictsBeforeTheCommandAndCountsIt() {
        List<String> args = new ArrayList<>(List.of("MSET"));
        for (int i = 0; i < 200; i++) {
            args.add("key:" + i);
            args.add("v".repeat(1000));
        }
        client.call(args.toArray(new String[0]));
        long used = usedMemory();
        client.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        // No time budget, so every round finishes before its command (none continues from a timer).
        client.call("CONFIG", "SET", "maxmemory-eviction-tenacity", "100");
        client.call("CONFIG", "SET", "maxmemory", String.valueOf(used - 50_000));
        assertThat(client.call("SET", "new", "value")).isEqualTo("OK");
        // DBSIZE evicts again if the new key went over; then nothing changes until INFO.
        long keys = (Long) client.call("DBSIZE");
        assertThat(keys).isLessThan(200).isGreaterThan(140);
        assertThat(s(client.call("INFO", "stats"))).contains("evicted_keys:" + (201 - keys) + "\r\n");
        assertThat(usedMemory()).isLessThanOrEqualTo(used - 50_000);
    }

    @Test
    void volatilePolicy_noKeyWithAnExpiry_cannotEvictAndRefuses() {
        client.call("SET", "a", "1");
        client.call("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
        overLimit();
        fails(OOM, "SET", "b", "2");
        assertThat(client.call("EXISTS", "a")).isEqualTo(1L);
        assertThat(s(client.call("INFO", "stats"))).contains("evicted_keys:0\r\n");
    }

    @Test
    void clientOutputBufferLimit_configSet_replacesNamedClassesOnly() {
        assertThat(strings(client.call("CONFIG", "GET", "client-output-buffer-limit"))).containsExactly("client-output-buffer-limit",
                "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
        client.call("CONFIG", "SET", "client-output-buffer-limit", "NORMAL 1mb 1kb 5 replica 1gb 1k 1");
        assertThat(strings(client.call("CONFIG", "GET", "client-output-buffer-limit")).get(1))
                .isEqualTo("normal 1048576 1024 5 slave 1073741824 1000 1 pubsub 33554432 8388608 60");
        String prefix = "ERR CONFIG SET failed (possibly related to argument 'client-output-buffer-limit') - ";
        fails(prefix + "Wrong number of arguments in buffer limit configuration.", "CONFIG", "SET", "client-output-buffer-limit", "normal 1 1");
        fails(prefix + "Invalid client class specified in buffer limit configuration.", "CONFIG", "SET", "client-output-buffer-limit",
                "master 1 1 1");
        fails(prefix + "Error in hard, soft or soft_seconds setting in buffer limit configuration.", "CONFIG", "SET",
                "client-output-buffer-limit", "normal 1 1 -1");
        assertThat(strings(client.call("CONFIG", "GET", "client-output-buffer-limit")).get(1)).startsWith("normal 1048576 1024 5 ");
    }

    @Test
    void maxmemoryClients_takesBytesOrAPercentage() {
        client.call("CONFIG", "SET", "maxmemory-clients", "10%");
        assertThat(strings(client.call("CONFIG", "GET", "maxmemory-clients")).get(1)).isEqualTo("10%");
        client.call("CONFIG", "SET", "maxmemory-clients", "2mb");
        assertThat(strings(client.call("CONFIG", "GET", "maxmemory-clients")).get(1)).isEqualTo("2097152");
        client.call("CONFIG", "SET", "maxmemory-clients", "0%");
        assertThat(strings(client.call("CONFIG", "GET", "maxmemory-clients")).get(1)).isEqualTo("0");
        String prefix = "ERR CONFIG SET failed (possibly related to argument 'maxmemory-clients') - ";
        fails(prefix + "percentage argument must be less or equal to 100", "CONFIG", "SET", "maxmemory-clients", "101%");
        fails(prefix + "argument must be a memory or percent value", "CONFIG", "SET", "maxmemory-clients", "1.5%");
        fails(prefix + "argument must be a memory or percent value", "CONFIG", "SET", "maxmemory-clients", "-1");
    }

    @Test
    void outOfMemoryError_inAWrite_stopsTheEngineForGood() {
        List<String> stops = new ArrayList<>();
        support.engine.onFailStop(stops::add);
        HostedEngine.of(support.engine).commands().register(Command.custom("halfwrite", 1, "write", 0, 0, 0, "test", c -> {
            c.db().set(dev.ordo.engine.keyspace.Key.of("half"), new dev.ordo.engine.keyspace.StringValue(new byte[] {1}));
            throw new OutOfMemoryError("test");
        }));
        client.call("SET", "before", "1");
        assertThatThrownBy(() -> client.call("HALFWRITE")).isInstanceOf(OutOfMemoryError.class);
        assertThat(stops).singleElement().asString().contains("out of memory while running 'halfwrite'");
        fails(dev.ordo.engine.error.text.Errors.ENGINE_STOPPED, "GET", "before");
        fails(dev.ordo.engine.error.text.Errors.ENGINE_STOPPED, "PING");
    }

    @Test
    void outOfMemoryError_inARead_leavesTheEngineRunning() {
        List<String> stops = new ArrayList<>();
        support.engine.onFailStop(stops::add);
        HostedEngine.of(support.engine).commands().register(Command.custom("bigread", 1, "readonly", 0, 0, 0, "test", c -> {
            throw new OutOfMemoryError("test");
        }));
        assertThatThrownBy(() -> client.call("BIGREAD")).isInstanceOf(OutOfMemoryError.class);
        assertThat(stops).isEmpty();
        assertThat(client.call("PING")).isEqualTo("PONG");
    }

    private long usedMemory() {
        String info = s(client.call("INFO", "memory"));
        for (String line : info.split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new AssertionError("no used_memory in " + info);
    }
}
