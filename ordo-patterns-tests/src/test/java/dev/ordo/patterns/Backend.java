package dev.ordo.patterns;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.embedded.EmbeddedStore;
import dev.ordo.patterns.lettuce.LettuceStore;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.server.Ordo;
import org.opentest4j.TestAbortedException;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The five databases every pattern test runs against, each started once per JVM on first use,
 * shared by all test classes, and stopped by a JVM shutdown hook (so no {@code redis-server}
 * outlives the test run):
 *
 * <ul>
 *   <li>{@link #EMBEDDED}: an in-process Ordo engine reached through {@link EmbeddedStore}, no sockets.
 *   <li>{@link #ORDO_SERVER}: a second in-process Ordo serving RESP on a loopback port, reached
 *       through {@link LettuceStore#connect}.
 *   <li>{@link #ORDO_ACL}: an Ordo server reached as an ACL user allowed only the tests' keys
 *       (those holding {@code :<digit>}, as {@link #uniqueName} makes them), with no dangerous or
 *       admin command: the patterns need no more. Its node is an admin connection to the same
 *       server (for FLUSHALL, INFO, SCRIPT EXISTS).
 *   <li>{@link #REDIS}: a real {@code redis-server} ({@link RedisServer}), through {@link LettuceStore#connect}.
 *   <li>{@link #REDIS_CLUSTER}: three {@code redis-server} masters in cluster mode, each in its own
 *       directory with its own {@code nodes.conf} and an explicit cluster bus port. The fixture forms
 *       the cluster itself: CLUSTER ADDSLOTSRANGE 0-5460, 5461-10922 and 10923-16383 on the three
 *       nodes, CLUSTER MEET from the first node to the other two (gossip introduces those two to
 *       each other), then it waits until every node reports the cluster ok with all 16384 slots
 *       and 3 known nodes and lists the same three ranges in CLUSTER SLOTS. Tests reach it through
 *       {@link LettuceStore#connectCluster}.
 * </ul>
 *
 * <p>When {@code redis-server} is not installed the Redis backends skip their tests (fail under
 * {@code CI=true}), as {@link RedisServer} does. Tests keep to their own keys with
 * {@link #uniqueName}; {@link #flush} empties every node when a test needs a clean database.
 */
public enum Backend {
    EMBEDDED {
        @Override
        void start(Running r) {
            Ordo ordo = r.closeLast(Ordo.embedded());
            r.single(EmbeddedStore.on(ordo.engine()));
        }
    },
    ORDO_SERVER {
        @Override
        void start(Running r) {
            Ordo ordo = r.closeLast(Ordo.embedded());
            r.single(LettuceStore.connect(uri(ordo.openPort(0))));
        }
    },
    ORDO_ACL {
        @Override
        void start(Running r) {
            Ordo ordo = r.closeLast(Ordo.embedded());
            int port = ordo.openPort(0);
            Store admin = r.closeFirst(LettuceStore.connect(uri(port)));
            // The tests' keys all hold ":<digit>" (uniqueName's suffix), and one test names its board game{x}.
            admin.call(StoreCommand.of("ACL").arg("SETUSER").arg(ACL_USER).arg("on").arg(">" + ACL_PASSWORD)
                    .arg("~*:[0-9]*").arg("~game{x}*").arg("+@all").arg("-@dangerous").arg("-@admin"));
            r.store = r.closeFirst(LettuceStore.connect(uri(port), new LettuceStore.Credentials(ACL_USER, ACL_PASSWORD)));
            r.nodes = List.of(admin);
        }
    },
    REDIS {
        @Override
        void start(Running r) throws Exception {
            RedisServer redis = r.closeLast(RedisServer.start());
            r.single(LettuceStore.connect(uri(redis.port())));
        }
    },
    REDIS_CLUSTER {
        private static final long[][] SLOT_RANGES = {{0, 5460}, {5461, 10922}, {10923, 16383}};
        private static final long FORM_TIMEOUT_NANOS = 30_000_000_000L;

        @Override
        void start(Running r) throws Exception {
            int[] ports = new int[SLOT_RANGES.length];
            int[] busPorts = new int[SLOT_RANGES.length];
            List<Store> nodes = new ArrayList<>();
            for (int i = 0; i < ports.length; i++) {
                busPorts[i] = freePort();
                RedisServer node = r.closeLast(RedisServer.start("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
                        "--cluster-port", String.valueOf(busPorts[i])));
                ports[i] = node.port();
                nodes.add(r.closeFirst(LettuceStore.connect(uri(ports[i]))));
            }
            for (int i = 0; i < ports.length; i++) {
                nodes.get(i).call(StoreCommand.of("CLUSTER").arg("ADDSLOTSRANGE").arg(SLOT_RANGES[i][0]).arg(SLOT_RANGES[i][1]));
            }
            for (int i = 1; i < ports.length; i++) {
                nodes.get(0).call(StoreCommand.of("CLUSTER").arg("MEET").arg("127.0.0.1").arg(ports[i]).arg(busPorts[i]));
            }
            awaitFormed(nodes, ports);
            String[] seeds = new String[ports.length];
            for (int i = 0; i < ports.length; i++) {
                seeds[i] = uri(ports[i]);
            }
            r.store = r.closeFirst(LettuceStore.connectCluster(seeds));
            r.nodes = List.copyOf(nodes);
        }

        private void awaitFormed(List<Store> nodes, int[] ports) throws InterruptedException {
            Set<String> ranges = new HashSet<>();
            for (int i = 0; i < ports.length; i++) {
                ranges.add(SLOT_RANGES[i][0] + "-" + SLOT_RANGES[i][1] + "@127.0.0.1:" + ports[i]);
            }
            long deadline = System.nanoTime() + FORM_TIMEOUT_NANOS;
            while (true) {
                boolean formed = true;
                for (Store node : nodes) {
                    String info = node.call(StoreCommand.of("CLUSTER").arg("INFO")).asString();
                    formed &= info.contains("cluster_state:ok") && info.contains("cluster_slots_assigned:16384")
                            && info.contains("cluster_known_nodes:3") && ranges(node).equals(ranges);
                }
                if (formed) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    StringBuilder report = new StringBuilder("Redis Cluster did not form within 30 s:");
                    for (int i = 0; i < ports.length; i++) {
                        report.append("\n--- node 127.0.0.1:").append(ports[i]).append(" CLUSTER INFO\n")
                                .append(nodes.get(i).call(StoreCommand.of("CLUSTER").arg("INFO")))
                                .append("CLUSTER SLOTS: ").append(ranges(nodes.get(i)));
                    }
                    throw new IllegalStateException(report.toString());
                }
                Thread.sleep(50);
            }
        }

        /** A node's CLUSTER SLOTS as "start-end@host:port" of each range's master. */
        private Set<String> ranges(Store node) {
            Set<String> out = new HashSet<>();
            for (Reply o : node.call(StoreCommand.of("CLUSTER").arg("SLOTS")).asList()) {
                List<Reply> range = o.asList();
                List<Reply> master = range.get(2).asList();
                out.add(range.get(0).asLong() + "-" + range.get(1).asLong() + "@" + master.get(0).asString() + ":" + master.get(1).asLong());
            }
            return out;
        }
    };

    private static final AtomicLong NAMES = new AtomicLong();
    private static final String ACL_USER = "patterns";
    private static final String ACL_PASSWORD = "patterns-s3cret";

    /** Guarded by this constant's monitor. */
    private Running running;
    private RuntimeException failure;

    /** This backend's shared store, started on first use. Do not close it. */
    public Store store() {
        return running().store;
    }

    /**
     * The store of each server behind {@link #store()}: the store itself for one server, a
     * standalone connection to each master for the cluster (commands there are not redirected).
     */
    public List<Store> nodes() {
        return running().nodes;
    }

    /** FLUSHALL on every server of this backend. */
    public void flush() {
        for (Store node : nodes()) {
            node.call(StoreCommand.of("FLUSHALL"));
        }
    }

    /** {@code base} with a suffix no other call in this JVM gets, e.g. {@code board:17}. */
    public static String uniqueName(String base) {
        return base + ":" + NAMES.incrementAndGet();
    }

    /** Starts this backend, registering in {@code r} what to close and setting its store and nodes. */
    abstract void start(Running r) throws Exception;

    private synchronized Running running() {
        if (running != null) {
            return running;
        }
        if (failure instanceof TestAbortedException skipped) {
            throw new TestAbortedException(skipped.getMessage());
        }
        if (failure != null) {
            throw new IllegalStateException(name() + " failed to start earlier", failure);
        }
        Running r = new Running();
        Runtime.getRuntime().addShutdownHook(new Thread(r::close, "stop-" + name()));
        long began = System.nanoTime();
        try {
            start(r);
        } catch (Exception e) {
            r.close();
            failure = e instanceof RuntimeException re ? re : new IllegalStateException(name() + " did not start", e);
            throw failure;
        }
        System.out.printf("Backend %s started in %d ms%n", name(), (System.nanoTime() - began) / 1_000_000);
        running = r;
        return r;
    }

    static String uri(int port) {
        return "redis://127.0.0.1:" + port;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A started backend: its store, its nodes, and what to close, in order, at JVM exit. */
    static final class Running {
        private final List<AutoCloseable> closeables = Collections.synchronizedList(new ArrayList<>());
        Store store;
        List<Store> nodes;

        /** The store of a single-server backend, which is also its only node. */
        void single(Store s) {
            store = closeFirst(s);
            nodes = List.of(s);
        }

        /** Registers {@code c} to close before everything registered so far. */
        <T extends AutoCloseable> T closeFirst(T c) {
            closeables.add(0, c);
            return c;
        }

        /** Registers {@code c} to close after everything registered so far. */
        <T extends AutoCloseable> T closeLast(T c) {
            closeables.add(c);
            return c;
        }

        /** Closes everything registered, each once, carrying on past failures. */
        void close() {
            List<AutoCloseable> all;
            synchronized (closeables) {
                all = new ArrayList<>(closeables);
                closeables.clear();
            }
            for (AutoCloseable c : all) {
                try {
                    c.close();
                } catch (Exception e) {
                    System.err.println("Closing " + c + " failed: " + e);
                }
            }
        }
    }
}
