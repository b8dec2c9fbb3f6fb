package dev.ordo.server.compat;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import dev.ordo.server.Ordo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scripts over the network, where a long script meets other clients: the same scenarios run
 * against an Ordo server and a real {@code redis-server}, and the replies the clients see (BUSY,
 * SCRIPT KILL's OK and UNKILLABLE, the killed script's error) must be the same text. Also:
 * pipelined scripts keep their order, a script's write wakes a blocked client, SHUTDOWN NOSAVE
 * stops a server whose script never ends. Each scenario runs on both of Ordo's transports: {@code
 * auto} (io_uring where the kernel offers it, served during a busy script by {@code BusyPump})
 * and {@code nio} ({@code BusyTakeover}).
 */
class ScriptingOverWireTest {
    private static final String ENDLESS = "local i = 0 while true do i = i + 1 end";
    private static final String WRITE_THEN_SPIN = """
            redis.call('SET', KEYS[1], 'written')
            local start = redis.call('TIME')
            while true do
                local now = redis.call('TIME')
                if (now[1] - start[1]) * 1000000 + (now[2] - start[2]) > 700000 then return 'done' end
            end
            """;

    /** A test run once per {@code io-transport}: auto (io_uring where the kernel has it) and nio. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"auto", "nio"})
    @interface OnBothTransports {
    }

    /** Spins for 0.7 s without writing, then adds one element to KEYS[1]. */
    private static final String SPIN_THEN_ADD = """
            local start = redis.call('TIME')
            while true do
                local now = redis.call('TIME')
                if (now[1] - start[1]) * 1000000 + (now[2] - start[2]) > 700000 then break end
            end
            redis.call('ZADD', KEYS[1], 1, 'element')
            return 'added'
            """;
    /** A library whose loading spins a little before it registers its one function. */
    private static final String SLOW_LIBRARY = """
            #!lua name=slowlib
            local i = 0
            while i < 200000 do i = i + 1 end
            redis.register_function('slowlib_one', function() return 1 end)
            """;

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    /**
     * Scenarios whose client-visible replies must be the same on Ordo, on each transport, as on
     * redis-server: each runs against one server's port and returns what its clients saw.
     */
    static Stream<Arguments> sideBySide() {
        Map<String, Scenario> scenarios = new LinkedHashMap<>();
        scenarios.put("others get BUSY beside a busy script, SCRIPT KILL stops it", ScriptingOverWireTest::busyAndKill);
        scenarios.put("a script that wrote is UNKILLABLE and finishes", ScriptingOverWireTest::unkillable);
        scenarios.put("allow-busy commands run beside a busy script", ScriptingOverWireTest::allowBusy);
        scenarios.put("a client connecting during a busy script is served", ScriptingOverWireTest::newcomer);
        scenarios.put("a blocked client leaving during a busy script takes no element", ScriptingOverWireTest::leaverDuringBusy);
        scenarios.put("the script's own client, pipelining, is answered after it", ScriptingOverWireTest::ownPipeline);
        scenarios.put("a slow FUNCTION LOAD (zero busy threshold) while others send", ScriptingOverWireTest::slowLoad);
        return scenarios.entrySet().stream()
                .flatMap(e -> Stream.of("auto", "nio").map(t -> Arguments.of(e.getKey(), t, e.getValue())));
    }

    interface Scenario {
        String run(int port) throws Exception;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("sideBySide")
    void sameRepliesAsRedis(String name, String transport, Scenario scenario) throws Exception {
        assertThat(scenario.run(SERVERS.ordoPort(transport))).isEqualTo(scenario.run(SERVERS.redis().port()));
    }

    /** A client pipelining during a busy script gets every reply, in order: BUSY ones first, then real ones. */
    @OnBothTransports
    void pipelineDuringBusyScript_everyReplyArrivesInOrder(String transport) throws Exception {
        try (RespSocket a = new RespSocket(SERVERS.ordoPort(transport)); RespSocket b = new RespSocket(SERVERS.ordoPort(transport)); RespSocket killer = new RespSocket(SERVERS.ordoPort(transport))) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            killer.call(b("PING"));
            a.send(b("EVAL", ENDLESS, "0"));
            waitForBusy(b);
            int n = 3000;
            for (int i = 0; i < n; i++) {
                b.send(b("GET", "probe"));
            }
            Thread.sleep(200);
            assertThat(killer.call(b("SCRIPT", "KILL")).textString()).isEqualTo("OK");
            assertThat(a.read().kind()).isEqualTo(Reply.Kind.ERROR);
            boolean served = false;
            for (int i = 0; i < n; i++) {
                Reply r = b.read();
                if (r.kind() == Reply.Kind.ERROR) {
                    assertThat(served).as("a BUSY reply after a served one at %d", i).isFalse();
                    assertThat(r.textString()).startsWith("BUSY");
                } else {
                    served = true;
                    assertThat(r.kind()).isEqualTo(Reply.Kind.NULL_BULK);
                }
            }
            assertThat(b.call(b("PING")).textString()).isEqualTo("PONG");
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
        }
    }

