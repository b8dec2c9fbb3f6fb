package dev.ordo.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * PUBLISH to 1 and to 100 subscribers, Ordo beside redis-server in one run. Each server gets
 * its subscribers first: plain sockets that SUBSCRIBE to {@code bench:ch} and then read and
 * count everything that arrives, each on its own thread (the same readers for both servers).
 * {@code redis-benchmark} (50 clients, {@code -Drequests} 200,000, a 32-byte payload) then drives
 * {@code PUBLISH bench:ch <payload>} at {@code -P 1} and {@code -P 16}, after one unreported
 * warm-up pass against both; each row is the median of {@code -Drounds} (3) rounds, the servers
 * alternating. A row also shows how many subscribers were still there at its end (PUBSUB NUMSUB:
 * a server that closed slow readers would publish to fewer) and the bytes they received per
 * publication, which must be the subscriber count times one message's size.
 *
 * <p>Run: {@code SUITE=pubsub ordo-bench/wire-benchmark.sh} (builds the jars first), or
 * {@code java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.PubSubBenchmark ordo-server/bin/ordo-server [ordo JVM flags...]}:
 * Ordo starts as the README starts it (the launcher and its jvm.options).
 */
public final class PubSubBenchmark {
    private static final String CHANNEL = "bench:ch";
    private static final String PAYLOAD = "x".repeat(32);
    /** One message as a RESP2 subscriber receives it: *3 $7 message $8 bench:ch $32 payload. */
    private static final int MESSAGE_BYTES = ("*3\r\n$7\r\nmessage\r\n$" + CHANNEL.length() + "\r\n" + CHANNEL + "\r\n$" + PAYLOAD.length()
            + "\r\n" + PAYLOAD + "\r\n").length();

    private PubSubBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: PubSubBenchmark <ordo-server/bin/ordo-server | ordo-server.jar> [JVM flags for Ordo...]");
            System.exit(2);
        }
        String redisServer = WireBenchmark.require("redis-server");
        String benchmark = WireBenchmark.require("redis-benchmark");
        int requests = Integer.getInteger("requests", 200_000);
        int warmup = Integer.getInteger("warmup", requests);
        int rounds = Integer.getInteger("rounds", 3);
        List<String> ordoJvm = List.of(args).subList(1, args.length);
        Path dir = Files.createTempDirectory("ordo-pubsub-bench");
        int redisPort = WireBenchmark.freePort();
        int ordoPort = WireBenchmark.freePort();
        Process redis = WireBenchmark.start(List.of(redisServer, "--port", String.valueOf(redisPort), "--save", "", "--appendonly", "no",
                "--dir", dir.toString()), dir.resolve("redis.log"), redisPort);
        Process ordo;
        try {
            ordo = WireBenchmark.start(WireBenchmark.ordoCommand(args[0], ordoJvm, ordoPort, dir), dir.resolve("ordo.log"), ordoPort);
        } catch (Exception e) {
            redis.destroy();
            throw e;
        }
        String[] publish = {"PUBLISH", CHANNEL, PAYLOAD};
        try {
            System.out.printf(Locale.ROOT, "median of %d rounds per row, servers alternating; one message is %d bytes%n", rounds, MESSAGE_BYTES);
            System.out.printf(Locale.ROOT, "%-16s %3s %12s %12s %6s %10s %10s %14s %14s%n", "subscribers", "-P", "Redis ops/s", "Ordo ops/s", "ratio",
                    "Redis p99", "Ordo p99", "Redis B/pub", "Ordo B/pub");
            for (int subscribers : new int[] {1, 100}) {
                try (Subscribers onRedis = new Subscribers(redisPort, subscribers); Subscribers onOrdo = new Subscribers(ordoPort, subscribers)) {
                    WireBenchmark.run(benchmark, redisPort, 16, warmup, publish, "1");
                    WireBenchmark.run(benchmark, ordoPort, 16, warmup, publish, "1");
                    for (int pipeline : new int[] {1, 16}) {
                        WireBenchmark.Result[] r = new WireBenchmark.Result[rounds];
                        WireBenchmark.Result[] o = new WireBenchmark.Result[rounds];
                        long redisBytes = 0;
                        long ordoBytes = 0;
                        for (int k = 0; k < rounds; k++) {
                            long before = onRedis.received();
                            r[k] = WireBenchmark.run(benchmark, redisPort, pipeline, requests, publish, "1");
                            redisBytes += onRedis.settle() - before;
                            before = onOrdo.received();
                            o[k] = WireBenchmark.run(benchmark, ordoPort, pipeline, requests, publish, "1");
                            ordoBytes += onOrdo.settle() - before;
                        }
                        WireBenchmark.Result rm = WireBenchmark.Result.median(r);
                        WireBenchmark.Result om = WireBenchmark.Result.median(o);
                        String label = subscribers + " (" + numsub(redisPort) + "/" + numsub(ordoPort) + " left)";
                        System.out.printf(Locale.ROOT, "%-16s %3d %12.0f %12.0f %6.2f %8.3fms %8.3fms %14.1f %14.1f%n", label, pipeline,
                                rm.rps(), om.rps(), om.rps() / rm.rps(), rm.p99(), om.p99(), redisBytes / (double) rounds / requests,
                                ordoBytes / (double) rounds / requests);
                    }
                }
            }
            System.out.printf(Locale.ROOT, "(a subscriber's B/pub is %d; %d subscribers receive %d B per publication)%n", MESSAGE_BYTES, 100,
                    100 * MESSAGE_BYTES);
        } finally {
            ordo.destroy();
            redis.destroy();
            ordo.waitFor();
            redis.waitFor();
        }
    }

    /** PUBSUB NUMSUB bench:ch, read from the reply's last integer. */
    private static long numsub(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port));
            s.getOutputStream().write(WireBenchmark.resp("PUBSUB", "NUMSUB", CHANNEL));
            byte[] buf = new byte[256];
            int n = s.getInputStream().read(buf);
            String reply = new String(buf, 0, Math.max(0, n), java.nio.charset.StandardCharsets.US_ASCII);
            int colon = reply.lastIndexOf(':');
            return Long.parseLong(reply.substring(colon + 1).trim());
        }
    }

    /** Subscribed sockets, each drained by its own thread, counting the bytes they receive. */
    private static final class Subscribers implements AutoCloseable {
        private final List<Socket> sockets = new ArrayList<>();
        private final AtomicLong received = new AtomicLong();

        Subscribers(int port, int count) throws IOException, InterruptedException {
            byte[] subscribe = WireBenchmark.resp("SUBSCRIBE", CHANNEL);
            for (int i = 0; i < count; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", port));
                s.getOutputStream().write(subscribe);
                sockets.add(s);
                Thread reader = new Thread(() -> drain(s), "subscriber-" + port + "-" + i);
                reader.setDaemon(true);
                reader.start();
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (numsub(port) < count) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the server on " + port + " did not count " + count + " subscribers");
                }
                Thread.sleep(10);
            }
            received.set(0); // the subscribe confirmations are not messages
        }

        private void drain(Socket s) {
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = s.getInputStream()) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    received.addAndGet(n);
                }
            } catch (IOException e) {
                // closed
            }
        }

        long received() {
            return received.get();
        }

        /** Waits until no more bytes arrive for 200 ms (the tail of the messages); returns the total. */
        long settle() throws InterruptedException {
            long last = -1;
            long now = received.get();
            while (now != last) {
                Thread.sleep(200);
                last = now;
                now = received.get();
            }
            return now;
        }

        @Override
        public void close() throws IOException {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
