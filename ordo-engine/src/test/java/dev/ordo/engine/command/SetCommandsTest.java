package dev.ordo.engine.command;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The set commands: replies, exact error texts, Redis 7.2's encodings (intset, listpack,
 * hashtable) and the orders they imply, random replies by their invariants.
 */
class SetCommandsTest extends CommandTestSupport {
    private static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";



    private Object call(String... args) {
        return client.call(args);
    }




    private String encoding(String key) {
        return s(call("OBJECT", "ENCODING", key));
    }

    private List<String> members(String key) {
        return strings(call("SMEMBERS", key));
    }

    /** SADD key prefix0 ... prefix(n-1) in one call. */
    private void addMany(String key, String prefix, int from, int to) {
        List<String> args = new ArrayList<>(List.of("SADD", key));
        for (int i = from; i < to; i++) {
            args.add(prefix + i);
        }
        client.call(args.toArray(new String[0]));
    }

    // ------------------------------------------------------------------ SADD and encodings

    @Test
    void sadd_integers_intsetInAscendingOrder() {
        assertThat(call("SADD", "s", "3", "-10", "1", "3")).isEqualTo(3L);
        assertThat(call("SADD", "s", "1", "2")).isEqualTo(1L);
        assertThat(encoding("s")).isEqualTo("intset");
        assertThat(members("s")).containsExactly("-10", "1", "2", "3");
    }

    @Test
    void sadd_strings_listpackInInsertionOrder() {
        assertThat(call("SADD", "s", "c", "a", "b", "a")).isEqualTo(3L);
        assertThat(encoding("s")).isEqualTo("listpack");
        assertThat(members("s")).containsExactly("c", "a", "b");
    }

    @Test
    void sadd_stringIntoIntset_listpackKeepsTheIntegersAscendingThenAppends() {
        call("SADD", "s", "30", "10", "20");
        call("SADD", "s", "b", "5", "a");
        assertThat(encoding("s")).isEqualTo("listpack");
        assertThat(members("s")).containsExactly("10", "20", "30", "b", "5", "a");
    }

    @Test
    void sadd_nonCanonicalIntegers_areStrings() {
        for (String m : List.of("01", "-0", "+1", " 1", "1.0", "9223372036854775808")) {
            call("DEL", "s");
            call("SADD", "s", m);
            assertThat(encoding("s")).as(m).isEqualTo("listpack");
        }
        call("DEL", "s");
        call("SADD", "s", "-9223372036854775808", "9223372036854775807", "0");
        assertThat(encoding("s")).isEqualTo("intset");
        assertThat(members("s")).containsExactly("-9223372036854775808", "0", "9223372036854775807");
    }

    @Test
    void sadd_pastListpackEntries_convertsToHashtable() {
        addMany("s", "m", 0, 128);
        assertThat(encoding("s")).isEqualTo("listpack");
        call("SADD", "s", "one-more");
        assertThat(encoding("s")).isEqualTo("hashtable");
        assertThat(call("SCARD", "s")).isEqualTo(129L);
        call("SREM", "s", "one-more", "m0", "m1");
        assertThat(encoding("s")).isEqualTo("hashtable");
    }

    @Test
    void sadd_memberLongerThanListpackValue_convertsToHashtable() {
        call("SADD", "s", "x".repeat(64));
        assertThat(encoding("s")).isEqualTo("listpack");
        call("SADD", "s", "y".repeat(65));
        assertThat(encoding("s")).isEqualTo("hashtable");
        call("SADD", "i", "1");
        call("SADD", "i", "z".repeat(65));
        assertThat(encoding("i")).isEqualTo("hashtable");
    }

    @Test
    void sadd_manyArgumentsAtOnce_convertsBeforeAdding() {
        addMany("big", "m", 0, 129);
        assertThat(encoding("big")).isEqualTo("hashtable");
        call("SADD", "small", "a");
        List<String> args = new ArrayList<>(List.of("SADD", "small"));
        for (int i = 0; i < 129; i++) {
            args.add("a");
        }
        assertThat(client.call(args.toArray(new String[0]))).isEqualTo(0L);
        assertThat(encoding("small")).isEqualTo("hashtable");
    }

