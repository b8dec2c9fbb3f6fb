package dev.ordo.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one open dashboard costs the server: the Ordo server started as the README starts it,
 * plus {@code --console-port}, loaded with the wire benchmark's 1,000,000-member sorted set, then
 * redis-benchmark ({@code -P 16}, 50 clients) runs the wire benchmark's sorted-set commands in
 * pairs of runs: one with no dashboard, one with a dashboard's live feed open (a client reading
 * {@code /api/live} as the overview page does, which makes the console read the server's INFO once
 * a second). Which of the pair goes first alternates. Each row is the median of the rounds; the
 * ratio is with the dashboard over without. The target: at most 1% lost.
 *
 * <p>A 1% effect is smaller than redis-benchmark's run-to-run spread on a shared 2-core machine, so
 * the benchmark also measures the feed's cost directly: the server's own {@code INFO commandstats}
 * time for {@code info} calls, summed over the windows a dashboard was open, as a share of those
 * windows' wall time. That share counts one extra {@code INFO commandstats} per window (the read
 * that opens it), so it errs high.
 *
 * <p>Usage: {@code ConsoleFeedBenchmark <ordo-server/bin/ordo-server | ordo-server.jar>};
 * {@code -Drequests=} and {@code -Drounds=} as for {@link WireBenchmark}.
 */
public final class ConsoleFeedBenchmark {
    private static final String[][] COMMANDS = {
        {"ZADD", "bench", "__rand_int__", "m:__rand_int__"},
        {"ZSCORE", "bench", "m:__rand_int__"},
        {"ZREVRANK", "bench", "m:__rand_int__"},
        {"ZREVRANGE", "bench", "0", "9", "WITHSCORES"},
    };

    private ConsoleFeedBenchmark() {
    }

    /**
     * Runs the comparison and prints it.
     *
     * @param args the server's launcher or jar
     * @throws Exception when a server or redis-benchmark fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ConsoleFeedBenchmark <ordo-server/bin/ordo-server | ordo-server.jar>");
            System.exit(2);
        }
        String benchmark = WireBenchmark.require("redis-benchmark");
        int requests = Integer.getInteger("requests", 3_000_000);
        int rounds = Integer.getInteger("rounds", 8);
        int port = WireBenchmark.freePort();
        int consolePort = WireBenchmark.freePort();
        Path dir = Files.createTempDirectory("ordo-console-bench");
        List<String> cmd = new ArrayList<>(WireBenchmark.ordoCommand(args[0], List.of(), port, dir));
        cmd.addAll(List.of("--console-port", String.valueOf(consolePort)));
        Process ordo = WireBenchmark.start(cmd, dir.resolve("ordo.log"), port);
        try {
            System.out.println("loading 1,000,000 members ...");
            WireBenchmark.load(port);
            System.out.println("warming up ...");
            for (String[] command : COMMANDS) {
                WireBenchmark.run(benchmark, port, 16, 5 * requests, command, "1000000");
            }
            System.out.printf(Locale.ROOT, "-P 16, -c 50, %,d requests a round, median of %d rounds, without and with a dashboard alternating%n",
                    requests, rounds);
            System.out.printf(Locale.ROOT, "%-40s %14s %14s %7s %8s %9s%n", "command", "no dashboard", "dashboard", "ratio", "events", "INFO time");
            HttpClient http = HttpClient.newHttpClient();
            RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
            StatefulRedisConnection<String, String> stats = client.connect();
            for (String[] command : COMMANDS) {
                WireBenchmark.Result[] without = new WireBenchmark.Result[rounds];
                WireBenchmark.Result[] with = new WireBenchmark.Result[rounds];
                AtomicLong events = new AtomicLong();
                long infoMicros = 0;
                long openNanos = 0;
                for (int k = 0; k < rounds; k++) {
                    // which goes first alternates, so neither side always runs right after the other
                    if (k % 2 == 0) {
                        without[k] = WireBenchmark.run(benchmark, port, 16, requests, command, "1000000");
                    }
                    long micros = infoMicros(stats);
                    long opened = System.nanoTime();
                    Dashboard dashboard = Dashboard.open(http, consolePort, events);
                    try {
                        with[k] = WireBenchmark.run(benchmark, port, 16, requests, command, "1000000");
                    } finally {
                        dashboard.close();
                    }
                    openNanos += System.nanoTime() - opened;
                    infoMicros += infoMicros(stats) - micros;
                    if (k % 2 == 1) {
                        without[k] = WireBenchmark.run(benchmark, port, 16, requests, command, "1000000");
                    }
                }
                double a = WireBenchmark.Result.median(without).rps();
                double b = WireBenchmark.Result.median(with).rps();
                System.out.printf(Locale.ROOT, "%-40s %14.0f %14.0f %7.3f %8d %8.3f%%%n", String.join(" ", command), a, b, b / a, events.get(),
                        100.0 * infoMicros * 1000 / openNanos);
            }
            stats.close();
            client.shutdown();
        } finally {
            ordo.destroy();
            ordo.waitFor();
        }
    }

    /** The server's total time in INFO so far, in microseconds, from its own command statistics. */
    private static long infoMicros(StatefulRedisConnection<String, String> stats) {
        for (String line : stats.sync().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_info:")) {
                for (String field : line.substring("cmdstat_info:".length()).split(",")) {
                    if (field.startsWith("usec=")) {
                        return Long.parseLong(field.substring("usec=".length()));
                    }
                }
            }
        }
        return 0;
    }

    /** One dashboard's live feed: a thread reading the server-sent events until closed. */
    private record Dashboard(Thread reader, InputStream body) implements AutoCloseable {
        static Dashboard open(HttpClient http, int port, AtomicLong events) throws Exception {
            HttpResponse<InputStream> live = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/live")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            if (live.statusCode() != 200) {
                throw new IllegalStateException("the console's live feed answered " + live.statusCode());
            }
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(live.body(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.startsWith("data: ")) {
                            events.incrementAndGet();
                        }
                    }
                } catch (java.io.IOException closed) {
                    // the dashboard was closed
                }
            }, "dashboard");
            reader.setDaemon(true);
            reader.start();
            return new Dashboard(reader, live.body());
        }

        @Override
        public void close() throws java.io.IOException {
            body.close();
            try {
                reader.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
