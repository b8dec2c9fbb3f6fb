package dev.ordo.bench;

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
 *       and then reads the weekly top 10 (GET). The load is wrk's ({@code apt-get install wrk}):
 *       {@code clients} keep-alive connections for the measured seconds after a warm-up;
 *       operations a second and each request's latency percentiles are printed.</li>
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

    /** What one load run measured: operations a second, and the median and 99th percentile of a request's latency. */
    private record Load(double opsPerSecond, double p50Ms, double p99Ms) {
    }

    /** One mode's figures. */
    private record Figures(String mode, double startedSeconds, double heapMiB, Load load) {
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
        int warmUp = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        List<Figures> rows = new ArrayList<>();
        try (RedisProcess redis = RedisProcess.start().orElseThrow(() -> new IllegalStateException("redis-server is not installed"))) {
            rows.add(run(jar, "embedded", List.of(), clients, seconds, warmUp));
            rows.add(run(jar, "redis (redis-server " + redis.port + ")",
                    List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port), clients, seconds, warmUp));
        }
        System.out.printf(Locale.ROOT, "%nSample leaderboard endpoint, %d clients, %d s measured after %d s warm-up, %d cores%n",
                clients, seconds, warmUp, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-34s %10s %12s %10s %14s %14s%n", "mode", "started s", "heap MiB", "ops/s", "request p50 ms",
                "request p99 ms");
        for (Figures f : rows) {
            System.out.printf(Locale.ROOT, "%-34s %10.2f %12.1f %10.0f %14.2f %14.2f%n", f.mode(), f.startedSeconds(), f.heapMiB(),
                    f.load().opsPerSecond(), f.load().p50Ms(), f.load().p99Ms());
        }
        Figures embedded = rows.get(0);
        Figures anchor = rows.get(1);
        System.out.printf(Locale.ROOT, "embedded / redis: throughput %.2fx; startup +%.2f s; heap after GC +%.1f MiB%n",
                embedded.load().opsPerSecond() / anchor.load().opsPerSecond(), embedded.startedSeconds() - anchor.startedSeconds(),
                embedded.heapMiB() - anchor.heapMiB());
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
            load(base, clients, warmUp);
            return new Figures(mode, started, heap, load(base, clients, seconds));
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

    /** The requests wrk sends on each connection: a POST adding a point, then the GET of the top 10, again and again. */
    private static final String WRK_SCRIPT = """
            local n = 0
            local users = tonumber(os.getenv("SAMPLE_USERS"))
            request = function()
              n = n + 1
              local user = "client-" .. (n %% users)
              if n %% 2 == 1 then
                return wrk.format("POST", "/api/game/players/player-" .. math.random(0, %d) .. "/points",
                  { ["Content-Type"] = "application/json", ["X-User"] = user }, '{"points": 1}')
              end
              return wrk.format("GET", "/api/game/boards/weekly/top?n=10", { ["X-User"] = user })
            end
            response = function(status, headers, body)
              if status ~= 200 then
                wrk.thread:stop()
                io.stderr:write("HTTP " .. status .. ": " .. body .. "\\n")
                os.exit(1)
              end
            end
            """.formatted(PLAYERS - 1);
    private static final Pattern REQUESTS = Pattern.compile("^\\s*(\\d+) requests in", Pattern.MULTILINE);
    private static final Pattern ERRORS = Pattern.compile("Non-2xx or 3xx responses|Socket errors");

    /**
     * Loads the application with wrk for {@code seconds}: {@code clients} keep-alive connections on
     * two wrk threads, each thread alternating the POST and the GET over its connections, so an operation is two
     * requests. wrk is C and event-driven: it leaves the two cores to the application (a Java
     * HttpClient with a thread per client took a large share of them, in both modes alike).
     */
    private static Load load(String base, int clients, int seconds) throws Exception {
        Path script = Files.createTempFile("ordo-sample", ".lua");
        try {
            Files.writeString(script, WRK_SCRIPT);
            ProcessBuilder builder = new ProcessBuilder("wrk", "-t", String.valueOf(Math.min(2, clients)), "-c", String.valueOf(clients), "-d", seconds + "s", "--latency",
                    "-s", script.toString(), base).redirectErrorStream(true);
            builder.environment().put("SAMPLE_USERS", String.valueOf(clients));
            Process wrk = builder.start();
            String out = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (wrk.waitFor() != 0 || ERRORS.matcher(out).find()) {
                throw new IllegalStateException("wrk failed:\n" + out);
            }
            Matcher requests = REQUESTS.matcher(out);
            if (!requests.find()) {
                throw new IllegalStateException("no request count in wrk's output:\n" + out);
            }
            return new Load(Long.parseLong(requests.group(1)) / 2.0 / seconds, latencyMs(out, "50"), latencyMs(out, "99"));
        } finally {
            Files.deleteIfExists(script);
        }
    }

    /** wrk's latency percentile {@code p} (one request), in milliseconds. */
    private static double latencyMs(String wrkOutput, String p) {
        Matcher m = Pattern.compile("^\\s*" + p + "%\\s+([0-9.]+)(us|ms|s)\\s*$", Pattern.MULTILINE).matcher(wrkOutput);
        if (!m.find()) {
            throw new IllegalStateException("no " + p + "% latency in wrk's output:\n" + wrkOutput);
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
    }

}