    @OnBothTransports
    void pipelinedScripts_keepTheirOrder(String transport) throws Exception {
        try (RespSocket c = new RespSocket(SERVERS.ordoPort(transport))) {
            c.send(b("SET", "order", "1"));
            c.send(b("EVAL", "return redis.call('INCR', KEYS[1])", "1", "order"));
            c.send(b("GET", "order"));
            c.send(b("EVAL", "return redis.call('INCR', KEYS[1])", "1", "order"));
            assertThat(c.read().textString()).isEqualTo("OK");
            assertThat(c.read().integer()).isEqualTo(2);
            assertThat(c.read().textString()).isEqualTo("2");
            assertThat(c.read().integer()).isEqualTo(3);
        }
    }

    @OnBothTransports
    void scriptWrite_wakesBlockedClient(String transport) throws Exception {
        try (RespSocket waiter = new RespSocket(SERVERS.ordoPort(transport)); RespSocket writer = new RespSocket(SERVERS.ordoPort(transport))) {
            CompletableFuture<Reply> popped = CompletableFuture.supplyAsync(() -> call(waiter, "BZPOPMIN", "wake:q", "5"));
            waitUntilBlocked(writer);
            writer.call(b("EVAL", "return redis.call('ZADD', KEYS[1], 7, 'job')", "1", "wake:q"));
            Reply r = popped.get(5, TimeUnit.SECONDS);
            assertThat(r.children()).extracting(Reply::textString).containsExactly("wake:q", "job", "7");
        }
    }

