package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sorted-set commands where a comparison with Redis 7.0 cannot decide: Redis 7.2-only syntax,
 * replies Redis chooses at random, and RESP3 reply shapes. The rest is covered by the
 * differential test against a real redis-server.
 */
class ZSetCommandsTest extends CommandTestSupport {




    @Test
    void zrank_withScore_returnsRankAndScore() {
        client.call("ZADD", "z", "1.5", "a", "2.5", "b");
        assertThat(strings(client.call("ZRANK", "z", "b", "WITHSCORE"))).containsExactly("1", "2.5");
        assertThat(strings(client.call("ZREVRANK", "z", "b", "withscore"))).containsExactly("0", "2.5");
        assertThat(client.call("ZRANK", "z", "nobody", "WITHSCORE")).isNull();
        assertThat(client.call("ZRANK", "missing", "a", "WITHSCORE")).isNull();
    }

    @Test
    void zrank_badFourthArgumentOrTooMany_isRejected() {
        client.call("ZADD", "z", "1", "a");
        assertThatThrownBy(() -> client.call("ZRANK", "z", "a", "WITHSCORES")).isInstanceOf(ErrorReply.class).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("ZRANK", "z", "a", "WITHSCORE", "x"))
                .hasMessage("ERR wrong number of arguments for 'zrank' command");
    }

    @Test
    void zrank_resp3_scoreIsADouble() {
        client.call("HELLO", "3");
        client.call("ZADD", "z", "1.5", "a");
        List<?> reply = (List<?>) client.call("ZRANK", "z", "a", "WITHSCORE");
        assertThat(reply.get(0)).isEqualTo(0L);
        assertThat(reply.get(1)).isEqualTo(1.5);
    }

    @Test
    void zrandmember_noCount_returnsAMember() {
        client.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(s(client.call("ZRANDMEMBER", "z")));
        }
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void zrandmember_positiveCount_distinctAndBoundedBySize() {
        client.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        assertThat(strings(client.call("ZRANDMEMBER", "z", "2"))).hasSize(2).doesNotHaveDuplicates();
        assertThat(strings(client.call("ZRANDMEMBER", "z", "10"))).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void zrandmember_negativeCountWithScores_repeatsAllowedAndScoresMatch() {
        client.call("ZADD", "z", "1", "a", "2", "b");
        List<String> flat = strings(client.call("ZRANDMEMBER", "z", "-50", "WITHSCORES"));
        assertThat(flat).hasSize(100);
        Map<String, String> scores = Map.of("a", "1", "b", "2");
        for (int i = 0; i < flat.size(); i += 2) {
            assertThat(flat.get(i + 1)).isEqualTo(scores.get(flat.get(i)));
        }
    }

    /** A reply of repeats past what an array can count is refused before it is built (Redis runs out of memory). */
    @Test
    void zrandmember_negativeCountPastAnyReply_isRefusedAtOnce() {
        client.call("ZADD", "z", "1", "a");
        for (String[] args : new String[][] {{"-9223372036854775807"}, {"-2147483640"}, {"-1073741820", "WITHSCORES"}}) {
            List<String> command = new ArrayList<>(List.of("ZRANDMEMBER", "z"));
            command.addAll(List.of(args));
            assertThatThrownBy(() -> client.call(command.toArray(String[]::new))).as(String.join(" ", args))
                    .hasMessage("ERR value is out of range");
        }
        assertThat(strings(client.call("ZRANDMEMBER", "z", "-3"))).containsExactly("a", "a", "a");
    }

    @Test
    void zrandmember_resp3WithScores_givesPairs() {
        client.call("HELLO", "3");
        client.call("ZADD", "z", "1", "a");
        List<?> reply = (List<?>) client.call("ZRANDMEMBER", "z", "1", "WITHSCORES");
        assertThat(reply).hasSize(1);
        List<?> pair = (List<?>) reply.get(0);
        assertThat(s(pair.get(0))).isEqualTo("a");
        assertThat(pair.get(1)).isEqualTo(1.0);
    }

    @Test
    void zscan_largeSet_fullIterationReturnsEveryMemberWithItsScore() {
        for (int i = 0; i < 1000; i += 100) {
            List<String> args = new ArrayList<>(List.of("ZADD", "z"));
            for (int j = i; j < i + 100; j++) {
                args.add(String.valueOf(j));
                args.add("m" + j);
            }
            client.call(args.toArray(new String[0]));
        }
        Map<String, String> seen = new HashMap<>();
        String cursor = "0";
        int calls = 0;
        do {
            List<?> reply = (List<?>) client.call("ZSCAN", "z", cursor, "COUNT", "20");
            cursor = s(reply.get(0));
            List<String> flat = strings(reply.get(1));
            for (int i = 0; i < flat.size(); i += 2) {
                seen.put(flat.get(i), flat.get(i + 1));
            }
            calls++;
        } while (!cursor.equals("0"));
        assertThat(seen).hasSize(1000);
        assertThat(seen.get("m742")).isEqualTo("742");
        assertThat(calls).isGreaterThan(10);
    }

    @Test
    void zscan_match_filtersMembers() {
        client.call("ZADD", "z", "1", "apple", "2", "banana", "3", "avocado");
        List<?> reply = (List<?>) client.call("ZSCAN", "z", "0", "MATCH", "a*");
        assertThat(strings(reply.get(1))).containsExactly("apple", "1", "avocado", "3");
    }

    @Test
    void zadd_manyPairsOnNewKey_startsInTheSkiplistEncodingAndKeepsEveryMember() {
        List<String> args = new ArrayList<>(List.of("ZADD", "z"));
        for (int i = 0; i < 200; i++) {
            args.add(String.valueOf(i));
            args.add("m" + i);
        }
        assertThat(client.call(args.toArray(new String[0]))).isEqualTo(200L);
        assertThat(client.call("ZCARD", "z")).isEqualTo(200L);
        assertThat(strings(client.call("ZRANGE", "z", "-1", "-1", "WITHSCORES"))).containsExactly("m199", "199");
    }

    @Test
    void zpopmin_resp3_shapesDependOnCount() {
        client.call("HELLO", "3");
        client.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        List<?> single = (List<?>) client.call("ZPOPMIN", "z");
        assertThat(s(single.get(0))).isEqualTo("a");
        assertThat(single.get(1)).isEqualTo(1.0);
        List<?> counted = (List<?>) client.call("ZPOPMIN", "z", "1");
        assertThat(counted).hasSize(1);
        assertThat((List<?>) counted.get(0)).hasSize(2);
    }

    @Test
    void bzpopmin_shortTimeoutOnMissingKey_returnsNull() {
        assertThat(client.call("BZPOPMIN", "missing", "0.01")).isNull();
    }
}
