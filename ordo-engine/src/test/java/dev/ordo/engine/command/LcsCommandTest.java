package dev.ordo.engine.command;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.memory.HeapBudget;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LCS: Redis's replies for its documented example (taken from redis-server 7.0.15), its errors in
 * Redis's order, the table's memory limits, and random strings checked against a plain model.
 */
class LcsCommandTest extends CommandTestSupport {
    private static final String NOT_STRINGS = "ERR The specified keys must contain string values";
    private static final String OVER_PROTO = "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
    private static final String ALLOCATION = "ERR Insufficient memory, failed allocating transient memory for LCS";

    private void example() {
        client.call("MSET", "a", "ohmytext", "b", "mynewtext");
    }

    @Test
    void lcs_plain_repliesTheSubsequence() {
        example();
        assertThat(s(client.call("LCS", "a", "b"))).isEqualTo("mytext");
        assertThat(client.call("LCS", "a", "b", "LEN")).isEqualTo(6L);
    }

    @Test
    void lcs_idx_listsMatchesFromTheEnd() {
        example();
        assertThat(text(client.call("LCS", "a", "b", "IDX"))).isEqualTo("[matches, [[[4, 7], [5, 8]], [[2, 3], [0, 1]]], len, 6]");
    }

    @Test
    void lcs_minMatchLenAndWithMatchLen_filterAndMeasure() {
        example();
        assertThat(text(client.call("LCS", "a", "b", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN")))
                .isEqualTo("[matches, [[[4, 7], [5, 8], 4]], len, 6]");
        assertThat(text(client.call("LCS", "a", "b", "IDX", "MINMATCHLEN", "-5", "WITHMATCHLEN")))
                .isEqualTo("[matches, [[[4, 7], [5, 8], 4], [[2, 3], [0, 1], 2]], len, 6]");
        assertThat(s(client.call("LCS", "a", "b", "WITHMATCHLEN", "MINMATCHLEN", "9"))).isEqualTo("mytext");
    }

    @Test
    void lcs_missingKeys_areEmptyStrings() {
        example();
        assertThat(s(client.call("LCS", "a", "nokey"))).isEmpty();
        assertThat(client.call("LCS", "nokey", "other", "LEN")).isEqualTo(0L);
        assertThat(text(client.call("LCS", "nokey", "nokey", "IDX"))).isEqualTo("[matches, [], len, 0]");
    }

    @Test
    void lcs_errors_comeInRedisOrder() {
        example();
        client.call("SADD", "set", "x");
        fails(NOT_STRINGS, "LCS", "a", "set", "BOGUS");
        fails(NOT_STRINGS, "LCS", "set", "nokey");
        fails("ERR syntax error", "LCS", "a", "b", "LEN", "IDX", "BOGUS");
        fails("ERR syntax error", "LCS", "a", "b", "MINMATCHLEN");
        fails("ERR value is not an integer or out of range", "LCS", "a", "b", "MINMATCHLEN", "x", "LEN", "IDX");
        fails("ERR If you want both the length and indexes, please just use IDX.", "LCS", "a", "b", "LEN", "IDX");
        fails("ERR wrong number of arguments for 'lcs' command", "LCS", "a");
    }

    @Test
    void lcs_tableOverProtoMaxBulkLen_isRefusedAsRedisRefusesIt() {
        client.call("CONFIG", "SET", "proto-max-bulk-len", "1mb");
        client.call("SET", "big", "a".repeat(600));
        // 601 * 601 cells of 4 bytes: 1,444,804 bytes, over 1 MB; LEN needs the same table in Redis.
        fails(OVER_PROTO, "LCS", "big", "big");
        fails(OVER_PROTO, "LCS", "big", "big", "LEN");
        client.call("SET", "small", "a".repeat(400));
        assertThat(client.call("LCS", "big", "small", "LEN")).isEqualTo(400L);
    }

    @Test
    void lcs_tableOverTheHeapsShareForOneCommand_failsAsAnAllocation() {
        // A 64 MB heap: 32 MB of headroom, of which one command may take 8 MB.
        HeapBudget small = new HeapBudget(64L << 20);
        assertThat(small.commandWorkingMemoryCap()).isEqualTo(8L << 20);
        try (EngineTestSupport tight = new EngineTestSupport(new Config(), small)) {
            EmbeddedClient c = tight.client();
            c.call("SET", "x", "a".repeat(1500));
            // 1501 * 1501 * 4 = 9,012,004 bytes: within proto-max-bulk-len (512 MB), past the 8 MB share.
            assertThatThrownBy(() -> c.call("LCS", "x", "x")).isInstanceOf(ErrorReply.class).hasMessage(ALLOCATION);
            c.call("SET", "y", "a".repeat(1000));
            assertThat(c.call("LCS", "x", "y", "LEN")).isEqualTo(1000L);
        }
    }

    @Test
    void tableBytes_saturatesInsteadOfOverflowing() {
        assertThat(CommonSubsequence.tableBytes(0, 0)).isEqualTo(4);
        assertThat(CommonSubsequence.tableBytes(Integer.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    }

    /** Random strings over a three-letter alphabet: the reply is a common subsequence as long as the model's LCS, and IDX agrees. */
    @Test
    void lcs_randomStrings_agreeWithTheModel() {
        SplittableRandom random = new SplittableRandom(20261203);
        for (int round = 0; round < 500; round++) {
            String a = randomText(random);
            String b = randomText(random);
            client.call("MSET", "a", a, "b", b);
            String lcs = s(client.call("LCS", "a", "b"));
            int expected = modelLength(a, b);
            assertThat(lcs).as("LCS %s %s", a, b).hasSize(expected);
            assertThat(isSubsequence(lcs, a) && isSubsequence(lcs, b)).as("%s in %s and %s", lcs, a, b).isTrue();
            assertThat(client.call("LCS", "a", "b", "LEN")).isEqualTo((long) expected);
            checkMatches(a, b, lcs, (List<?>) client.call("LCS", "a", "b", "IDX", "WITHMATCHLEN"));
        }
    }

    /** The matches spell the LCS back to front, each the same bytes in both strings, each before the last. */
    private static void checkMatches(String a, String b, String lcs, List<?> reply) {
        StringBuilder spelled = new StringBuilder();
        int aBefore = a.length();
        int bBefore = b.length();
        for (Object o : (List<?>) reply.get(1)) {
            List<?> m = (List<?>) o;
            int aStart = (int) (long) (Long) ((List<?>) m.get(0)).get(0);
            int aEnd = (int) (long) (Long) ((List<?>) m.get(0)).get(1);
            int bStart = (int) (long) (Long) ((List<?>) m.get(1)).get(0);
            int bEnd = (int) (long) (Long) ((List<?>) m.get(1)).get(1);
            assertThat(aEnd - aStart).isEqualTo(bEnd - bStart);
            assertThat((long) (Long) m.get(2)).isEqualTo(aEnd - aStart + 1);
            assertThat(aEnd).isLessThan(aBefore);
            assertThat(bEnd).isLessThan(bBefore);
            assertThat(a.substring(aStart, aEnd + 1)).isEqualTo(b.substring(bStart, bEnd + 1));
            spelled.insert(0, a, aStart, aEnd + 1);
            aBefore = aStart;
            bBefore = bStart;
        }
        assertThat(spelled.toString()).isEqualTo(lcs);
        assertThat(reply.get(3)).isEqualTo((long) lcs.length());
    }

    private static String randomText(SplittableRandom random) {
        StringBuilder out = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            out.append("abc".charAt(random.nextInt(3)));
        }
        return out.toString();
    }

    /** The LCS length by plain recursion over suffixes, memoised. */
    private static int modelLength(String a, String b) {
        Integer[][] memo = new Integer[a.length() + 1][b.length() + 1];
        return suffixLcs(a, b, 0, 0, memo);
    }

    private static int suffixLcs(String a, String b, int i, int j, Integer[][] memo) {
        if (i == a.length() || j == b.length()) {
            return 0;
        }
        if (memo[i][j] == null) {
            memo[i][j] = a.charAt(i) == b.charAt(j) ? 1 + suffixLcs(a, b, i + 1, j + 1, memo)
                    : Math.max(suffixLcs(a, b, i + 1, j, memo), suffixLcs(a, b, i, j + 1, memo));
        }
        return memo[i][j];
    }

    private static boolean isSubsequence(String sub, String of) {
        int k = 0;
        for (int i = 0; i < of.length() && k < sub.length(); i++) {
            if (of.charAt(i) == sub.charAt(k)) {
                k++;
            }
        }
        return k == sub.length();
    }

    /** A reply as text: bulk strings decoded, lists in brackets. */
    private static String text(Object reply) {
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> list) {
            return list.stream().map(LcsCommandTest::text).toList().toString();
        }
        return String.valueOf(reply);
    }
}
