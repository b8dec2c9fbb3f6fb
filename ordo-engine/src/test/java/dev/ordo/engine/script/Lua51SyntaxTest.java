package dev.ordo.engine.script;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lua 5.1's compile errors as {@link Lua51Syntax} reports them. Every expected message here was
 * taken from a real redis-server 7.0.15 ({@code SCRIPT LOAD} of the same script), which replaces
 * the newlines of a message with spaces; the checker gives Lua's own text.
 */
class Lua51SyntaxTest {
    private static String firstError(String script) {
        return Lua51Syntax.firstError(script.getBytes(StandardCharsets.ISO_8859_1), "user_script");
    }

    private static String names(int n, String separator) {
        return IntStream.range(0, n).mapToObj(i -> "a" + i).collect(Collectors.joining(separator));
    }

    @Test
    void firstError_validChunk_returnsNull() {
        assertThat(firstError("local t = {1, 2, n = 3}\nfor i, v in ipairs(t) do t[i] = v * 2 end\nreturn t")).isNull();
    }

    @Test
    void firstError_expressionWithoutAssignment_expectsEqualsNearNextToken() {
        assertThat(firstError("a 1")).isEqualTo("user_script:1: '=' expected near '1'");
    }

    @Test
    void firstError_unclosedParenthesisAtEnd_unexpectedSymbolNearEof() {
        assertThat(firstError("return (")).isEqualTo("user_script:1: unexpected symbol near '<eof>'");
    }

    @Test
    void firstError_unclosedConstructorOnSameLine_expectsBraceWithoutOpeningLine() {
        assertThat(firstError("return {1,2")).isEqualTo("user_script:1: '}' expected near '<eof>'");
    }

    @Test
    void firstError_unclosedConstructorOnEarlierLine_namesOpeningLine() {
        assertThat(firstError("x = {\n1,\n2")).isEqualTo("user_script:3: '}' expected (to close '{' at line 1) near '<eof>'");
    }

    @Test
    void firstError_unclosedFunctionBody_namesLineOfFunctionKeyword() {
        assertThat(firstError("local f = function()\n  return 1\n")).isEqualTo("user_script:3: 'end' expected (to close 'function' at line 1) near '<eof>'");
    }

    @Test
    void firstError_anonymousFunctionSplitOverLines_opensAtItsParenthesis() {
        assertThat(firstError("x = function\n()\n")).isEqualTo("user_script:3: 'end' expected (to close 'function' at line 2) near '<eof>'");
    }

    @Test
    void firstError_numericForWithoutComma_expectsCommaNearDo() {
        assertThat(firstError("for i=1 do end")).isEqualTo("user_script:1: ',' expected near 'do'");
    }

    @Test
    void firstError_forWithoutEqualsOrIn_expectsEitherNearToken() {
        assertThat(firstError("for x y in z do end")).isEqualTo("user_script:1: '=' or 'in' expected near 'y'");
    }

    @Test
    void firstError_localWithoutName_expectsNameNearToken() {
        assertThat(firstError("local 1 = 2")).isEqualTo("user_script:1: '<name>' expected near '1'");
    }

    @Test
    void firstError_trailingCommaInParameters_expectsNameOrDots() {
        assertThat(firstError("local function f(a,) end")).isEqualTo("user_script:1: <name> or '...' expected near ')'");
    }

    @Test
    void firstError_unfinishedStringAtEof_nearEof() {
        assertThat(firstError("return 'abc")).isEqualTo("user_script:1: unfinished string near '<eof>'");
    }

    @Test
    void firstError_unfinishedStringAtNewline_nearTextSoFar() {
        assertThat(firstError("return 'ab\ncd'")).isEqualTo("user_script:1: unfinished string near ''ab'");
    }

    @Test
    void firstError_unfinishedLongString_nearEofOnLastLine() {
        assertThat(firstError("return [==[abc]=]\n\n")).isEqualTo("user_script:3: unfinished long string near '<eof>'");
    }