    @Test
    void sadd_pastIntsetEntries_convertsToHashtable() {
        addMany("s", "", 0, 512);
        assertThat(encoding("s")).isEqualTo("intset");
        call("SADD", "s", "512");
        assertThat(encoding("s")).isEqualTo("hashtable");
        addMany("first", "", 0, 513);
        assertThat(encoding("first")).isEqualTo("hashtable");
    }

    @Test
    void sadd_stringIntoLargeIntset_goesStraightToHashtable() {
        addMany("s", "", 0, 200);
        call("SADD", "s", "x");
        assertThat(encoding("s")).isEqualTo("hashtable");
        assertThat(call("SCARD", "s")).isEqualTo(201L);
    }

    @Test
    void sadd_followsLiveConfiguration() {
        support.engine.config().set("set-max-intset-entries", "2", false);
        support.engine.config().set("set-max-listpack-entries", "3", false);
        call("SADD", "s", "1", "2");
        assertThat(encoding("s")).isEqualTo("intset");
        call("SADD", "s", "3");
        assertThat(encoding("s")).isEqualTo("hashtable");
        call("SADD", "l", "a", "b", "c");
        assertThat(encoding("l")).isEqualTo("listpack");
        call("SADD", "l", "d");
        assertThat(encoding("l")).isEqualTo("hashtable");
    }

    @Test
    void sadd_wrongType_changesNothing() {
        call("SET", "str", "v");
        fails(WRONGTYPE, "SADD", "str", "a");
        assertThat(call("TYPE", "str")).isEqualTo("string");
    }

    @Test
    void sadd_binaryMembers_roundTrip() {
        byte[] nul = {'a', 0, 'b'};
        byte[] crlf = "x\r\ny".getBytes(StandardCharsets.UTF_8);
        byte[] key = "k\0".getBytes(StandardCharsets.UTF_8);
        assertThat(client.call("SADD".getBytes(), key, nul, crlf)).isEqualTo(2L);
        assertThat(client.call("SISMEMBER".getBytes(), key, nul)).isEqualTo(1L);
        assertThat(client.call("SISMEMBER".getBytes(), key, "a".getBytes())).isEqualTo(0L);
        List<?> all = (List<?>) client.call("SMEMBERS".getBytes(), key);
        assertThat((byte[]) all.get(0)).isEqualTo(nul);
        assertThat((byte[]) all.get(1)).isEqualTo(crlf);
    }

    // ------------------------------------------------------------------ SREM SCARD SISMEMBER SMISMEMBER SMEMBERS

    @Test
    void srem_lastMember_deletesTheKey() {
        call("SADD", "s", "a", "b");
        assertThat(call("SREM", "s", "a", "x", "a")).isEqualTo(1L);
        assertThat(call("SREM", "s", "b")).isEqualTo(1L);
        assertThat(call("EXISTS", "s")).isEqualTo(0L);
        assertThat(call("SREM", "missing", "a")).isEqualTo(0L);
        call("SET", "str", "v");
        fails(WRONGTYPE, "SREM", "str", "a");
    }

    @Test
    void srem_fromEachEncoding_keepsTheOrderOfTheRest() {
        call("SADD", "i", "1", "2", "3");
        call("SREM", "i", "2", "02");
        assertThat(members("i")).containsExactly("1", "3");
        call("SADD", "l", "c", "b", "a");
        call("SREM", "l", "b");
        assertThat(members("l")).containsExactly("c", "a");
    }

    @Test
    void scardAndSismember_missingKeyIsEmpty() {
        call("SADD", "s", "a", "1");
        assertThat(call("SCARD", "s")).isEqualTo(2L);
        assertThat(call("SCARD", "missing")).isEqualTo(0L);
        assertThat(call("SISMEMBER", "s", "1")).isEqualTo(1L);
        assertThat(call("SISMEMBER", "s", "01")).isEqualTo(0L);
        assertThat(call("SISMEMBER", "missing", "a")).isEqualTo(0L);
        call("SET", "str", "v");
        fails(WRONGTYPE, "SCARD", "str");
        fails(WRONGTYPE, "SISMEMBER", "str", "a");
    }

