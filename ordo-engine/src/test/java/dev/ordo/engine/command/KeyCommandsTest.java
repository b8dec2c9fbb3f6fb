package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.keyspace.HashValue;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.zset.ListpackLimits;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The key and database commands: replies, exact error texts and edge cases, each checked against
 * redis-server while writing them; expiry runs on the manual clock.
 */
class KeyCommandsTest extends CommandTestSupport {
    private static final long NOW = 1_700_000_000_000L;



    private Object call(String... args) {
        return client.call(args);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }




    /** Stores a listpack-encoded hash directly, so these tests do not depend on the hash commands. */
    private void putHash(String key, String field, String value) {
        support.engine.withLock(() -> {
            HashValue h = new HashValue();
            h.put(Key.of(field), b(value), ListpackLimits.DEFAULT);
            HostedEngine.of(support.engine).keyspace().db(TestClients.session(client).db()).add(Key.of(key), h);
        });
    }

    // ------------------------------------------------------------------ existence

    @Test
    void del_someKeysMissing_countsOnlyDeleted() {
        call("SET", "a", "1");
        call("SET", "b", "2");
        assertThat(call("DEL", "a", "missing", "b", "a")).isEqualTo(2L);
        assertThat(call("EXISTS", "a", "b")).isEqualTo(0L);
        fails("ERR wrong number of arguments for 'del' command", "DEL");
    }

    @Test
    void unlink_deletesLikeDel() {
        call("SET", "a", "1");
        assertThat(call("UNLINK", "a", "b")).isEqualTo(1L);
        assertThat(call("EXISTS", "a")).isEqualTo(0L);
    }

    @Test
    void del_expiredKey_doesNotCount() {
        call("SET", "a", "1");
        call("PEXPIRE", "a", "100");
        support.advance(100);
        assertThat(call("DEL", "a")).isEqualTo(0L);
    }

    @Test
    void exists_keyNamedTwice_countsTwice() {
        call("SET", "a", "1");
        assertThat(call("EXISTS", "a", "a", "missing")).isEqualTo(2L);
    }

    @Test
    void touch_countsExistingKeys() {
        call("SET", "a", "1");
        assertThat(call("TOUCH", "a", "missing", "a")).isEqualTo(2L);
    }

    @Test
    void type_eachValueTypeAndMissing_isAStatusReply() {
        call("SET", "s", "v");
        call("SADD", "set", "m");
        call("ZADD", "z", "1", "m");
        putHash("h", "f", "v");
        assertThat(call("TYPE", "s")).isEqualTo("string");
        assertThat(call("TYPE", "set")).isEqualTo("set");
        assertThat(call("TYPE", "z")).isEqualTo("zset");
        assertThat(call("TYPE", "h")).isEqualTo("hash");
        assertThat(call("TYPE", "missing")).isEqualTo("none");
    }

    // ------------------------------------------------------------------ expiry

    @Test
    void expire_thenClockPasses_keyExpiresExactlyOnTime() {
        call("SET", "k", "v");
        assertThat(call("EXPIRE", "k", "10")).isEqualTo(1L);
        assertThat(call("TTL", "k")).isEqualTo(10L);
        assertThat(call("PTTL", "k")).isEqualTo(10_000L);
        support.advance(9_999);
        assertThat(call("EXISTS", "k")).isEqualTo(1L);
        assertThat(call("PTTL", "k")).isEqualTo(1L);
        support.advance(1);
        assertThat(call("EXISTS", "k")).isEqualTo(0L);
        assertThat(call("TTL", "k")).isEqualTo(-2L);
    }

    @Test
    void ttl_roundsToTheNearestSecond() {
        call("SET", "k", "v");
        call("PEXPIRE", "k", "1500");
        assertThat(call("TTL", "k")).isEqualTo(2L);
        call("PEXPIRE", "k", "1499");
        assertThat(call("TTL", "k")).isEqualTo(1L);
        assertThat(call("PTTL", "k")).isEqualTo(1499L);
    }

    @Test
    void ttl_missingOrPersistent_isMinusTwoOrMinusOne() {
        call("SET", "k", "v");
        assertThat(call("TTL", "missing")).isEqualTo(-2L);
        assertThat(call("PTTL", "missing")).isEqualTo(-2L);
        assertThat(call("TTL", "k")).isEqualTo(-1L);
        assertThat(call("PTTL", "k")).isEqualTo(-1L);
        assertThat(call("EXPIRETIME", "k")).isEqualTo(-1L);
        assertThat(call("PEXPIRETIME", "missing")).isEqualTo(-2L);
    }

