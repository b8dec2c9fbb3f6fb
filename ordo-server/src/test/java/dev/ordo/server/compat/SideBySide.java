package dev.ordo.server.compat;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.CommandStreams;
import dev.ordo.engine.differential.RedisServer;
import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.ReplyComparison;
import dev.ordo.engine.differential.RespSocket;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two servers a compatibility test compares, started once per test class: an embedded Ordo
 * with an open port and a real {@code redis-server} (see {@link RedisServer} for when a missing
 * one skips and when it fails), each on a free loopback port, both started with the same
 * settings (none by default). Registered with
 * {@code @RegisterExtension static final SideBySide SERVERS = new SideBySide();}. Also how the
 * scenario tests write commands ({@link #words}) and collect a pipeline's replies ({@link #replies}).
 */
final class SideBySide implements BeforeAllCallback, AfterAllCallback {
    private RedisServer redis;
    private Ordo ordo;
    private int ordoPort;
    /** Ordo servers on a chosen {@code io-transport}, started on first use. */
    private final Map<String, Ordo> byTransport = new HashMap<>();
    /** Configuration both servers start with, name to value (for settings fixed at start). */
    private final Map<String, String> settings;

    SideBySide() {
        this(Map.of());
    }

    /** Two servers both started with {@code settings}, e.g. {@code enable-debug-command local}. */
    SideBySide(Map<String, String> settings) {
        this.settings = Map.copyOf(settings);
    }

    /** One server under test, named in parameterized test names. */
    record Target(String name, int port) {
        @Override
        public String toString() {
            return name;
        }

        /** Redisson's settings for this server: one node, a few idle connections and a subscription one. */
        org.redisson.config.Config redissonConfig() {
            org.redisson.config.Config config = new org.redisson.config.Config();
            config.useSingleServer().setAddress("redis://127.0.0.1:" + port).setConnectionMinimumIdleSize(4)
                    .setSubscriptionConnectionMinimumIdleSize(1);
            return config;
        }

        /** A Redisson client of this server; the caller shuts it down. */
        org.redisson.api.RedissonClient redisson() {
            return org.redisson.Redisson.create(redissonConfig());
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        List<String> args = new java.util.ArrayList<>();
        Config config = new Config();
        settings.forEach((name, value) -> {
            args.add("--" + name);
            args.add(value);
            config.set(name, value, true);
        });
        redis = RedisServer.start(args.toArray(new String[0]));
        ordo = Ordo.embedded(config);
        ordoPort = ordo.openPort(0);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        byTransport.values().forEach(Ordo::close);
        if (ordo != null) {
            ordo.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    RedisServer redis() {
        return redis;
    }

    Ordo ordo() {
        return ordo;
    }

    int ordoPort() {
        return ordoPort;
    }

    /** The port of an Ordo server on {@code transport} ({@code io-transport}: auto, io_uring or nio). */
    int ordoPort(String transport) {
        Ordo o = byTransport.computeIfAbsent(transport, t -> {
            Config config = new Config();
            config.set("io-transport", t, true);
            Ordo started = Ordo.embedded(config);
            started.openPort(0);
            return started;
        });
        return o.port();
    }

    /** Ordo, then Redis (named with its version), for {@code @MethodSource}. */
    List<Target> targets() {
        String version;
        try {
            version = redis.version();
        } catch (IOException e) {
            version = "?";
        }
        return List.of(new Target("ordo", ordoPort), new Target("redis " + version, redis.port()));
    }

    /** The words of a command line; a double-quoted word may hold spaces or be empty. */
    static byte[][] words(String line) {
        List<byte[]> out = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            if (line.charAt(i) == ' ') {
                i++;
            } else if (line.charAt(i) == '"') {
                int end = line.indexOf('"', i + 1);
                out.add(line.substring(i + 1, end).getBytes(StandardCharsets.UTF_8));
                i = end + 1;
            } else {
                int end = line.indexOf(' ', i);
                end = end < 0 ? line.length() : end;
                out.add(line.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end;
            }
        }
        return out.toArray(byte[][]::new);
    }

    /** The replies to {@code commands}, pipelined on a new connection, before the final {@code PING end}'s. */
    static List<Reply> replies(int port, List<byte[][]> commands) throws IOException {
        try (RespSocket socket = new RespSocket(port)) {
            for (byte[][] command : commands) {
                socket.send(command);
            }
            socket.send(words("PING end"));
            List<Reply> out = new ArrayList<>();
            for (Reply r = socket.read(); !"end".equals(r.textString()); r = socket.read()) {
                out.add(r);
            }
            return out;
        }
    }

    /**
     * Runs {@code steps} on a fresh connection to each server (both flushed first, in RESP
     * {@code protocol}), one step at a time, and fails at the first reply that differs (a step
     * marked unordered compares as a multiset), naming the step, both replies and the steps
     * before it.
     */
    void replay(List<CommandStreams.Step> steps, int protocol, String label) throws IOException {
        try (RespSocket ours = new RespSocket(ordoPort()); RespSocket real = new RespSocket(redis().port())) {
            ours.call(words("FLUSHALL"));
            real.call(words("FLUSHALL"));
            if (protocol == 3) {
                ours.call(words("HELLO 3"));
                real.call(words("HELLO 3"));
            }
            for (int i = 0; i < steps.size(); i++) {
                CommandStreams.Step step = steps.get(i);
                Reply expected;
                Reply actual;
                try {
                    expected = real.call(step.args());
                    actual = ours.call(step.args());
                } catch (IOException e) {
                    throw new AssertionError(label + ", RESP" + protocol + ", step " + i + ": " + step, e);
                }
                String difference = ReplyComparison.difference(actual, expected, step.unordered());
                if (difference != null) {
                    throw new AssertionError(String.format("%s, RESP%d, step %d: %s%n  Redis: %s%n  Ordo:  %s%n  difference: %s%n  preceding: %s",
                            label, protocol, i, step, expected, actual, difference, steps.subList(Math.max(0, i - 12), i)));
                }
            }
        }
    }

    /**
     * Waits up to 30 s for {@code condition}, for what a client does asynchronously (a cache's
     * put, an invalidation); whether it came true is asserted by the caller.
     */
    static boolean eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
