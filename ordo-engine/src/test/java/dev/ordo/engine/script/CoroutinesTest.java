package dev.ordo.engine.script;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Ordo's coroutine library: Lua 5.1's behaviour as redis-server 7.0 shows it (the expected
 * texts were recorded from one), and the threads behind it: every coroutine thread is back in
 * the pool when a script's reply arrives, the pool never passes its bound, and idle threads end.
 */
class CoroutinesTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();
    /** Coroutine threads that engines of earlier tests left idle (they end on their own). */
    private final int otherEnginesThreads = coroutineThreads();

    @AfterEach
    void close() {
        support.close();
    }

    private Object eval(String script) {
        return client.call("EVAL", script, "0");
    }

    private String evalText(String script) {
        return text(eval(script));
    }

    /** The script's array reply, each element as text (nil as "null"). */
    private List<String> texts(String script) {
        return ((List<?>) eval(script)).stream().map(CoroutinesTest::text).toList();
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    private int threadsInUse() {
        return HostedEngine.of(support.engine).scripting().coroutineThreadsInUse();
    }

    @Test
    void resumeAndYield_passValuesBothWays() {
        assertThat(eval("return {coroutine.resume(coroutine.create(function(a, b) local c, d = coroutine.yield(a + b) return c * d end), 1, 2)}"))
                .isEqualTo(List.of(1L, 3L));
        assertThat(eval("local co = coroutine.create(function(a, b) local c, d = coroutine.yield(a + b) return c * d end) "
                + "coroutine.resume(co, 1, 2) return {coroutine.resume(co, 3, 4)}")).isEqualTo(List.of(1L, 12L));
        assertThat(eval("local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) return {gen(), gen(), gen()}"))
                .isEqualTo(List.of(1L, 2L, 3L));
    }

    @Test
    void status_andRunning_asLua51() {
        assertThat(evalText("return coroutine.status(coroutine.create(function() end))")).isEqualTo("suspended");
        assertThat(texts("local co co = coroutine.create(function() return coroutine.status(co) end) "
                + "local ok, inside = coroutine.resume(co) return {inside, coroutine.status(co)}")).containsExactly("running", "dead");
        assertThat(evalText("local outer outer = coroutine.create(function() "
                + "return select(2, coroutine.resume(coroutine.create(function() return coroutine.status(outer) end))) end) "
                + "return select(2, coroutine.resume(outer))")).isEqualTo("normal");
        assertThat(eval("return coroutine.running()")).isNull();
        assertThat(evalText("local co co = coroutine.create(function() return coroutine.running() == co end) "
                + "return tostring(select(2, coroutine.resume(co)))")).isEqualTo("true");
        assertThat(evalText("return type(coroutine.create(function() end)) .. ' ' .. type(coroutine.wrap(function() end))"))
                .isEqualTo("thread function");
    }

    @Test
    void resume_ofADeadOrRunningCoroutine_failsAsLua51() {
        assertThat(texts("local co = coroutine.create(function() end) coroutine.resume(co) return {coroutine.resume(co)}"))
                .containsExactly("null", "cannot resume dead coroutine");
        assertThat(texts("local co co = coroutine.create(function() return coroutine.resume(co) end) return {coroutine.resume(co)}"))
                .containsExactly("1", "null", "cannot resume running coroutine");
    }

    @Test
    void errorsInACoroutine_reachResumeAndWrapAsLua51() {
        assertThat(texts("return {coroutine.resume(coroutine.create(function() error('x') end))}")).containsExactly("null", "user_script:1: x");
        assertThat(texts("return {pcall(coroutine.wrap(function() error('x') end))}")).containsExactly("null", "user_script:1: x");
        assertThat(texts("return {coroutine.resume(coroutine.create(function() error('x', 0) end))}")).containsExactly("null", "x");
        assertThat(texts("return {coroutine.resume(coroutine.create(function() local t = nil; return t.x end))}"))
                .containsExactly("null", "user_script:1: attempt to index local 't' (a nil value)");
        assertThatThrownBy(() -> eval("coroutine.wrap(function() error('x') end)()"))
                .hasMessageStartingWith("ERR user_script:1: user_script:1: x script: ");
        assertThat(evalText("local ok, e = coroutine.resume(coroutine.create(function() return redis.call('nosuch') end)) return type(e) .. ' ' .. e.err"))
                .isEqualTo("table ERR Unknown Redis command called from script");
        assertThatThrownBy(() -> eval("coroutine.wrap(function() return redis.call('nosuch') end)()"))
                .hasMessageStartingWith("ERR Unknown Redis command called from script script: ");
    }

    @Test
    void misuse_isRefusedWithLua51sTexts() {
        assertThatThrownBy(() -> eval("coroutine.yield(1)"))
                .hasMessageStartingWith("ERR attempt to yield across metamethod/C-call boundary script: ");
        assertThatThrownBy(() -> eval("return coroutine.resume(1)"))
                .hasMessageStartingWith("ERR user_script:1: bad argument #1 to 'resume' (coroutine expected) script: ");
        assertThatThrownBy(() -> eval("return coroutine.create(1)"))
                .hasMessageStartingWith("ERR user_script:1: bad argument #1 to 'create' (Lua function expected) script: ");
        assertThatThrownBy(() -> eval("return coroutine.wrap(1)"))
                .hasMessageStartingWith("ERR user_script:1: bad argument #1 to 'wrap' (Lua function expected) script: ");
        assertThatThrownBy(() -> eval("return coroutine.status(1)"))
                .hasMessageStartingWith("ERR user_script:1: bad argument #1 to 'status' (coroutine expected) script: ");
    }

    @Test
    void endlessRecursionInACoroutine_endsTheScriptWithStackOverflow() {
        assertThatThrownBy(() -> eval("return coroutine.wrap(function() local function f(n) return f(n + 1) + 1 end return f(1) end)()"))
                .isInstanceOf(ErrorReply.class).hasMessageContaining("stack overflow");
        assertThat(threadsInUse()).isZero();
        assertThat(eval("return 1")).isEqualTo(1L);
    }

    @Test
    void suspendedCoroutines_areReleasedBeforeTheReply() {
        assertThat(eval("local n = 0 for i = 1, 40 do local co = coroutine.create(function() coroutine.yield(i) end) "
                + "local ok, v = coroutine.resume(co) n = n + v end return n")).isEqualTo(820L);
        assertThat(threadsInUse()).isZero();
        // Suspended across pcall, a table.sort comparator and a gsub callback (LuaJ allows it): each unwinds through them.
        assertThat(eval("local gen = coroutine.wrap(function() while true do coroutine.yield(pcall(coroutine.yield, 1)) end end) "
                + "return gen()")).isEqualTo(1L);
        assertThat(threadsInUse()).isZero();
        assertThat(eval("local gen = coroutine.wrap(function() table.sort({3, 1, 2}, function(a, b) coroutine.yield(2) return a < b end) end) "
                + "return gen()")).isEqualTo(2L);
        assertThat(eval("local gen = coroutine.wrap(function() string.gsub('abc', '%w', function(c) coroutine.yield(3) end) end) "
                + "return gen()")).isEqualTo(3L);
        assertThat(threadsInUse()).isZero();
        assertThat(eval("return 4")).isEqualTo(4L);
    }

    /** As documented: a coroutine does not outlive the run that started it, where Redis would keep it. */
    @Test
    void coroutineKeptByALibrary_isDeadInTheNextCall() {
        client.call("FUNCTION", "LOAD", """
                #!lua name=gen
                local co
                redis.register_function('gen_next', function()
                    if co == nil then co = coroutine.create(function() for i = 1, 10 do coroutine.yield(i) end end) end
                    local ok, v = coroutine.resume(co)
                    return tostring(ok) .. ':' .. tostring(v)
                end)
                """);
        assertThat(text(client.call("FCALL", "gen_next", "0"))).isEqualTo("true:1");
        assertThat(threadsInUse()).isZero();
        assertThat(text(client.call("FCALL", "gen_next", "0"))).isEqualTo("false:cannot resume dead coroutine");
    }

    @Test
    void coroutineThreads_areBoundedPerScript() {
        assertThatThrownBy(() -> eval("for i = 1, 100 do coroutine.create(function() end) end"))
                .hasMessageContaining("too many coroutines in one script (at most 64)");
        assertThat(eval("local cos = {} for i = 1, 64 do cos[i] = coroutine.create(function() coroutine.yield() end) "
                + "coroutine.resume(cos[i]) end return #cos")).isEqualTo(64L);
        assertThat(coroutineThreads()).isLessThanOrEqualTo(Coroutines.MAX_PER_SCRIPT + otherEnginesThreads);
        assertThat(threadsInUse()).isZero();
    }

    /**
     * The reported bug: 300 scripts that left suspended coroutines left thousands of threads.
     * Now each script's threads are back in the pool at its reply, the pool stays within its
     * bound, and its idle threads end.
     */
    @Test
    void threeHundredScriptsLeavingSuspendedCoroutines_leaveNoThreads() throws Exception {
        int baseline = coroutineThreads();
        for (int i = 0; i < 300; i++) {
            assertThat(eval("for i = 1, 30 do local co = coroutine.create(function() coroutine.yield(i) end) coroutine.resume(co) end "
                    + "return 1")).isEqualTo(1L);
            assertThat(threadsInUse()).as("coroutine threads in use after script %d", i).isZero();
            assertThat(coroutineThreads()).as("coroutine threads alive after script %d", i)
                    .isLessThanOrEqualTo(baseline + Coroutines.MAX_PER_SCRIPT);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (coroutineThreads() > baseline && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(coroutineThreads()).as("coroutine threads once idle").isLessThanOrEqualTo(baseline);
    }

    @Test
    void scriptKill_ofABusyCoroutine_endsItsThread() throws Exception {
        EmbeddedClient other = support.client();
        other.call("CONFIG", "SET", "busy-reply-threshold", "50");
        CompletableFuture<Throwable> looping = CompletableFuture.supplyAsync(() -> {
            try {
                eval("local f = coroutine.wrap(function() while true do end end) f()");
                return null;
            } catch (ErrorReply e) {
                return e;
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        String busy = null;
        while (busy == null && System.nanoTime() < deadline) {
            try {
                other.call("GET", "probe");
                Thread.sleep(10);
            } catch (ErrorReply e) {
                busy = e.getMessage();
            }
        }
        assertThat(busy).startsWith("BUSY Redis is busy running a script.");
        assertThat(other.call("SCRIPT", "KILL")).isEqualTo("OK");
        assertThat(looping.get(10, TimeUnit.SECONDS)).hasMessageStartingWith("ERR Script killed by user with SCRIPT KILL...");
        assertThat(threadsInUse()).isZero();
    }

    /**
     * The invariant the transports rely on: the busy handler runs on the script's thread only,
     * wherever the script is busy, while the coroutine that was running waits; a kill requested
     * from a poll then ends the script, coroutines included.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "while true do end",
        "coroutine.wrap(function() while true do end end)()",
        "coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)()",
        "coroutine.wrap(function() table.sort({3, 1, 2}, function(a, b) while true do end end) end)()",
        "local co = coroutine.create(function() coroutine.yield() while true do redis.call('PING') end end) "
                + "coroutine.resume(co) coroutine.resume(co)",
    })
    void busyHandler_isPolledOnTheScriptsThreadOnly_andItsKillEndsTheScript(String script) {
        client.call("CONFIG", "SET", "busy-reply-threshold", "0");
        List<String> offThread = new ArrayList<>();
        int[] polls = {0};
        Scripting scripting = HostedEngine.of(support.engine).scripting();
        scripting.setBusyHandler(new Scripting.BusyHandler() {
            @Override
            public void poll(Scripting.Run run) {
                if (Thread.currentThread() != run.thread()) {
                    offThread.add(Thread.currentThread().getName());
                }
                if (++polls[0] == 20) {
                    assertThat(scripting.kill(false)).isNull();
                }
            }

            @Override
            public void ended(Scripting.Run run) {
            }
        });
        assertThatThrownBy(() -> eval(script)).hasMessageStartingWith("ERR Script killed by user with SCRIPT KILL...");
        assertThat(offThread).as("polls off the script's thread").isEmpty();
        assertThat(polls[0]).isGreaterThanOrEqualTo(20);
        assertThat(threadsInUse()).isZero();
        scripting.setBusyHandler(null);
    }

    /** Live threads that run coroutines: Ordo's workers, and LuaJ's own (named Coroutine-N), which Ordo no longer starts. */
    static int coroutineThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith(Coroutines.THREAD_PREFIX) || t.getName().startsWith("Coroutine-")))
                .count();
    }
}