    @Test
    void firstError_unfinishedLongComment_nearEofOnLastLine() {
        assertThat(firstError("--[==[ abc\n\n")).isEqualTo("user_script:3: unfinished long comment near '<eof>'");
    }

    @Test
    void firstError_bracketEqualsWithoutSecondBracket_invalidLongStringDelimiter() {
        assertThat(firstError("x = [==x")).isEqualTo("user_script:1: invalid long string delimiter near '[=='");
    }

    @Test
    void firstError_nestedLongBrackets_stringEndsAtFirstClose() {
        assertThat(firstError("return [[a [[ b ]] x")).isEqualTo("user_script:1: '<eof>' expected near 'x'");
    }

    @Test
    void firstError_decimalEscapeAbove255_escapeSequenceTooLargeNearTextBeforeIt() {
        assertThat(firstError("return \"ab\\256cd\"")).isEqualTo("user_script:1: escape sequence too large near '\"ab'");
    }

    @Test
    void firstError_unknownEscapes_standForTheirLetter() {
        assertThat(firstError("return '\\q\\z\\x41'")).isNull();
    }

    @Test
    void firstError_twoDotsInNumeral_malformedNumberNearWholeNumeral() {
        assertThat(firstError("return 1..2")).isEqualTo("user_script:1: malformed number near '1..2'");
    }

    @Test
    void firstError_exponentWithoutDigits_malformedNumber() {
        assertThat(firstError("return 1e+")).isEqualTo("user_script:1: malformed number near '1e+'");
    }

    @Test
    void firstError_lettersAfterNumeral_malformedNumber() {
        assertThat(firstError("return 0xAg")).isEqualTo("user_script:1: malformed number near '0xAg'");
    }

    @Test
    void firstError_hexadecimalFloat_isValid() {
        assertThat(firstError("return 0x1p4 + 0X1P4 + 0xff + 1e5 + .5 + 3.")).isNull();
    }

    @Test
    void firstError_hexadecimalFraction_stopsAtTheDot() {
        assertThat(firstError("return 0x1.8")).isEqualTo("user_script:1: '<eof>' expected near '.8'");
    }

    @Test
    void firstError_gotoAsName_isValid() {
        assertThat(firstError("local goto = 1 return goto")).isNull();
    }

    @Test
    void firstError_labelSyntax_unexpectedSymbolNearColon() {
        assertThat(firstError("::top::")).isEqualTo("user_script:1: unexpected symbol near ':'");
    }

    @Test
    void firstError_floorDivision_unexpectedSymbolNearSecondSlash() {
        assertThat(firstError("return 7 // 2")).isEqualTo("user_script:1: unexpected symbol near '/'");
    }

    @Test
    void firstError_bitwiseAnd_notAnOperator() {
        assertThat(firstError("return 1 & 2")).isEqualTo("user_script:1: '<eof>' expected near '&'");
    }

    @Test
    void firstError_lua51Operators_areValid() {
        assertThat(firstError("local s = 'x' return 5 % 2 ^ 3 .. #s")).isNull();
    }

    @Test
    void firstError_emptyStatement_unexpectedSymbolNearSemicolon() {
        assertThat(firstError("x = 1;;")).isEqualTo("user_script:1: unexpected symbol near ';'");
    }

    @Test
    void firstError_statementAfterReturn_expectsEof() {
        assertThat(firstError("return 1 x")).isEqualTo("user_script:1: '<eof>' expected near 'x'");
    }

    @Test
    void firstError_statementAfterBreak_expectsEnd() {
        assertThat(firstError("while true do break x = 1 end")).isEqualTo("user_script:1: 'end' expected near 'x'");
    }

    @Test
    void firstError_breakOutsideLoop_reportedAtFollowingToken() {
        assertThat(firstError("\n\nbreak\n\nx = 1")).isEqualTo("user_script:5: no loop to break near 'x'");
    }

