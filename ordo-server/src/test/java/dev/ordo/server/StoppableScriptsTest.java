package dev.ordo.server;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.config.Config;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A script busy anywhere is served beside and stopped, over the network, on each transport:
 * {@code auto} (io_uring where the kernel offers it: {@code BusyPump}) and {@code nio} ({@code
 * BusyTakeover}). Busy in its main function, in a coroutine (the reported freeze: PING and SCRIPT
 * KILL went unanswered, on both transports), in a nested one, in a pcall'd function, a {@code
 * table.sort} comparator or a {@code gsub} callback: other clients get BUSY after {@code
 * busy-reply-threshold}, clients connected before it as well as new ones (redis-cli connects for
 * each command: on NIO a new client went unaccepted while a coroutine was busy), and SCRIPT
 * KILL, FUNCTION KILL and SHUTDOWN NOSAVE reach it. And 300
 * scripts that leave suspended coroutines leave no thread behind.
 */
class StoppableScriptsTest {
    private static final String BUSY = "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.\r\n";
    private static final String FUNCTION_BUSY = "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.\r\n";

    /** Endless scripts, by where they are busy. */
    private static final Map<String, String> BUSY_IN = new LinkedHashMap<>();

    static {
        BUSY_IN.put("main function", "local i = 0 while true do i = i + 1 end");
        BUSY_IN.put("coroutine.wrap", "local f = coroutine.wrap(function() while true do end end) f()");
        BUSY_IN.put("coroutine.resume", "coroutine.resume(coroutine.create(function() while true do end end))");
        BUSY_IN.put("nested coroutine", "coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)()");
        BUSY_IN.put("pcall'd function", "pcall(function() while true do end end)");
        BUSY_IN.put("table.sort comparator", "table.sort({3, 1, 2}, function(a, b) while true do end end)");
        BUSY_IN.put("gsub callback", "string.gsub('abc', '%w', function(c) while true do end end)");
        BUSY_IN.put("comparator in a coroutine", "coroutine.wrap(function() table.sort({3, 1, 2}, function(a, b) while true do end end) end)()");
        BUSY_IN.put("coroutine after a yield", "local co = coroutine.create(function() coroutine.yield() while true do end end) "
                + "coroutine.resume(co) coroutine.resume(co)");
    }

    static Stream<Arguments> busyScripts() {
        return Stream.of("auto", "nio").flatMap(t -> BUSY_IN.entrySet().stream().map(e -> Arguments.of(t, e.getKey(), e.getValue())));
    }

    private static Ordo server(String transport) {
        Config config = new Config();
        config.set("io-transport", transport, true);
        config.set("busy-reply-threshold", "100", true);
        return Ordo.embedded(config);
    }

