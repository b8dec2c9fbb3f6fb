package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyspace notifications against an Ordo server and a real {@code redis-server}: a RESP2
 * subscriber of {@code __key*__:*} hears a corpus of commands from every family Ordo has
 * (generic, strings, hashes, sets, sorted sets, with blocking pops, MULTI, a script and a lazy
 * expiry), run on another connection under one {@code notify-keyspace-events} setting; the
 * notifications, channel and payload in order, must be the same from both servers. The
 * subscriber also listens on a marker channel, published to after the corpus, so it knows it
 * has heard everything. Active expiry is off meanwhile, so the one expiry is the lazy one the
 * corpus provokes.
 */
class KeyspaceNotificationsOverWireTest {
    private static final String MARKER = "end-of-corpus";

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide(java.util.Map.of("enable-debug-command", "local"));
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    @ParameterizedTest(name = "notify-keyspace-events {0}")
    @ValueSource(strings = {"KEA", "Kz", "Eg$", "KEhs", "KEnxm", "KEl"})
    void theCorpusSendsTheSameNotificationsAsRedis(String classes) throws Exception {
        List<String> redis = notifications(SERVERS.redis().port(), classes);
        List<String> ordo = notifications(SERVERS.ordoPort(), classes);
        assertThat(redis).as("Redis sends notifications for %s", classes).isNotEmpty();
        assertThat(ordo).containsExactlyElementsOf(redis);
    }

    /** Every notification the subscriber hears while the corpus runs with {@code classes}, as "channel payload". */
    private List<String> notifications(int port, String classes) throws Exception {
        RawClient admin = clients.open(port);
        admin.call("FLUSHALL");
        assertThat(admin.call("DEBUG", "SET-ACTIVE-EXPIRE", "0")).isEqualTo("+OK\r\n");
        assertThat(admin.call("CONFIG", "SET", "notify-keyspace-events", classes)).isEqualTo("+OK\r\n");
        try {
            RawClient sub = clients.open(port);
            sub.call("SUBSCRIBE", MARKER);
            sub.call("PSUBSCRIBE", "__key*__:*");
            runCorpus(port, clients.open(port));
            admin.call("PUBLISH", MARKER, "done");
            List<String> heard = new ArrayList<>();
            while (true) {
                List<String> message = parts(sub.reply());
                if (message.get(0).equals("message")) {
                    assertThat(message).containsExactly("message", MARKER, "done");
                    return heard;
                }
                assertThat(message.get(0)).isEqualTo("pmessage");
                heard.add(message.get(2) + " " + message.get(3));
            }
        } finally {
            admin.call("CONFIG", "SET", "notify-keyspace-events", "");
            admin.call("DEBUG", "SET-ACTIVE-EXPIRE", "1");
            admin.call("FLUSHALL");
        }
    }

