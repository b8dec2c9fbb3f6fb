package dev.ordo.engine.persist;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.command.EffectLog;
import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.differential.CommandStreams;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the effect log records for the append-only file: relative times made absolute, pops as
 * the removals they did, expiries as DEL, scripts and transactions as one unit; and that
 * replaying the log on an empty engine reproduces the same keyspace, key by key.
 */
class EffectLogTest {
    private final EngineTestSupport ordo = new EngineTestSupport();
    private final List<List<String>> units = new ArrayList<>();
    private final List<List<EffectLog.Effect>> raw = new ArrayList<>();
    private EmbeddedClient client;

    @BeforeEach
    void listen() {
        HostedEngine.of(ordo.engine).dispatcher().effects().setListener(effects -> {
            raw.add(List.copyOf(effects));
            List<String> unit = new ArrayList<>();
            for (EffectLog.Effect e : effects) {
                unit.add((e.db() == 0 ? "" : e.db() + ": ") + text(e.args()));
            }
            units.add(unit);
        });
        client = ordo.client();
    }

    @AfterEach
    void close() {
        ordo.close();
    }

    private static String text(byte[][] args) {
        List<String> parts = new ArrayList<>();
        for (byte[] a : args) {
            parts.add(new String(a, StandardCharsets.UTF_8));
        }
        return String.join(" ", parts);
    }

    private List<List<String>> run(String... command) {
        units.clear();
        try {
            client.call(command);
        } catch (ErrorReply e) {
            // the log must be the same whether or not the command answered an error
        }
        return units;
    }

    private long now() {
        return ordo.time.get();
    }

    @Test
    void relativeExpiriesBecomeAbsolute() {
        client.call("SET", "s", "v");
        assertThat(run("EXPIRE", "s", "100")).containsExactly(List.of("PEXPIREAT s " + (now() + 100_000)));
        assertThat(run("PEXPIRE", "s", "5", "GT")).isEmpty();
        assertThat(run("SET", "s", "w", "EX", "10")).containsExactly(List.of("SET s w PXAT " + (now() + 10_000)));
        assertThat(run("SETEX", "t", "3", "x")).containsExactly(List.of("SET t x PXAT " + (now() + 3_000)));
        assertThat(run("PSETEX", "t", "30", "x")).containsExactly(List.of("SET t x PXAT " + (now() + 30)));
        assertThat(run("GETEX", "t", "PX", "70")).containsExactly(List.of("PEXPIREAT t " + (now() + 70)));
        assertThat(run("GETEX", "t", "PERSIST")).containsExactly(List.of("PERSIST t"));
        assertThat(run("GETEX", "t", "PERSIST")).isEmpty();
        assertThat(run("GETEX", "t")).isEmpty();
        assertThat(run("EXPIREAT", "t", "1")).containsExactly(List.of("DEL t"));
        assertThat(run("SET", "u", "v", "PXAT", "1")).containsExactly(List.of("DEL u"));
    }

    @Test
    void floatIncrementsBecomeTheValuesTheyWrote() {
        client.call("SET", "n", "1", "EX", "100");
        assertThat(run("INCRBYFLOAT", "n", "0.5")).containsExactly(List.of("SET n 1.5 KEEPTTL"));
        assertThat(run("HINCRBYFLOAT", "h", "f", "2.5")).containsExactly(List.of("HSET h f 2.5"));
    }

    @Test
    void getsetBecomesTheSetItDid() {
        client.call("SET", "g", "old", "EX", "100");
        assertThat(run("GETSET", "g", "new")).containsExactly(List.of("SET g new"));
        assertThat(run("GETSET", "h", "first")).containsExactly(List.of("SET h first"));
        client.call("SADD", "s", "x");
        assertThat(run("GETSET", "s", "v")).isEmpty();
    }

