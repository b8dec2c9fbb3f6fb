package dev.ordo.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Ordo beside redis-server on the wire, in one run: both servers start on free loopback ports,
 * each gets the same 1,000,000-member sorted set ({@code m:000000000000} .. with score = number),
 * then {@code redis-benchmark} (50 clients, 300,000 requests, {@code -r 1000000}) drives each
 * sorted-set command at {@code -P 1} and {@code -P 16}, after one unreported warm-up pass of every
 * command against both (ten times as many requests, 3,000,000, so the JIT has compiled Ordo's hot
 * paths, as it would have in any server that has been up for a minute: a fresh server's LPUSH
 * climbs from 10,000 to 800,000 requests a second over about five seconds, and a warm-up of
 * 300,000 requests, under half a second, left some of that climb in the measured rounds). Each row is measured in five rounds,
 * alternating the servers (Redis, Ordo, Redis, Ordo ...), and shows the median of each figure:
 * one pass swings by 10 to 20% from run to run on a shared 2-core machine, for both servers alike,
 * and a -P 1 p99 by more (0.6 to 1.0 ms for the same server within minutes).
 * Prints one table (ops/s, ratio, p99 for both) and both servers' resident memory after the load.
 * {@code -Drequests}, {@code -Dwarmup} and {@code -Drounds} change the counts; {@code -Dpipelined}
 * sets the requests of the -P 16 rounds alone (by default as many), which at 300,000 last under
 * a second each, so that a longer round can average out a neighbour's burst on a shared machine.
 *
 * <p>With {@code -Dsuite=script} the table is instead EVALSHA of the seeds' sliding-window
 * limiter script (loaded into both servers with SCRIPT LOAD; key {@code rate:<random>} among a
 * million, a fixed {@code now}, window 60,000 ms, limit 100, a random request id), the
 * scripting issue's benchmark; no set is loaded then.
 *
 * <p>With {@code -Dsuite=list} each server instead gets a 1,000,000-element list ({@code blist},
 * 14-byte elements {@code e0000000000000} ..), the used_memory each server reports for it per
 * element is printed, and the table is LPUSH and RPOP on a work list, LRANGE 0 99 and LINDEX of
 * the middle of the big list.
 *
 * <p>Run: {@code ordo-bench/wire-benchmark.sh} (builds the jars first), or
 * {@code java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.WireBenchmark ordo-server/bin/ordo-server [ordo JVM flags...]}:
 * Ordo starts as the README starts it (the launcher and its jvm.options), the flags added after
 * them; given a jar instead of the launcher, it starts on a plain {@code java} with the flags only.
 */
public final class WireBenchmark {
    private static final int MEMBERS = 1_000_000;
    private static final String KEY = "bench";
    private static final String[][] COMMANDS = {
        {"ZADD", KEY, "__rand_int__", "m:__rand_int__"},
        {"ZINCRBY", KEY, "1", "m:__rand_int__"},
        {"ZSCORE", KEY, "m:__rand_int__"},
        {"ZREVRANK", KEY, "m:__rand_int__"},
        {"ZREVRANGE", KEY, "0", "9", "WITHSCORES"},
        {"ZRANGEBYSCORE", KEY, "__rand_int__", "+inf", "LIMIT", "0", "10"},
    };

    private static final String LIST_KEY = "blist";
    private static final String[][] LIST_COMMANDS = {
        {"LPUSH", "lwork", "e:__rand_int__"},
        {"RPOP", "lwork"},
        {"LRANGE", LIST_KEY, "0", "99"},
        {"LINDEX", LIST_KEY, String.valueOf(MEMBERS / 2)},
    };

    /** The seeds' sliding-window limiter (seed 000), byte for byte as users send it. */
    static final String SLIDING_WINDOW = """
            local key    = KEYS[1]
            local now    = tonumber(ARGV[1])
            local window = tonumber(ARGV[2])
            local limit  = tonumber(ARGV[3])
            redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
            if redis.call('ZCARD', key) < limit then
                redis.call('ZADD', key, now, ARGV[4])
                redis.call('PEXPIRE', key, window)
                return 1
            end
            return 0
            """;

