package dev.ordo.engine.command;

import dev.ordo.engine.encoding.DumpFooter;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DUMP and RESTORE in the engine, on the manual clock: every type and encoding survives a round
 * trip, TTLs (relative, ABSTTL, already passed), the IDLETIME / FREQ hints, and every refusal
 * with Redis's text and no change. Exchanges with a real redis-server are in the server's
 * {@code DumpRestoreOverWireTest}.
 */
class DumpRestoreTest extends CommandTestSupport {
    private Object call(String... args) {
        return client.call(args);
    }

    private Object call(Object... args) {
        byte[][] words = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            words[i] = args[i] instanceof byte[] b ? b : String.valueOf(args[i]).getBytes(StandardCharsets.UTF_8);
        }
        return client.call(words);
    }

    private void fails(String expected, Object... args) {
        assertThatThrownBy(() -> call(args)).hasMessage(expected);
    }


    /** The string "hello" as DUMP's body: type 0, length 5, the bytes. */
    private static final byte[] HELLO = {0, 5, 'h', 'e', 'l', 'l', 'o'};

    private byte[] dump(String key) {
        return (byte[]) call("DUMP", key);
    }

    /** Dumps {@code key}, restores it as {@code key + "2"} and checks the copy's encoding and content. */
    private void roundTrip(String key, String encoding, String... readBack) {
        byte[] payload = dump(key);
        assertThat(call("RESTORE", key + "2", 0, payload)).isEqualTo("OK");
        assertThat(s(call("OBJECT", "ENCODING", key + "2"))).isEqualTo(encoding);
        assertThat(s(call("OBJECT", "ENCODING", key))).isEqualTo(encoding);
        assertThat(call("TYPE", key + "2")).isEqualTo(call("TYPE", key));
        String[] read = readBack.clone();
        read[1] = key + "2";
        Object copy = call(read);
        read[1] = key;
        assertThat(copy instanceof List<?> ? strings(copy) : copy).isEqualTo(copy instanceof List<?> ? strings(call(read)) : call(read));
        assertThat(dump(key + "2")).as("dumping the copy gives the same payload").isEqualTo(payload);
    }

    @Test
    void dump_string_isByteForByteWhatRedisWrites() {
        call("SET", "k", "hello");
        byte[] redis70 = {0, 5, 'h', 'e', 'l', 'l', 'o', 10, 0, 'c', 'r', (byte) 0xdf, 'v', 'e', '4', ' ', '\n'};
        assertThat(dump("k")).as("redis-server 7.0.15's DUMP of the same value").isEqualTo(redis70);
    }

    @Test
    void dump_missingKey_isNull() {
        assertThat(call("DUMP", "nosuch")).isNull();
    }

    @Test
    void roundTrip_everyTypeAndEncoding_keepsContentAndEncoding() {
        call("SET", "int", "12345");
        roundTrip("int", "int", "GET", "int");
        call("SET", "emb", "hello");
        roundTrip("emb", "embstr", "GET", "emb");
        call("SET", "raw", "x".repeat(100));
        roundTrip("raw", "raw", "GET", "raw");
        call("HSET", "hl", "f", "v", "g", "1");
        roundTrip("hl", "listpack", "HGETALL", "hl");
        call("HSET", "hh", "f", "x".repeat(100));
        roundTrip("hh", "hashtable", "HGETALL", "hh");
        call("SADD", "si", "1", "-70000", "3");
        roundTrip("si", "intset", "SMEMBERS", "si");
        call("SADD", "sl", "a", "b", "1");
        roundTrip("sl", "listpack", "SMEMBERS", "sl");
        call("SADD", "sh", "a", "x".repeat(100));
        roundTrip("sh", "hashtable", "SMEMBERS", "sh");
        call("ZADD", "zl", "1.5", "a", "-2", "b", "inf", "c");
        roundTrip("zl", "listpack", "ZRANGE", "zl", "0", "-1", "WITHSCORES");
        call("ZADD", "zs", "1", "a", "2", "x".repeat(100));
        roundTrip("zs", "skiplist", "ZRANGE", "zs", "0", "-1", "WITHSCORES");
    }

    @Test
    void restore_compressedLongString_roundTripsThroughLzf() {
        call("SET", "long", "abc".repeat(1000));
        byte[] payload = dump("long");
        assertThat(payload.length).as("rdbcompression yes compresses it").isLessThan(3000);
        assertThat(call("RESTORE", "copy", 0, payload)).isEqualTo("OK");
        assertThat(s(call("GET", "copy"))).isEqualTo("abc".repeat(1000));
    }

    @Test
    void restore_ttl_relativeAbsoluteAndZero() {
        assertThat(call("RESTORE", "rel", 5000, DumpFooter.framed(HELLO, 10))).isEqualTo("OK");
        assertThat(call("PTTL", "rel")).isEqualTo(5000L);
        long at = support.time.get() + 9000;
        assertThat(call("RESTORE", "abs", at, DumpFooter.framed(HELLO, 10), "ABSTTL")).isEqualTo("OK");
        assertThat(call("PEXPIRETIME", "abs")).isEqualTo(at);
        assertThat(call("RESTORE", "none", 0, DumpFooter.framed(HELLO, 10))).isEqualTo("OK");
        assertThat(call("TTL", "none")).isEqualTo(-1L);
    }

    @Test
    void restore_ttlAlreadyPassed_storesNothingButReplaceDeletesTheOldKey() {
        call("SET", "k", "old");
        long past = support.time.get() - 1;
        assertThat(call("RESTORE", "k", past, DumpFooter.framed(HELLO, 10), "ABSTTL", "REPLACE")).isEqualTo("OK");
        assertThat(call("EXISTS", "k")).isEqualTo(0L);
        assertThat(call("RESTORE", "n", past, DumpFooter.framed(HELLO, 10), "ABSTTL")).isEqualTo("OK");
        assertThat(call("EXISTS", "n")).isEqualTo(0L);
    }

    @Test
    void restore_replace_overwritesAnyType() {
        call("ZADD", "k", "1", "a");
        call("EXPIRE", "k", "100");
        assertThat(call("RESTORE", "k", 0, DumpFooter.framed(HELLO, 10), "REPLACE")).isEqualTo("OK");
        assertThat(s(call("GET", "k"))).isEqualTo("hello");
        assertThat(call("TTL", "k")).isEqualTo(-1L);
    }

    @Test
    void restore_idletime_setsTheIdleTimeUnderAnLruPolicy() {
        assertThat(call("RESTORE", "k", 0, DumpFooter.framed(HELLO, 10), "IDLETIME", 1000)).isEqualTo("OK");
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(1000L);
        assertThat(call("RESTORE", "f", 0, DumpFooter.framed(HELLO, 10), "FREQ", 100)).isEqualTo("OK");
        assertThat(call("OBJECT", "IDLETIME", "f")).as("FREQ is ignored without an LFU policy").isEqualTo(0L);
    }

    @Test
    void restore_freq_setsTheCounterUnderAnLfuPolicy() {
        call("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
        assertThat(call("RESTORE", "k", 0, DumpFooter.framed(HELLO, 10), "FREQ", 100)).isEqualTo("OK");
        assertThat(call("OBJECT", "FREQ", "k")).isEqualTo(100L);
        assertThat(call("RESTORE", "i", 0, DumpFooter.framed(HELLO, 10), "IDLETIME", 100)).isEqualTo("OK");
        assertThat(call("OBJECT", "FREQ", "i")).as("IDLETIME is ignored under an LFU policy").isEqualTo(5L);
    }

    @Test
    void restore_version11FromRedis72_isAccepted_listpackSetsIncluded() {
        assertThat(call("RESTORE", "k", 0, DumpFooter.framed(HELLO, 11))).isEqualTo("OK");
        assertThat(s(call("GET", "k"))).isEqualTo("hello");
        // type 20 (a set as a listpack, new in version 11): total bytes, count, "a", "b", end
        byte[] listpackSet = {20, 13, 13, 0, 0, 0, 2, 0, (byte) 0x81, 'a', 2, (byte) 0x81, 'b', 2, (byte) 0xFF};
        assertThat(call("RESTORE", "s", 0, DumpFooter.framed(listpackSet, 11))).isEqualTo("OK");
        assertThat(strings(call("SMEMBERS", "s"))).containsExactlyInAnyOrder("a", "b");
        assertThat(s(call("OBJECT", "ENCODING", "s"))).isEqualTo("listpack");
    }

    @Test
    void restore_badInput_getsRedisErrorsInRedisOrderAndChangesNothing() {
        call("SET", "k", "old");
        byte[] good = DumpFooter.framed(HELLO, 10);
        fails("ERR syntax error", "RESTORE", "k", 0, good, "BOGUS");
        fails("ERR syntax error", "RESTORE", "k", 0, good, "IDLETIME");
        fails("ERR syntax error", "RESTORE", "k", 0, good, "IDLETIME", 1, "FREQ", 1);
        fails("ERR syntax error", "RESTORE", "k", 0, good, "FREQ", 1, "IDLETIME", 1);
        fails("ERR value is not an integer or out of range", "RESTORE", "k", 0, good, "IDLETIME", "x");
        fails("ERR Invalid IDLETIME value, must be >= 0", "RESTORE", "k", 0, good, "IDLETIME", -1);
        fails("ERR Invalid FREQ value, must be >= 0 and <= 255", "RESTORE", "k", 0, good, "FREQ", 256);
        fails("BUSYKEY Target key name already exists.", "RESTORE", "k", -1, "garbage");
        fails("ERR Invalid TTL value, must be >= 0", "RESTORE", "n", -1, good);
        fails("ERR value is not an integer or out of range", "RESTORE", "n", "x", good);
        fails("ERR DUMP payload version or checksum are wrong", "RESTORE", "n", 0, DumpFooter.framed(HELLO, 12));
        byte[] flipped = good.clone();
        flipped[2] ^= 1;
        fails("ERR DUMP payload version or checksum are wrong", "RESTORE", "n", 0, flipped);
        fails("ERR DUMP payload version or checksum are wrong", "RESTORE", "n", 0, "short");
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[0], 10));
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[] {2, 0}, 10));
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[] {2, 2, 1, 'a', 1, 'a'}, 10));
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[] {0, 5, 'h', 'e', 'l'}, 10));
        // a stream, a type Ordo does not hold
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[] {21, 0}, 10));
        // a hash naming a field twice, which Redis without sanitize-dump-payload would keep, corrupt
        fails("ERR Bad data format", "RESTORE", "n", 0, DumpFooter.framed(new byte[] {4, 2, 1, 'f', 1, 'v', 1, 'f', 1, 'w'}, 10));
        fails("ERR Bad data format", "RESTORE", "k", 0, DumpFooter.framed(new byte[] {2, 0}, 10), "REPLACE");
        assertThat(s(call("GET", "k"))).isEqualTo("old");
        assertThat(call("EXISTS", "n")).isEqualTo(0L);
    }
}
