package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.persist.rdb.RdbTestSupport.DataSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.ordo.engine.persist.rdb.RdbTestSupport.bytes;
import static dev.ordo.engine.persist.rdb.RdbTestSupport.latin1;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lists in RDB files both ways with redis-server 7.0: Ordo reads the quicklist-2 nodes Redis saves
 * (packed, LZF-compressed with list-compress-depth, and plain nodes after DEBUG
 * QUICKLIST-PACKED-THRESHOLD), and Redis, with deep payload sanitization, loads the lists Ordo
 * writes (listpack and quicklist encodings, compressed inner nodes, plain nodes).
 */
class ListRdbExchangeTest {
    /** The lists both directions use: name to elements. */
    private static Map<String, List<String>> lists() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            many.add(i % 7 == 0 ? String.valueOf(i * 1_000_003L - 70000) : "element-" + i + "-" + "z".repeat(i % 30));
        }
        List<String> large = new ArrayList<>(List.of("a", "q".repeat(9000), "b", "r".repeat(20_000), "c"));
        return Map.of("small", List.of("a", "1", "-1", "127", "-4096", "9223372036854775807", "01", "", "x y"),
                "many", many, "large", large);
    }

    @Test
    void ordoReadsWhatRedisSaves() throws Exception {
        try (RedisServer redis = RedisServer.start("--list-compress-depth", "1", "--enable-debug-command", "yes");
             RespSocket s = new RespSocket(redis.port())) {
            call(s, "DEBUG", "QUICKLIST-PACKED-THRESHOLD", "8000");
            for (Map.Entry<String, List<String>> e : lists().entrySet()) {
                List<String> push = new ArrayList<>(List.of("RPUSH", e.getKey()));
                push.addAll(e.getValue());
                call(s, push.toArray(String[]::new));
            }
            call(s, "SAVE");
            DataSet ordo = new DataSet();
            dev.ordo.engine.config.Config config = new dev.ordo.engine.config.Config();
            config.set("list-compress-depth", "1", true);
            RdbReader.read(redis.dir().resolve("dump.rdb"), ordo, config);
            for (Map.Entry<String, List<String>> e : lists().entrySet()) {
                ListValue list = (ListValue) ordo.dbs.get(0).get(Key.of(bytes(e.getKey()))).value();
                list.checkInvariants();
                assertThat(elements(list)).as(e.getKey()).isEqualTo(e.getValue());
            }
            ListValue large = (ListValue) ordo.dbs.get(0).get(Key.of(bytes("large"))).value();
            assertThat(large.isPlain(1)).as("a plain node from Redis stays plain").isTrue();
            ListValue many = (ListValue) ordo.dbs.get(0).get(Key.of(bytes("many"))).value();
            assertThat(many.encoding()).isEqualTo(ListValue.Encoding.QUICKLIST);
            assertThat(many.isCompressed(1)).isTrue();
            ListValue small = (ListValue) ordo.dbs.get(0).get(Key.of(bytes("small"))).value();
            assertThat(small.encoding()).isEqualTo(ListValue.Encoding.LISTPACK);
        }
    }

    @Test
    void redisLoadsWhatOrdoWrites(@TempDir Path dir) throws Exception {
        DataSet source = new DataSet();
        ListValue.Limits compressing = new ListValue.Limits(-2, 1);
        for (Map.Entry<String, List<String>> e : lists().entrySet()) {
            ListValue list = new ListValue();
            for (String v : e.getValue()) {
                list.prepareForAdd(bytes(v), compressing);
                list.push(bytes(v), false);
            }
            source.put(0, Key.of(bytes(e.getKey())), list, -1);
        }
        for (boolean compress : new boolean[] {true, false}) {
            String name = "lists-" + compress + ".rdb";
            Files.write(dir.resolve(name), source.write(compress, true));
            try (RedisServer redis = RedisServer.start("--dir", dir.toString(), "--dbfilename", name,
                    "--sanitize-dump-payload", "yes");
                 RespSocket s = new RespSocket(redis.port())) {
                awaitLoaded(s);
                for (Map.Entry<String, List<String>> e : lists().entrySet()) {
                    List<String> got = new ArrayList<>();
                    call(s, "LRANGE", e.getKey(), "0", "-1").children().forEach(r -> got.add(r.textString()));
                    assertThat(got).as(e.getKey()).isEqualTo(e.getValue());
                }
                assertThat(call(s, "DBSIZE").integer()).isEqualTo(3);
            }
        }
    }

    private static List<String> elements(ListValue list) {
        List<String> out = new ArrayList<>();
        list.forEach((b, off, len) -> out.add(latin1(java.util.Arrays.copyOfRange(b, off, off + len))));
        return out;
    }

    private static Reply call(RespSocket s, String... args) throws IOException {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = bytes(args[i]);
        }
        Reply reply = s.call(raw);
        assertThat(reply.kind()).as(args[0] + " -> " + reply).isNotEqualTo(Reply.Kind.ERROR);
        return reply;
    }

    private static void awaitLoaded(RespSocket s) throws IOException, InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (s.call(bytes("PING")).kind() != Reply.Kind.ERROR) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("Redis is still loading");
    }
}
