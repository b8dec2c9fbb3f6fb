package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hash commands against replies and error texts checked on a real redis-server, the
 * listpack-to-hashtable conversion, HSCAN's resumable cursor and HRANDFIELD's reply shapes.
 */
class HashCommandsTest extends CommandTestSupport {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    private static final String SYNTAX = "ERR syntax error";

    private Object call(String... args) {
        return client.call(args);
    }

    private String text(String... args) {
        Object reply = client.call(args);
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    private List<String> strings(String... args) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) client.call(args)) {
            out.add(o == null ? null : new String((byte[]) o, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String encoding(String key) {
        AtomicReference<String> result = new AtomicReference<>();
        support.engine.withLock(() ->
                result.set(((HashValue) HostedEngine.of(support.engine).keyspace().db(0).entry(Key.of(key)).value()).encoding()));
        return result.get();
    }

    private void config(String name, String value) {
        support.engine.config().set(name, value, false);
    }

    /** Fields f0 .. f(n-1) with values v0 .. v(n-1), in one HSET. */
    private void fill(String key, int n) {
        List<String> args = new ArrayList<>(List.of("HSET", key));
        for (int i = 0; i < n; i++) {
            args.add("f" + i);
            args.add("v" + i);
        }
        call(args.toArray(new String[0]));
    }

    /** Replies as a list of events ("map:2", "bulk:a" ...), to see the reply's shape. */
    private List<String> shape(int protocol, String... args) {
        List<String> events = new ArrayList<>();
        ReplyWriter recorder = new ReplyWriter() {
            @Override
            public int protocol() {
                return protocol;
            }

            @Override
            public void simpleString(String status) {
                events.add("status:" + status);
            }

            @Override
            public void error(String text) {
                events.add("error:" + text);
            }

            @Override
            public void integer(long value) {
                events.add("int:" + value);
            }

            @Override
            public void bulk(byte[] value) {
                events.add("bulk:" + new String(value, StandardCharsets.UTF_8));
            }

            @Override
            public void bulk(byte[] buf, int off, int len) {
                events.add("bulk:" + new String(buf, off, len, StandardCharsets.UTF_8));
            }

            @Override
            public void nullBulk() {
                events.add("null");
            }

            @Override
            public void nullArray() {
                events.add("nullArray");
            }

            @Override
            public void arrayHeader(int count) {
                events.add("array:" + count);
            }

            @Override
            public void mapHeader(int pairs) {
                events.add("map:" + pairs);
            }

            @Override
            public void setHeader(int count) {
                events.add("set:" + count);
            }

            @Override
            public void doubleValue(double value) {
                events.add("double:" + value);
            }

            @Override
            public void bool(boolean value) {
                events.add("bool:" + value);
            }

            @Override
            public void verbatim(String format, byte[] text) {
                events.add("verbatim");
            }

            @Override
            public void pushHeader(int count) {
                events.add("push:" + count);
            }

            @Override
            public void attributeHeader(int pairs) {
                events.add("attribute:" + pairs);
            }
        };
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = bytes(args[i]);
        }
        HostedEngine.of(support.engine).execute(TestClients.session(client), raw, recorder, () -> { });
        return events;
    }

    @Test
    void hset_countsNewFieldsAndUpdatesInPlace() {
        assertThat(call("HSET", "h", "b", "1", "a", "2", "c", "3")).isEqualTo(3L);
        assertThat(call("HSET", "h", "a", "9", "d", "4")).isEqualTo(1L);
        assertThat(call("HSET", "h", "x", "1", "x", "2")).isEqualTo(1L);
        assertThat(strings("HGETALL", "h")).containsExactly("b", "1", "a", "9", "c", "3", "d", "4", "x", "2");
    }

    @Test
    void hset_oddArguments_isTheArityError() {
        fails("ERR wrong number of arguments for 'hset' command", "HSET", "h", "a", "1", "b");
        fails("ERR wrong number of arguments for 'hmset' command", "HMSET", "h", "a");
        fails("ERR wrong number of arguments for 'hset' command", "HSET", "h", "a");
        assertThat(call("HLEN", "h")).isEqualTo(0L);
    }

    @Test
    void hmset_repliesOk() {
        assertThat(call("HMSET", "h", "a", "1", "b", "2")).isEqualTo("OK");
        assertThat(text("HGET", "h", "b")).isEqualTo("2");
    }

    @Test
    void hset_onOtherType_isWrongType() {
        call("SET", "s", "x");
        fails(WRONGTYPE, "HSET", "s", "a", "1");
        fails(WRONGTYPE, "HMSET", "s", "a", "1");
        fails(WRONGTYPE, "HSETNX", "s", "a", "1");
        assertThat(text("GET", "s")).isEqualTo("x");
    }

    @Test
    void hset_binaryFieldsAndValues_roundTrip() {
        byte[] field = {'f', 0, '\r', '\n'};
        byte[] value = {0, (byte) 0xfe, '\r', '\n', 'v'};
        assertThat(client.call(bytes("HSET"), bytes("h"), field, value)).isEqualTo(1L);
        assertThat((byte[]) client.call(bytes("HGET"), bytes("h"), field)).isEqualTo(value);
        assertThat(client.call(bytes("HGET"), bytes("h"), new byte[] {'f', 0})).isNull();
        assertThat(client.call(bytes("HSTRLEN"), bytes("h"), field)).isEqualTo(5L);
        List<?> all = (List<?>) client.call(bytes("HGETALL"), bytes("h"));
        assertThat((byte[]) all.get(0)).isEqualTo(field);
        assertThat((byte[]) all.get(1)).isEqualTo(value);
    }

    @Test
    void hsetnx_setsOnlyNewFields() {
        assertThat(call("HSETNX", "h", "a", "1")).isEqualTo(1L);
        assertThat(call("HSETNX", "h", "a", "2")).isEqualTo(0L);
        assertThat(text("HGET", "h", "a")).isEqualTo("1");
    }

    @Test
    void hget_hmget_missingFieldsAndKeys() {
        call("HSET", "h", "a", "1");
        assertThat(call("HGET", "h", "zz")).isNull();
        assertThat(call("HGET", "nokey", "a")).isNull();
        assertThat(strings("HMGET", "h", "a", "zz", "a")).containsExactly("1", null, "1");
        assertThat(strings("HMGET", "nokey", "a", "b")).containsExactly(null, null);
        call("SET", "s", "x");
        fails(WRONGTYPE, "HGET", "s", "a");
        fails(WRONGTYPE, "HMGET", "s", "a");
    }

    @Test
    void hdel_countsRemovedFieldsOnce_andDeletesAnEmptyHash() {
        call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertThat(call("HDEL", "h", "a", "a", "zz")).isEqualTo(1L);
        assertThat(call("HDEL", "h", "b", "c")).isEqualTo(2L);
        assertThat(call("HLEN", "h")).isEqualTo(0L);
        assertThat(call("HSET", "h", "x", "1")).isEqualTo(1L);
        assertThat(call("HDEL", "nokey", "a")).isEqualTo(0L);
        call("SET", "s", "x");
        fails(WRONGTYPE, "HDEL", "s", "a");
    }

    @Test
    void hdel_lastField_removesTheKeyForOtherTypes() {
        call("HSET", "h", "a", "1");
        call("HDEL", "h", "a");
        assertThat(call("SET", "h", "now a string", "NX")).isEqualTo("OK");
    }

    @Test
    void hexists_hlen_hstrlen() {
        call("HSET", "h", "a", "hello", "b", "");
        assertThat(call("HEXISTS", "h", "a")).isEqualTo(1L);
        assertThat(call("HEXISTS", "h", "zz")).isEqualTo(0L);
        assertThat(call("HEXISTS", "nokey", "a")).isEqualTo(0L);
        assertThat(call("HLEN", "h")).isEqualTo(2L);
        assertThat(call("HLEN", "nokey")).isEqualTo(0L);
        assertThat(call("HSTRLEN", "h", "a")).isEqualTo(5L);
        assertThat(call("HSTRLEN", "h", "b")).isEqualTo(0L);
        assertThat(call("HSTRLEN", "h", "zz")).isEqualTo(0L);
        assertThat(call("HSTRLEN", "nokey", "a")).isEqualTo(0L);
        call("SET", "s", "x");
        fails(WRONGTYPE, "HEXISTS", "s", "a");
        fails(WRONGTYPE, "HLEN", "s");
        fails(WRONGTYPE, "HSTRLEN", "s", "a");
    }

    @Test
    void hkeysHvalsHgetall_listpackKeepsInsertionOrder() {
        call("HSET", "h", "b", "1", "a", "2", "c", "3");
        call("HSET", "h", "a", "9");
        call("HDEL", "h", "b");
        call("HSET", "h", "b", "0");
        assertThat(strings("HKEYS", "h")).containsExactly("a", "c", "b");
        assertThat(strings("HVALS", "h")).containsExactly("9", "3", "0");
        assertThat(strings("HGETALL", "h")).containsExactly("a", "9", "c", "3", "b", "0");
        assertThat(strings("HKEYS", "nokey")).isEmpty();
        assertThat(strings("HGETALL", "nokey")).isEmpty();
        call("SET", "s", "x");
        fails(WRONGTYPE, "HGETALL", "s");
    }

    @Test
    void hgetall_isAMapReply_inBothProtocols() {
        call("HSET", "h", "a", "1", "b", "2");
        assertThat(shape(3, "HGETALL", "h")).containsExactly("map:2", "bulk:a", "bulk:1", "bulk:b", "bulk:2");
        assertThat(shape(2, "HGETALL", "nokey")).containsExactly("map:0");
        assertThat(shape(3, "HKEYS", "h")).containsExactly("array:2", "bulk:a", "bulk:b");
    }

    @Test
    void hgetall_hashtable_returnsEveryPair() {
        fill("h", 300);
        Map<String, String> pairs = new LinkedHashMap<>();
        List<String> flat = strings("HGETALL", "h");
        for (int i = 0; i < flat.size(); i += 2) {
            pairs.put(flat.get(i), flat.get(i + 1));
        }
        assertThat(pairs).hasSize(300).containsEntry("f0", "v0").containsEntry("f299", "v299");
        assertThat(new HashSet<>(strings("HKEYS", "h"))).hasSize(300);
    }

    @Test
    void encoding_convertsPastTheEntryLimit_andNeverBack() {
        fill("h", 512); // hash-max-listpack-entries, Redis's default
        assertThat(encoding("h")).isEqualTo("listpack");
        call("HSET", "h", "one-more", "x");
        assertThat(encoding("h")).isEqualTo("hashtable");
        call("HDEL", "h", "one-more", "f0", "f1");
        assertThat(encoding("h")).isEqualTo("hashtable");
    }

    @Test
    void encoding_convertsForALongFieldOrValue() {
        call("HSET", "fits", "x".repeat(64), "y".repeat(64));
        call("HSET", "longField", "x".repeat(65), "y");
        call("HSET", "longValue", "x", "y".repeat(65));
        assertThat(encoding("fits")).isEqualTo("listpack");
        assertThat(encoding("longField")).isEqualTo("hashtable");
        assertThat(encoding("longValue")).isEqualTo("hashtable");
    }

    @Test
    void encoding_followsConfiguredLimits() {
        config("hash-max-listpack-entries", "2");
        call("HSET", "k", "a", "1", "b", "2");
        assertThat(encoding("k")).isEqualTo("listpack");
        call("HSET", "k", "c", "3");
        assertThat(encoding("k")).isEqualTo("hashtable");
        call("HSETNX", "n", "a", "1");
        call("HSETNX", "n", "b", "1");
        assertThat(encoding("n")).isEqualTo("listpack");
    }

    @Test
    void encoding_morePairsThanTheLimit_convertsEvenWithRepeatedFields() {
        config("hash-max-listpack-entries", "2");
        assertThat(call("HSET", "k", "a", "1", "a", "2", "a", "3")).isEqualTo(1L);
        assertThat(encoding("k")).isEqualTo("hashtable");
        call("HMSET", "m", "a", "1", "a", "2");
        assertThat(encoding("m")).isEqualTo("listpack");
    }

    @Test
    void encoding_incrementsThatGrowAValuePastTheLimit_convert() {
        config("hash-max-listpack-value", "3");
        call("HSET", "w", "f", "999");
        assertThat(call("HINCRBY", "w", "f", "1")).isEqualTo(1000L);
        assertThat(encoding("w")).isEqualTo("hashtable");
        call("HSET", "v", "a", "123");
        assertThat(text("HINCRBYFLOAT", "v", "a", "1000")).isEqualTo("1123");
        assertThat(encoding("v")).isEqualTo("hashtable");
        call("HSETNX", "x", "a", "1");
        assertThat(call("HSETNX", "x", "a", "12345")).isEqualTo(0L);
        assertThat(encoding("x")).isEqualTo("listpack");
    }

    @Test
    void hincrby_addsToTheIntegerOrZero() {
        assertThat(call("HINCRBY", "h", "n", "5")).isEqualTo(5L);
        assertThat(call("HINCRBY", "h", "n", "-7")).isEqualTo(-2L);
        assertThat(text("HGET", "h", "n")).isEqualTo("-2");
    }

    @Test
    void hincrby_errors() {
        call("HSET", "h", "s", " 5", "f", "5.5", "m", "9223372036854775807");
        fails("ERR hash value is not an integer", "HINCRBY", "h", "s", "1");
        fails("ERR hash value is not an integer", "HINCRBY", "h", "f", "1");
        fails("ERR increment or decrement would overflow", "HINCRBY", "h", "m", "1");
        fails(NOT_INTEGER, "HINCRBY", "h", "m", "1.5");
        call("SET", "s", "x");
        fails(NOT_INTEGER, "HINCRBY", "s", "a", "x");
        fails(WRONGTYPE, "HINCRBY", "s", "a", "1");
        assertThat(text("HGET", "h", "m")).isEqualTo("9223372036854775807");
    }

    @Test
    void hincrbyfloat_formatsLikeRedis() {
        call("HSET", "h", "a", "10.5", "n", "5");
        assertThat(text("HINCRBYFLOAT", "h", "a", "0.1")).isEqualTo("10.6");
        assertThat(text("HINCRBYFLOAT", "h", "n", "0.5")).isEqualTo("5.5");
        assertThat(text("HINCRBYFLOAT", "h", "new", "2.5")).isEqualTo("2.5");
        assertThat(text("HINCRBYFLOAT", "h", "x", "3.0e3")).isEqualTo("3000");
        assertThat(text("HGET", "h", "a")).isEqualTo("10.6");
    }

    @Test
    void hincrbyfloat_errors() {
        call("HSET", "h", "s", " 5", "i", "inf", "a", "1");
        fails("ERR hash value is not a float", "HINCRBYFLOAT", "h", "s", "1");
        fails("ERR increment would produce NaN or Infinity", "HINCRBYFLOAT", "h", "i", "1");
        fails("ERR value is NaN or Infinity", "HINCRBYFLOAT", "h", "a", "-inf");
        fails("ERR value is not a valid float", "HINCRBYFLOAT", "h", "a", "nan");
        fails("ERR value is not a valid float", "HINCRBYFLOAT", "h", "a", "abc");
        call("SET", "str", "x");
        fails("ERR value is not a valid float", "HINCRBYFLOAT", "str", "a", "x");
        fails("ERR value is NaN or Infinity", "HINCRBYFLOAT", "str", "a", "inf");
        fails(WRONGTYPE, "HINCRBYFLOAT", "str", "a", "1");
        assertThat(text("HGET", "h", "a")).isEqualTo("1");
    }

    @Test
    void hscan_listpack_returnsEverythingWithCursorZero() {
        call("HSET", "h", "a", "1", "b", "2", "c", "3");
        assertThat(scan("HSCAN", "h", "0", "COUNT", "1")).containsExactly("0", "a", "1", "b", "2", "c", "3");
        assertThat(scan("HSCAN", "h", "12345")).containsExactly("0", "a", "1", "b", "2", "c", "3");
        assertThat(scan("HSCAN", "h", "0", "MATCH", "*", "COUNT", "1", "MATCH", "b")).containsExactly("0", "b", "2");
        assertThat(scan("HSCAN", "h", "0", "match", "[ac]")).containsExactly("0", "a", "1", "c", "3");
    }

    @Test
    void hscan_cursorParsing_followsStrtoull() {
        call("HSET", "h", "a", "1");
        for (String cursor : new String[] {"-1", "+5", "007", "18446744073709551615", "", "-18446744073709551615"}) {
            assertThat(scan("HSCAN", "h", cursor)).containsExactly("0", "a", "1");
        }
        for (String cursor : new String[] {"-18446744073709551616", "18446744073709551616", "+", "-", "1 ", " 1", "x", "0x1"}) {
            fails("ERR invalid cursor", "HSCAN", "h", cursor);
        }
        fails("ERR invalid cursor", "HSCAN", "nokey", "x");
    }

    @Test
    void hscan_badOptions_areSyntaxErrors_butOnlyForAnExistingHash() {
        call("HSET", "h", "a", "1");
        fails(SYNTAX, "HSCAN", "h", "0", "COUNT", "0");
        fails(SYNTAX, "HSCAN", "h", "0", "COUNT", "-1");
        fails(NOT_INTEGER, "HSCAN", "h", "0", "COUNT", "x");
        fails(SYNTAX, "HSCAN", "h", "0", "MATCH");
        fails(SYNTAX, "HSCAN", "h", "0", "NOVALUES");
        assertThat(scan("HSCAN", "nokey", "0", "COUNT", "0")).containsExactly("0");
        call("SET", "s", "x");
        fails(WRONGTYPE, "HSCAN", "s", "0");
    }

    @Test
    void hscan_hashtable_resumesUntilEveryFieldIsSeen() {
        fill("h", 1000);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int steps = 0;
        do {
            List<String> reply = scan("HSCAN", "h", cursor, "COUNT", "10");
            cursor = reply.get(0);
            for (int i = 1; i < reply.size(); i += 2) {
                assertThat(reply.get(i + 1)).isEqualTo("v" + reply.get(i).substring(1));
                seen.add(reply.get(i));
            }
            steps++;
        } while (!cursor.equals("0"));
        assertThat(seen).hasSize(1000);
        assertThat(steps).isGreaterThan(10);
    }

    @Test
    void hscan_hashtable_survivesGrowthAndShrinkingMidScan() {
        fill("h", 600);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int round = 0;
        do {
            List<String> reply = scan("HSCAN", "h", cursor, "COUNT", "20");
            cursor = reply.get(0);
            for (int i = 1; i < reply.size(); i += 2) {
                seen.add(reply.get(i));
            }
            for (int i = 0; i < 100; i++) {
                if (round < 20) {
                    call("HSET", "h", "new" + round + "_" + i, "x");
                } else if (round < 40) {
                    call("HDEL", "h", "new" + (round - 20) + "_" + i, "f" + 2 * ((round - 20) * 100 + i));
                }
            }
            round++;
        } while (!cursor.equals("0"));
        assertThat(round).isGreaterThan(40);
        for (int i = 1; i < 500; i += 2) {
            assertThat(seen).contains("f" + i);
        }
    }

    @Test
    void hscan_hashtable_matchFilters() {
        fill("h", 200);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        do {
            List<String> reply = scan("HSCAN", "h", cursor, "MATCH", "f1?", "COUNT", "7");
            cursor = reply.get(0);
            for (int i = 1; i < reply.size(); i += 2) {
                seen.add(reply.get(i));
            }
        } while (!cursor.equals("0"));
        assertThat(seen).containsExactlyInAnyOrder("f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19");
    }

    /** An HSCAN reply flattened: the cursor, then the fields and values. */
    private List<String> scan(String... args) {
        List<?> reply = (List<?>) client.call(args);
        List<String> out = new ArrayList<>();
        out.add(new String((byte[]) reply.get(0), StandardCharsets.UTF_8));
        for (Object o : (List<?>) reply.get(1)) {
            out.add(new String((byte[]) o, StandardCharsets.UTF_8));
        }
        return out;
    }

    @Test
    void hrandfield_noCount_returnsEachFieldSometimes() {
        call("HSET", "h", "a", "1", "b", "2", "c", "3");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            seen.add(text("HRANDFIELD", "h"));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(call("HRANDFIELD", "nokey")).isNull();
    }

    @Test
    void hrandfield_countAtLeastTheSize_returnsTheWholeHashInOrder() {
        call("HSET", "h", "c", "3", "a", "1", "b", "2");
        assertThat(strings("HRANDFIELD", "h", "3")).containsExactly("c", "a", "b");
        assertThat(strings("HRANDFIELD", "h", "100", "WITHVALUES")).containsExactly("c", "3", "a", "1", "b", "2");
    }

    @Test
    void hrandfield_positiveCount_returnsDistinctFields() {
        call("HSET", "h", "a", "1", "b", "2", "c", "3", "d", "4");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            List<String> picked = strings("HRANDFIELD", "h", "2");
            assertThat(picked).hasSize(2).doesNotHaveDuplicates();
            seen.addAll(picked);
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c", "d");
    }

    @Test
    void hrandfield_positiveCountOnAHashtable_returnsDistinctFields() {
        fill("h", 300);
        for (String count : new String[] {"5", "250"}) {
            List<String> picked = strings("HRANDFIELD", "h", count, "WITHVALUES");
            assertThat(picked).hasSize(2 * Integer.parseInt(count));
            Set<String> fields = new HashSet<>();
            for (int i = 0; i < picked.size(); i += 2) {
                assertThat(picked.get(i + 1)).isEqualTo("v" + picked.get(i).substring(1));
                fields.add(picked.get(i));
            }
            assertThat(fields).hasSize(Integer.parseInt(count));
        }
    }

    @Test
    void hrandfield_negativeCount_mayRepeat() {
        call("HSET", "one", "only", "1");
        assertThat(strings("HRANDFIELD", "one", "-4")).containsExactly("only", "only", "only", "only");
        fill("big", 200);
        List<String> picked = strings("HRANDFIELD", "big", "-1000", "WITHVALUES");
        assertThat(picked).hasSize(2000);
        for (int i = 0; i < picked.size(); i += 2) {
            assertThat(picked.get(i + 1)).isEqualTo("v" + picked.get(i).substring(1));
        }
        assertThat(new HashSet<>(picked.subList(0, 2000))).hasSizeLessThan(2000);
    }

    @Test
    void hrandfield_withValues_resp3_givesPairs() {
        call("HSET", "h", "a", "1");
        assertThat(shape(3, "HRANDFIELD", "h", "-2", "WITHVALUES"))
                .containsExactly("array:2", "array:2", "bulk:a", "bulk:1", "array:2", "bulk:a", "bulk:1");
        assertThat(shape(2, "HRANDFIELD", "h", "-2", "WITHVALUES"))
                .containsExactly("array:4", "bulk:a", "bulk:1", "bulk:a", "bulk:1");
        assertThat(shape(3, "HRANDFIELD", "h", "1")).containsExactly("array:1", "bulk:a");
        TestClients.session(client).setProtocol(3);
        List<?> pairs = (List<?>) call("HRANDFIELD", "h", "5", "WITHVALUES");
        assertThat(pairs).hasSize(1);
        List<?> pair = (List<?>) pairs.get(0);
        assertThat((byte[]) pair.get(0)).isEqualTo(bytes("a"));
        assertThat((byte[]) pair.get(1)).isEqualTo(bytes("1"));
    }

    @Test
    void hrandfield_zeroCountOrMissingKey_isEmpty() {
        call("HSET", "h", "a", "1");
        assertThat(strings("HRANDFIELD", "h", "0")).isEmpty();
        assertThat(strings("HRANDFIELD", "nokey", "5")).isEmpty();
        assertThat(strings("HRANDFIELD", "nokey", "-5", "WITHVALUES")).isEmpty();
    }

    @Test
    void hrandfield_errors() {
        call("HSET", "h", "a", "1");
        fails("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                "HRANDFIELD", "h", "-9223372036854775808");
        fails("ERR value is out of range", "HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES");
        fails("ERR value is out of range", "HRANDFIELD", "h", "4611686018427387904", "WITHVALUES");
        fails(SYNTAX, "HRANDFIELD", "h", "1", "FOO");
        fails(SYNTAX, "HRANDFIELD", "h", "1", "WITHVALUES", "x");
        fails(NOT_INTEGER, "HRANDFIELD", "h", "x");
        call("SET", "s", "x");
        fails(WRONGTYPE, "HRANDFIELD", "s");
        fails(WRONGTYPE, "HRANDFIELD", "s", "0");
    }
}
