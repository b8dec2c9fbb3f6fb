package dev.ordo.engine.command;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.StringValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The string commands against replies, error texts and expiry behaviour checked on a real
 * redis-server; TTLs are read from the keyspace and moved with the manual clock.
 */
class StringCommandsTest extends CommandTestSupport {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    private static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    private static final String NOT_FLOAT = "ERR value is not a valid float";
    private static final String SYNTAX = "ERR syntax error";

    private Object call(String... args) {
        return client.call(args);
    }

    private String text(String... args) {
        Object reply = client.call(args);
        return reply == null ? null : new String((byte[]) reply, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private <T> T onDb(Function<Database, T> read) {
        AtomicReference<T> result = new AtomicReference<>();
        support.engine.withLock(() -> result.set(read.apply(HostedEngine.of(support.engine).keyspace().db(0))));
        return result.get();
    }

    private long expireAt(String key) {
        return onDb(db -> db.expireAt(Key.of(key)));
    }

    private String encoding(String key) {
        return onDb(db -> ((StringValue) db.entry(Key.of(key)).value()).encoding());
    }

    private long now() {
        return support.time.get();
    }

    @Test
    void get_missingKey_returnsNull() {
        assertThat(call("GET", "nokey")).isNull();
    }

    @Test
    void get_otherType_isWrongType() {
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "GET", "h");
    }

    @Test
    void set_binaryValue_roundTripsExactly() {
        byte[] value = {'a', 0, '\r', '\n', (byte) 0xff, 'b'};
        byte[] key = {'k', 0, '\n'};
        assertThat(client.call(bytes("SET"), key, value)).isEqualTo("OK");
        assertThat((byte[]) client.call(bytes("GET"), key)).isEqualTo(value);
        assertThat(client.call(bytes("STRLEN"), key)).isEqualTo(6L);
    }

    @Test
    void set_nx_storesOnlyWhenMissing() {
        assertThat(call("SET", "k", "a", "NX")).isEqualTo("OK");
        assertThat(call("SET", "k", "b", "nx")).isNull();
        assertThat(text("GET", "k")).isEqualTo("a");
    }

    @Test
    void set_xx_storesOnlyWhenPresent() {
        assertThat(call("SET", "k", "a", "XX")).isNull();
        assertThat(call("GET", "k")).isNull();
        call("SET", "k", "a");
        assertThat(call("SET", "k", "b", "XX")).isEqualTo("OK");
        assertThat(text("GET", "k")).isEqualTo("b");
    }

    @Test
    void set_conflictingOrIncompleteOptions_isSyntaxError() {
        fails(SYNTAX, "SET", "k", "v", "NX", "XX");
        fails(SYNTAX, "SET", "k", "v", "EX", "10", "PX", "100");
        fails(SYNTAX, "SET", "k", "v", "KEEPTTL", "EX", "10");
        fails(SYNTAX, "SET", "k", "v", "EX", "10", "KEEPTTL");
        fails(SYNTAX, "SET", "k", "v", "EX");
        fails(SYNTAX, "SET", "k", "v", "PERSIST");
        fails(SYNTAX, "SET", "k", "v", "FOO");
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void set_repeatedOptions_areAccepted() {
        assertThat(call("SET", "k", "v", "NX", "NX")).isEqualTo("OK");
        assertThat(text("SET", "k", "w", "GET", "GET")).isEqualTo("v");
        assertThat(call("SET", "k", "x", "EX", "10", "EX", "20")).isEqualTo("OK");
        assertThat(expireAt("k")).isEqualTo(now() + 20_000);
    }

    @Test
    void set_ex_expiresWhenTheClockPassesIt() {
        call("SET", "k", "v", "EX", "10");
        assertThat(expireAt("k")).isEqualTo(now() + 10_000);
        support.advance(9_999);
        assertThat(text("GET", "k")).isEqualTo("v");
        support.advance(1);
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void set_pxExatPxat_setTheMatchingAbsoluteTime() {
        call("SET", "a", "v", "PX", "1500");
        call("SET", "b", "v", "EXAT", String.valueOf(now() / 1000 + 100));
        call("SET", "c", "v", "PXAT", String.valueOf(now() + 2500));
        assertThat(expireAt("a")).isEqualTo(now() + 1500);
        assertThat(expireAt("b")).isEqualTo((now() / 1000 + 100) * 1000);
        assertThat(expireAt("c")).isEqualTo(now() + 2500);
    }

    @Test
    void set_absoluteTimeInThePast_leavesNoKey() {
        assertThat(call("SET", "k", "v", "EXAT", "1")).isEqualTo("OK");
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void set_invalidExpireTimes_areRejectedWithTheCommandName() {
        String invalid = "ERR invalid expire time in 'set' command";
        fails(invalid, "SET", "k", "v", "EX", "0");
        fails(invalid, "SET", "k", "v", "EX", "-1");
        fails(invalid, "SET", "k", "v", "PX", "0");
        fails(invalid, "SET", "k", "v", "EX", "9223372036854775807");
        fails(invalid, "SET", "k", "v", "PX", "9223372036854775807");
        fails(invalid, "SET", "k", "v", "EXAT", "9223372036854776");
        fails(NOT_INTEGER, "SET", "k", "v", "EX", "abc");
        fails(NOT_INTEGER, "SET", "k", "v", "EX", "1.5");
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void set_largestAbsoluteTimes_areAccepted() {
        assertThat(call("SET", "a", "v", "PXAT", "9223372036854775807")).isEqualTo("OK");
        assertThat(call("SET", "b", "v", "EXAT", "9223372036854775")).isEqualTo("OK");
        assertThat(expireAt("a")).isEqualTo(Long.MAX_VALUE);
        assertThat(expireAt("b")).isEqualTo(9_223_372_036_854_775_000L);
    }

    @Test
    void set_withoutKeepttl_clearsTheTtl() {
        call("SET", "k", "v", "EX", "100");
        call("SET", "k", "w");
        assertThat(expireAt("k")).isEqualTo(Database.NO_EXPIRY);
    }

    @Test
    void set_keepttl_keepsTheTtl() {
        call("SET", "k", "v", "EX", "100");
        call("SET", "k", "w", "KEEPTTL");
        assertThat(expireAt("k")).isEqualTo(now() + 100_000);
        assertThat(text("GET", "k")).isEqualTo("w");
    }

    @Test
    void set_get_returnsTheOldValueAndStores() {
        assertThat(call("SET", "k", "a", "GET")).isNull();
        assertThat(text("SET", "k", "b", "GET")).isEqualTo("a");
        assertThat(text("GET", "k")).isEqualTo("b");
    }

    @Test
    void set_getWithNxOrXx_repliesOldValueEvenWhenNotStoring() {
        call("SET", "k", "old");
        assertThat(text("SET", "k", "new", "NX", "GET")).isEqualTo("old");
        assertThat(text("GET", "k")).isEqualTo("old");
        assertThat(call("SET", "m", "v", "XX", "GET")).isNull();
        assertThat(call("GET", "m")).isNull();
    }

    @Test
    void set_getOnOtherType_isWrongTypeAndStoresNothing() {
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "SET", "h", "v", "GET");
        assertThat(call("HGET", "h", "f")).isNotNull();
    }

    @Test
    void set_overOtherType_replacesIt() {
        call("HSET", "h", "f", "v");
        assertThat(call("SET", "h", "s")).isEqualTo("OK");
        assertThat(text("GET", "h")).isEqualTo("s");
    }

    @Test
    void set_encoding_followsRedisRules() {
        call("SET", "int", "-12345");
        call("SET", "lead", "01");
        call("SET", "short", "x".repeat(44));
        call("SET", "long", "x".repeat(45));
        call("SET", "huge", "123456789012345678901");
        assertThat(encoding("int")).isEqualTo("int");
        assertThat(encoding("lead")).isEqualTo("embstr");
        assertThat(encoding("short")).isEqualTo("embstr");
        assertThat(encoding("long")).isEqualTo("raw");
        assertThat(encoding("huge")).isEqualTo("embstr");
    }

    @Test
    void set_wrongArity_namesTheCommand() {
        fails("ERR wrong number of arguments for 'set' command", "SET", "k");
    }

    @Test
    void setnx_storesOnlyWhenMissing_evenOverOtherTypes() {
        assertThat(call("SETNX", "k", "a")).isEqualTo(1L);
        assertThat(call("SETNX", "k", "b")).isEqualTo(0L);
        call("HSET", "h", "f", "v");
        assertThat(call("SETNX", "h", "x")).isEqualTo(0L);
        assertThat(text("GET", "k")).isEqualTo("a");
    }

    @Test
    void setex_setsValueAndTtl() {
        assertThat(call("SETEX", "k", "10", "v")).isEqualTo("OK");
        assertThat(expireAt("k")).isEqualTo(now() + 10_000);
        assertThat(call("PSETEX", "p", "1500", "v")).isEqualTo("OK");
        assertThat(expireAt("p")).isEqualTo(now() + 1500);
        support.advance(1500);
        assertThat(call("GET", "p")).isNull();
        assertThat(text("GET", "k")).isEqualTo("v");
    }

    @Test
    void setex_invalidTimes_nameTheirCommand() {
        fails("ERR invalid expire time in 'setex' command", "SETEX", "k", "0", "v");
        fails("ERR invalid expire time in 'setex' command", "SETEX", "k", "9223372036854775807", "v");
        fails("ERR invalid expire time in 'psetex' command", "PSETEX", "k", "-5", "v");
        fails("ERR invalid expire time in 'psetex' command", "PSETEX", "k", "9223372036854775807", "v");
        fails(NOT_INTEGER, "SETEX", "k", "ten", "v");
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void getdel_returnsAndDeletes() {
        call("SET", "k", "v");
        assertThat(text("GETDEL", "k")).isEqualTo("v");
        assertThat(call("GET", "k")).isNull();
        assertThat(call("GETDEL", "k")).isNull();
    }

    @Test
    void getdel_otherType_isWrongTypeAndKeepsTheKey() {
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "GETDEL", "h");
        assertThat(call("HLEN", "h")).isEqualTo(1L);
    }

    @Test
    void getex_withoutOptions_leavesTheTtl() {
        call("SET", "k", "v", "EX", "100");
        assertThat(text("GETEX", "k")).isEqualTo("v");
        assertThat(expireAt("k")).isEqualTo(now() + 100_000);
    }

    @Test
    void getex_expiryOptions_setTheTtl() {
        call("SET", "k", "v");
        assertThat(text("GETEX", "k", "EX", "10")).isEqualTo("v");
        assertThat(expireAt("k")).isEqualTo(now() + 10_000);
        text("GETEX", "k", "PX", "5000");
        assertThat(expireAt("k")).isEqualTo(now() + 5000);
        text("GETEX", "k", "PXAT", String.valueOf(now() + 7000));
        assertThat(expireAt("k")).isEqualTo(now() + 7000);
        text("GETEX", "k", "EX", "10", "EX", "20");
        assertThat(expireAt("k")).isEqualTo(now() + 20_000);
    }

    @Test
    void getex_persist_removesTheTtl() {
        call("SET", "k", "v", "EX", "100");
        assertThat(text("GETEX", "k", "PERSIST", "PERSIST")).isEqualTo("v");
        assertThat(expireAt("k")).isEqualTo(Database.NO_EXPIRY);
    }

    @Test
    void getex_pastAbsoluteTime_returnsTheValueAndDeletes() {
        call("SET", "k", "v");
        assertThat(text("GETEX", "k", "EXAT", "1")).isEqualTo("v");
        assertThat(call("GET", "k")).isNull();
    }

    @Test
    void getex_badOptions_areSyntaxErrors() {
        call("SET", "k", "v");
        fails(SYNTAX, "GETEX", "k", "NX");
        fails(SYNTAX, "GETEX", "k", "KEEPTTL");
        fails(SYNTAX, "GETEX", "k", "GET");
        fails(SYNTAX, "GETEX", "k", "PERSIST", "EX", "10");
        fails(SYNTAX, "GETEX", "k", "EX", "10", "PERSIST");
        fails(SYNTAX, "GETEX", "k", "EX");
        fails(SYNTAX, "GETEX", "nokey", "NX");
    }

    @Test
    void getex_invalidTime_isCheckedOnlyForAnExistingString() {
        assertThat(call("GETEX", "nokey", "EX", "-1")).isNull();
        call("SET", "k", "v");
        fails("ERR invalid expire time in 'getex' command", "GETEX", "k", "EX", "-1");
        fails("ERR invalid expire time in 'getex' command", "GETEX", "k", "PX", "0");
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "GETEX", "h", "EX", "-1");
    }

    @Test
    void mget_returnsNullForMissingAndOtherTypes() {
        call("SET", "a", "1");
        call("HSET", "h", "f", "v");
        List<?> reply = (List<?>) call("MGET", "a", "nokey", "h", "a");
        assertThat(reply).hasSize(4);
        assertThat((byte[]) reply.get(0)).isEqualTo(bytes("1"));
        assertThat(reply.get(1)).isNull();
        assertThat(reply.get(2)).isNull();
        assertThat((byte[]) reply.get(3)).isEqualTo(bytes("1"));
    }

    @Test
    void mset_setsEveryPairAndClearsTtls() {
        call("SET", "a", "old", "EX", "100");
        assertThat(call("MSET", "a", "1", "b", "2", "a", "3")).isEqualTo("OK");
        assertThat(text("GET", "a")).isEqualTo("3");
        assertThat(text("GET", "b")).isEqualTo("2");
        assertThat(expireAt("a")).isEqualTo(Database.NO_EXPIRY);
    }

    @Test
    void mset_oddArguments_isTheArityError() {
        fails("ERR wrong number of arguments for 'mset' command", "MSET", "a", "1", "b");
        fails("ERR wrong number of arguments for 'msetnx' command", "MSETNX", "a", "1", "b");
        assertThat(call("GET", "a")).isNull();
    }

    @Test
    void msetnx_anyExistingKey_setsNothing() {
        call("HSET", "h", "f", "v");
        assertThat(call("MSETNX", "a", "1", "h", "2")).isEqualTo(0L);
        assertThat(call("GET", "a")).isNull();
        assertThat(call("MSETNX", "a", "1", "b", "2")).isEqualTo(1L);
        assertThat(text("GET", "b")).isEqualTo("2");
    }

    @Test
    void incr_missingKey_startsFromZero() {
        assertThat(call("INCR", "n")).isEqualTo(1L);
        assertThat(call("DECR", "m")).isEqualTo(-1L);
        assertThat(call("INCRBY", "n", "41")).isEqualTo(42L);
        assertThat(call("DECRBY", "n", "50")).isEqualTo(-8L);
        assertThat(encoding("n")).isEqualTo("int");
    }

    @Test
    void incr_keepsTheTtl() {
        call("SET", "n", "1", "EX", "100");
        assertThat(call("INCR", "n")).isEqualTo(2L);
        assertThat(expireAt("n")).isEqualTo(now() + 100_000);
    }

    @Test
    void incr_nonCanonicalIntegers_areRejected() {
        for (String value : new String[] {" 1", "1 ", "1.0", "0x10", "01", "+1", "-0", "", "abc", "99999999999999999999"}) {
            call("SET", "n", value);
            fails(NOT_INTEGER, "INCR", "n");
            assertThat(text("GET", "n")).isEqualTo(value);
        }
    }

    @Test
    void incrby_overflow_isRejected() {
        call("SET", "n", "9223372036854775807");
        fails("ERR increment or decrement would overflow", "INCR", "n");
        call("SET", "n", "-9223372036854775808");
        fails("ERR increment or decrement would overflow", "DECR", "n");
        fails("ERR increment or decrement would overflow", "INCRBY", "n", "-1");
        assertThat(text("GET", "n")).isEqualTo("-9223372036854775808");
    }

    @Test
    void decrby_minimumLong_cannotBeNegated() {
        fails("ERR decrement would overflow", "DECRBY", "n", "-9223372036854775808");
        assertThat(call("GET", "n")).isNull();
    }

    @Test
    void incrby_badIncrement_isCheckedBeforeTheType() {
        call("HSET", "h", "f", "v");
        fails(NOT_INTEGER, "INCRBY", "h", "abc");
        fails(WRONGTYPE, "INCRBY", "h", "1");
        fails(WRONGTYPE, "INCR", "h");
    }

    @Test
    void incrbyfloat_formatsLikeRedis() {
        call("SET", "f", "10.5");
        assertThat(text("INCRBYFLOAT", "f", "0.1")).isEqualTo("10.6");
        call("SET", "f", "3.0e3");
        assertThat(text("INCRBYFLOAT", "f", "200")).isEqualTo("3200");
        call("SET", "f", "5.0e3");
        assertThat(text("INCRBYFLOAT", "f", "0")).isEqualTo("5000");
        assertThat(text("GET", "f")).isEqualTo("5000");
        assertThat(text("INCRBYFLOAT", "missing", "0.1")).isEqualTo("0.1");
        assertThat(text("INCRBYFLOAT", "missing", "0.2")).isEqualTo("0.3");
    }

    @Test
    void incrbyfloat_computesInLongDoublePrecision() {
        call("SET", "a", "177763.170");
        assertThat(text("INCRBYFLOAT", "a", "4.39150008063608e-12")).isEqualTo("177763.17000000000439286");
        call("SET", "b", "-5.007997001442356e+16");
        assertThat(text("INCRBYFLOAT", "b", "-849.954398")).isEqualTo("-50079970014424409.953125");
        call("SET", "c", "99962283.03");
        assertThat(text("INCRBYFLOAT", "c", "-237.424101")).isEqualTo("99962045.60589900000195485");
        call("SET", "d", "1");
        assertThat(text("INCRBYFLOAT", "d", "1e-20")).isEqualTo("1");
    }

    @Test
    void incrbyfloat_tinyOrTiedResults_roundAtSeventeenDecimals() {
        call("SET", "f", "0");
        assertThat(text("INCRBYFLOAT", "f", "-1e-20")).isEqualTo("0");
        call("SET", "g", "0");
        assertThat(text("INCRBYFLOAT", "g", "0.000011444091796875")).isEqualTo("0.00001144409179688");
        call("SET", "h", "0");
        assertThat(text("INCRBYFLOAT", "h", "0.000003814697265625")).isEqualTo("0.00000381469726562");
    }

    @Test
    void incrbyfloat_acceptsLongDoubleRangeAndSyntax() {
        call("SET", "f", "1e400");
        String big = text("INCRBYFLOAT", "f", "0");
        assertThat(big).startsWith("10000000000000000000281880683947586514586453433629052038625910693539685534008629862");
        assertThat(big).hasSize(401);
        call("SET", "g", "0x10");
        assertThat(text("INCRBYFLOAT", "g", "0x1.8p1")).isEqualTo("19");
        call("SET", "h", "1.2e4932");
        fails(NOT_FLOAT, "INCRBYFLOAT", "h", "0");
    }

    @Test
    void incrbyfloat_invalidNumbers_areRejected() {
        call("SET", "f", "1");
        for (String increment : new String[] {"abc", " 1", "1 ", "nan", "1e", "", ".", "1e-5000", "1\u0000"}) {
            fails(NOT_FLOAT, "INCRBYFLOAT", "f", increment);
        }
        call("SET", "g", "abc");
        fails(NOT_FLOAT, "INCRBYFLOAT", "g", "1");
        assertThat(text("GET", "f")).isEqualTo("1");
    }

    @Test
    void incrbyfloat_infiniteResult_isRejected() {
        call("SET", "f", "1");
        fails("ERR increment would produce NaN or Infinity", "INCRBYFLOAT", "f", "inf");
        fails("ERR increment would produce NaN or Infinity", "INCRBYFLOAT", "f", "-Infinity");
        assertThat(text("GET", "f")).isEqualTo("1");
    }

    @Test
    void incrbyfloat_checksTypeFirst_keepsTtl_andStoresText() {
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "INCRBYFLOAT", "h", "abc");
        call("SET", "f", "1", "EX", "100");
        assertThat(text("INCRBYFLOAT", "f", "1")).isEqualTo("2");
        assertThat(expireAt("f")).isEqualTo(now() + 100_000);
        assertThat(encoding("f")).isEqualTo("embstr");
    }

    @Test
    void append_createsOrExtendsAndReturnsTheLength() {
        assertThat(call("APPEND", "k", "123")).isEqualTo(3L);
        assertThat(encoding("k")).isEqualTo("int");
        assertThat(client.call(bytes("APPEND"), bytes("k"), new byte[] {0, '\r', '\n'})).isEqualTo(6L);
        assertThat((byte[]) call("GET", "k")).isEqualTo(new byte[] {'1', '2', '3', 0, '\r', '\n'});
        assertThat(encoding("k")).isEqualTo("raw");
    }

    @Test
    void append_manyTimes_keepsEveryByte() {
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            String piece = Integer.toString(i);
            expected.append(piece);
            assertThat(call("APPEND", "k", piece)).isEqualTo((long) expected.length());
        }
        assertThat(text("GET", "k")).isEqualTo(expected.toString());
        assertThat(text("GETRANGE", "k", "-3", "-1")).isEqualTo("499");
    }

    @Test
    void append_keepsTtlAndChecksType() {
        call("SET", "k", "a", "EX", "100");
        call("APPEND", "k", "b");
        assertThat(expireAt("k")).isEqualTo(now() + 100_000);
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "APPEND", "h", "x");
    }

