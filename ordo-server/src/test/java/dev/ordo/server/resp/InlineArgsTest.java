package dev.ordo.server.resp;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Inline splitting, each case checked against redis-server 7.0 (ECHO of the argument). */
class InlineArgsTest {
    private static List<String> split(String line) {
        byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
        List<byte[]> args = InlineArgs.split(b, 0, b.length);
        return args == null ? null : args.stream().map(a -> new String(a, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void splitsOnRunsOfWhitespace() {
        assertThat(split("  SET  k \t v ")).containsExactly("SET", "k", "v");
        assertThat(split("")).isEmpty();
        assertThat(split(" \t ")).isEmpty();
    }

    @Test
    void verticalTabSeparatesOnlyBetweenArguments() {
        assertThat(split("echo \u000bx")).containsExactly("echo", "x");
        assertThat(split("echo a\u000bb")).containsExactly("echo", "a\u000bb");
    }

    @Test
    void doubleQuotesUnderstandEscapes() {
        assertThat(split("echo \"a\\x41\\n\\\"b\"")).containsExactly("echo", "aA\n\"b");
        assertThat(split("echo \"\\r\\t\\b\\a\\\\\"")).containsExactly("echo", "\r\t\b\u0007\\");
        assertThat(split("echo \"\\xAb\"")).containsExactly("echo", "\u00ab");
    }

    @Test
    void backslashBeforeAnyOtherByteIsThatByte() {
        assertThat(split("ECHO \"\\XAB\"")).containsExactly("ECHO", "XAB");
        assertThat(split("ECHO \"\\xzz\"")).containsExactly("ECHO", "xzz");
        assertThat(split("ECHO \"\\x4\"")).containsExactly("ECHO", "x4");
        assertThat(split("ECHO \"\\q\\\\\"")).containsExactly("ECHO", "q\\");
    }

    @Test
    void singleQuotesAreLiteralExceptForEscapedQuote() {
        assertThat(split("echo 'c\\'d'")).containsExactly("echo", "c'd");
        assertThat(split("echo 'c\\nd'")).containsExactly("echo", "c\\nd");
    }

    @Test
    void quotesMayOpenInsideAnArgument() {
        assertThat(split("echo ab\"c d\"")).containsExactly("echo", "abc d");
        assertThat(split("echo \"\" ''")).containsExactly("echo", "", "");
    }

    @Test
    void closingQuoteMustBeFollowedBySpaceOrEnd() {
        assertThat(split("echo \"ab\"\tx")).containsExactly("echo", "ab", "x");
        assertThat(split("echo \"abc\"d")).isNull();
        assertThat(split("echo 'abc'd")).isNull();
    }

    @Test
    void unterminatedQuotesAreUnbalanced() {
        assertThat(split("echo \"abc")).isNull();
        assertThat(split("echo 'abc")).isNull();
        assertThat(split("echo \"\\")).isNull();
    }

    @Test
    void nulEndsTheLine() {
        assertThat(split("echo a\u0000b c")).containsExactly("echo", "a");
        assertThat(split("echo \"a\u0000b\"")).isNull();
    }
}
