package dev.ordo.server.compat;

import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.ReplyComparison;
import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Corners found by probing Ordo beside a real {@code redis-server} (CONFIG SET's checks, CLIENT
 * REPLY and LIST, DEBUG and protected settings, script reply types), kept as scenarios: each
 * scenario's commands go pipelined on a new connection to both servers, followed by
 * {@code PING end}, and the replies up to {@code end} must match one for one (commands whose
 * replies are switched off answer nothing). Each scenario puts back what it changed.
 */
class CornerCasesOverWireTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    static Stream<Arguments> scenarios() {
        return Stream.of(
                scenario("a run of CLIENT REPLY SKIPs skips only the next command",
                        "CLIENT REPLY SKIP", "CLIENT REPLY SKIP", "PING a", "PING b", "CLIENT REPLY SKIP", "PING c", "PING d"),
                scenario("CLIENT REPLY SKIP while OFF changes nothing, and ON answers",
                        "CLIENT REPLY OFF", "PING x", "CLIENT REPLY SKIP", "PING y", "CLIENT REPLY ON", "PING z"),
                scenario("CLIENT LIST ID with ids no client has lists nobody; a word is refused",
                        "CLIENT LIST ID 0 -1 99999999", "CLIENT LIST ID 1 x"),
                scenario("proto-max-bulk-len takes 1mb and more, so no setting can lock clients out",
                        "CONFIG SET proto-max-bulk-len 1", "CONFIG SET proto-max-bulk-len 1048575",
                        "CONFIG SET proto-max-bulk-len 99999999999999999999", "CONFIG SET proto-max-bulk-len -1",
                        "CONFIG SET client-query-buffer-limit 1k", "CONFIG GET proto-max-bulk-len",
                        "CONFIG SET proto-max-bulk-len 1mb", "CONFIG GET proto-max-bulk-len", "CONFIG SET proto-max-bulk-len 512mb"),
                scenario("numbers are read as Redis reads them: no '+', no leading zero or space; units in any case",
                        "CONFIG SET hz +5", "CONFIG SET hz 05", "CONFIG SET hz \" 5\"", "CONFIG SET hz -0", "CONFIG SET hz 1e3",
                        "CONFIG SET proto-max-bulk-len \" 1gb\"", "CONFIG SET proto-max-bulk-len +1mb",
                        "CONFIG SET proto-max-bulk-len 01MB", "CONFIG GET proto-max-bulk-len", "CONFIG SET proto-max-bulk-len 512mb",
                        "CONFIG GET hz"),
                scenario("hz takes any int and keeps it within 1 to 500",
                        "CONFIG SET hz 0", "CONFIG GET hz", "CONFIG SET hz 1000", "CONFIG GET hz", "CONFIG SET hz -1",
                        "CONFIG SET hz 10", "CONFIG GET hz"),
                scenario("save takes pairs of seconds and changes, shown as numbers",
                        "CONFIG SET save bad", "CONFIG SET save 100", "CONFIG SET save \"100 10 20\"", "CONFIG SET save \"0 5\"",
                        "CONFIG SET save \"10 -1\"", "CONFIG SET save \"10  20\"", "CONFIG SET save \"0100 +5\"", "CONFIG GET save",
                        "CONFIG SET save \"\"", "CONFIG GET save"),
                scenario("notify-keyspace-events takes Redis's classes and shows them in Redis's order",
                        "CONFIG SET notify-keyspace-events Q", "CONFIG SET notify-keyspace-events KEA",
                        "CONFIG GET notify-keyspace-events", "CONFIG SET notify-keyspace-events AnKE",
                        "CONFIG GET notify-keyspace-events", "CONFIG SET notify-keyspace-events Eg$zzn",
                        "CONFIG GET notify-keyspace-events", "CONFIG SET notify-keyspace-events \"\"",
                        "CONFIG GET notify-keyspace-events"),
                scenario("number parameters have Redis's ranges and defaults",
                        "CONFIG SET zset-max-listpack-entries -1", "CONFIG SET hash-max-ziplist-entries -1",
                        "CONFIG SET slowlog-max-len -1", "CONFIG SET slowlog-log-slower-than -2", "CONFIG SET maxclients 0",
                        "CONFIG SET zset-max-listpack-value -1", "CONFIG SET zset-max-listpack-value 99999999999999999999",
                        "CONFIG GET hash-max-listpack-entries", "CONFIG GET zset-max-listpack-entries"),
                scenario("DEBUG and the paths the server writes to are refused by default, as in Redis 7",
                        "DEBUG SLEEP 0", "DEBUG OBJECT nokey", "CONFIG SET dir /tmp", "CONFIG SET dbfilename x.rdb",
                        "CONFIG SET dir /no/such/dir", "CONFIG SET set-max-intset-entries 512 dir \"\"",
                        "CONFIG SET maxclients 100 dir /tmp", "CONFIG GET maxclients", "CONFIG GET enable-debug-command",
                        "CONFIG GET enable-protected-configs", "CONFIG SET enable-debug-command yes"),
                scenario("a script's big_number is a RESP3 big number, and a bulk string in RESP2",
                        "CLIENT REPLY SKIP", "HELLO 3", "EVAL \"return {big_number='123456789012345678901234567890'}\" 0",
                        "CLIENT REPLY SKIP", "HELLO 2",
                        "EVAL \"return {big_number='-7'}\" 0"),
                scenario("a script's verbatim_string format goes out as three bytes, cut or padded with spaces",
                        "CLIENT REPLY SKIP", "HELLO 3", "EVAL \"return {verbatim_string={format='markdown',string='hi'}}\" 0",
                        "EVAL \"return {verbatim_string={format='ab',string='hi'}}\" 0",
                        "EVAL \"return {verbatim_string={format='',string=''}}\" 0", "CLIENT REPLY SKIP", "HELLO 2",
                        "EVAL \"return {verbatim_string={format='markdown',string='hi'}}\" 0"),
                scenario("COPY keeps a listpack sorted set a listpack, whatever the limits say now",
                        "DEL ca cb", "ZADD ca 1 x 2 y", "CONFIG SET zset-max-listpack-entries 1", "COPY ca cb", "OBJECT ENCODING cb",
                        "ZADD cb 3 z", "OBJECT ENCODING cb", "CONFIG SET zset-max-listpack-entries 128", "ZRANGE cb 0 -1 WITHSCORES",
                        "DEL ca cb"),
                scenario("under an LFU policy OBJECT FREQ counts accesses: 5 for a new key, 6 after its first read",
                        "DEL lf lh", "CONFIG SET lfu-decay-time 0", "CONFIG SET maxmemory-policy ALLKEYS-LFU",
                        "CONFIG GET maxmemory-policy", "SET lf x", "OBJECT FREQ lf", "GET lf", "OBJECT FREQ lf", "OBJECT IDLETIME lf",
                        // Past 5 an access counts with probability 1/((c-5)*factor+1): factor 0 makes every one count.
                        "HSET lh f v", "HGET lh f", "OBJECT FREQ lh", "CONFIG SET lfu-log-factor -1",
                        "CONFIG GET lfu-log-factor", "CONFIG SET lfu-log-factor 0", "SET lf y", "OBJECT FREQ lf", "GET lf", "OBJECT FREQ lf",
                        "RENAME lf lr", "OBJECT FREQ lr", "MOVE lr 1", "SELECT 1", "OBJECT FREQ lr", "COPY lr lc", "OBJECT FREQ lc",
                        "DEL lr lc", "SELECT 0", "CONFIG SET lfu-log-factor 10", "CONFIG SET maxmemory-policy noeviction",
                        "OBJECT FREQ lh", "CONFIG SET lfu-decay-time 1", "DEL lf lh"),
                scenario("a lowered slowlog-max-len applies at once, though no command is slow",
                        "CONFIG SET slowlog-log-slower-than 0", "SLOWLOG RESET", "PING", "PING", "PING",
                        "CONFIG SET slowlog-log-slower-than 1000000", "SLOWLOG LEN", "CONFIG SET slowlog-max-len 2", "SLOWLOG LEN",
                        "CONFIG SET slowlog-max-len 0", "SLOWLOG LEN", "CONFIG SET slowlog-max-len 128",
                        "CONFIG SET slowlog-log-slower-than 10000"),
                // Replies compare doubles by value, where -0 equals 0: the scripts make the sign text.
                scenario("a listpack keeps no negative zero score; a skiplist and an unstored ZUNION keep -0",
                        "DEL nz nzd nzs", "ZADD nz -0 a 1 b", "EVAL \"return 'a '..redis.call('zscore',KEYS[1],'a')\" 1 nz",
                        "ZADD nz XX -0 b", "EVAL \"return 'b '..redis.call('zscore',KEYS[1],'b')\" 1 nz",
                        "EVAL \"local r = redis.call('zunion',1,KEYS[1],'WEIGHTS',-1,'WITHSCORES') return r[2]..' '..r[4]\" 1 nz",
                        "ZUNIONSTORE nzd 1 nz WEIGHTS -1", "EVAL \"return redis.call('zrange',KEYS[1],0,-1,'WITHSCORES')[2]\" 1 nzd",
                        "CONFIG SET zset-max-listpack-entries 0", "ZADD nzs -0 c", "EVAL \"return 'c '..redis.call('zscore',KEYS[1],'c')\" 1 nzs",
                        "ZRANGESTORE nzd nzs 0 -1", "EVAL \"return 'c '..redis.call('zscore',KEYS[1],'c')\" 1 nzd",
                        "CONFIG SET zset-max-listpack-entries 128", "ZRANGESTORE nzd nzs 0 -1",
                        "EVAL \"return 'c '..redis.call('zscore',KEYS[1],'c')\" 1 nzd", "DEL nz nzd nzs"),
                scenario("total_commands_processed counts commands that ran, nested ones too; not refused or queued ones",
                        "CONFIG RESETSTAT", "PING", "MULTI", "SET tc 1", "GET tc", "EXEC", "NOSUCH", "GET tc x", "CLIENT FOO",
                        "EVAL \"return string.match(redis.call('info','stats'),'total_commands_processed:(%d+)')\" 0",
                        "EVAL \"return string.find(redis.call('info','commandstats'),'cmdstat_client:') and 1 or 0\" 0",
                        "DEL tc"),
                scenario("CLIENT NO-EVICT takes ON or OFF",
                        "CLIENT NO-EVICT on", "CLIENT NO-EVICT maybe", "CLIENT NO-EVICT", "CLIENT NO-EVICT OFF"),
                scenario("lex ranges on a set whose scores differ: empty when Redis's first and last members test says so",
                        "DEL lz", "ZADD lz 5 a 1 m2 3 b", "ZRANGEBYLEX lz [m1 [zz", "ZLEXCOUNT lz [m1 [zz", "ZRANGEBYLEX lz [b +",
                        "ZREVRANGEBYLEX lz + [b", "ZRANGE lz [b + BYLEX", "ZREMRANGEBYLEX lz [m1 [zz", "ZRANGE lz 0 -1", "DEL lz"),
                scenario("ZRANDMEMBER with a count past the size answers the whole set, highest first",
                        "DEL rz", "ZADD rz 1 a 2 b 3 c", "ZRANDMEMBER rz 5 WITHSCORES", "ZRANDMEMBER rz 3",
                        "CLIENT REPLY SKIP", "HELLO 3", "ZRANDMEMBER rz 4 WITHSCORES", "CLIENT REPLY SKIP", "HELLO 2", "DEL rz"),
                scenario("BZMPOP checks numkeys, direction and COUNT before its timeout",
                        "BZMPOP abc 0 bz MIN", "BZMPOP abc 1 bz LEFT", "BZMPOP -1 1 bz MIN COUNT 0", "BZMPOP abc 1 bz MIN"),
                scenario("COMMAND GETKEYS finds keys by position and by key count, with Redis's errors",
                        "COMMAND GETKEYS ZUNIONSTORE dst 2 a b", "COMMAND GETKEYS zunion 2 a b WEIGHTS 1 2", "COMMAND GETKEYS EVAL \"return 1\" 0",
                        "COMMAND GETKEYS EVAL \"return 1\" 2 k1 k2 a1", "COMMAND GETKEYS FCALL f x", "COMMAND GETKEYS ZUNION x a",
                        "COMMAND GETKEYS ZUNION 3 a b", "COMMAND GETKEYS BZMPOP 0 2 a b MIN", "COMMAND GETKEYS MSET a 1 b 2",
                        "COMMAND GETKEYS MSET a 1 b", "COMMAND GETKEYS OBJECT ENCODING k", "COMMAND GETKEYS OBJECT",
                        "COMMAND GETKEYS OBJECT NOPE k", "COMMAND GETKEYS PING", "COMMAND GETKEYS NOSUCH a",
                        "COMMAND GETKEYS GET", "COMMAND GETKEYS GET a b", "COMMAND GETKEYS ZADD k 1 a",
                        "COMMAND GETKEYS DEL a b c", "COMMAND GETKEYS ZRANGESTORE d s 0 -1", "COMMAND GETKEYS SINTERCARD 2 a b LIMIT 1",
                        "COMMAND GETKEYS ZMPOP 1 a MIN COUNT 2", "COMMAND GETKEYS EVAL x 99999999999999999999 a", "COMMAND GETKEYS EVAL x \" 1\" a",
                        "COMMAND GETKEYS EVAL x 1x a", "COMMAND GETKEYS EVAL x -1 a", "COMMAND GETKEYS",
                        "COMMAND GETKEYS BZPOPMIN a b 0", "COMMAND GETKEYS RENAME a b", "COMMAND GETKEYS MEMORY USAGE k",
                        "COMMAND GETKEYS SMOVE a b m", "COMMAND GETKEYS COPY a b DB 1", "COMMAND GETKEYS MGET a b c",
                        "COMMAND GETKEYS EXISTS a", "COMMAND GETKEYS ZINTERSTORE d 0 a", "COMMAND GETKEYS ZDIFFSTORE d 1 a b",
                        "COMMAND GETKEYS SUNIONSTORE d a b", "COMMAND GETKEYS SCAN 0", "COMMAND GETKEYS EVALSHA abc 1 k",
                        "COMMAND GETKEYS OBJECT HELP", "COMMAND GETKEYS CLIENT KILL ID 1", "COMMAND GETKEYS MSETNX a 1",
                        "COMMAND GETKEYS HSET h f v f2 v2", "COMMAND GETKEYS ZINTERCARD 1 a", "COMMAND GETKEYS TOUCH a b",
                        "COMMAND GETKEYS SETRANGE k 0 v"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void sameRepliesAsRedis(String name, List<byte[][]> commands) throws IOException {
        List<Reply> redis = replies(SERVERS.redis().port(), commands);
        List<Reply> ordo = replies(SERVERS.ordoPort(), commands);
        assertThat(ordo).as("replies of Ordo, beside Redis's %s", redis).hasSameSizeAs(redis);
        for (int i = 0; i < redis.size(); i++) {
            assertThat(ReplyComparison.difference(ordo.get(i), redis.get(i), false)).as("reply %d: Redis %s, Ordo %s", i,
                    redis.get(i), ordo.get(i)).isNull();
        }
    }

    private static Arguments scenario(String name, String... commands) {
        return Arguments.of(name, Arrays.stream(commands).map(SideBySide::words).toList());
    }

    /** The replies to {@code commands}, pipelined on a new connection, before the final {@code PING end}'s. */
    private static List<Reply> replies(int port, List<byte[][]> commands) throws IOException {
        try (RespSocket socket = new RespSocket(port)) {
            for (byte[][] command : commands) {
                socket.send(command);
            }
            socket.send(SideBySide.words("PING end"));
            List<Reply> out = new ArrayList<>();
            for (Reply r = socket.read(); !"end".equals(r.textString()); r = socket.read()) {
                out.add(r);
            }
            return out;
        }
    }
}