    @Test
    void append_pastProtoMaxBulkLen_isRejected() {
        support.engine.config().set("proto-max-bulk-len", "1mb", false); // the least Redis allows
        call("SET", "k", "x".repeat(1024 * 1024 - 3));
        assertThat(call("APPEND", "k", "678")).isEqualTo(1024 * 1024L);
        fails("ERR string exceeds maximum allowed size (proto-max-bulk-len)", "APPEND", "k", "9");
        assertThat(call("STRLEN", "k")).isEqualTo(1024 * 1024L);
    }

    @Test
    void strlen_missingValueOrOtherType() {
        assertThat(call("STRLEN", "nokey")).isEqualTo(0L);
        call("SET", "k", "hello");
        assertThat(call("STRLEN", "k")).isEqualTo(5L);
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "STRLEN", "h");
    }

    @Test
    void getrange_indexesFollowRedis72() {
        call("SET", "s", "hello");
        String[][] cases = {
            {"0", "-100", "h"}, {"-1", "-5", ""}, {"-100", "-99", "h"}, {"3", "1", ""}, {"0", "100", "hello"},
            {"-3", "-1", "llo"}, {"1", "-2", "ell"}, {"5", "10", ""}, {"4", "4", "o"}, {"-1", "0", ""},
            {"9223372036854775807", "9223372036854775807", ""}, {"-9223372036854775808", "-1", "hello"},
        };
        List<String> got = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (String[] c : cases) {
            got.add(c[0] + "," + c[1] + "=" + text("GETRANGE", "s", c[0], c[1]));
            expected.add(c[0] + "," + c[1] + "=" + c[2]);
        }
        assertThat(got).isEqualTo(expected);
        assertThat(text("SUBSTR", "s", "1", "3")).isEqualTo("ell");
    }

    @Test
    void getrange_missingOrEmpty_isEmpty_butIndexesAreParsedFirst() {
        assertThat(text("GETRANGE", "nokey", "0", "1")).isEmpty();
        call("SET", "e", "");
        assertThat(text("GETRANGE", "e", "0", "-1")).isEmpty();
        fails(NOT_INTEGER, "GETRANGE", "nokey", "a", "1");
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "GETRANGE", "h", "0", "1");
    }

    @Test
    void setrange_overwritesAndPadsWithZeros() {
        call("SET", "k", "hello world");
        assertThat(call("SETRANGE", "k", "6", "redis")).isEqualTo(11L);
        assertThat(text("GET", "k")).isEqualTo("hello redis");
        assertThat(call("SETRANGE", "k", "13", "!")).isEqualTo(14L);
        assertThat((byte[]) call("GET", "k")).isEqualTo(bytes("hello redis\0\0!"));
        assertThat(encoding("k")).isEqualTo("raw");
    }

    @Test
    void setrange_missingKey_createsAPaddedRawString() {
        assertThat(call("SETRANGE", "k", "3", "ab")).isEqualTo(5L);
        assertThat((byte[]) call("GET", "k")).isEqualTo(new byte[] {0, 0, 0, 'a', 'b'});
        assertThat(encoding("k")).isEqualTo("raw");
    }

    @Test
    void setrange_emptyValue_changesNothing() {
        assertThat(call("SETRANGE", "nokey", "0", "")).isEqualTo(0L);
        assertThat(call("SETRANGE", "nokey", "536870912", "")).isEqualTo(0L);
        assertThat(call("GET", "nokey")).isNull();
        call("SET", "k", "hello");
        assertThat(call("SETRANGE", "k", "9223372036854775807", "")).isEqualTo(5L);
        assertThat(encoding("k")).isEqualTo("embstr");
    }

    @Test
    void setrange_badOffsetsAndTypes() {
        fails("ERR offset is out of range", "SETRANGE", "k", "-1", "x");
        fails(NOT_INTEGER, "SETRANGE", "k", "x", "x");
        fails("ERR string exceeds maximum allowed size (proto-max-bulk-len)", "SETRANGE", "k", "536870912", "x");
        fails("ERR string exceeds maximum allowed size (proto-max-bulk-len)", "SETRANGE", "k", "9223372036854775807", "x");
        assertThat(call("SETRANGE", "k", "536870911", "")).isEqualTo(0L);
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "SETRANGE", "h", "0", "");
        fails("ERR offset is out of range", "SETRANGE", "h", "-1", "");
    }

    @Test
    void setrange_keepsTtl() {
        call("SET", "k", "hello", "PX", "5000");
        call("SETRANGE", "k", "0", "J");
        assertThat(expireAt("k")).isEqualTo(now() + 5000);
        assertThat(text("GET", "k")).isEqualTo("Jello");
    }

    @Test
    void getset_existingKey_repliesOldValueAndClearsTtl() {
        call("SET", "k", "old", "EX", "100");
        assertThat(text("GETSET", "k", "new")).isEqualTo("old");
        assertThat(text("GET", "k")).isEqualTo("new");
        assertThat(expireAt("k")).isEqualTo(Database.NO_EXPIRY);
    }

    @Test
    void getset_missingKey_repliesNullAndStores() {
        assertThat(call("GETSET", "k", "12345")).isNull();
        assertThat(text("GET", "k")).isEqualTo("12345");
        assertThat(encoding("k")).isEqualTo("int");
    }

    @Test
    void getset_otherType_isWrongTypeAndChangesNothing() {
        call("HSET", "h", "f", "v");
        fails(WRONGTYPE, "GETSET", "h", "x");
        assertThat(call("HGET", "h", "f")).isNotNull();
        fails("ERR wrong number of arguments for 'getset' command", "GETSET", "k");
    }
}