    @Test
    void firstError_breakInFunctionInsideLoop_noLoopToBreak() {
        assertThat(firstError("while true do local f = function() break end end")).isEqualTo("user_script:1: no loop to break near 'end'");
    }

    @Test
    void firstError_breakInsideNestedBlockOfLoop_isValid() {
        assertThat(firstError("for i = 1, 2 do if i then do break end end end")).isNull();
    }

    @Test
    void firstError_varargInNonVarargFunction_cannotUseDots() {
        assertThat(firstError("function f() return ... end")).isEqualTo("user_script:1: cannot use '...' outside a vararg function near '...'");
    }

    @Test
    void firstError_varargInMainChunk_isValid() {
        assertThat(firstError("local a, b = ... return {...}")).isNull();
    }

    @Test
    void firstError_callOnNextLine_ambiguousSyntax() {
        assertThat(firstError("local x = f\n(g)")).isEqualTo("user_script:2: ambiguous syntax (function call x new statement) near '('");
    }

    @Test
    void firstError_callOnNextLineInsideConstructor_isValid() {
        assertThat(firstError("return {x\n(1)}")).isNull();
    }

    @Test
    void firstError_stringCallOnNextLine_isValid() {
        assertThat(firstError("x = f\n'a'")).isNull();
    }

    @Test
    void firstError_methodWithoutArguments_functionArgumentsExpected() {
        assertThat(firstError("a:b c")).isEqualTo("user_script:1: function arguments expected near 'c'");
    }

    @Test
    void firstError_parenthesizedAssignmentTarget_syntaxError() {
        assertThat(firstError("(a) = 1")).isEqualTo("user_script:1: syntax error near '='");
    }

    @Test
    void firstError_callAsLaterAssignmentTarget_syntaxError() {
        assertThat(firstError("a, f() = 1")).isEqualTo("user_script:1: syntax error near '='");
    }

    @Test
    void firstError_callAsOnlyAssignmentTarget_unexpectedSymbolNearEquals() {
        assertThat(firstError("f() = 1")).isEqualTo("user_script:1: unexpected symbol near '='");
    }

    @Test
    void firstError_stringToken_nearShowsDecodedTextWithQuotes() {
        assertThat(firstError("x = 1 'a\\tb\\65'")).isEqualTo("user_script:1: unexpected symbol near ''a\tbA''");
    }

    @Test
    void firstError_longStringToken_nearDropsFirstNewline() {
        assertThat(firstError("x = 1 [==[\nfirst\nsecond]==]")).isEqualTo("user_script:3: unexpected symbol near '[==[first\nsecond]==]'");
    }

    @Test
    void firstError_stringWithNul_nearStopsAtNul() {
        assertThat(firstError("x = 1 \"a\\0b\"")).isEqualTo("user_script:1: unexpected symbol near '\"a'");
    }

    @Test
    void firstError_controlByte_nearShowsCharCode() {
        assertThat(firstError("x = 1 \u007f")).isEqualTo("user_script:1: unexpected symbol near 'char(127)'");
    }

    @Test
    void firstError_nulByteToken_hasNoNearText() {
        assertThat(firstError("x = 1 \0")).isEqualTo("user_script:1: unexpected symbol");
    }

    @Test
    void firstError_nulAfterNumeral_readAsExponentMarker() {
        assertThat(firstError("return 1\0")).isNull();
    }

    @Test
    void firstError_crlf_countsAsOneLine() {
        assertThat(firstError("x = 1\r\ny\r\n")).isEqualTo("user_script:3: '=' expected near '<eof>'");
    }

    @Test
    void firstError_lfcr_countsAsOneLine() {
        assertThat(firstError("x = 1\n\ry")).isEqualTo("user_script:2: '=' expected near '<eof>'");
    }

    @Test
    void firstError_crcr_countsAsTwoLines() {
        assertThat(firstError("x = 1\r\ry")).isEqualTo("user_script:3: '=' expected near '<eof>'");
    }