    private WireBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: WireBenchmark <ordo-server/bin/ordo-server | ordo-server.jar> [JVM flags for Ordo...]");
            System.exit(2);
        }
        String redisServer = require("redis-server");
        String benchmark = require("redis-benchmark");
        List<String> ordoJvm = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            ordoJvm.add(args[i]);
        }
        int requests = Integer.getInteger("requests", 300_000);
        int warmup = Integer.getInteger("warmup", 10 * requests);
        int rounds = Integer.getInteger("rounds", 5);
        int pipelinedRequests = Integer.getInteger("pipelined", requests);
        int redisPort = freePort();
        int ordoPort = freePort();
        Path dir = Files.createTempDirectory("ordo-wire-bench");
        List<String> ordoCmd = ordoCommand(args[0], ordoJvm, ordoPort, dir);
        Process redis = start(List.of(redisServer, "--port", String.valueOf(redisPort), "--save", "", "--appendonly", "no",
                "--dir", dir.toString()), dir.resolve("redis.log"), redisPort);
        Process ordo;
        try {
            ordo = start(ordoCmd, dir.resolve("ordo.log"), ordoPort);
        } catch (Exception e) {
            redis.destroy(); // else a JVM flag Ordo refuses leaves redis-server running
            throw e;
        }
        if ("default".equals(System.getProperty("suite"))) {
            try {
                defaultSuite(benchmark, redisPort, ordoPort, Integer.getInteger("requests", 100_000), rounds);
            } finally {
                stop(ordo, redis);
            }
            return;
        }
        boolean scripts = "script".equals(System.getProperty("suite"));
        boolean lists = "list".equals(System.getProperty("suite"));
        String[][] commands = COMMANDS;
        try {
            if (lists) {
                commands = LIST_COMMANDS;
                System.out.printf(Locale.ROOT, "loading a %,d-element list into each server ...%n", MEMBERS);
                double redisPerElement = loadList(redisPort);
                double ordoPerElement = loadList(ordoPort);
                System.out.printf(Locale.ROOT, "used_memory per element: redis-server %.2f bytes, Ordo %.2f bytes (ratio %.3f)%n",
                        redisPerElement, ordoPerElement, ordoPerElement / redisPerElement);
            } else if (scripts) {
                String sha = scriptLoad(redisPort);
                if (!sha.equals(scriptLoad(ordoPort))) {
                    throw new IllegalStateException("the servers disagree on the script's SHA1");
                }
                commands = new String[][] {{"EVALSHA", sha, "1", "rate:__rand_int__", "1700000000000", "60000", "100", "__rand_int__"}};
            } else {
                System.out.printf(Locale.ROOT, "loading %,d members into each server ...%n", MEMBERS);
                load(redisPort);
                load(ordoPort);
            }
            long redisRss = rssKiB(redis.pid());
            long ordoRss = rssKiB(ordo.pid());
            System.out.printf(Locale.ROOT, "resident memory after load: redis-server %,d KiB, Ordo %,d KiB (ratio %.2f)%n%n", redisRss, ordoRss,
                    ordoRss / (double) redisRss);
            System.out.println("warming up (each command once against both servers, not reported) ...");
            for (String[] command : commands) {
                run(benchmark, redisPort, 16, warmup, command);
                run(benchmark, ordoPort, 16, warmup, command);
            }
            System.out.printf(Locale.ROOT, "median of %d rounds per row, servers alternating%n", rounds);
            System.out.printf(Locale.ROOT, "%-44s %3s %12s %12s %6s %10s %10s%n", "command", "-P", "Redis ops/s", "Ordo ops/s", "ratio",
                    "Redis p99", "Ordo p99");
            for (String[] command : commands) {
                for (int pipeline : new int[] {1, 16}) {
                    Result[] redisRounds = new Result[rounds];
                    Result[] ordoRounds = new Result[rounds];
                    int n = pipeline == 1 ? requests : pipelinedRequests;
                    for (int k = 0; k < rounds; k++) {
                        redisRounds[k] = run(benchmark, redisPort, pipeline, n, command);
                        ordoRounds[k] = run(benchmark, ordoPort, pipeline, n, command);
                    }
                    Result r = Result.median(redisRounds);
                    Result o = Result.median(ordoRounds);
                    String label = String.join(" ", command);
                    System.out.printf(Locale.ROOT, "%-44s %3d %12.0f %12.0f %6.2f %8.3fms %8.3fms%n",
                            label.length() > 44 ? label.substring(0, 41) + "..." : label, pipeline, r.rps,
                            o.rps, o.rps / r.rps, r.p99, o.p99);
                }
            }
            System.out.printf(Locale.ROOT, "%nresident memory at the end: redis-server %,d KiB, Ordo %,d KiB%n", rssKiB(redis.pid()),
                    rssKiB(ordo.pid()));
        } finally {
            stop(ordo, redis);
        }
    }

    private static void stop(Process ordo, Process redis) throws InterruptedException {
        ordo.destroy();
        redis.destroy();
        ordo.waitFor();
        redis.waitFor();
    }

    /**
     * redis-benchmark's default run (every test it has, in its order: PING, SET, GET, INCR, the
     * list, set, hash and sorted-set tests, LRANGE, MSET) against both servers, -P 1 and -P 16,
     * the servers alternating per round; prints each test's median ops/s and the ratio.
     */
    private static void defaultSuite(String benchmark, int redisPort, int ordoPort, int requests, int rounds) throws Exception {
        System.out.printf(Locale.ROOT, "redis-benchmark's default tests, -c 50 -n %,d, median of %d rounds%n", requests, rounds);
        System.out.printf(Locale.ROOT, "%-44s %3s %12s %12s %6s%n", "test", "-P", "Redis ops/s", "Ordo ops/s", "ratio");
        for (int pipeline : new int[] {1, 16}) {
            List<Map<String, Double>> redisRounds = new ArrayList<>();
            List<Map<String, Double>> ordoRounds = new ArrayList<>();
            for (int k = 0; k < rounds; k++) {
                redisRounds.add(runDefault(benchmark, redisPort, pipeline, requests));
                ordoRounds.add(runDefault(benchmark, ordoPort, pipeline, requests));
            }
            for (String test : redisRounds.get(0).keySet()) {
                double r = medianOf(redisRounds, test);
                double o = medianOf(ordoRounds, test);
                System.out.printf(Locale.ROOT, "%-44s %3d %12.0f %12.0f %6.2f%n", test, pipeline, r, o, o / r);
            }
        }
    }

    private static double medianOf(List<Map<String, Double>> rounds, String test) {
        double[] v = rounds.stream().mapToDouble(m -> m.getOrDefault(test, 0.0)).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    /** One default redis-benchmark run: each test's ops/s by name, in its order; a test it did not finish fails the run. */
    private static Map<String, Double> runDefault(String benchmark, int port, int pipeline, int requests) throws Exception {
        Process p = new ProcessBuilder(benchmark, "-h", "127.0.0.1", "-p", String.valueOf(port), "-c", "50", "-n",
                String.valueOf(requests), "-P", String.valueOf(pipeline), "--csv").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("redis-benchmark failed: " + output);
        }
        String[] lines = output.trim().split("\n");
        String[] header = csv(lines[0]);
        Map<String, Double> rps = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            String[] values = csv(lines[i]);
            rps.put(values[0], Double.parseDouble(values[indexOf(header, "rps")]));
        }
        if (rps.size() < 20) {
            throw new IOException("redis-benchmark finished " + rps.size() + " of its default tests: " + output);
        }
        return rps;
    }

    record Result(double rps, double p50, double p99) {
        /** The median throughput and, separately, the median p50 and p99 of some rounds. */
        static Result median(Result[] rounds) {
            return new Result(median(rounds, Result::rps), median(rounds, Result::p50), median(rounds, Result::p99));
        }

        private static double median(Result[] rounds, ToDoubleFunction<Result> figure) {
            double[] v = Arrays.stream(rounds).mapToDouble(figure).sorted().toArray();
            int n = v.length;
            return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }
    }

    /** Runs redis-benchmark for one command and parses its CSV line (rps, ..., p99_latency_ms, ...). */
    private static Result run(String benchmark, int port, int pipeline, int requests, String[] command) throws Exception {
        return run(benchmark, port, pipeline, requests, command, String.valueOf(MEMBERS));
    }

    /** Runs redis-benchmark with {@code __rand_int__} drawn below {@code range}. */
    static Result run(String benchmark, int port, int pipeline, int requests, String[] command, String range) throws Exception {
        return run(benchmark, List.of("-h", "127.0.0.1", "-p", String.valueOf(port)), pipeline, requests, command, range);
    }

    /** Runs redis-benchmark reaching the server through {@code connection} (host, port, TLS options). */
    static Result run(String benchmark, List<String> connection, int pipeline, int requests, String[] command, String range) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(benchmark));
        cmd.addAll(connection);
        cmd.addAll(List.of("-c", "50", "-n", String.valueOf(requests), "-P", String.valueOf(pipeline), "-r", range, "--csv"));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("redis-benchmark failed: " + output);
        }
        String[] lines = output.trim().split("\n");
        String[] header = csv(lines[0]);
        String[] values = csv(lines[lines.length - 1]);
        return new Result(Double.parseDouble(values[indexOf(header, "rps")]), Double.parseDouble(values[indexOf(header, "p50_latency_ms")]),
                Double.parseDouble(values[indexOf(header, "p99_latency_ms")]));
    }

    private static String[] csv(String line) {
        String[] parts = line.trim().split("\",\"");
        for (int i = 0; i < parts.length; i++) {
            parts[i] = parts[i].replace("\"", "");
        }
        return parts;
    }

    private static int indexOf(String[] header, String name) {
        for (int i = 0; i < header.length; i++) {
            if (header[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("redis-benchmark CSV has no " + name + " column");
    }

    /** ZADDs members m:000000000000 .. with score = their number, 1,000 per command. */
    static void load(int port) {
        load(RedisClient.create("redis://127.0.0.1:" + port), "port " + port);
    }

    /** As {@link #load(int)}, through {@code client}, which this shuts down. */
    static void load(RedisClient client, String server) {
        try (StatefulRedisConnection<byte[], byte[]> conn = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> cmd = conn.sync();
            byte[] key = KEY.getBytes(StandardCharsets.US_ASCII);
            int batch = 1000;
            for (int from = 0; from < MEMBERS; from += batch) {
                Object[] scoresAndMembers = new Object[2 * batch];
                for (int i = 0; i < batch; i++) {
                    scoresAndMembers[2 * i] = (double) (from + i);
                    scoresAndMembers[2 * i + 1] = String.format("m:%012d", from + i).getBytes(StandardCharsets.US_ASCII);
                }
                cmd.zadd(key, scoresAndMembers);
            }
            if (cmd.zcard(key) != MEMBERS) {
                throw new IllegalStateException("server on " + server + " holds " + cmd.zcard(key) + " members");
            }
        } finally {
            client.shutdown();
        }
    }

    /** RPUSHes the benchmark list; returns INFO's used_memory growth per element. */
    private static double loadList(int port) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
        try (StatefulRedisConnection<byte[], byte[]> conn = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> cmd = conn.sync();
            long before = usedMemory(cmd.info("memory"));
            byte[] key = LIST_KEY.getBytes(StandardCharsets.US_ASCII);
            int batch = 1000;
            for (int from = 0; from < MEMBERS; from += batch) {
                byte[][] elements = new byte[batch][];
                for (int i = 0; i < batch; i++) {
                    elements[i] = String.format("e%013d", from + i).getBytes(StandardCharsets.US_ASCII);
                }
                cmd.rpush(key, elements);
            }
            if (cmd.llen(key) != MEMBERS) {
                throw new IllegalStateException("server on port " + port + " holds " + cmd.llen(key) + " elements");
            }
            return (usedMemory(cmd.info("memory")) - before) / (double) MEMBERS;
        } finally {
            client.shutdown();
        }
    }

    private static long usedMemory(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }

    /** SCRIPT LOAD of the sliding-window script; returns its SHA1. */
    private static String scriptLoad(int port) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + port);
        try (StatefulRedisConnection<String, String> conn = client.connect()) {
            return conn.sync().scriptLoad(SLIDING_WINDOW);
        } finally {
            client.shutdown();
        }
    }

    private static long rssKiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** Starts {@code command}, its output to {@code log}, and waits up to 30 s until it accepts on {@code port}. */
    static Process start(List<String> command, Path log, int port) throws Exception {
        return start(command, log, port, 30);
    }

    /** Starts {@code command}, its output to {@code log}, and waits up to {@code seconds} until it accepts on {@code port}. */
    static Process start(List<String> command, Path log, int port, int seconds) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                new Socket("127.0.0.1", port).close();
                return p;
            } catch (IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(50);
            }
        }
        p.destroyForcibly();
        throw new IOException(command.get(0) + " did not start: " + Files.readString(log));
    }

    /**
     * The command line of an Ordo server persisting nothing and working in {@code dir} (an empty
     * directory of the benchmark's, as redis-server's is, so that it never loads a dump.rdb left
     * in the working directory). Started as the README does: {@code server} is the launcher
     * ({@code ordo-server/bin/ordo-server}, with its jvm.options), and {@code jvmFlags} go to
     * ORDO_JAVA_OPTS, after those options, so they win; or {@code server} is a jar, started with a
     * plain {@code java} and only {@code jvmFlags}.
     */
    static List<String> ordoCommand(String server, List<String> jvmFlags, int port, Path dir) {
        List<String> cmd = new ArrayList<>();
        if (server.endsWith(".jar")) {
            cmd.add(javaBinary());
            cmd.addAll(jvmFlags);
            cmd.addAll(List.of("-jar", server));
        } else {
            cmd.addAll(List.of("env", "ORDO_JAVA_OPTS=" + String.join(" ", jvmFlags), "JAVA_HOME=" + System.getProperty("java.home"), server));
        }
        cmd.addAll(List.of("--port", String.valueOf(port), "--save", "", "--appendonly", "no", "--dir", dir.toString()));
        return cmd;
    }

    /** The java launcher of this JVM. */
    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static String require(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        throw new IllegalStateException(name + " is not installed (apt-get install redis-server)");
    }

    /** A command as a RESP multibulk frame. */
    static byte[] resp(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A loopback port free at the moment of asking. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
