package dev.ordo.engine.match;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Glob matching; the side-by-side cases against Redis are in CommandStreams' glob steps. */
class GlobTest {
    private static boolean matches(String pattern, String string) {
        return Glob.matches(pattern.getBytes(StandardCharsets.ISO_8859_1), string.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    @Test
    void wildcardsClassesAndEscapes() {
        assertThat(matches("h?llo", "hello")).isTrue();
        assertThat(matches("h*llo", "heeeello")).isTrue();
        assertThat(matches("h[ae]llo", "hallo")).isTrue();
        assertThat(matches("h[^e]llo", "hello")).isFalse();
        assertThat(matches("h[a-b]llo", "hbllo")).isTrue();
        assertThat(matches("h[b-a]llo", "hbllo")).as("a reversed range").isTrue();
        assertThat(matches("h\\*llo", "h*llo")).isTrue();
        assertThat(matches("h\\*llo", "hello")).isFalse();
        assertThat(matches("*", "")).as("only callers' fast path lets * match the empty string").isFalse();
        assertThat(matches("", "")).isTrue();
        assertThat(matches("a*", "a")).isTrue();
    }

    @Test
    void rangesCompareSignedBytes_andNocaseFoldsAsciiOnly() {
        assertThat(matches("[a-\u00ff]", "b")).as("0xff is -1: the range is [-1, 'a']").isFalse();
        assertThat(matches("[a-\u00ff]", "Z")).isTrue();
        assertThat(Glob.matches("\u00c9".getBytes(StandardCharsets.ISO_8859_1), "\u00e9".getBytes(StandardCharsets.ISO_8859_1), true))
                .isFalse();
        assertThat(Glob.matches("HELLO".getBytes(StandardCharsets.US_ASCII), "hello".getBytes(StandardCharsets.US_ASCII), true)).isTrue();
        assertThat(Glob.matches("[Z-a]".getBytes(StandardCharsets.US_ASCII), "b".getBytes(StandardCharsets.US_ASCII), true))
                .as("ordered before folding, as Redis does").isFalse();
    }

    /**
     * Patterns whose backtracking is exponential in the number of stars. Each finishes in well
     * under a second now; the timeout only guards the build against a matcher that would never
     * finish (the second case took the old one longer than anyone waited).
     */
    @Test
    void manyStars_failOrMatchWithoutBacktrackingExponentially() {
        String as = "a".repeat(1100);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            assertThat(matches("a*".repeat(20) + "b", "a".repeat(40))).isFalse();
            assertThat(matches("a*".repeat(900) + "b", as)).isFalse();
            assertThat(matches("a*".repeat(900), as)).isTrue();
            assertThat(matches("*a".repeat(1001), as)).as("past 1000 nested stars a match fails, as in Redis").isFalse();
        });
    }
}