    @Test
    void firstError_escapedCrlfInString_countsAsOneLine() {
        assertThat(firstError("return 'a\\\r\nb' x")).isEqualTo("user_script:2: '<eof>' expected near 'x'");
    }

    @Test
    void firstError_comments_areSkippedAndCountLines() {
        assertThat(firstError("-- comment\n--[= short\n--[[ long\ncomment ]] x")).isEqualTo("user_script:4: '=' expected near '<eof>'");
    }

    @Test
    void firstError_198NestedParentheses_isValid() {
        assertThat(firstError("return " + "(".repeat(198) + "1" + ")".repeat(198))).isNull();
    }

    @Test
    void firstError_199NestedParentheses_tooManySyntaxLevels() {
        assertThat(firstError("return " + "(".repeat(199) + "1" + ")".repeat(199))).isEqualTo("user_script:1: chunk has too many syntax levels");
    }

    @Test
    void firstError_200NestedBlocks_tooManySyntaxLevels() {
        assertThat(firstError("do ".repeat(199) + "end ".repeat(199))).isNull();
        assertThat(firstError("do ".repeat(200) + "end ".repeat(200))).isEqualTo("user_script:1: chunk has too many syntax levels");
    }

    @Test
    void firstError_199RightAssociativeConcatenations_tooManySyntaxLevels() {
        assertThat(firstError("return " + "1 .. ".repeat(198) + "1")).isNull();
        assertThat(firstError("return " + "1 .. ".repeat(199) + "1")).isEqualTo("user_script:1: chunk has too many syntax levels");
    }

    @Test
    void firstError_201Locals_mainFunctionHasMoreThan200() {
        assertThat(firstError("local " + names(200, ","))).isNull();
        assertThat(firstError("local " + names(201, ","))).isEqualTo("user_script:1: main function has more than 200 local variables");
    }

    @Test
    void firstError_loopLocalsCount_hiddenForVariablesIncluded() {
        assertThat(firstError("for i=1,2 do local " + names(196, ",") + " end")).isNull();
        assertThat(firstError("for i=1,2 do local " + names(197, ",") + " end")).isEqualTo("user_script:1: main function has more than 200 local variables");
    }

    @Test
    void firstError_varargFunctionLocals_argCounts() {
        assertThat(firstError("local function f(...)\nlocal " + names(199, ",") + " end")).isNull();
        assertThat(firstError("local function f(...)\nlocal " + names(200, ",") + " end"))
                .isEqualTo("user_script:2: function at line 1 has more than 200 local variables");
    }

    @Test
    void firstError_61Upvalues_functionAtLineHasMoreThan60() {
        assertThat(firstError("local " + names(61, ",") + "\nreturn function() return " + names(61, "+") + " end"))
                .isEqualTo("user_script:2: function at line 2 has more than 60 upvalues");
    }

    @Test
    void firstError_60Upvalues_isValid() {
        assertThat(firstError("local " + names(60, ",") + "\nreturn function() return " + names(60, "+") + " end")).isNull();
    }

    @Test
    void firstError_upvalueOfUpvalue_countsInEveryFunctionBetween() {
        assertThat(firstError("local " + names(61, ",") + "\nreturn function() return function()\n\n return " + names(61, "+") + " end end"))
                .isEqualTo("user_script:4: function at line 2 has more than 60 upvalues");
    }

    @Test
    void firstError_201AssignmentTargets_mainFunctionHasMoreThan199Variables() {
        assertThat(firstError(names(200, ",") + " = 1")).isNull();
        assertThat(firstError(names(201, ",") + " = 1")).isEqualTo("user_script:1: main function has more than 199 variables in assignment");
    }

    @Test
    void firstError_assignmentInsideBlock_lowerLimit() {
        assertThat(firstError("do " + names(200, ",") + " = 1 end")).isEqualTo("user_script:1: main function has more than 198 variables in assignment");
    }

