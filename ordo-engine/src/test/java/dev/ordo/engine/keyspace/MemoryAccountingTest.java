package dev.ordo.engine.keyspace;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memory accounting stays exact: after every command of a random stream over every value
 * type, encoding change, key move and flush, the keyspace's stored-bytes figure equals what the
 * keys and values hold measured afresh ({@link Keyspace#checkAccounting}).
 */
class MemoryAccountingTest {
    private static final String[] KEYS = {"a", "b", "c", "d"};

    @Property(tries = 30)
    void storedBytes_afterEveryCommand_matchesAFreshCount(@ForAll long seed) {
        Config config = new Config();
        // Small encodings limits, so that a few members already convert between encodings.
        config.set("zset-max-listpack-entries", "8", true);
        config.set("hash-max-listpack-entries", "4", true);
        config.set("set-max-listpack-entries", "4", true);
        config.set("set-max-intset-entries", "6", true);
        try (EngineTestSupport support = new EngineTestSupport(config)) {
            EmbeddedClient client = support.client();
            Keyspace keyspace = HostedEngine.of(support.engine).keyspace();
            SplittableRandom r = new SplittableRandom(seed);
            for (int step = 0; step < 300; step++) {
                String[] command = command(r);
                try {
                    client.call(command);
                } catch (ErrorReply expected) {
                    // Wrong types and bad arguments are part of the stream; they must change nothing.
                }
                try {
                    keyspace.checkAccounting();
                } catch (AssertionError e) {
                    throw new AssertionError("after step " + step + ": " + String.join(" ", command) + ": " + e.getMessage(), e);
                }
                if (r.nextInt(50) == 0) {
                    support.advance(r.nextInt(3000));
                }
            }
        }
    }

    @Test
    void storedBytes_emptiedKeyspace_isZero() {
        try (EngineTestSupport support = new EngineTestSupport()) {
            EmbeddedClient client = support.client();
            client.call("ZADD", "z", "1", "x");
            client.call("SET", "s", "value");
            assertThat(HostedEngine.of(support.engine).keyspace().storedBytes()).isPositive();
            client.call("FLUSHALL");
            assertThat(HostedEngine.of(support.engine).keyspace().storedBytes()).isZero();
        }
    }

    @Test
    void tableBytes_tablesGrowShrinkSwapAndFlush_matchAFreshCount() {
        try (EngineTestSupport support = new EngineTestSupport()) {
            EmbeddedClient client = support.client();
            Keyspace keyspace = HostedEngine.of(support.engine).keyspace();
            long empty = keyspace.tableBytes();
            for (int i = 0; i < 2_000; i++) {
                client.call("SET", "k" + i, "v", "EX", "100");
            }
            keyspace.checkAccounting();
            long grown = keyspace.tableBytes();
            assertThat(grown).isGreaterThan(empty);
            for (int i = 0; i < 1_990; i++) {
                client.call("DEL", "k" + i);
            }
            keyspace.checkAccounting();
            assertThat(keyspace.tableBytes()).isLessThan(grown);
            client.call("SWAPDB", "0", "1");
            keyspace.checkAccounting();
            client.call("FLUSHALL");
            keyspace.checkAccounting();
            assertThat(keyspace.tableBytes()).isEqualTo(empty);
        }
    }

    @Test
    void memoryUsage_agreesWithStoredBytes() {
        try (EngineTestSupport support = new EngineTestSupport()) {
            EmbeddedClient client = support.client();
            List<String> args = new ArrayList<>(List.of("ZADD", "board"));
            for (int i = 0; i < 10_000; i++) {
                args.add(String.valueOf(i));
                args.add("player:" + i);
            }
            client.call(args.toArray(new String[0]));
            long usage = (Long) client.call("MEMORY", "USAGE", "board");
            assertThat(usage).isEqualTo(HostedEngine.of(support.engine).keyspace().storedBytes());
            // About 50 bytes per member in the skiplist encoding, as the class headers state.
            assertThat(usage / 10_000).isBetween(40L, 80L);
        }
    }

    private static String[] command(SplittableRandom r) {
        String k = KEYS[r.nextInt(KEYS.length)];
        String k2 = KEYS[r.nextInt(KEYS.length)];
        String m = member(r);
        String n = String.valueOf(r.nextInt(20) - 5);
        switch (r.nextInt(34)) {
            case 0: return new String[] {"SET", k, m};
            case 1: return new String[] {"APPEND", k, m.repeat(1 + r.nextInt(40))};
            case 2: return new String[] {"SETRANGE", k, String.valueOf(r.nextInt(100)), m};
            case 3: return new String[] {"INCRBY", k, n};
            case 4: return new String[] {"GETDEL", k};
            case 5: return new String[] {"HSET", k, m, m.repeat(1 + r.nextInt(30))};
            case 6: return new String[] {"HDEL", k, m};
            case 7: return new String[] {"HINCRBY", k, m, n};
            case 8: return new String[] {"SADD", k, m, String.valueOf(r.nextInt(30))};
            case 9: return new String[] {"SREM", k, m};
            case 10: return new String[] {"SPOP", k, String.valueOf(r.nextInt(3))};
            case 11: return new String[] {"SINTERSTORE", k, k2, k};
            case 12: return new String[] {"SMOVE", k, k2, m};
            case 13: return zadd(k, r);
            case 14: return new String[] {"ZREM", k, m, member(r)};
            case 15: return new String[] {"ZINCRBY", k, n, m};
            case 16: return new String[] {"ZREMRANGEBYRANK", k, String.valueOf(r.nextInt(10)), String.valueOf(r.nextInt(30))};
            case 17: return new String[] {"ZPOPMIN", k, String.valueOf(1 + r.nextInt(5))};
            case 18: return new String[] {"ZUNIONSTORE", k, "2", k, k2};
            case 19: return new String[] {"ZRANGESTORE", k, k2, "0", String.valueOf(r.nextInt(20))};
            case 20: return new String[] {"DEL", k};
            case 21: return new String[] {"RENAME", k, k2};
            case 22: return new String[] {"COPY", k, k2, "REPLACE"};
            case 23: return new String[] {"MOVE", k, "1"};
            case 24: return new String[] {"EXPIRE", k, String.valueOf(1 + r.nextInt(3))};
            case 25: return new String[] {"PERSIST", k};
            case 26: return new String[] {"SWAPDB", "0", "1"};
            case 27: return new String[] {"SELECT", String.valueOf(r.nextInt(2))};
            case 28: return new String[] {"GET", k};
            case 29: return new String[] {"OBJECT", "ENCODING", k};
            case 30: return new String[] {"ZREMRANGEBYSCORE", k, "-inf", n};
            case 31: return new String[] {"HGETALL", k};
            case 32: return new String[] {"SDIFFSTORE", k, k2, k};
            default: return r.nextInt(20) == 0 ? new String[] {"FLUSHDB"} : new String[] {"ZMPOP", "1", k, "MAX", "COUNT", "3"};
        }
    }

    private static String[] zadd(String key, SplittableRandom r) {
        int count = 1 + r.nextInt(r.nextInt(4) == 0 ? 200 : 6);
        List<String> args = new ArrayList<>(List.of("ZADD", key));
        for (int i = 0; i < count; i++) {
            args.add(String.valueOf(r.nextInt(50)));
            args.add(member(r) + r.nextInt(300));
        }
        return args.toArray(new String[0]);
    }

    private static String member(SplittableRandom r) {
        return r.nextInt(10) == 0 ? "long-member-".repeat(1 + r.nextInt(8)) : String.valueOf((char) ('a' + r.nextInt(6)));
    }
}