    @Test
    void smismember_repliesPerMember() {
        call("SADD", "s", "a", "b");
        assertThat(call("SMISMEMBER", "s", "a", "x", "b")).isEqualTo(List.of(1L, 0L, 1L));
        assertThat(call("SMISMEMBER", "missing", "a", "b")).isEqualTo(List.of(0L, 0L));
        call("SET", "str", "v");
        fails(WRONGTYPE, "SMISMEMBER", "str", "a");
        fails("ERR wrong number of arguments for 'smismember' command", "SMISMEMBER", "s");
    }

    @Test
    void smembers_missingKey_isEmpty() {
        assertThat(members("missing")).isEmpty();
        call("SET", "str", "v");
        fails(WRONGTYPE, "SMEMBERS", "str");
    }

    // ------------------------------------------------------------------ SRANDMEMBER

    @Test
    void srandmember_noCount_returnsAMemberOrNil() {
        call("SADD", "s", "a", "b", "c");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(s(call("SRANDMEMBER", "s")));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(call("SRANDMEMBER", "missing")).isNull();
        assertThat(call("SCARD", "s")).isEqualTo(3L);
    }

    @Test
    void srandmember_countAtLeastTheSize_returnsTheWholeSetInOrder() {
        call("SADD", "i", "3", "1", "2");
        call("SADD", "l", "c", "a", "b");
        assertThat(strings(call("SRANDMEMBER", "i", "3"))).containsExactly("1", "2", "3");
        assertThat(strings(call("SRANDMEMBER", "l", "100"))).containsExactly("c", "a", "b");
    }