    @Test
    void popsBecomeTheRemovalsTheyDid() {
        client.call("ZADD", "z", "1", "a", "2", "b", "3", "c");
        assertThat(run("ZPOPMIN", "z")).containsExactly(List.of("ZREM z a"));
        assertThat(run("ZPOPMAX", "z", "5")).containsExactly(List.of("ZREM z c b"));
        client.call("ZADD", "z", "1", "a", "2", "b");
        assertThat(run("BZPOPMIN", "nothing", "z", "0")).containsExactly(List.of("ZREM z a"));
        assertThat(run("ZMPOP", "1", "z", "MAX", "COUNT", "9")).containsExactly(List.of("ZREM z b"));
        assertThat(run("ZPOPMIN", "z")).isEmpty();
        client.call("SADD", "s", "x");
        assertThat(run("SPOP", "s")).containsExactly(List.of("SREM s x"));
        client.call("SADD", "s", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
        List<List<String>> popped = run("SPOP", "s", "3");
        assertThat(popped).hasSize(1);
        assertThat(popped.get(0).get(0)).startsWith("SREM s ");
        assertThat(popped.get(0).get(0).split(" ")).hasSize(5);
        assertThat(run("SPOP", "s", "100")).containsExactly(List.of("DEL s"));
    }

    @Test
    void blockedPopServedLaterIsLoggedAsItsRemoval() throws Exception {
        EmbeddedClient waiter = ordo.client();
        Thread t = new Thread(() -> waiter.call("BZPOPMAX", "q", "0"));
        t.start();
        while (ordo.engine.blockedClients() == 0) {
            Thread.sleep(1);
        }
        units.clear();
        client.call("ZADD", "q", "5", "job");
        t.join();
        assertThat(units).containsExactly(List.of("ZADD q 5 job"), List.of("ZREM q job"));
    }

    @Test
    void scriptsAndTransactionsAreOneUnitOfTheirWrites() {
        assertThat(run("EVAL", "redis.call('ZADD', KEYS[1], 1, 'a'); redis.call('ZSCORE', KEYS[1], 'a');"
                + " redis.call('EXPIRE', KEYS[1], 5); return 1", "1", "k"))
                .containsExactly(List.of("ZADD k 1 a", "PEXPIREAT k " + (now() + 5000)));
        Session session = TestClients.session(client);
        client.call("MULTI");
        client.call("SELECT", "2");
        client.call("ZINCRBY", "k", "2", "a");
        client.call("ZADD", "k", "XX", "1", "missing");
        assertThat(run("EXEC")).containsExactly(List.of("2: ZINCRBY k 2 a"));
        assertThat(session.db()).isEqualTo(2);
        assertThat(run("EVAL", "return redis.call('ZSCORE', KEYS[1], 'a')", "1", "k")).isEmpty();
    }

    @Test
    void onlyChangesAreLogged() {
        assertThat(run("ZADD", "k", "XX", "1", "a")).isEmpty();
        assertThat(run("ZADD", "k", "nan", "a")).isEmpty();
        assertThat(run("ZREM", "k", "a")).isEmpty();
        assertThat(run("DEL", "k")).isEmpty();
        client.call("SET", "str", "1");
        assertThat(run("ZADD", "str", "1", "a")).isEmpty();
        assertThat(run("FLUSHDB")).containsExactly(List.of("FLUSHDB"));
        assertThat(run("FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)"))
                .containsExactly(List.of("FUNCTION LOAD #!lua name=lib\nredis.register_function('f', function() return 1 end)"));
        assertThat(run("FUNCTION", "LOAD", "not lua")).isEmpty();
    }

    @Test
    void keysFoundExpiredAreLoggedAsDel() {
        client.call("SET", "a", "1", "PX", "10");
        ordo.advance(20);
        assertThat(run("GET", "a")).containsExactly(List.of("DEL a"));
        client.call("SELECT", "3");
        client.call("SET", "b", "1", "PX", "10");
        ordo.advance(20);
        assertThat(run("ZADD", "b", "1", "m")).containsExactly(List.of("3: DEL b", "3: ZADD b 1 m"));
    }

    @Test
    void restoreIsLoggedWithAnAbsoluteTtl_andAnArrivalAlreadyExpiredAsTheDeletionItDid() {
        client.call("SET", "s", "hello");
        byte[] payload = (byte[]) client.call("DUMP", "s");
        String p = new String(payload, StandardCharsets.ISO_8859_1);
        assertThat(restore("r", "5000", payload, "REPLACE"))
                .containsExactly(List.of("RESTORE r " + (now() + 5000) + " " + p + " REPLACE ABSTTL"));
        assertThat(restore("n", "0", payload, "IDLETIME", "5")).containsExactly(List.of("RESTORE n 0 " + p + " IDLETIME 5"));
        assertThat(restore("r", "1", payload, "REPLACE", "ABSTTL")).containsExactly(List.of("DEL r"));
        assertThat(restore("q", "1", payload, "ABSTTL")).isEmpty();
        assertThat(restore("n", "0", payload)).as("BUSYKEY").isEmpty();
    }

    /** The units logged for RESTORE key ttl payload options..., each command as ISO-8859-1 text. */
    private List<List<String>> restore(String key, String ttl, byte[] payload, String... options) {
        byte[][] args = new byte[4 + options.length][];
        args[0] = "RESTORE".getBytes(StandardCharsets.US_ASCII);
        args[1] = key.getBytes(StandardCharsets.US_ASCII);
        args[2] = ttl.getBytes(StandardCharsets.US_ASCII);
        args[3] = payload;
        for (int i = 0; i < options.length; i++) {
            args[4 + i] = options[i].getBytes(StandardCharsets.US_ASCII);
        }
        raw.clear();
        try {
            client.call(args);
        } catch (ErrorReply e) {
            // logged or not, as for any command
        }
        List<List<String>> out = new ArrayList<>();
        for (List<EffectLog.Effect> unit : raw) {
            List<String> texts = new ArrayList<>();
            for (EffectLog.Effect e : unit) {
                List<String> parts = new ArrayList<>();
                for (byte[] a : e.args()) {
                    parts.add(new String(a, StandardCharsets.ISO_8859_1));
                }
                texts.add(String.join(" ", parts));
            }
            out.add(texts);
        }
        return out;
    }

    /** Commands with relative times, randomness, scripts and transactions, beside the differential streams. */
    private static List<String[]> extraCommands(SplittableRandom r, int n) {
        List<String[]> out = new ArrayList<>();
        String[] keys = {"z1", "z2", "s", "h", "str"};
        for (int i = 0; i < n; i++) {
            String k = keys[r.nextInt(keys.length)];
            switch (r.nextInt(13)) {
                case 0 -> out.add(new String[] {"EXPIRE", k, String.valueOf(1 + r.nextInt(5))});
                case 1 -> out.add(new String[] {"SET", "str", "v" + r.nextInt(9), "PX", String.valueOf(1 + r.nextInt(3000))});
                case 2 -> out.add(new String[] {"SADD", "s", "m" + r.nextInt(20), "n" + r.nextInt(20)});
                case 3 -> out.add(new String[] {"SPOP", "s", String.valueOf(r.nextInt(4))});
                case 4 -> out.add(new String[] {"HSET", "h", "f" + r.nextInt(9), "v" + r.nextInt(9)});
                case 5 -> out.add(new String[] {"ZPOPMIN", "z1", String.valueOf(r.nextInt(3))});
                case 6 -> out.add(new String[] {"EVAL", "local m = redis.call('ZRANDMEMBER', KEYS[1]) if m then redis.call('ZREM', KEYS[1], m)"
                        + " redis.call('SADD', KEYS[2], m) end return 1", "2", "z2", "s"});
                case 7 -> out.add(new String[] {"GETEX", "str", "EX", String.valueOf(1 + r.nextInt(3))});
                case 8 -> out.add(new String[] {"INCRBYFLOAT", "f", "0.1"});
                case 9 -> out.add(new String[] {"ZADD", "z2", String.valueOf(r.nextInt(10)), "m" + r.nextInt(30)});
                case 10 -> out.add(new String[] {"SPOP", "s"});
                case 11 -> out.add(new String[] {"GETSET", "str", "g" + r.nextInt(9)});
                default -> out.add(new String[] {"PEXPIRE", k, String.valueOf(r.nextInt(2000)), r.nextBoolean() ? "GT" : "NX"});
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void replayingTheLogReproducesTheKeyspace(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<String[]> commands = new ArrayList<>();
        for (CommandStreams.Step step : CommandStreams.random(seed, 1500)) {
            String[] c = new String[step.args().length];
            for (int i = 0; i < c.length; i++) {
                c[i] = new String(step.args()[i], StandardCharsets.ISO_8859_1);
            }
            commands.add(c);
        }
        List<String[]> extra = extraCommands(r, 600);
        for (int i = 0; i < extra.size(); i++) {
            commands.add(r.nextInt(commands.size()), extra.get(i));
        }
        raw.clear();
        for (String[] c : commands) {
            byte[][] args = new byte[c.length][];
            for (int i = 0; i < c.length; i++) {
                args[i] = c[i].getBytes(StandardCharsets.ISO_8859_1);
            }
            try {
                client.call(args);
            } catch (ErrorReply e) {
                // errors are part of the streams
            }
            if (r.nextInt(10) == 0) {
                ordo.advance(r.nextInt(1500));
            }
        }
        // The engine's active expiry cycle may log deletions meanwhile: replay a copy taken under its lock.
        List<List<EffectLog.Effect>> logged = new ArrayList<>();
        ordo.engine.withLock(() -> logged.addAll(raw));
        try (EngineTestSupport replica = new EngineTestSupport()) {
            replica.time.set(ordo.time.get());
            Session session = new Session(0, true);
            ObjectReplyWriter out = new ObjectReplyWriter(session::protocol);
            replica.engine.withLock(() -> {
                HostedEngine.of(replica.engine).keyspace().setLoading(true);
                for (List<EffectLog.Effect> unit : logged) {
                    for (EffectLog.Effect e : unit) {
                        HostedEngine.of(replica.engine).keyspace().beginCommand();
                        HostedEngine.of(replica.engine).dispatcher().dispatch(session, new byte[][] {"SELECT".getBytes(), String.valueOf(e.db()).getBytes()}, out, false);
                        HostedEngine.of(replica.engine).dispatcher().dispatch(session, e.args(), out, false);
                        Object reply = out.take();
                        assertThat(reply instanceof ErrorReply).as("replaying %s: %s", text(e.args()), reply).isFalse();
                    }
                }
                HostedEngine.of(replica.engine).keyspace().setLoading(false);
            });
            assertThat(KeyspaceDigest.of(replica.engine)).isEqualTo(KeyspaceDigest.of(ordo.engine)).isNotEmpty();
        }
    }
}
