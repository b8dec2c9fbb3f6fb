package dev.ordo.engine.script;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a hostile or broken script cannot do: reach the operating system, Java or the globals,
 * load bytecode, loop forever, recurse the stack away or take the heap; after each attempt the
 * engine answers other clients as before.
 */
class ScriptSafetyTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    private Object eval(String script) {
        return client.call("EVAL", script, "0");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "return os.execute('touch /tmp/ordo-escaped')",
        "return io.open('/etc/passwd'):read('*a')",
        "return luajava.bindClass('java.lang.System'):exit(1)",
        "return java",
        "return require('os')",
        "return package.loadlib('libc.so.6', 'system')",
        "return debug.getregistry()",
        "return dofile('/etc/passwd')",
        "return loadfile('/etc/passwd')",
        "return setfenv(1, {})",
        "return string.dump(function() end) and loadstring(string.dump(function() return os end))()",
        "return load(string.dump(function() return 1 end))()",
        "newglobal = 1",
        "_G.newglobal = 1",
        "rawset(_G, 'newglobal', 1)",
        "setmetatable(_G, nil)",
        "string.upper = function() return 'hijacked' end",
        "getmetatable('').__index.upper = function() return 'hijacked' end",
        "redis.call = nil",
        "cjson.encode = nil",
        "redis = nil",
        "string.upper = nil",
        "tostring = nil",
        "table.insert(string, 'x')",
        "table.insert(_G, 1)",
    })
    void escapeAttempts_areRefused_andChangeNothing(String script) {
        assertThatThrownBy(() -> eval(script)).isInstanceOf(ErrorReply.class);
        assertThat(new File("/tmp/ordo-escaped")).doesNotExist();
        assertThatThrownBy(() -> eval("return newglobal")).hasMessageContaining("nonexistent global variable 'newglobal'");
        assertThat(new String((byte[]) eval("return string.upper('ok') .. type(redis.call) .. type(cjson.encode)"), StandardCharsets.UTF_8))
                .isEqualTo("OKfunctionfunction");
    }

    @Test
    void sandbox_stillWorksAfterEscapeAttempts() {
        for (String s : new String[] {"string.upper = nil", "_G.x = 1", "getmetatable('').__index.upper = nil"}) {
            assertThatThrownBy(() -> eval(s)).isInstanceOf(ErrorReply.class);
        }
        assertThat(new String((byte[]) eval("return string.upper('still here')"), StandardCharsets.UTF_8)).isEqualTo("STILL HERE");
        assertThatThrownBy(() -> eval("return x")).hasMessageContaining("nonexistent global variable 'x'");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "local i = 0 while true do i = i + 1 end",
        "while true do pcall(function() while true do end end) end",
        "while true do redis.pcall('PING') pcall(error, 'x') end",
        "coroutine.wrap(function() while true do end end)()",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)()",
        "table.sort({3, 1, 2}, function(a, b) while true do end end)",
        "string.gsub('abc', '%w', function(c) while true do end end)",
        "coroutine.wrap(function() table.sort({3, 1, 2}, function(a, b) while true do end end) end)()",
    })
    void endlessLoop_isBusyForOthers_untilScriptKill_evenUnderPcallOrCoroutines(String script) throws Exception {
        EmbeddedClient other = support.client();
        other.call("CONFIG", "SET", "busy-reply-threshold", "50");
        CompletableFuture<Throwable> looping = CompletableFuture.supplyAsync(() -> {
            try {
                eval(script);
                return null;
            } catch (ErrorReply e) {
                return e;
            }
        });
        assertThat(waitForBusy(other)).startsWith("BUSY Redis is busy running a script.");
        assertThat(other.call("SCRIPT", "KILL")).isEqualTo("OK");
        assertThat(looping.get(10, TimeUnit.SECONDS)).hasMessageStartingWith("ERR Script killed by user with SCRIPT KILL...");
        assertThat(other.call("PING")).isEqualTo("PONG");
        assertThat(eval("return 7")).isEqualTo(7L);
        assertThat(HostedEngine.of(support.engine).scripting().coroutineThreadsInUse()).as("coroutine threads still in use").isZero();
    }

    @Test
    void scriptThatWrote_isUnkillable_andCompletes() throws Exception {
        EmbeddedClient other = support.client();
        other.call("CONFIG", "SET", "busy-reply-threshold", "50");
        CompletableFuture<Object> writing = CompletableFuture.supplyAsync(() -> client.call("EVAL", """
                redis.call('SET', KEYS[1], 'written')
                local n = 0
                for i = 1, 30000000 do n = n + 1 end
                return 'done'
                """, "1", "w"));
        waitForBusy(other);
        assertThatThrownBy(() -> other.call("SCRIPT", "KILL")).hasMessageStartingWith("UNKILLABLE");
        assertThat(new String((byte[]) writing.get(60, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("done");
        assertThat(new String((byte[]) other.call("GET", "w"), StandardCharsets.UTF_8)).isEqualTo("written");
    }

    @Test
    void coroutinesPerScript_areLimited() {
        assertThatThrownBy(() -> eval("for i = 1, 100 do coroutine.create(function() end) end"))
                .hasMessageContaining("too many coroutines");
        assertThat(eval("return coroutine.wrap(function() coroutine.yield(5) end)()")).isEqualTo(5L);
    }

    @Test
    void endlessFunctionLibrary_isStoppedAtLoad() {
        assertThatThrownBy(() -> client.call("FUNCTION", "LOAD", "#!lua name=spin\nwhile true do end"))
                .hasMessage("ERR Error registering functions: FUNCTION LOAD timeout");
        assertThatThrownBy(() -> client.call("FUNCTION", "LOAD", "#!lua name=deep\nlocal function f() return f() + 1 end f()"))
                .hasMessageContaining("stack overflow");
        assertThat(client.call("PING")).isEqualTo("PONG");
        assertThat(client.call("FUNCTION", "LIST")).isEqualTo(java.util.List.of());
    }

    @Test
    void unboundedRecursion_endsWithAnError() {
        assertThatThrownBy(() -> eval("local function f(n) return f(n + 1) + 1 end return f(1)"))
                .isInstanceOf(ErrorReply.class).hasMessageContaining("stack overflow");
        assertThat(eval("return 1")).isEqualTo(1L);
    }

    /** Past the largest Java array, as a failed Lua allocation. (2^31 itself wraps to an empty result, as in Lua 5.1.) */
    @Test
    void hugeStringRequests_endWithAnError() {
        assertThatThrownBy(() -> eval("return string.rep('x', 2^31 - 1)")).isInstanceOf(ErrorReply.class)
                .hasMessageContaining("not enough memory");
        assertThatThrownBy(() -> eval("return string.rep('xy', 2^30)")).isInstanceOf(ErrorReply.class)
                .hasMessageContaining("not enough memory");
        assertThat(client.call("PING")).isEqualTo("PONG");
    }

    /** Large strings: the heap may run out between two of the guard's checks; the script ends with an error either way. */
    private static final String STRING_BOMB = "local t = {} while true do t[#t + 1] = string.rep('x', 65536) .. #t end";
    /** Small tables: the heap guard stops it. */
    private static final String TABLE_BOMB = "local t = {} local i = 0 while true do i = i + 1 t[i] = {i} end";
    /** One string doubling: a single allocation outgrows the heap, before any check between instructions. */
    private static final String DOUBLING_BOMB = "local s = 'x' while true do s = s .. s end";
    /** Megabyte strings made by concatenation alone (no string.rep). */
    private static final String CONCAT_BOMB = "local s = string.rep('x', 1048576) local t = {} while true do t[#t + 1] = s .. #t end";
    private static final java.util.Map<String, String> BOMBS = java.util.Map.of("strings", STRING_BOMB, "tables", TABLE_BOMB,
            "doubling", DOUBLING_BOMB, "concat", CONCAT_BOMB);

    /**
     * A script that keeps everything it allocates, in a JVM of 128 MB that ends at its first
     * OutOfMemoryError, as the launcher's does ({@code -XX:+ExitOnOutOfMemoryError}): it is
     * stopped by the heap guard before the heap runs out, and the same engine then answers
     * normally, scripts that run long enough to meet the heap guard included: after a bomb the
     * guard stopped they were refused too, until some collection cleared the bomb's garbage (the
     * reported bug). A bomb of 64 KiB strings used to fill such a heap between two of the
     * guard's checks and end the server. With each collector the guard may meet.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"-XX:+UseSerialGC, strings", "-XX:+UseSerialGC, tables", "-XX:+UseSerialGC, doubling", "-XX:+UseSerialGC, concat",
            "-XX:+UseG1GC, strings", "-XX:+UseG1GC, tables", "-XX:+UseG1GC, doubling", "-XX:+UseG1GC, concat"})
    void unboundedAllocation_isStopped_andTheServerServes_harmlessScriptsIncluded(String collector, String bomb) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx128m", collector, "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
                MemoryBomb.class.getName(), BOMBS.get(bomb)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        // Many kept allocations meet the heap guard; one too large is refused as Lua refuses it;
        // megabyte concatenations meet whichever comes first.
        String guard = "script: ERR script stopped: the server's memory is nearly exhausted";
        String lua = "not enough memory";
        switch (bomb) {
            case "strings", "tables" -> assertThat(output).contains(guard);
            case "doubling" -> assertThat(output).contains(lua);
            default -> assertThat(output).containsAnyOf(guard, lua);
        }
        assertThat(output).doesNotContain("OutOfMemoryError")
                .contains("after: PONG 42")
                .contains("harmless 1: 300000", "harmless 2: 300000", "harmless 3: 300000");
        assertThat(p.exitValue()).as(output).isZero();
    }

    /** Runs the allocating script {@code args[0]} in a small heap (see the test above), then harmless ones; prints what happened. */
    public static final class MemoryBomb {
        public static void main(String[] args) throws Exception {
            try (EngineTestSupport s = new EngineTestSupport()) {
                EmbeddedClient c = s.client();
                try {
                    c.call("EVAL", args[0], "0");
                    System.out.println("script: returned");
                } catch (ErrorReply e) {
                    System.out.println("script: " + e.getMessage());
                }
                c.call("SET", "k", "42");
                System.out.println("after: " + c.call("PING") + " " + new String((byte[]) c.call("GET", "k"), StandardCharsets.UTF_8));
                for (int i = 1; i <= 3; i++) {
                    // Some 600,000 instructions: past the heap guard's check (every 65,536) several times.
                    try {
                        System.out.println("harmless " + i + ": " + c.call("EVAL", "local n = 0 for i = 1, 300000 do n = n + 1 end return n", "0"));
                    } catch (ErrorReply e) {
                        System.out.println("harmless " + i + ": " + e.getMessage());
                    }
                }
            }
        }
    }

    private static String waitForBusy(EmbeddedClient other) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                other.call("GET", "probe");
            } catch (ErrorReply e) {
                return e.getMessage();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("never saw BUSY");
    }

    static {
        try {
            Files.deleteIfExists(Path.of("/tmp/ordo-escaped"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