    @Test
    void expireat_futureTime_reportedByExpiretime() {
        call("SET", "k", "v");
        long at = NOW / 1000 + 100;
        assertThat(call("EXPIREAT", "k", Long.toString(at))).isEqualTo(1L);
        assertThat(call("EXPIRETIME", "k")).isEqualTo(at);
        assertThat(call("PEXPIRETIME", "k")).isEqualTo(at * 1000);
        assertThat(call("PEXPIREAT", "k", Long.toString(NOW + 1234))).isEqualTo(1L);
        assertThat(call("PEXPIRETIME", "k")).isEqualTo(NOW + 1234);
        assertThat(call("EXPIRETIME", "k")).isEqualTo(NOW / 1000 + 1);
    }

    @Test
    void expire_timeNotInTheFuture_deletesTheKey() {
        call("SET", "a", "v");
        call("SET", "b", "v");
        call("SET", "c", "v");
        assertThat(call("EXPIRE", "a", "-1")).isEqualTo(1L);
        assertThat(call("EXPIREAT", "b", Long.toString(NOW / 1000))).isEqualTo(1L);
        assertThat(call("PEXPIREAT", "c", Long.toString(NOW))).isEqualTo(1L);
        assertThat(call("EXISTS", "a", "b", "c")).isEqualTo(0L);
    }

    @Test
    void expire_missingKey_isZero() {
        assertThat(call("EXPIRE", "missing", "10")).isEqualTo(0L);
        assertThat(call("PEXPIRE", "missing", "-10")).isEqualTo(0L);
    }

    @Test
    void expire_nxXxConditions_followTheCurrentExpiry() {
        call("SET", "k", "v");
        assertThat(call("EXPIRE", "k", "10", "XX")).isEqualTo(0L);
        assertThat(call("EXPIRE", "k", "10", "nx")).isEqualTo(1L);
        assertThat(call("EXPIRE", "k", "20", "NX")).isEqualTo(0L);
        assertThat(call("TTL", "k")).isEqualTo(10L);
        assertThat(call("EXPIRE", "k", "30", "XX")).isEqualTo(1L);
        assertThat(call("TTL", "k")).isEqualTo(30L);
    }

    @Test
    void expire_gtLtConditions_treatNoExpiryAsInfinite() {
        call("SET", "k", "v");
        assertThat(call("EXPIRE", "k", "10", "GT")).isEqualTo(0L);
        assertThat(call("TTL", "k")).isEqualTo(-1L);
        assertThat(call("EXPIRE", "k", "10", "LT")).isEqualTo(1L);
        assertThat(call("EXPIRE", "k", "20", "gt")).isEqualTo(1L);
        assertThat(call("EXPIRE", "k", "20", "GT")).isEqualTo(0L);
        assertThat(call("EXPIRE", "k", "5", "GT")).isEqualTo(0L);
        assertThat(call("EXPIRE", "k", "20", "LT")).isEqualTo(0L);
        assertThat(call("EXPIRE", "k", "5", "lt")).isEqualTo(1L);
        assertThat(call("TTL", "k")).isEqualTo(5L);
        assertThat(call("EXPIRE", "k", "100", "GT", "XX")).isEqualTo(1L);
        call("PERSIST", "k");
        assertThat(call("EXPIRE", "k", "100", "GT", "XX")).isEqualTo(0L);
    }

    @Test
    void expire_incompatibleOptions_areRejectedBeforeTheTime() {
        call("SET", "k", "v");
        fails("ERR NX and XX, GT or LT options at the same time are not compatible", "EXPIRE", "k", "10", "NX", "XX");
        fails("ERR NX and XX, GT or LT options at the same time are not compatible", "EXPIRE", "k", "10", "gt", "nx");
        fails("ERR GT and LT options at the same time are not compatible", "PEXPIRE", "k", "10", "GT", "LT");
        fails("ERR Unsupported option FOO", "EXPIRE", "k", "abc", "FOO");
        fails("ERR value is not an integer or out of range", "EXPIRE", "k", "abc", "NX");
        assertThat(call("TTL", "k")).isEqualTo(-1L);
    }