    @OnBothTransports
    void shutdownNosave_stopsServerWhileScriptSpins(String transport) throws Exception {
        Config config = new Config();
        config.set("io-transport", transport, true);
        try (Ordo victim = Ordo.embedded(config)) {
            int port = victim.openPort(0);
            try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
                b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
                a.send(b("EVAL", ENDLESS, "0"));
                waitForBusy(b);
                b.send(b("SHUTDOWN", "NOSAVE"));
                assertThat(closedWithin(b, 5000)).isTrue();
            }
            assertThat(refuses(port)).isTrue();
        }
    }

    /** What client B sees while client A runs an endless script, and what A gets once killed. */
    private static String busyAndKill(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            a.send(b("EVAL", ENDLESS, "0"));
            Reply busy = waitForBusy(b);
            Reply otherCommand = b.call(b("CLIENT", "ID"));
            Reply kill = b.call(b("SCRIPT", "KILL"));
            Reply killed = a.read();
            Reply after = b.call(b("PING"));
            Reply notBusy = b.call(b("SCRIPT", "KILL"));
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", busy.toString(), otherCommand.toString(), kill.toString(),
                    killed.toString(), after.toString(), notBusy.toString());
        }
    }

    /**
     * What Redis runs beside a busy script (its allow-busy commands) and what it refuses: a
     * transaction opened, a refused command that dooms it, WATCH and UNWATCH, RESET, AUTH, HELLO,
     * and the transaction's EXECABORT once the script is killed.
     */
    private static String allowBusy(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            a.send(b("EVAL", ENDLESS, "0"));
            List<String> seen = new ArrayList<>();
            seen.add(waitForBusy(b).toString());
            seen.add(b.call(b("WATCH", "busy:watched")).toString());
            seen.add(b.call(b("UNWATCH")).toString());
            seen.add(b.call(b("MULTI")).toString());
            seen.add(b.call(b("SET", "busy:k", "v")).toString());
            seen.add(b.call(b("UNWATCH")).toString());
            seen.add(b.call(b("EXEC")).toString());
            seen.add(b.call(b("DISCARD")).toString());
            seen.add(b.call(b("MULTI")).toString());
            seen.add(b.call(b("PING")).toString());
            seen.add(b.call(b("RESET")).toString());
            seen.add(b.call(b("AUTH", "nopass")).toString());
            Reply hello = b.call(b("HELLO", "3"));
            seen.add(hello.kind() + " proto=" + field(hello, "proto"));
            seen.add(b.call(b("GET", "busy:k")).toString());
            seen.add(b.call(b("MULTI")).toString());
            seen.add(b.call(b("INCR", "busy:n")).toString());
            seen.add(b.call(b("SCRIPT", "KILL")).toString());
            seen.add(b.call(b("SHUTDOWN", "NOSAVE")).toString());
            seen.add(b.call(b("DISCARD")).toString());
            seen.add(b.call(b("MULTI")).toString());
            seen.add(b.call(b("INCR", "busy:n")).toString());
            try (RespSocket killer = new RespSocket(port)) {
                seen.add(killer.call(b("SCRIPT", "KILL")).toString());
            }
            seen.add(a.read().kind().toString());
            seen.add(b.call(b("EXEC")).toString());
            seen.add(b.call(b("GET", "busy:k")).toString());
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", seen);
        }
    }

    /** A client that connects while a script is busy: BUSY for ordinary commands, PING included; QUIT closes it. */
    private static String newcomer(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            a.send(b("EVAL", ENDLESS, "0"));
            waitForBusy(b);
            List<String> seen = new ArrayList<>();
            try (RespSocket c = new RespSocket(port)) {
                seen.add(c.call(b("PING")).toString());
                seen.add(c.call(b("MULTI")).toString());
                seen.add(c.call(b("DISCARD")).toString());
                seen.add(c.call(b("QUIT")).toString());
                seen.add(b.call(b("SCRIPT", "KILL")).toString());
                seen.add(a.read().kind().toString());
                seen.add("closed " + closedWithin(c, 5000));
            }
            seen.add(b.call(b("PING")).toString());
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", seen);
        }
    }

    /** The value under {@code name} in a map reply, as text. */
    private static String field(Reply map, String name) {
        for (int i = 0; i + 1 < map.children().size(); i += 2) {
            if (name.equals(map.children().get(i).textString())) {
                return map.children().get(i + 1).toString();
            }
        }
        return null;
    }

    private static String unkillable(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            a.send(b("EVAL", WRITE_THEN_SPIN, "1", "unkillable:key"));
            Reply busy = waitForBusy(b);
            Reply kill = b.call(b("SCRIPT", "KILL"));
            Reply result = a.read();
            Reply value = b.call(b("GET", "unkillable:key"));
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", busy.toString(), kill.toString(), result.toString(), value.toString());
        }
    }

    /**
     * W waits in BZPOPMIN and leaves while A's script is busy; the script then adds the element W
     * waited for, which must stay in the set (no client is left to take it).
     */
    private static String leaverDuringBusy(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("DEL", "leaver:q"));
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            RespSocket w = new RespSocket(port);
            w.send(b("BZPOPMIN", "leaver:q", "0"));
            waitUntilBlocked(b);
            a.send(b("EVAL", SPIN_THEN_ADD, "1", "leaver:q"));
            Reply busy = waitForBusy(b);
            w.close();
            Thread.sleep(100);
            Reply result = a.read();
            Reply left = b.call(b("ZRANGE", "leaver:q", "0", "-1", "WITHSCORES"));
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", busy.toString(), result.toString(), left.toString());
        }
    }

    /** A pipelines behind its own endless script; B kills the script; A's replies arrive in order. */
    private static String ownPipeline(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "100"));
            a.send(b("EVAL", ENDLESS, "0"));
            waitForBusy(b);
            for (int i = 0; i < 100; i++) {
                a.send(b("ECHO", "after-" + i));
            }
            Thread.sleep(100);
            List<String> seen = new ArrayList<>();
            seen.add(b.call(b("SCRIPT", "KILL")).toString());
            seen.add(a.read().kind().toString());
            for (int i = 0; i < 100; i++) {
                seen.add(a.read().toString());
            }
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            return String.join("\n", seen);
        }
    }

    private static String slowLoad(int port) throws Exception {
        try (RespSocket a = new RespSocket(port); RespSocket b = new RespSocket(port)) {
            b.call(b("FUNCTION", "FLUSH"));
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "0"));
            a.send(b("FUNCTION", "LOAD", SLOW_LIBRARY));
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                seen.add(b.call(b("ECHO", "during-" + i)).toString());
            }
            seen.add(a.read().toString());
            b.call(b("CONFIG", "SET", "busy-reply-threshold", "5000"));
            seen.add(b.call(b("FCALL", "slowlib_one", "0")).toString());
            b.call(b("FUNCTION", "FLUSH"));
            return String.join("\n", seen);
        }
    }

    /** Sends GET until the server answers BUSY (at most 5 s). */
    private static Reply waitForBusy(RespSocket b) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (System.currentTimeMillis() < deadline) {
            Reply r = b.call(b("GET", "probe"));
            if (r.kind() == Reply.Kind.ERROR) {
                return r;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never saw BUSY");
    }

    private static void waitUntilBlocked(RespSocket c) throws IOException, InterruptedException {
        for (int i = 0; i < 250; i++) {
            if (c.call(b("INFO", "clients")).textString().contains("blocked_clients:1")) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("client never blocked");
    }

    private static boolean closedWithin(RespSocket c, long millis) {
        long deadline = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < deadline) {
            try {
                c.read();
            } catch (IOException e) {
                return true;
            }
        }
        return false;
    }

    /** Whether connecting to {@code port} is refused within 5 s (SHUTDOWN closes on a thread of its own). */
    private static boolean refuses(int port) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 5000;
        while (System.currentTimeMillis() < deadline) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                s.setSoTimeout(20);
                Thread.sleep(20);
            } catch (IOException e) {
                return true;
            }
        }
        return false;
    }

    private static Reply call(RespSocket c, String... args) {
        try {
            return c.call(b(args));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[][] b(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }
}