    @Test
    void firstError_chunkName_prefixesMessage() {
        assertThat(Lua51Syntax.firstError("\na 1".getBytes(StandardCharsets.US_ASCII), "user_function"))
                .isEqualTo("user_function:2: '=' expected near '1'");
    }

    @Test
    void firstError_megabytesOfOpenBrackets_endsWithLevelLimitNotStackOverflow() {
        for (List<String> prefixAndOpener : List.of(List.of("return ", "("), List.of("return ", "{"), List.of("return ", "- "), List.of("return ", "not "),
                List.of("return ", "1 .. "), List.of("return ", "function() return "), List.of("", "do "), List.of("", "while x do "),
                List.of("", "repeat "), List.of("", "if x then "), List.of("", "local function f() "), List.of("x = ", "{x = "), List.of("", "f("),
                List.of("", "a["))) {
            String opener = prefixAndOpener.get(1);
            String script = prefixAndOpener.get(0) + opener.repeat((1 << 20) / opener.length());
            assertThat(firstError(script)).as(opener).isEqualTo("user_script:1: chunk has too many syntax levels");
        }
    }

    @Test
    void firstError_megabyteScripts_areScannedToTheEnd() {
        assertThat(firstError("local x = 1\n" + "x = x + 1\n".repeat(100_000) + "return x")).isNull();
        assertThat(firstError("return [[" + "x".repeat(1 << 20) + "]]")).isNull();
        assertThat(firstError("return {" + "1,".repeat(500_000) + "}")).isNull();
        assertThat(firstError("--[[" + "x\n".repeat(1 << 19))).isEqualTo("user_script:524289: unfinished long comment near '<eof>'");
        assertThat(firstError("return " + "a + ".repeat(250_000) + "a 1")).isEqualTo("user_script:1: '<eof>' expected near '1'");
    }

    /**
     * Every Lua script the engine and server test with compiles under Lua 5.1, so the checker
     * must accept them all: the seeds' scripts in the tests, and the snippets recorded against
     * Redis, wrapped as they were run. (The patterns' scripts are {@code .lua} resources of
     * ordo-patterns; ordo-patterns-tests loads each on Ordo and on redis-server.)
     */
    @Test
    void firstError_everyScriptInTheRepository_returnsNull() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<String> scripts = new ArrayList<>();
        for (String test : List.of("ordo-engine/src/test/java/dev/ordo/engine/differential/ScriptDifferentialTest.java",
                "ordo-engine/src/test/java/dev/ordo/engine/script/ScriptSafetyTest.java",
                "ordo-server/src/test/java/dev/ordo/server/compat/ScriptingOverWireTest.java",
                "ordo-server/src/test/java/dev/ordo/server/compat/SpringDataRedisSeedTest.java")) {
            scripts.addAll(JavaTextBlocks.all(Files.readString(root.resolve(test))));
        }
        String recordings = Files.readString(root.resolve("ordo-engine/src/test/java/dev/ordo/engine/script/lib/RedisRecordings.java"));
        String prelude = JavaTextBlocks.assignedTo(recordings, "PRELUDE").get(0);
        int snippets = 0;
        for (String block : JavaTextBlocks.all(recordings)) {
            for (String line : block.split("\n")) {
                if (line.startsWith("lua: ")) {
                    scripts.add(prelude + "\nreturn run(function()\n" + line.substring(5) + "\nend)");
                    snippets++;
                }
            }
        }
        assertThat(snippets).isGreaterThan(1000);
        assertThat(scripts).hasSizeGreaterThanOrEqualTo(snippets + 12);
        for (String script : scripts) {
            // A function library's shebang line is FUNCTION LOAD's, not Lua's: it strips it.
            String lua = script.startsWith("#!") ? script.substring(script.indexOf('\n') + 1) : script;
            assertThat(Lua51Syntax.firstError(lua.getBytes(StandardCharsets.UTF_8), "user_script")).as(script).isNull();
        }
    }
}
