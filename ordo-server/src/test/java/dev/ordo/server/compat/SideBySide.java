package dev.ordo.server.compat;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.differential.RedisServer;
import dev.ordo.server.Ordo;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The two servers a compatibility test compares, started once per test class: an embedded Ordo
 * with an open port and a real {@code redis-server} (see {@link RedisServer} for when a missing
 * one skips and when it fails), each on a free loopback port, both started with the same
 * settings (none by default). Registered with
 * {@code @RegisterExtension static final SideBySide SERVERS = new SideBySide();}.
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
}