    @Test
    void expire_overflowingTime_isAnInvalidExpireTimeNamingTheCommand() {
        call("SET", "k", "v");
        fails("ERR invalid expire time in 'expire' command", "EXPIRE", "k", "9223372036854775807");
        fails("ERR invalid expire time in 'expire' command", "EXPIRE", "k", "-9223372036854775808");
        fails("ERR invalid expire time in 'pexpire' command", "PEXPIRE", "k", "9223372036854775807");
        fails("ERR invalid expire time in 'expireat' command", "EXPIREAT", "k", "9223372036854775807");
        assertThat(call("TTL", "k")).isEqualTo(-1L);
    }

    @Test
    void pexpireat_endOfTime_isAccepted() {
        call("SET", "k", "v");
        assertThat(call("PEXPIREAT", "k", "9223372036854775807")).isEqualTo(1L);
        assertThat(call("PEXPIRETIME", "k")).isEqualTo(Long.MAX_VALUE);
        assertThat(call("EXPIRETIME", "k")).isEqualTo(9223372036854776L);
    }

    @Test
    void pexpire_mostNegative_deletesTheKey() {
        call("SET", "k", "v");
        assertThat(call("PEXPIRE", "k", "-9223372036854775808")).isEqualTo(1L);
        assertThat(call("EXISTS", "k")).isEqualTo(0L);
    }

    @Test
    void persist_removesTheExpiryOnce() {
        call("SET", "k", "v");
        call("EXPIRE", "k", "10");
        assertThat(call("PERSIST", "k")).isEqualTo(1L);
        assertThat(call("PERSIST", "k")).isEqualTo(0L);
        assertThat(call("PERSIST", "missing")).isEqualTo(0L);
        support.advance(20_000);
        assertThat(call("EXISTS", "k")).isEqualTo(1L);
    }

    // ------------------------------------------------------------------ KEYS, SCAN, RANDOMKEY, DBSIZE

    @Test
    void keys_glob_matchesLiveKeysOnly() {
        for (String k : List.of("hello", "hallo", "hxllo", "heeeello", "world")) {
            call("SET", k, "v");
        }
        call("PEXPIRE", "hallo", "10");
        support.advance(10);
        assertThat(strings(call("KEYS", "h?llo"))).containsExactlyInAnyOrder("hello", "hxllo");
        assertThat(strings(call("KEYS", "h*llo"))).containsExactlyInAnyOrder("hello", "hxllo", "heeeello");
        assertThat(strings(call("KEYS", "h[^e]llo"))).containsExactly("hxllo");
        assertThat(strings(call("KEYS", "*"))).hasSize(4);
        assertThat(strings(call("KEYS", "nothing*"))).isEmpty();
    }

    @Test
    void keys_binaryKeys_areReturnedIntact() {
        byte[] nul = {'a', 0, 'b'};
        byte[] crlf = b("x\r\ny");
        client.call(b("SET"), nul, b("1"));
        client.call(b("SET"), crlf, b("2"));
        List<?> keys = (List<?>) call("KEYS", "*");
        assertThat(keys).hasSize(2);
        assertThat(keys).anySatisfy(k -> assertThat((byte[]) k).isEqualTo(nul));
        assertThat(keys).anySatisfy(k -> assertThat((byte[]) k).isEqualTo(crlf));
        assertThat(client.call(b("TYPE"), nul)).isEqualTo("string");
        assertThat(client.call(b("RENAME"), nul, b("c\0d"))).isEqualTo("OK");
        assertThat(client.call(b("EXISTS"), b("c\0d"), nul, crlf)).isEqualTo(2L);
    }