    @Test
    void srandmember_positiveCountOnListpack_isADistinctSubsequence() {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            order.add("m" + i);
        }
        addMany("l", "m", 0, 20);
        for (int round = 0; round < 50; round++) {
            List<String> got = strings(call("SRANDMEMBER", "l", "5"));
            assertThat(got).hasSize(5).doesNotHaveDuplicates();
            List<Integer> positions = new ArrayList<>();
            got.forEach(m -> positions.add(order.indexOf(m)));
            assertThat(positions).isSorted().doesNotContain(-1);
        }
    }

    @Test
    void srandmember_positiveCountOnHashtableOrIntset_isDistinct() {
        addMany("h", "m", 0, 300);
        addMany("i", "", 0, 100);
        String[][] cases = {{"h", "10"}, {"h", "150"}, {"i", "10"}, {"i", "90"}};
        for (String[] kc : cases) {
            List<String> got = strings(call("SRANDMEMBER", kc[0], kc[1]));
            assertThat(got).as(kc[0] + " " + kc[1]).hasSize(Integer.parseInt(kc[1])).doesNotHaveDuplicates();
            for (String m : got) {
                assertThat(call("SISMEMBER", kc[0], m)).isEqualTo(1L);
            }
        }
    }

    @Test
    void srandmember_negativeCount_allowsRepeats() {
        call("SADD", "s", "a", "b");
        List<String> got = strings(call("SRANDMEMBER", "s", "-50"));
        assertThat(got).hasSize(50);
        assertThat(new HashSet<>(got)).isSubsetOf("a", "b");
        assertThat(strings(call("SRANDMEMBER", "s", "-1"))).hasSize(1);
    }

    @Test
    void srandmember_zeroOrMissing_isAnEmptyArray() {
        call("SADD", "s", "a");
        assertThat(strings(call("SRANDMEMBER", "s", "0"))).isEmpty();
        assertThat(strings(call("SRANDMEMBER", "missing", "5"))).isEmpty();
        assertThat(strings(call("SRANDMEMBER", "missing", "-5"))).isEmpty();
    }

    @Test
    void srandmember_badCount_errorsBeforeTheTypeCheck() {
        call("SET", "str", "v");
        fails("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
                "SRANDMEMBER", "str", "-9223372036854775808");
        fails("ERR value is not an integer or out of range", "SRANDMEMBER", "str", "x");
        fails("ERR syntax error", "SRANDMEMBER", "str", "1", "2");
        fails(WRONGTYPE, "SRANDMEMBER", "str", "1");
        fails(WRONGTYPE, "SRANDMEMBER", "str");
    }

    // ------------------------------------------------------------------ SPOP

    @Test
    void spop_noCount_removesOneMember() {
        call("SADD", "s", "a", "b");
        String popped = s(call("SPOP", "s"));
        assertThat(popped).isIn("a", "b");
        assertThat(call("SISMEMBER", "s", popped)).isEqualTo(0L);
        call("SPOP", "s");
        assertThat(call("EXISTS", "s")).isEqualTo(0L);
        assertThat(call("SPOP", "s")).isNull();
    }

    @Test
    void spop_countAtLeastTheSize_returnsAllAsAUnionWouldAndDeletes() {
        call("SADD", "s", "30", "10");
        call("SADD", "s", "b", "20");
        assertThat(members("s")).containsExactly("10", "30", "b", "20");
        assertThat(strings(call("SPOP", "s", "10"))).containsExactly("10", "30", "b", "20");
        assertThat(call("EXISTS", "s")).isEqualTo(0L);
        call("SADD", "t", "x", "20", "10");
        call("SREM", "t", "x");
        assertThat(members("t")).containsExactly("20", "10");
        assertThat(strings(call("SPOP", "t", "3"))).containsExactly("10", "20");
    }

    @Test
    void spop_countBelowTheSize_removesDistinctMembers() {
        addMany("l", "m", 0, 50);
        addMany("i", "", 0, 300);
        addMany("h", "m", 0, 300);
        for (String key : List.of("l", "i", "h")) {
            long before = (Long) call("SCARD", key);
            List<String> popped = strings(call("SPOP", key, "7"));
            assertThat(popped).hasSize(7).doesNotHaveDuplicates();
            assertThat(call("SCARD", key)).isEqualTo(before - 7);
            for (String m : popped) {
                assertThat(call("SISMEMBER", key, m)).isEqualTo(0L);
            }
        }
    }

    @Test
    void spop_mostOfAHashtable_rebuildsTheSurvivorsAsAListpack() {
        addMany("h", "m", 0, 200);
        List<String> popped = strings(call("SPOP", "h", "190"));
        assertThat(popped).hasSize(190).doesNotHaveDuplicates();
        assertThat(call("SCARD", "h")).isEqualTo(10L);
        assertThat(encoding("h")).isEqualTo("listpack");
        Set<String> all = new HashSet<>(popped);
        all.addAll(members("h"));
        assertThat(all).hasSize(200);
    }

    @Test
    void spop_mostOfAnIntset_keepsAnIntset() {
        addMany("i", "", 0, 100);
        call("EXPIRE", "i", "100");
        strings(call("SPOP", "i", "95"));
        assertThat(encoding("i")).isEqualTo("intset");
        assertThat(call("SCARD", "i")).isEqualTo(5L);
        assertThat(call("TTL", "i")).isEqualTo(100L);
    }

    @Test
    void spop_badCount_isNotPositive() {
        call("SADD", "s", "a");
        fails("ERR value is out of range, must be positive", "SPOP", "s", "-1");
        fails("ERR value is out of range, must be positive", "SPOP", "s", "x");
        fails("ERR syntax error", "SPOP", "s", "1", "2");
        assertThat(strings(call("SPOP", "s", "0"))).isEmpty();
        assertThat(strings(call("SPOP", "missing", "3"))).isEmpty();
        assertThat(call("SCARD", "s")).isEqualTo(1L);
        call("SET", "str", "v");
        fails(WRONGTYPE, "SPOP", "str", "0");
    }

    // ------------------------------------------------------------------ SMOVE

    @Test
    void smove_movesAndCreatesTheDestination() {
        call("SADD", "src", "a", "5");
        assertThat(call("SMOVE", "src", "dst", "5")).isEqualTo(1L);
        assertThat(encoding("dst")).isEqualTo("intset");
        assertThat(members("src")).containsExactly("a");
        assertThat(call("SMOVE", "src", "dst", "nope")).isEqualTo(0L);
        assertThat(call("SMOVE", "src", "dst", "a")).isEqualTo(1L);
        assertThat(call("EXISTS", "src")).isEqualTo(0L);
        assertThat(members("dst")).containsExactly("5", "a");
    }

    @Test
    void smove_memberAlreadyInTheDestination_stillRemovesItFromTheSource() {
        call("SADD", "src", "a", "b");
        call("SADD", "dst", "a");
        assertThat(call("SMOVE", "src", "dst", "a")).isEqualTo(1L);
        assertThat(members("src")).containsExactly("b");
        assertThat(members("dst")).containsExactly("a");
    }

    @Test
    void smove_sameKey_answersMembership() {
        call("SADD", "s", "a");
        assertThat(call("SMOVE", "s", "s", "a")).isEqualTo(1L);
        assertThat(call("SMOVE", "s", "s", "b")).isEqualTo(0L);
        assertThat(members("s")).containsExactly("a");
    }

    @Test
    void smove_types_missingSourceWinsOverAWrongDestination() {
        call("SET", "str", "v");
        call("SADD", "s", "a");
        assertThat(call("SMOVE", "missing", "str", "a")).isEqualTo(0L);
        fails(WRONGTYPE, "SMOVE", "str", "s", "a");
        fails(WRONGTYPE, "SMOVE", "s", "str", "x");
        assertThat(members("s")).containsExactly("a");
    }

    // ------------------------------------------------------------------ SSCAN

    @Test
    void sscan_smallSet_returnsEverythingAtOnce() {
        addMany("i", "", 0, 50);
        List<?> reply = (List<?>) call("SSCAN", "i", "0", "COUNT", "2");
        assertThat(s(reply.get(0))).isEqualTo("0");
        assertThat(strings(reply.get(1))).hasSize(50).startsWith("0", "1", "2");
        List<?> matched = (List<?>) call("SSCAN", "i", "0", "MATCH", "4?");
        assertThat(strings(matched.get(1))).containsExactly("40", "41", "42", "43", "44", "45", "46", "47", "48", "49");
    }

    @Test
    void sscan_hashtable_walksWithARealCursorThroughChanges() {
        addMany("h", "stable", 0, 400);
        addMany("h", "gone", 0, 100);
        Set<String> seen = new HashSet<>();
        String cursor = "0";
        int step = 0;
        do {
            List<?> reply = (List<?>) call("SSCAN", "h", cursor, "COUNT", "5");
            cursor = s(reply.get(0));
            seen.addAll(strings(reply.get(1)));
            addMany("h", "new" + step + ":", 0, 5);
            call("SREM", "h", "gone" + step);
            step++;
        } while (!cursor.equals("0"));
        for (int i = 0; i < 400; i++) {
            assertThat(seen).contains("stable" + i);
        }
        assertThat(step).isGreaterThan(5);
    }

    @Test
    void sscan_missingKey_isAnEmptyWalkWhateverTheOptions() {
        List<?> reply = (List<?>) call("SSCAN", "missing", "0", "COUNT", "0");
        assertThat(s(reply.get(0))).isEqualTo("0");
        assertThat((List<?>) reply.get(1)).isEmpty();
    }

    @Test
    void sscan_errors() {
        call("SADD", "s", "a");
        call("SET", "str", "v");
        fails("ERR invalid cursor", "SSCAN", "s", "x");
        fails("ERR syntax error", "SSCAN", "s", "0", "TYPE", "set");
        fails("ERR syntax error", "SSCAN", "s", "0", "COUNT", "0");
        fails(WRONGTYPE, "SSCAN", "str", "0", "COUNT", "0");
    }

    // ------------------------------------------------------------------ intersection

    @Test
    void sinter_walksTheSmallestSet() {
        call("SADD", "big", "e", "d", "c", "b", "a");
        call("SADD", "small", "c", "a", "z");
        assertThat(strings(call("SINTER", "big", "small"))).containsExactly("c", "a");
        assertThat(strings(call("SINTER", "small", "big"))).containsExactly("c", "a");
        assertThat(strings(call("SINTER", "big", "big"))).containsExactly("e", "d", "c", "b", "a");
        assertThat(strings(call("SINTER", "big", "missing"))).isEmpty();
    }

    @Test
    void sinter_wrongTypeAnywhere_failsEvenAfterAMissingKey() {
        call("SET", "str", "v");
        call("SADD", "s", "a");
        fails(WRONGTYPE, "SINTER", "missing", "str");
        fails(WRONGTYPE, "SINTER", "str", "missing");
        fails(WRONGTYPE, "SINTERCARD", "2", "missing", "str");
        fails(WRONGTYPE, "SINTERSTORE", "d", "s", "str");
    }

    @Test
    void sintercard_limitAndMissingKeys() {
        call("SADD", "a", "1", "2", "3");
        call("SADD", "b", "1", "2", "3", "4");
        assertThat(call("SINTERCARD", "2", "a", "b")).isEqualTo(3L);
        assertThat(call("SINTERCARD", "2", "a", "b", "LIMIT", "2")).isEqualTo(2L);
        assertThat(call("SINTERCARD", "2", "a", "b", "limit", "0")).isEqualTo(3L);
        assertThat(call("SINTERCARD", "1", "a", "LIMIT", "1", "LIMIT", "2")).isEqualTo(2L);
        assertThat(call("SINTERCARD", "2", "a", "missing")).isEqualTo(0L);
    }

    @Test
    void sintercard_badArguments() {
        call("SADD", "a", "1");
        fails("ERR numkeys should be greater than 0", "SINTERCARD", "0", "a");
        fails("ERR numkeys should be greater than 0", "SINTERCARD", "x", "a");
        fails("ERR Number of keys can't be greater than number of args", "SINTERCARD", "3", "a");
        fails("ERR LIMIT can't be negative", "SINTERCARD", "1", "a", "LIMIT", "-1");
        fails("ERR LIMIT can't be negative", "SINTERCARD", "1", "a", "LIMIT", "x");
        fails("ERR syntax error", "SINTERCARD", "1", "a", "LIMIT");
        fails("ERR syntax error", "SINTERCARD", "1", "a", "FOO", "1");
    }

    @Test
    void sinterstore_integerResult_isStoredAsAnIntset() {
        addMany("h1", "", 0, 300);
        call("SADD", "h1", "x");
        addMany("h2", "", 100, 400);
        call("SADD", "h2", "x", "y");
        assertThat(encoding("h1")).isEqualTo("hashtable");
        assertThat(call("SINTERSTORE", "d", "h1", "h2")).isEqualTo(201L);
        assertThat(encoding("d")).isEqualTo("hashtable");
        call("SREM", "h2", "x");
        assertThat(call("SINTERSTORE", "d", "h1", "h2")).isEqualTo(200L);
        assertThat(encoding("d")).isEqualTo("intset");
        assertThat(members("d")).startsWith("100", "101", "102");
        call("SADD", "l1", "b", "3", "a", "1");
        call("SADD", "l2", "1", "3", "a");
        assertThat(call("SINTERSTORE", "d", "l1", "l2")).isEqualTo(3L);
        assertThat(encoding("d")).isEqualTo("listpack");
        assertThat(members("d")).containsExactly("1", "3", "a");
        call("SREM", "l2", "a");
        call("SINTERSTORE", "d", "l1", "l2");
        assertThat(encoding("d")).isEqualTo("intset");
        assertThat(members("d")).containsExactly("1", "3");
    }

    @Test
    void sinterstore_replacesAnyDestinationAndItsTtl() {
        call("SADD", "a", "x");
        call("SET", "d", "string");
        call("EXPIRE", "d", "100");
        assertThat(call("SINTERSTORE", "d", "a", "a")).isEqualTo(1L);
        assertThat(call("TYPE", "d")).isEqualTo("set");
        assertThat(call("TTL", "d")).isEqualTo(-1L);
        assertThat(call("SINTERSTORE", "d", "a", "missing")).isEqualTo(0L);
        assertThat(call("EXISTS", "d")).isEqualTo(0L);
    }

    // ------------------------------------------------------------------ union and difference

    @Test
    void sunion_buildsLikeRedis_intsetFirstThenAppended() {
        call("SADD", "a", "b", "3");
        call("SADD", "i", "2", "1");
        assertThat(strings(call("SUNION", "i", "a"))).containsExactly("1", "2", "b", "3");
        assertThat(strings(call("SUNION", "a", "i"))).containsExactly("b", "3", "1", "2");
        assertThat(strings(call("SUNION", "missing", "i"))).containsExactly("1", "2");
        assertThat(strings(call("SUNION", "missing"))).isEmpty();
    }

    @Test
    void sunionstore_storesTheUnionAndReportsItsSize() {
        call("SADD", "a", "1", "2");
        call("SADD", "b", "2", "3");
        assertThat(call("SUNIONSTORE", "d", "a", "b")).isEqualTo(3L);
        assertThat(encoding("d")).isEqualTo("intset");
        assertThat(members("d")).containsExactly("1", "2", "3");
        assertThat(call("SUNIONSTORE", "d", "missing")).isEqualTo(0L);
        assertThat(call("EXISTS", "d")).isEqualTo(0L);
        call("SET", "str", "v");
        fails(WRONGTYPE, "SUNION", "missing", "str");
    }

    @Test
    void sdiff_firstLessTheOthers() {
        call("SADD", "a", "e", "d", "c", "b", "a");
        call("SADD", "b", "b", "z");
        call("SADD", "c", "d");
        assertThat(strings(call("SDIFF", "a", "b", "c"))).containsExactly("e", "c", "a");
        assertThat(strings(call("SDIFF", "a", "missing"))).containsExactly("e", "d", "c", "b", "a");
        assertThat(strings(call("SDIFF", "missing", "a"))).isEmpty();
        assertThat(strings(call("SDIFF", "a", "b", "a"))).isEmpty();
    }

    @Test
    void sdiff_largeSubtrahends_giveTheSameMembers() {
        call("SADD", "small", "1", "2", "3");
        addMany("big", "", 2, 1000);
        assertThat(strings(call("SDIFF", "small", "big"))).containsExactly("1");
        assertThat(strings(call("SDIFF", "big", "small"))).hasSize(996).doesNotContain("2", "3");
    }

    @Test
    void sdiff_manySmallSubtrahends_copiesThenRemoves() {
        addMany("base", "", 0, 10);
        for (int i = 1; i <= 9; i += 2) {
            call("SADD", "odd" + i, Integer.toString(i));
        }
        assertThat(strings(call("SDIFF", "base", "odd1", "odd3", "odd5", "odd7", "odd9", "missing")))
                .containsExactly("0", "2", "4", "6", "8");
        assertThat(call("SDIFFSTORE", "d", "base", "odd1", "odd3", "odd5", "odd7", "odd9")).isEqualTo(5L);
        assertThat(encoding("d")).isEqualTo("intset");
    }

    @Test
    void sdiffstore_emptyResult_deletesTheDestination() {
        call("SADD", "a", "x");
        call("SADD", "d", "old");
        assertThat(call("SDIFFSTORE", "d", "a", "a")).isEqualTo(0L);
        assertThat(call("EXISTS", "d")).isEqualTo(0L);
        assertThat(call("SDIFFSTORE", "d", "a", "missing")).isEqualTo(1L);
        assertThat(members("d")).containsExactly("x");
    }

    @Test
    void zunionstore_setInput_scoresEveryMemberOne() {
        call("SADD", "s", "a", "b");
        call("ZADD", "z", "5", "a");
        assertThat(call("ZUNIONSTORE", "out", "2", "s", "z")).isEqualTo(2L);
        assertThat(strings(call("ZRANGE", "out", "0", "-1", "WITHSCORES"))).containsExactly("b", "1", "a", "6");
    }
}