    @ParameterizedTest(name = "busy in {1} on {0}")
    @MethodSource("busyScripts")
    void busyScript_othersGetBusy_andScriptKillStopsIt(String transport, String where, String script) throws Exception {
        try (Ordo ordo = server(transport)) {
            int port = ordo.openPort(0);
            try (RawClient a = new RawClient(port); RawClient b = new RawClient(port)) {
                a.send(RawClient.command("EVAL", script, "0"));
                assertThat(waitForBusy(b)).isEqualTo(BUSY);
                assertThat(b.call("PING")).isEqualTo(BUSY);
                // As redis-cli does it: a new connection for each command.
                try (RawClient newcomer = new RawClient(port)) {
                    assertThat(newcomer.call("PING")).isEqualTo(BUSY);
                }
                try (RawClient killer = new RawClient(port)) {
                    assertThat(killer.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                }
                assertThat(a.reply()).startsWith("-ERR Script killed by user with SCRIPT KILL...");
                assertThat(b.call("PING")).isEqualTo("+PONG\r\n");
                assertThat(a.call("EVAL", "return 7", "0")).isEqualTo(":7\r\n");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"auto", "nio"})
    void aScriptKillRefusedByAclBesideABusyScriptIsInTheAclLog(String transport) throws Exception {
        try (Ordo ordo = server(transport)) {
            int port = ordo.openPort(0);
            ordo.client().call("ACL", "SETUSER", "weak", "on", ">pw", "+@all", "-script|kill");
            EmbeddedClient embedded = ordo.engine().connect();
            embedded.call("AUTH", "weak", "pw");
            try (RawClient a = new RawClient(port); RawClient weak = new RawClient(port); RawClient admin = new RawClient(port)) {
                assertThat(weak.call("AUTH", "weak", "pw")).isEqualTo("+OK\r\n");
                a.send(RawClient.command("EVAL", "while true do end", "0"));
                assertThat(waitForBusy(admin)).isEqualTo(BUSY);
                String refused = "-NOPERM User weak has no permissions to run the 'script|kill' command\r\n";
                assertThat(weak.call("SCRIPT", "KILL")).isEqualTo(refused);
                // From another thread than the script's: an embedded client of the same user.
                assertThatThrownBy(() -> embedded.call("SCRIPT", "KILL")).hasMessage(refused.substring(1, refused.length() - 2));
                assertThat(admin.call("SCRIPT", "KILL")).isEqualTo("+OK\r\n");
                assertThat(a.reply()).startsWith("-ERR Script killed by user with SCRIPT KILL...");
                String log = admin.call("ACL", "LOG", "1");
                assertThat(log).contains("$7\r\ncommand\r\n").contains("$11\r\nscript|kill\r\n").contains("$4\r\nweak\r\n")
                        .contains("$5\r\ncount\r\n:2\r\n");
            } finally {
                embedded.close();
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"auto", "nio"})
    void functionBusyInACoroutine_functionKillStopsIt(String transport) throws Exception {
        try (Ordo ordo = server(transport)) {
            int port = ordo.openPort(0);
            try (RawClient a = new RawClient(port); RawClient b = new RawClient(port)) {
                assertThat(a.call("FUNCTION", "LOAD", "#!lua name=spin\n"
                        + "redis.register_function('spin', function() coroutine.wrap(function() while true do end end)() end)"))
                        .isEqualTo("$4\r\nspin\r\n");
                a.send(RawClient.command("FCALL", "spin", "0"));
                assertThat(waitForBusy(b)).isEqualTo(FUNCTION_BUSY);
                try (RawClient killer = new RawClient(port)) {
                    assertThat(killer.call("FUNCTION", "KILL")).isEqualTo("+OK\r\n");
                }
                assertThat(a.reply()).startsWith("-ERR Script killed by user with FUNCTION KILL...");
                assertThat(b.call("PING")).isEqualTo("+PONG\r\n");
            }
        }
    }

    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"auto", "nio"})
    void shutdownNosave_stopsAServerWhoseScriptIsBusyInACoroutine(String transport) throws Exception {
        try (Ordo ordo = server(transport)) {
            int port = ordo.openPort(0);
            try (RawClient a = new RawClient(port); RawClient b = new RawClient(port)) {
                a.send(RawClient.command("EVAL", BUSY_IN.get("coroutine.wrap"), "0"));
                assertThat(waitForBusy(b)).isEqualTo(BUSY);
                try (RawClient stopper = new RawClient(port)) {
                    stopper.send(RawClient.command("SHUTDOWN", "NOSAVE"));
                    assertThat(stopper.closedWithin(5000)).isTrue();
                }
            }
            assertThat(refusesWithin(port, 5000)).isTrue();
        }
    }

    /** The reported leak: 300 scripts that left suspended coroutines left thousands of threads. */
    @ParameterizedTest(name = "on {0}")
    @ValueSource(strings = {"auto", "nio"})
    void scriptsLeavingSuspendedCoroutines_leaveNoThreads(String transport) throws Exception {
        int baseline = coroutineThreads();
        try (Ordo ordo = server(transport)) {
            int port = ordo.openPort(0);
            try (RawClient a = new RawClient(port)) {
                for (int i = 0; i < 300; i++) {
                    assertThat(a.call("EVAL", "for i = 1, 30 do local co = coroutine.create(function() coroutine.yield(i) end) "
                            + "coroutine.resume(co) end return 1", "0")).isEqualTo(":1\r\n");
                    assertThat(coroutineThreads()).as("coroutine threads after script %d", i).isLessThanOrEqualTo(baseline + 64);
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (coroutineThreads() > baseline && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(coroutineThreads()).as("coroutine threads once idle").isLessThanOrEqualTo(baseline);
        }
    }

    /** Live threads that run Lua coroutines: Ordo's pooled ones, and LuaJ's own (Coroutine-N). */
    private static int coroutineThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("ordo-lua-coroutine-") || t.getName().startsWith("Coroutine-")))
                .count();
    }

    /** Sends GET until the server answers an error (within 10 s); a server that answers nothing fails the read. */
    private static String waitForBusy(RawClient b) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            String r = b.call("GET", "probe");
            if (r.startsWith("-")) {
                return r;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never saw BUSY");
    }

    private static boolean refusesWithin(int port, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(20);
                Thread.sleep(20);
            } catch (IOException e) {
                return true;
            }
        }
        return false;
    }
}