    @Test
    void scan_wholeWalk_returnsEveryKey() {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            call("SET", "key:" + i, "v");
            expected.add("key:" + i);
        }
        assertThat(scanAll("COUNT", "7")).isEqualTo(expected);
    }

    @Test
    void scan_keysAddedAndRemovedBetweenCalls_returnsEveryKeyPresentThroughout() {
        Set<String> stable = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            call("SET", "stable:" + i, "v");
            stable.add("stable:" + i);
            call("SET", "gone:" + i, "v");
        }
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int step = 0;
        do {
            List<?> reply = (List<?>) call("SCAN", cursor, "COUNT", "10");
            cursor = s(reply.get(0));
            seen.addAll(strings(reply.get(1)));
            for (int j = 0; j < 5; j++) {
                call("SET", "new:" + step + ":" + j, "v");
            }
            call("DEL", "gone:" + step);
            step++;
        } while (!cursor.equals("0"));
        assertThat(seen).containsAll(stable);
        assertThat(step).isGreaterThan(10);
    }

    private Set<String> scanAll(String... options) {
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        do {
            List<String> args = new ArrayList<>(List.of("SCAN", cursor));
            args.addAll(List.of(options));
            List<?> reply = (List<?>) client.call(args.toArray(new String[0]));
            cursor = s(reply.get(0));
            seen.addAll(strings(reply.get(1)));
        } while (!cursor.equals("0"));
        return seen;
    }

    @Test
    void scan_matchAndType_filterTheKeys() {
        call("SET", "str:1", "v");
        call("SET", "str:2", "v");
        call("SADD", "set:1", "m");
        call("ZADD", "zset:1", "1", "m");
        assertThat(scanAll("MATCH", "str:*")).containsExactlyInAnyOrder("str:1", "str:2");
        assertThat(scanAll("TYPE", "SET")).containsExactly("set:1");
        assertThat(scanAll("TYPE", "zset", "MATCH", "*1")).containsExactly("zset:1");
        assertThat(scanAll("TYPE", "list")).isEmpty();
        assertThat(scanAll("TYPE", "nosuchtype")).isEmpty();
    }

    @Test
    void scan_expiredKeys_areNotReturned() {
        call("SET", "live", "v");
        call("SET", "dead", "v");
        call("PEXPIRE", "dead", "5");
        support.advance(5);
        assertThat(scanAll()).containsExactly("live");
    }

    @Test
    void scan_cursorParsedLikeStrtoul_acceptsSignsAndEmpty() {
        call("SET", "k", "v");
        assertThat(s(((List<?>) call("SCAN", "")).get(0))).isEqualTo("0");
        assertThat(s(((List<?>) call("SCAN", "-1")).get(0))).isEqualTo("0");
        assertThat(s(((List<?>) call("SCAN", "18446744073709551615")).get(0))).isEqualTo("0");
        assertThat(strings(((List<?>) call("SCAN", "+0")).get(1))).containsExactly("k");
    }

    @Test
    void scan_badCursor_isAnInvalidCursor() {
        for (String bad : List.of("abc", " 1", "1 ", "+", "-", "18446744073709551616", "1.5")) {
            fails("ERR invalid cursor", "SCAN", bad);
        }
    }

    @Test
    void scan_badOptions_areSyntaxErrors() {
        fails("ERR syntax error", "SCAN", "0", "COUNT", "0");
        fails("ERR value is not an integer or out of range", "SCAN", "0", "COUNT", "x");
        fails("ERR syntax error", "SCAN", "0", "MATCH");
        fails("ERR syntax error", "SCAN", "0", "TYPE");
        fails("ERR syntax error", "SCAN", "0", "FOO", "bar");
    }

    @Test
    void randomkey_emptyOrSingleKey() {
        assertThat(call("RANDOMKEY")).isNull();
        call("SET", "only", "v");
        assertThat(s(call("RANDOMKEY"))).isEqualTo("only");
    }

    @Test
    void dbsize_countsKeysOfTheSelectedDatabase() {
        call("SET", "a", "1");
        call("SET", "b", "1");
        assertThat(call("DBSIZE")).isEqualTo(2L);
        call("SELECT", "1");
        assertThat(call("DBSIZE")).isEqualTo(0L);
    }

    // ------------------------------------------------------------------ RENAME, COPY, MOVE

    @Test
    void rename_missingSource_isNoSuchKey() {
        fails("ERR no such key", "RENAME", "missing", "x");
        fails("ERR no such key", "RENAMENX", "missing", "x");
        fails("ERR no such key", "RENAME", "missing", "missing");
    }

    @Test
    void rename_ontoItself_isOkOrZero() {
        call("SET", "k", "v");
        assertThat(call("RENAME", "k", "k")).isEqualTo("OK");
        assertThat(call("RENAMENX", "k", "k")).isEqualTo(0L);
        assertThat(call("EXISTS", "k")).isEqualTo(1L);
    }

    @Test
    void rename_keepsTheSourceTtlAndReplacesTheDestination() {
        call("SET", "src", "v");
        call("EXPIRE", "src", "100");
        call("SADD", "dst", "m");
        call("EXPIRE", "dst", "5");
        assertThat(call("RENAME", "src", "dst")).isEqualTo("OK");
        assertThat(call("EXISTS", "src")).isEqualTo(0L);
        assertThat(call("TYPE", "dst")).isEqualTo("string");
        assertThat(call("TTL", "dst")).isEqualTo(100L);
        call("SET", "plain", "v");
        call("RENAME", "plain", "dst");
        assertThat(call("TTL", "dst")).isEqualTo(-1L);
    }

    @Test
    void renamenx_existingDestination_isZeroAndChangesNothing() {
        call("SET", "a", "1");
        call("SET", "b", "2");
        assertThat(call("RENAMENX", "a", "b")).isEqualTo(0L);
        assertThat(call("EXISTS", "a", "b")).isEqualTo(2L);
        assertThat(call("RENAMENX", "a", "c")).isEqualTo(1L);
        assertThat(call("EXISTS", "a")).isEqualTo(0L);
    }

    @Test
    void copy_options_parsedWithRedisErrors() {
        call("SET", "a", "1");
        fails("ERR source and destination objects are the same", "COPY", "a", "a");
        fails("ERR syntax error", "COPY", "a", "b", "DB");
        fails("ERR value is not an integer or out of range", "COPY", "a", "b", "DB", "x");
        fails("ERR DB index is out of range", "COPY", "a", "b", "DB", "16");
        fails("ERR DB index is out of range", "COPY", "a", "b", "DB", "-1");
        fails("ERR value is out of range, value must between -2147483648 and 2147483647", "COPY", "a", "b", "DB", "99999999999");
        fails("ERR syntax error", "COPY", "a", "b", "FOO");
        assertThat(call("EXISTS", "b")).isEqualTo(0L);
    }

    @Test
    void copy_missingSourceOrTakenDestination_isZero() {
        call("SET", "a", "1");
        call("SET", "b", "2");
        assertThat(call("COPY", "missing", "x")).isEqualTo(0L);
        assertThat(call("COPY", "a", "b")).isEqualTo(0L);
        assertThat(s(call("GET", "b"))).isEqualTo("2");
        assertThat(call("COPY", "a", "b", "REPLACE")).isEqualTo(1L);
        assertThat(s(call("GET", "b"))).isEqualTo("1");
    }

    @Test
    void copy_toAnotherDatabase_keepsTheTtl() {
        call("SET", "a", "1");
        call("EXPIRE", "a", "50");
        assertThat(call("COPY", "a", "a", "DB", "3")).isEqualTo(1L);
        call("SELECT", "3");
        assertThat(s(call("GET", "a"))).isEqualTo("1");
        assertThat(call("TTL", "a")).isEqualTo(50L);
    }

    @Test
    void copy_set_isDeepAndKeepsTheEncoding() {
        call("SADD", "ints", "3", "1", "2");
        call("SADD", "small", "b", "a");
        call("COPY", "ints", "ints2");
        call("COPY", "small", "small2");
        call("SADD", "ints2", "4");
        call("SREM", "small2", "a");
        assertThat(strings(call("SMEMBERS", "ints"))).containsExactly("1", "2", "3");
        assertThat(strings(call("SMEMBERS", "small"))).containsExactly("b", "a");
        assertThat(s(call("OBJECT", "ENCODING", "ints2"))).isEqualTo("intset");
        assertThat(s(call("OBJECT", "ENCODING", "small2"))).isEqualTo("listpack");
    }

    @Test
    void copy_zset_isDeepAndKeepsASkiplistThatShrank() {
        List<String> args = new ArrayList<>(List.of("ZADD", "z"));
        for (int i = 0; i < 200; i++) {
            args.add(Integer.toString(i));
            args.add("m" + i);
        }
        client.call(args.toArray(new String[0]));
        call("ZREMRANGEBYRANK", "z", "0", "196");
        assertThat(s(call("OBJECT", "ENCODING", "z"))).isEqualTo("skiplist");
        assertThat(call("COPY", "z", "z2")).isEqualTo(1L);
        assertThat(s(call("OBJECT", "ENCODING", "z2"))).isEqualTo("skiplist");
        call("ZADD", "z2", "0", "extra");
        assertThat(strings(call("ZRANGE", "z", "0", "-1"))).containsExactly("m197", "m198", "m199");
        assertThat(strings(call("ZRANGE", "z2", "0", "-1", "WITHSCORES")))
                .containsExactly("extra", "0", "m197", "197", "m198", "198", "m199", "199");
        call("ZADD", "small", "1", "a");
        call("COPY", "small", "small2");
        assertThat(s(call("OBJECT", "ENCODING", "small2"))).isEqualTo("listpack");
    }

    @Test
    void copy_strings_keepTheirEncoding() {
        call("SET", "int", "12345");
        call("SET", "short", "hello");
        call("SET", "long", "x".repeat(45));
        for (String k : List.of("int", "short", "long")) {
            call("COPY", k, k + "2");
            assertThat(s(call("OBJECT", "ENCODING", k + "2"))).isEqualTo(s(call("OBJECT", "ENCODING", k)));
        }
        assertThat(s(call("OBJECT", "ENCODING", "int2"))).isEqualTo("int");
        assertThat(s(call("OBJECT", "ENCODING", "long2"))).isEqualTo("raw");
    }

    @Test
    void copy_hash_isDeep() {
        putHash("h", "f", "v");
        assertThat(call("COPY", "h", "h2")).isEqualTo(1L);
        assertThat(call("TYPE", "h2")).isEqualTo("hash");
        assertThat(s(call("OBJECT", "ENCODING", "h2"))).isEqualTo("listpack");
        call("DEL", "h");
        assertThat(call("EXISTS", "h2")).isEqualTo(1L);
    }

    @Test
    void move_errors_inRedisOrder() {
        call("SET", "a", "1");
        fails("ERR value is not an integer or out of range", "MOVE", "a", "x");
        fails("ERR value is out of range, value must between -2147483648 and 2147483647", "MOVE", "a", "99999999999");
        fails("ERR DB index is out of range", "MOVE", "a", "16");
        fails("ERR source and destination objects are the same", "MOVE", "a", "0");
        fails("ERR source and destination objects are the same", "MOVE", "missing", "0");
    }

    @Test
    void move_keyWithTtl_movesWithItUnlessTheTargetHasTheKey() {
        call("SET", "a", "1");
        call("EXPIRE", "a", "30");
        assertThat(call("MOVE", "missing", "1")).isEqualTo(0L);
        assertThat(call("MOVE", "a", "1")).isEqualTo(1L);
        assertThat(call("EXISTS", "a")).isEqualTo(0L);
        call("SET", "a", "local");
        assertThat(call("MOVE", "a", "1")).isEqualTo(0L);
        call("SELECT", "1");
        assertThat(s(call("GET", "a"))).isEqualTo("1");
        assertThat(call("TTL", "a")).isEqualTo(30L);
    }

    // ------------------------------------------------------------------ FLUSHDB, FLUSHALL, SWAPDB

    @Test
    void flushdb_emptiesOnlyTheSelectedDatabase() {
        call("SET", "a", "1");
        call("SELECT", "1");
        call("SET", "b", "1");
        assertThat(call("FLUSHDB")).isEqualTo("OK");
        assertThat(call("DBSIZE")).isEqualTo(0L);
        call("SELECT", "0");
        assertThat(call("DBSIZE")).isEqualTo(1L);
        assertThat(call("FLUSHDB", "async")).isEqualTo("OK");
        assertThat(call("DBSIZE")).isEqualTo(0L);
    }

    @Test
    void flushall_emptiesEveryDatabase() {
        call("SET", "a", "1");
        call("SELECT", "5");
        call("SET", "b", "1");
        assertThat(call("FLUSHALL", "SYNC")).isEqualTo("OK");
        assertThat(call("DBSIZE")).isEqualTo(0L);
        call("SELECT", "0");
        assertThat(call("DBSIZE")).isEqualTo(0L);
    }

    @Test
    void flush_badOptions_areSyntaxErrors() {
        call("SET", "a", "1");
        fails("ERR syntax error", "FLUSHDB", "foo");
        fails("ERR syntax error", "FLUSHDB", "ASYNC", "SYNC");
        fails("ERR syntax error", "FLUSHALL", "now");
        assertThat(call("DBSIZE")).isEqualTo(1L);
    }

    @Test
    void swapdb_exchangesContentsAndTtls() {
        call("SET", "a", "zero");
        call("EXPIRE", "a", "40");
        call("SELECT", "2");
        call("SET", "b", "two");
        assertThat(call("SWAPDB", "0", "2")).isEqualTo("OK");
        assertThat(strings(call("KEYS", "*"))).containsExactly("a");
        assertThat(call("TTL", "a")).isEqualTo(40L);
        call("SELECT", "0");
        assertThat(s(call("GET", "b"))).isEqualTo("two");
        assertThat(call("SWAPDB", "1", "1")).isEqualTo("OK");
    }

    @Test
    void swapdb_badIndexes_haveTheirOwnErrors() {
        fails("ERR invalid first DB index", "SWAPDB", "x", "1");
        fails("ERR invalid first DB index", "SWAPDB", "99999999999", "1");
        fails("ERR invalid second DB index", "SWAPDB", "1", "y");
        fails("ERR DB index is out of range", "SWAPDB", "1", "16");
        fails("ERR DB index is out of range", "SWAPDB", "-1", "1");
    }

    // ------------------------------------------------------------------ OBJECT and MEMORY

    @Test
    void objectEncoding_eachTypeAndMissing() {
        call("SET", "int", "42");
        call("SET", "str", "hello");
        call("SADD", "set", "1");
        call("ZADD", "z", "1", "a");
        putHash("h", "f", "v");
        assertThat(s(call("OBJECT", "ENCODING", "int"))).isEqualTo("int");
        assertThat(s(call("OBJECT", "ENCODING", "str"))).isEqualTo("embstr");
        assertThat(s(call("OBJECT", "encoding", "set"))).isEqualTo("intset");
        assertThat(s(call("OBJECT", "ENCODING", "z"))).isEqualTo("listpack");
        assertThat(s(call("OBJECT", "ENCODING", "h"))).isEqualTo("listpack");
        assertThat(call("OBJECT", "ENCODING", "missing")).isNull();
    }

    @Test
    void object_arityAndSubcommandErrors() {
        fails("ERR wrong number of arguments for 'object' command", "OBJECT");
        fails("ERR wrong number of arguments for 'object|encoding' command", "OBJECT", "ENCODING");
        fails("ERR wrong number of arguments for 'object|encoding' command", "OBJECT", "ENCODING", "a", "b");
        fails("ERR wrong number of arguments for 'object|help' command", "OBJECT", "HELP", "x");
        fails("ERR unknown subcommand 'foo'. Try OBJECT HELP.", "OBJECT", "foo");
    }

    @Test
    void objectHelp_listsTheSubcommands() {
        List<String> lines = strings(call("OBJECT", "HELP"));
        assertThat(lines).hasSize(15);
        assertThat(lines.get(0)).isEqualTo("OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        assertThat(lines).contains("ENCODING <key>", "FREQ <key>", "IDLETIME <key>", "REFCOUNT <key>", "HELP");
    }

    @Test
    void objectRefcount_sharedIntegersUnlessAnLruPolicyWithMaxmemory() {
        call("SET", "small", "100");
        call("SET", "big", "10000");
        call("SET", "text", "hello");
        assertThat(call("OBJECT", "REFCOUNT", "small")).isEqualTo(2147483647L);
        assertThat(call("OBJECT", "REFCOUNT", "big")).isEqualTo(1L);
        assertThat(call("OBJECT", "REFCOUNT", "text")).isEqualTo(1L);
        assertThat(call("OBJECT", "REFCOUNT", "missing")).isNull();
        support.engine.config().set("maxmemory-policy", "allkeys-lru", false);
        assertThat(call("OBJECT", "REFCOUNT", "small")).isEqualTo(2147483647L);
        support.engine.config().set("maxmemory", "100mb", false);
        assertThat(call("OBJECT", "REFCOUNT", "small")).isEqualTo(1L);
    }

    @Test
    void objectIdletime_countsWholeSecondsSinceLastAccess() {
        call("SET", "k", "v");
        support.advance(10_500);
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(10L);
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(10L);
        call("GET", "k");
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(0L);
        assertThat(call("OBJECT", "IDLETIME", "missing")).isNull();
    }

    /** CLIENT NO-TOUCH: reads and writes leave the access time alone, TOUCH still refreshes it; RESET ends it. */
    @Test
    void clientNoTouch_leavesAccessTimesButTouchStillRefreshes() {
        call("SET", "k", "v");
        assertThat(call("CLIENT", "NO-TOUCH", "on")).isEqualTo("OK");
        support.advance(5_000);
        call("GET", "k");
        call("EXPIRE", "k", "100");
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(5L);
        Object info = call("CLIENT", "INFO");
        assertThat(info instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : info).asString().contains(" flags=T ");
        call("TOUCH", "k");
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(0L);
        support.advance(5_000);
        call("RESET");
        call("GET", "k");
        assertThat(call("OBJECT", "IDLETIME", "k")).isEqualTo(0L);
        assertThatThrownBy(() -> call("CLIENT", "NO-TOUCH", "maybe")).hasMessage("ERR syntax error");
    }

    /** EXPIRE, PEXPIRE and PERSIST look their key up for a write, as Redis does: even when they change nothing. */
    @Test
    void expireAndPersist_refreshTheAccessTime() {
        for (String[] command : new String[][] {{"EXPIRE", "k", "100"}, {"PEXPIRE", "k", "100000", "NX"}, {"PERSIST", "k"}}) {
            call("SET", "k", "v");
            support.advance(5_000);
            call(command);
            assertThat(call("OBJECT", "IDLETIME", "k")).as(String.join(" ", command)).isEqualTo(0L);
        }
    }

    /**
     * A time already past deletes the key. EXPIREAT and GETEX count that as a deletion, not in
     * INFO's expired_keys; SET ... EXAT counts one, as Redis 7 does when it reclaims such a key.
     */
    @Test
    void expiryInThePast_deletesWithoutCountingAnExpiredKey() {
        call("SET", "a", "v");
        call("EXPIREAT", "a", "1");
        call("SET", "b", "v", "EXAT", "1");
        call("SET", "c", "v");
        call("GETEX", "c", "PXAT", "1");
        assertThat(call("EXISTS", "a", "b", "c")).isEqualTo(0L);
        assertThat(new String((byte[]) call("INFO", "stats"), java.nio.charset.StandardCharsets.UTF_8)).contains("\r\nexpired_keys:1\r\n");
    }

    @Test
    void objectFreqAndIdletime_dependOnTheLfuPolicy() {
        call("SET", "k", "v");
        fails("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when"
                + " switching between policies at runtime LRU and LFU data will take some time to adjust.",
                "OBJECT", "FREQ", "k");
        assertThat(call("OBJECT", "FREQ", "missing")).isNull();
        support.engine.config().set("maxmemory-policy", "allkeys-lfu", false);
        call("SET", "fresh", "v");
        assertThat(call("OBJECT", "FREQ", "fresh")).isEqualTo(5L);
        call("GET", "fresh");
        assertThat(call("OBJECT", "FREQ", "fresh")).as("the first access always counts").isEqualTo(6L);
        fails("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when"
                + " switching between policies at runtime LRU and LFU data will take some time to adjust.",
                "OBJECT", "IDLETIME", "k");
    }

    @Test
    void memoryUsage_growsWithTheValue() {
        call("SET", "small", "x");
        call("SET", "large", "x".repeat(1000));
        long small = (Long) call("MEMORY", "USAGE", "small");
        long large = (Long) call("MEMORY", "USAGE", "large");
        assertThat(large - small).isBetween(990L, 1010L);
        assertThat(large).isBetween(1000L, 1200L);
        call("SADD", "set", "a", "b", "c");
        long three = (Long) call("MEMORY", "USAGE", "set");
        call("SADD", "set", "d".repeat(100));
        assertThat((Long) call("MEMORY", "USAGE", "set")).isGreaterThan(three + 100);
        call("ZADD", "z", "1", "a");
        assertThat((Long) call("MEMORY", "USAGE", "z")).isPositive();
    }

    @Test
    void memoryUsage_missingKeyAndBadOptions() {
        call("SET", "k", "v");
        assertThat(call("MEMORY", "USAGE", "missing")).isNull();
        assertThat(call("MEMORY", "USAGE", "k", "SAMPLES", "0")).isInstanceOf(Long.class);
        fails("ERR syntax error", "MEMORY", "USAGE", "k", "SAMPLES");
        fails("ERR syntax error", "MEMORY", "USAGE", "k", "SAMPLES", "-1");
        fails("ERR value is not an integer or out of range", "MEMORY", "USAGE", "k", "SAMPLES", "x");
        fails("ERR syntax error", "MEMORY", "USAGE", "k", "foo");
        fails("ERR wrong number of arguments for 'memory|usage' command", "MEMORY", "USAGE");
    }
}
