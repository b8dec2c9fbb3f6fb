package dev.ordo.server.compat;

import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.ReplyComparison;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LCS on random short strings over a small alphabet (so that many subsequences tie and the
 * choice among them shows), sent to Ordo and to a real {@code redis-server}: the subsequence,
 * LEN, and IDX with random MINMATCHLEN and WITHMATCHLEN must be the same, in RESP2 and RESP3.
 * Seeded, so a failure replays.
 */
class LcsDifferentialTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    private static final int ROUNDS = 400;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 20261203})
    void randomStrings_sameRepliesAsRedis(long seed) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[][]> commands = new ArrayList<>();
        List<String> what = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            String alphabet = round % 2 == 0 ? "ab" : "abcd";
            String a = randomText(random, alphabet);
            String b = randomText(random, alphabet);
            if (round == ROUNDS / 2) {
                add(commands, what, "HELLO 3");
            }
            add(commands, what, "SET la \"" + a + "\"");
            add(commands, what, "SET lb \"" + b + "\"");
            add(commands, what, "LCS la lb");
            add(commands, what, "LCS la lb LEN");
            String options = (random.nextBoolean() ? " WITHMATCHLEN" : "")
                    + (random.nextBoolean() ? " MINMATCHLEN " + (random.nextInt(5) - 1) : "");
            add(commands, what, "LCS la lb IDX" + options);
            add(commands, what, "LCS lb la IDX WITHMATCHLEN");
        }
        add(commands, what, "DEL la lb");
        List<Reply> redis = SideBySide.replies(SERVERS.redis().port(), commands);
        List<Reply> ordo = SideBySide.replies(SERVERS.ordoPort(), commands);
        assertThat(ordo).hasSameSizeAs(redis);
        for (int i = 0; i < redis.size(); i++) {
            if (what.get(i).startsWith("HELLO")) {
                continue; // names the server and its version
            }
            assertThat(ReplyComparison.difference(ordo.get(i), redis.get(i), false)).as("%s: Redis %s, Ordo %s",
                    what.get(i), redis.get(i), ordo.get(i)).isNull();
        }
    }

    private static void add(List<byte[][]> commands, List<String> what, String line) {
        commands.add(SideBySide.words(line));
        what.add(line);
    }

    private static String randomText(SplittableRandom random, String alphabet) {
        StringBuilder out = new StringBuilder();
        int length = random.nextInt(17);
        for (int i = 0; i < length; i++) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
    }
}
