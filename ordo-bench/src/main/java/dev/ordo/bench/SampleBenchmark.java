package dev.ordo.bench;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spring Boot sample ({@code ordo-samples}) in its two modes, side by side in one run: embedded
 * (Ordo in the application's JVM, the default) and redis (the same jar pointed at a redis-server
 * started here, as an application on Spring Data Redis is). For each it reports:
 * <ul>
 *   <li>startup: Spring Boot's own "Started ... in N seconds" (to a ready context), and the heap
 *       in use after a full GC ({@code jcmd GC.run}, then the JVM's heap figure from the actuator),
 *       so embedded mode's extra time and heap show beside the redis-mode anchor;</li>
 *   <li>the leaderboard endpoint under load: each operation adds points to a random one of 10,000
 *       players (POST, which writes the daily, weekly and all-time boards and returns the ranks)
 *       and then reads the weekly top 10 (GET); {@code clients} threads loop for the measured
 *       seconds after a warm-up, and throughput and latency percentiles are printed.</li>
 * </ul>
 * The API's rate limit stays on (every request still takes a permit, as in production) with a
 * limit no client reaches. Both applications get the same JVM flags. Usage:
 * {@code SampleBenchmark <ordo-samples.jar> [clients] [seconds] [warm-up seconds]}.
 */
public final class SampleBenchmark {
    private static final Pattern STARTED = Pattern.compile("Started SampleApplication in ([0-9.]+) seconds");
    private static final int PLAYERS = 10_000;

    private SampleBenchmark() {
    }

    /** One mode's figures. */
    private record Figures(String mode, double startedSeconds, double heapMiB, double opsPerSecond, Histogram latency) {
    }

    /**
     * Runs both modes and prints the table.
     *
     * @param args the sample jar, then optional clients, seconds and warm-up seconds
     * @throws Exception when a process cannot be started or measured
     */
    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]);
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        List<Figures> rows = new ArrayList<>();
        try (RedisProcess redis = RedisProcess.start().orElseThrow(() -> new IllegalStateException("redis-server is not installed"))) {
            rows.add(run(jar, "embedded", List.of(), clients, seconds, warmUp));
            rows.add(run(jar, "redis (redis-server " + redis.port + ")",
                    List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port), clients, seconds, warmUp));
        }
        System.out.printf(Locale.ROOT, "%nSample leaderboard endpoint, %d clients, %d s measured after %d s warm-up, %d cores%n",
                clients, seconds, warmUp, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-34s %10s %12s %10s %9s %9s %9s%n", "mode", "started s", "heap MiB", "ops/s", "p50 ms", "p99 ms",
                "p99.9 ms");
        for (Figures f : rows) {
            System.out.printf(Locale.ROOT, "%-34s %10.2f %12.1f %10.0f %9.2f %9.2f %9.2f%n", f.mode(), f.startedSeconds(), f.heapMiB(),
                    f.opsPerSecond(), ms(f.latency(), 50), ms(f.latency(), 99), ms(f.latency(), 99.9));
        }
        Figures embedded = rows.get(0);
        Figures anchor = rows.get(1);
        System.out.printf(Locale.ROOT, "embedded / redis: throughput %.2fx; startup +%.2f s; heap after GC +%.1f MiB%n",
                embedded.opsPerSecond() / anchor.opsPerSecond(), embedded.startedSeconds() - anchor.startedSeconds(),
                embedded.heapMiB() - anchor.heapMiB());
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e6;
    }

    private static Figures run(Path jar, String mode, List<String> extra, int clients, int seconds, int warmUp) throws Exception {
        int port = RedisProcess.freePort();
        List<String> command = new ArrayList<>(List.of("java", "-Xms512m", "-Xmx512m", "-XX:+UseParallelGC", "-jar", jar.toString(),
                "--server.port=" + port, "--ordo.rate-limits.api.limits=1000000000/1s", "--logging.level.root=WARN",
                "--logging.level.dev.ordo.samples=INFO", "--spring.main.banner-mode=off",
                "--management.endpoints.web.exposure.include=health,metrics"));
        command.addAll(extra);
        Path log = Files.createTempFile("ordo-sample", ".log");
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            double started = awaitStarted(app, log);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String base = "http://127.0.0.1:" + port;
            double heap = heapAfterGc(app, http, base);
            load(http, base, clients, warmUp, null);
            Histogram latency = new Histogram(3);
            long ops = load(http, base, clients, seconds, latency);
            return new Figures(mode, started, heap, ops / (double) seconds, latency);
        } finally {
            app.destroy();
            app.waitFor();
            Files.deleteIfExists(log);
        }
    }

    private static double awaitStarted(Process app, Path log) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!app.isAlive()) {
                throw new IllegalStateException("the sample exited: " + Files.readString(log));
            }
            Matcher m = STARTED.matcher(Files.readString(log));
            if (m.find()) {
                return Double.parseDouble(m.group(1));
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the sample did not start in 120 s: " + Files.readString(log));
    }

    /** Heap in use, in MiB, right after a full collection the benchmark asks the JVM for. */
    private static double heapAfterGc(Process app, HttpClient http, String base) throws Exception {
        Process gc = new ProcessBuilder("jcmd", String.valueOf(app.pid()), "GC.run").redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(gc.getInputStream(), StandardCharsets.UTF_8))) {
            out.lines().forEach(line -> { });
        }
        if (gc.waitFor() != 0) {
            throw new IllegalStateException("jcmd GC.run failed");
        }
        String json = http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/metrics/jvm.memory.used?tag=area:heap")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("\"value\"\\s*:\\s*([0-9.Ee+]+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no heap figure in " + json);
        }
        return Double.parseDouble(m.group(1)) / (1024 * 1024);
    }

    /** Runs the operation from {@code clients} threads for {@code seconds}; returns the operations done. */
    private static long load(HttpClient http, String base, int clients, int seconds, Histogram latency) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong ops = new AtomicLong();
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(clients);
        for (int c = 0; c < clients; c++) {
            Thread t = new Thread(() -> {
                Histogram mine = new Histogram(3);
                try {
                    HttpRequest top = HttpRequest.newBuilder(URI.create(base + "/api/game/boards/weekly/top?n=10"))
                            .header("X-User", Thread.currentThread().getName()).build();
                    while (!stop.get()) {
                        String player = "player-" + ThreadLocalRandom.current().nextInt(PLAYERS);
                        HttpRequest add = HttpRequest.newBuilder(URI.create(base + "/api/game/players/" + player + "/points"))
                                .header("X-User", Thread.currentThread().getName()).header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"points\": 1}")).build();
                        long start = System.nanoTime();
                        expectOk(http.send(add, HttpResponse.BodyHandlers.ofString()));
                        expectOk(http.send(top, HttpResponse.BodyHandlers.ofString()));
                        mine.recordValue(System.nanoTime() - start);
                        ops.incrementAndGet();
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                } finally {
                    if (latency != null) {
                        synchronized (latency) {
                            latency.add(mine);
                        }
                    }
                    done.countDown();
                }
            }, "client-" + c);
            t.start();
        }
        Thread.sleep(seconds * 1000L);
        long counted = ops.get();
        stop.set(true);
        done.await();
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a client failed", failures.get(0));
        }
        return counted;
    }

    private static void expectOk(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
        }
    }
}