    /** The commands, each family's edge cases included: nothing changed, a key created, a key emptied. */
    private static void runCorpus(int port, RawClient c) throws Exception {
        String[][] strings = {
            {"SET", "s1", "v"}, {"SET", "s1", "v2", "EX", "100"}, {"SET", "s1", "v3", "KEEPTTL"},
            {"SET", "s1", "v4", "NX"}, {"SET", "s2", "v", "XX"}, {"SET", "s1", "v5", "GET"}, {"SETNX", "s2", "a"},
            {"SETNX", "s2", "b"}, {"SETEX", "s3", "100", "x"}, {"PSETEX", "s4", "100000", "y"},
            {"MSET", "m1", "a", "m2", "b"}, {"MSETNX", "m1", "a", "m3", "c"}, {"MSETNX", "m3", "c", "m4", "d"},
            {"APPEND", "s2", "more"}, {"APPEND", "ap", "x"}, {"INCR", "n1"}, {"DECR", "n1"}, {"INCRBY", "n1", "5"},
            {"DECRBY", "n1", "2"}, {"INCRBYFLOAT", "f1", "1.5"}, {"SETRANGE", "s2", "1", "XY"},
            {"SETRANGE", "sr", "0", ""}, {"SETRANGE", "sr2", "3", "abc"}, {"GETDEL", "m4"}, {"GETDEL", "nosuch"},
            {"GETEX", "s3", "PERSIST"}, {"GETEX", "s3", "PERSIST"}, {"GETEX", "s1", "EX", "200"},
            {"GETEX", "s2", "PXAT", "1"}, {"GETEX", "s1"}, {"GET", "nosuch"}, {"STRLEN", "nosuch"},
        };
        String[][] generic = {
            {"EXPIRE", "m1", "100"}, {"EXPIRE", "m1", "50", "NX"}, {"PEXPIRE", "m1", "1000000", "GT"},
            {"PEXPIREAT", "m2", "1"}, {"EXPIRE", "nosuch", "10"}, {"PERSIST", "m1"}, {"PERSIST", "m1"},
            {"DEL", "m3", "nosuch", "s3"}, {"UNLINK", "sr2"}, {"RENAME", "n1", "n2"}, {"RENAME", "n2", "n2"},
            {"RENAMENX", "f1", "n2"}, {"RENAME", "f1", "n2"}, {"COPY", "n2", "c1"}, {"COPY", "n2", "c1"},
            {"COPY", "n2", "c1", "REPLACE"}, {"COPY", "n2", "c1", "DB", "1"}, {"MOVE", "c1", "1"},
            {"MOVE", "ap", "1"}, {"EXISTS", "nosuch"}, {"TYPE", "nosuch"}, {"TTL", "nosuch"},
            {"SELECT", "1"}, {"SET", "in1", "x"}, {"DEL", "ap"}, {"SELECT", "0"}, {"TOUCH", "nosuch"},
        };
        String[][] hashes = {
            {"HSET", "h", "f1", "1", "f2", "2"}, {"HSET", "h", "f1", "1"}, {"HMSET", "h", "f3", "3"},
            {"HSETNX", "h", "f1", "x"}, {"HSETNX", "h", "f4", "x"}, {"HINCRBY", "h", "f1", "5"},
            {"HINCRBYFLOAT", "h", "f2", "0.5"}, {"HDEL", "h", "nosuch"}, {"HDEL", "h", "f1", "f2"},
            {"HDEL", "h", "f3", "f4"}, {"HGET", "h", "f1"}, {"HINCRBY", "h2", "x", "1"}, {"HDEL", "nosuch", "f"},
        };
        String[][] sets = {
            {"SADD", "st", "a", "b", "c"}, {"SADD", "st", "a"}, {"SREM", "st", "nosuch"}, {"SREM", "st", "a"},
            {"SPOP", "st"}, {"SADD", "st2", "1", "2", "3", "4", "5"}, {"SPOP", "st2", "2"}, {"SPOP", "st2", "0"},
            {"SPOP", "st2", "10"}, {"SPOP", "nosuch"}, {"SADD", "sa", "x", "y"}, {"SADD", "sb", "y", "z"},
            {"SMOVE", "sa", "sb", "x"}, {"SMOVE", "sa", "sb", "y"}, {"SMOVE", "sb", "sb", "y"},
            {"SMOVE", "sb", "ns", "z"}, {"SMOVE", "sb", "ns", "nosuch"}, {"SINTERSTORE", "si", "sb", "ns"},
            {"SUNIONSTORE", "su", "sb", "ns"}, {"SDIFFSTORE", "su", "sb", "sb"}, {"SINTERSTORE", "si2", "sb", "sb"},
            {"SINTERSTORE", "si2", "sb", "nosuch"}, {"SREM", "ns", "z"}, {"SMEMBERS", "nosuch"},
        };
        String[][] zsets = {
            {"ZADD", "z", "1", "a", "2", "b", "3", "c"}, {"ZADD", "z", "1", "a"}, {"ZADD", "z", "5", "a"},
            {"ZADD", "z", "NX", "9", "a"}, {"ZADD", "z", "XX", "1", "nosuch"}, {"ZADD", "z", "CH", "6", "a"},
            {"ZADD", "z", "INCR", "1", "b"}, {"ZADD", "z", "INCR", "0", "b"}, {"ZINCRBY", "z", "0", "b"},
            {"ZINCRBY", "z", "2", "d"}, {"ZADD", "zx", "XX", "1", "a"}, {"ZADD", "z", "GT", "1", "a"},
            {"ZREM", "z", "nosuch"}, {"ZREM", "z", "d"}, {"ZREMRANGEBYSCORE", "z", "100", "200"},
            {"ZREMRANGEBYSCORE", "z", "0", "1"}, {"ZREMRANGEBYRANK", "z", "0", "0"},
            {"ZADD", "zl", "0", "a", "0", "b", "0", "c", "0", "d"}, {"ZREMRANGEBYLEX", "zl", "[a", "[b"},
            {"ZREMRANGEBYLEX", "zl", "[x", "[y"}, {"ZPOPMIN", "zl"}, {"ZPOPMAX", "zl", "5"}, {"ZPOPMIN", "nosuch"},
            {"ZADD", "z2", "1", "x", "2", "y", "3", "z"}, {"ZPOPMIN", "z2", "0"},
            {"ZMPOP", "2", "nosuch", "z2", "MIN", "COUNT", "2"}, {"ZUNIONSTORE", "zu", "2", "z", "z2"},
            {"ZINTERSTORE", "zi", "2", "z", "z2"}, {"ZINTERSTORE", "zu", "2", "z", "nosuch"},
            {"ZDIFFSTORE", "zd", "1", "z"}, {"ZRANGESTORE", "zr", "z", "0", "0"}, {"ZRANGESTORE", "zr", "z", "10", "20"},
            {"BZPOPMIN", "z", "0"}, {"BZMPOP", "0", "1", "z", "MAX"}, {"ZREM", "z2", "z"}, {"ZSCORE", "nosuch", "a"},
        };
        String[][] lists = {
            {"RPUSH", "l", "a", "b", "c", "d"}, {"LPUSH", "l", "z"}, {"LPUSHX", "nosuch", "x"}, {"RPUSHX", "l", "e"},
            {"LINSERT", "l", "BEFORE", "c", "x"}, {"LINSERT", "l", "AFTER", "nosuch", "x"}, {"LSET", "l", "0", "y"},
            {"LREM", "l", "0", "nosuch"}, {"LREM", "l", "1", "x"}, {"LTRIM", "l", "0", "-1"}, {"LTRIM", "l", "1", "-1"},
            {"LPOP", "l"}, {"RPOP", "l", "2"}, {"LPOP", "l", "0"}, {"LPOP", "nosuch"}, {"RPUSH", "l2", "1", "2"},
            {"LMOVE", "l", "l2", "LEFT", "RIGHT"}, {"RPOPLPUSH", "l", "l3"}, {"LMOVE", "l2", "l2", "LEFT", "LEFT"},
            {"LMPOP", "2", "nosuch", "l2", "RIGHT", "COUNT", "10"}, {"RPUSH", "l4", "a"}, {"LTRIM", "l4", "5", "6"},
            {"RPUSH", "l5", "a", "a"}, {"LREM", "l5", "0", "a"}, {"BLPOP", "l3", "0"}, {"BLMOVE", "nosuch", "l", "LEFT", "LEFT", "0.01"},
            {"LRANGE", "nosuch", "0", "-1"},
        };
        for (String[][] family : List.of(strings, generic, hashes, sets, zsets, lists)) {
            for (String[] command : family) {
                c.call(command);
            }
        }
        // A blocked pop, served by a later ZADD: the pop's events come after the ZADD's.
        RawClient waiter = new RawClient(port);
        try {
            waiter.send(RawClient.command("BZPOPMAX", "zb", "0"));
            awaitBlocked(c, 1);
            c.call("ZADD", "zb", "1", "m");
            assertThat(waiter.reply()).startsWith("*3\r\n");
            waiter.send(RawClient.command("BZMPOP", "0", "1", "zb2", "MIN", "COUNT", "5"));
            awaitBlocked(c, 1);
            c.call("ZADD", "zb2", "1", "m", "2", "n");
            assertThat(waiter.reply()).startsWith("*2\r\n");
            waiter.send(RawClient.command("BLMOVE", "lb", "lb2", "LEFT", "RIGHT", "0"));
            awaitBlocked(c, 1);
            c.call("RPUSH", "lb", "m", "n");
            assertThat(waiter.reply()).isEqualTo("$1\r\nm\r\n");
        } finally {
            waiter.close();
        }
        // A transaction and a script: each command's events as it runs.
        c.call("MULTI");
        c.call("SET", "t", "1");
        c.call("INCR", "t");
        c.call("ZADD", "tz", "1", "a");
        c.call("EXEC");
        c.call("EVAL", "redis.call('sadd', KEYS[1], 'x') redis.call('del', KEYS[1]) return redis.call('get', KEYS[2])",
                "2", "ev", "nosuch");
        // A lazy expiry: the key's time passes, then a read finds it expired (and misses).
        c.call("SET", "ex", "v", "PX", "1");
        c.call("HSET", "exh", "f", "v");
        c.call("PEXPIRE", "exh", "1");
        Thread.sleep(20);
        c.call("GET", "ex");
        c.call("EXISTS", "exh");
    }

    /** Waits until {@code count} clients are blocked (INFO's blocked_clients). */
    private static void awaitBlocked(RawClient c, int count) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!c.call("INFO", "clients").contains("\r\nblocked_clients:" + count + "\r\n")) {
            assertThat(System.nanoTime()).as("a client blocks").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** The bulk strings of a RESP2 array of bulk strings. */
    private static List<String> parts(String reply) {
        List<String> out = new ArrayList<>();
        String[] lines = reply.split("\r\n");
        for (int i = 1; i + 1 < lines.length; i += 2) {
            out.add(lines[i + 1]);
        }
        return out;
    }
}
