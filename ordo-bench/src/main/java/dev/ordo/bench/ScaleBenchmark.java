package dev.ordo.bench;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.Engine;
import dev.ordo.engine.config.Config;
import org.HdrHistogram.Histogram;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One very large board, Ordo beside redis-server in one run: {@code -Dmembers} (50,000,000 by
 * default) members named {@code m:000000000000} .. (14 bytes, so that redis-benchmark's
 * {@code m:__rand_int__} names them) with seeded random scores, in one sorted set.
 *
 * <ol>
 *   <li><b>Load</b> over the wire into both servers (ZADD of 1,000 members per command,
 *       pipelined from one connection), and into an embedded engine in this JVM; the time each
 *       took, and each server's resident memory afterwards.</li>
 *   <li><b>Operations</b> with redis-benchmark, 50 clients, {@code -P 1}, rounds alternating the
 *       servers, the median of each figure: ZADD of an existing member, ZINCRBY, ZREVRANK,
 *       ZSCORE, the top 100 (ZREVRANGE 0 99 WITHSCORES) and the around-me window of 21 (a script:
 *       ZREVRANK, then ZREVRANGE from ten above to ten below); ops/s, p50 and p99. The same
 *       operations embedded, one thread, timed per call.</li>
 *   <li><b>Snapshot</b>: SAVE on each server (its time and the file's size), then each restarted
 *       on its file: the load time each logs.</li>
 * </ol>
 *
 * <p>Ordo starts as the README starts it (the launcher; JVM flags given here go to
 * ORDO_JAVA_OPTS). Run: {@code ordo-bench/scale-benchmark.sh} (50M; about 30 minutes and 12 GB),
 * {@code MEMBERS=10000000 ordo-bench/scale-benchmark.sh} for 10M.
 */
public final class ScaleBenchmark {
    private static final String KEY = "board";
    private static final int BATCH = 1000;
    private static final String AROUND = """
            local r = redis.call('ZREVRANK', KEYS[1], ARGV[1])
            if not r then return {} end
            local from = r - 10
            if from < 0 then from = 0 end
            return redis.call('ZREVRANGE', KEYS[1], from, r + 10, 'WITHSCORES')
            """;

    private ScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ScaleBenchmark <ordo-server/bin/ordo-server> [JVM flags for Ordo...]");
            System.exit(2);
        }
        long members = Long.getLong("members", 50_000_000L);
        int requests = Integer.getInteger("requests", 200_000);
        int rounds = Integer.getInteger("rounds", 3);
        boolean embedded = Boolean.parseBoolean(System.getProperty("embedded", "true"));
        boolean snapshotOnly = "snapshot".equals(System.getProperty("phases"));
        String benchmark = WireBenchmark.require("redis-benchmark");
        List<String> ordoJvm = List.of(args).subList(1, args.length);
        Path root = Files.createTempDirectory("ordo-scale");
        Path redisDir = Files.createDirectories(root.resolve("redis"));
        Path ordoDir = Files.createDirectories(root.resolve("ordo"));
        int redisPort = WireBenchmark.freePort();
        int ordoPort = WireBenchmark.freePort();
        System.out.printf(Locale.ROOT, "%,d members of 14 bytes, random scores, in one sorted set; working in %s%n", members, root);
        if (snapshotOnly) {
            snapshotOnly(args[0], ordoJvm, redisDir, ordoDir, redisPort, ordoPort, members);
            return;
        }
        Process redis = startRedis(redisDir, redisPort);
        Process ordo = startOrdo(args[0], ordoJvm, ordoDir, ordoPort);
        try {
            settle();
            System.out.printf(Locale.ROOT, "%nidle resident memory: redis-server %,d KiB, Ordo %,d KiB%n", rss(redis), rss(ordo));
            System.out.println("\nload (ZADD of 1,000 members per command, pipelined from one connection)");
            double redisLoad = load(redisPort, members);
            double ordoLoad = load(ordoPort, members);
            settle();
            long redisRss = rss(redis);
            long ordoRss = rss(ordo);
            System.out.printf(Locale.ROOT, "  redis-server %8.1f s   resident %,12d KiB%n", redisLoad, redisRss);
            System.out.printf(Locale.ROOT, "  Ordo         %8.1f s   resident %,12d KiB   ratio %.2f%n", ordoLoad, ordoRss,
                    ordoRss / (double) redisRss);

            String sha = scriptLoad(redisPort);
            if (!sha.equals(scriptLoad(ordoPort))) {
                throw new IllegalStateException("the servers disagree on the script's SHA1");
            }
            String range = String.valueOf(members);
            String[][] commands = {
                {"ZADD", KEY, "__rand_int__", "m:__rand_int__"},
                {"ZINCRBY", KEY, "1", "m:__rand_int__"},
                {"ZREVRANK", KEY, "m:__rand_int__"},
                {"ZSCORE", KEY, "m:__rand_int__"},
                {"ZREVRANGE", KEY, "0", "99", "WITHSCORES"},
                {"EVALSHA", sha, "1", KEY, "m:__rand_int__"},
            };
            String[] labels = {"ZADD (update)", "ZINCRBY", "ZREVRANK", "ZSCORE", "top 100", "around-me 21"};
            System.out.printf(Locale.ROOT, "%nwire, redis-benchmark -c 50 -P 1 -n %,d -r %s, median of %d rounds, servers alternating%n",
                    requests, range, rounds);
            System.out.printf(Locale.ROOT, "  %-14s %11s %11s %6s %9s %9s %9s %9s%n", "op", "Redis ops/s", "Ordo ops/s", "ratio",
                    "Redis p50", "Ordo p50", "Redis p99", "Ordo p99");
            for (int c = 0; c < commands.length; c++) {
                WireBenchmark.run(benchmark, redisPort, 1, requests / 4, commands[c], range); // warm-up, not reported
                WireBenchmark.run(benchmark, ordoPort, 1, requests / 4, commands[c], range);
                List<WireBenchmark.Result> r = new ArrayList<>();
                List<WireBenchmark.Result> o = new ArrayList<>();
                for (int k = 0; k < rounds; k++) {
                    r.add(WireBenchmark.run(benchmark, redisPort, 1, requests, commands[c], range));
                    o.add(WireBenchmark.run(benchmark, ordoPort, 1, requests, commands[c], range));
                }
                WireBenchmark.Result rm = WireBenchmark.Result.median(r.toArray(new WireBenchmark.Result[0]));
                WireBenchmark.Result om = WireBenchmark.Result.median(o.toArray(new WireBenchmark.Result[0]));
                System.out.printf(Locale.ROOT, "  %-14s %11.0f %11.0f %6.2f %7.3fms %7.3fms %7.3fms %7.3fms%n", labels[c], rm.rps(),
                        om.rps(), om.rps() / rm.rps(), rm.p50(), om.p50(), rm.p99(), om.p99());
            }

            Process[] restarted = snapshot(args[0], ordoJvm, redis, ordo, redisDir, ordoDir, redisPort, ordoPort, members);
            redis = restarted[0];
            ordo = restarted[1];
        } finally {
            stop(redis, redisPort);
            stop(ordo, ordoPort);
        }
        if (embedded) {
            embedded(members);
        }
    }

    /**
     * SAVE on both (timed), then both restarted on their files: the load time each logs, and the
     * resident memory after it. Returns the restarted servers.
     */
    private static Process[] snapshot(String launcher, List<String> ordoJvm, Process redis, Process ordo, Path redisDir, Path ordoDir,
                                      int redisPort, int ordoPort, long members) throws Exception {
        System.out.println("\nsnapshot (SAVE three times, servers alternating, the median; then a restart that loads the file)");
        double[] redisSaves = new double[3];
        double[] ordoSaves = new double[3];
        for (int k = 0; k < 3; k++) {
            redisSaves[k] = save(redisPort);
            ordoSaves[k] = save(ordoPort);
        }
        Arrays.sort(redisSaves);
        Arrays.sort(ordoSaves);
        double redisSave = redisSaves[1];
        double ordoSave = ordoSaves[1];
        long redisSize = Files.size(redisDir.resolve("dump.rdb"));
        long ordoSize = Files.size(ordoDir.resolve("dump.rdb"));
        stop(redis, redisPort);
        stop(ordo, ordoPort);
        Files.deleteIfExists(redisDir.resolve("redis.log")); // its load line must be this start's
        redis = startRedis(redisDir, redisPort);
        double redisLoadRdb = loadedSeconds(redisDir.resolve("redis.log"));
        ordo = startOrdo(launcher, ordoJvm, ordoDir, ordoPort);
        double ordoLoadRdb = loadedSeconds(ordoDir.resolve("ordo.log"));
        requireCard(redisPort, members);
        requireCard(ordoPort, members);
        settle();
        System.out.printf(Locale.ROOT, "  %-13s %8s %10s %8s %14s%n", "", "save (s)", "size (MB)", "load (s)", "resident (KiB)");
        System.out.printf(Locale.ROOT, "  %-13s %8.1f %10.1f %8.1f %,14d%n", "redis-server", redisSave, redisSize / 1048576.0,
                redisLoadRdb, rss(redis));
        System.out.printf(Locale.ROOT, "  %-13s %8.1f %10.1f %8.1f %,14d%n", "Ordo", ordoSave, ordoSize / 1048576.0, ordoLoadRdb,
                rss(ordo));
        return new Process[] {redis, ordo};
    }

    /**
     * {@code -Dphases=snapshot}: the snapshot figures alone, without the slow part of a full run
     * (redis-server takes minutes to take 50M random members by ZADD): Ordo is loaded over the
     * wire, and redis-server starts on a copy of the snapshot Ordo saved (Redis reads Ordo's RDB),
     * then each saves and reloads its own.
     */
    private static void snapshotOnly(String launcher, List<String> ordoJvm, Path redisDir, Path ordoDir, int redisPort, int ordoPort,
                                     long members) throws Exception {
        Process ordo = startOrdo(launcher, ordoJvm, ordoDir, ordoPort);
        Process redis = null;
        try {
            System.out.printf(Locale.ROOT, "loading Ordo over the wire: %.1f s%n", load(ordoPort, members));
            save(ordoPort);
            Files.copy(ordoDir.resolve("dump.rdb"), redisDir.resolve("dump.rdb"));
            redis = startRedis(redisDir, redisPort);
            loadedSeconds(redisDir.resolve("redis.log"));
            requireCard(redisPort, members);
            Process[] restarted = snapshot(launcher, ordoJvm, redis, ordo, redisDir, ordoDir, redisPort, ordoPort, members);
            redis = restarted[0];
            ordo = restarted[1];
        } finally {
            if (redis != null) {
                stop(redis, redisPort);
            }
            stop(ordo, ordoPort);
        }
    }

    private static Process startRedis(Path dir, int port) throws Exception {
        return WireBenchmark.start(List.of(WireBenchmark.require("redis-server"), "--port", String.valueOf(port), "--save", "",
                "--appendonly", "no", "--dir", dir.toString(), "--logfile", dir.resolve("redis.log").toString()),
                dir.resolve("redis.out"), port);
    }

    private static Process startOrdo(String launcher, List<String> jvm, Path dir, int port) throws Exception {
        // Ordo loads its snapshot before it listens: wait as long as a large one takes.
        return WireBenchmark.start(WireBenchmark.ordoCommand(launcher, jvm, port, dir), dir.resolve("ordo.log"), port, 3600);
    }

    /** Waits until the server answers PING (not LOADING) and returns the load time it logged. */
    private static double loadedSeconds(Path log) throws Exception {
        for (int i = 0; i < 36_000; i++) {
            String text = Files.exists(log) ? Files.readString(log) : "";
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("DB loaded from disk: ([0-9.]+) seconds").matcher(text);
            if (m.find()) {
                return Double.parseDouble(m.group(1));
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no load line in " + log);
    }

    /** Sends ZADD batches covering members 0..n-1 with seeded random scores; returns the seconds until the last reply. */
    private static double load(int port, long n) throws Exception {
        long start = System.nanoTime();
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setTcpNoDelay(true);
            long batches = (n + BATCH - 1) / BATCH;
            Thread reader = new Thread(() -> readReplies(s, batches), "load-replies");
            reader.start();
            OutputStream out = new java.io.BufferedOutputStream(s.getOutputStream(), 1 << 16);
            SplittableRandom random = new SplittableRandom(42);
            byte[] member = "m:000000000000".getBytes(StandardCharsets.US_ASCII);
            for (long from = 0; from < n; from += BATCH) {
                int count = (int) Math.min(BATCH, n - from);
                out.write(("*" + (2 + 2 * count) + "\r\n$4\r\nZADD\r\n$" + KEY.length() + "\r\n" + KEY + "\r\n").getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < count; i++) {
                    byte[] score = Double.toString(random.nextDouble() * 1e9).getBytes(StandardCharsets.US_ASCII);
                    out.write(("$" + score.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(score);
                    writeMemberName(member, from + i);
                    out.write("\r\n$14\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.write(member);
                    out.write('\r');
                    out.write('\n');
                }
            }
            out.flush();
            reader.join();
        }
        requireCard(port, n);
        return (System.nanoTime() - start) / 1e9;
    }

    private static void writeMemberName(byte[] member, long number) {
        long v = number;
        for (int i = member.length - 1; i >= 2; i--) {
            member[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
    }

    private static void readReplies(Socket s, long replies) {
        try {
            InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
            for (long r = 0; r < replies; r++) {
                int first = in.read();
                String line = line(in);
                if (first != ':') {
                    throw new IllegalStateException("ZADD answered " + (char) first + line);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String call(int port, String... args) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write(WireBenchmark.resp(args));
            InputStream in = new BufferedInputStream(s.getInputStream());
            int first = in.read();
            String line = line(in);
            if (first == '$') {
                byte[] body = in.readNBytes(Integer.parseInt(line));
                return new String(body, StandardCharsets.UTF_8);
            }
            if (first == '-') {
                throw new IllegalStateException(String.join(" ", args) + ": " + line);
            }
            return line;
        }
    }

    /** The rest of a reply line, without its CR LF; throws at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\r') {
            if (b < 0) {
                throw new java.io.EOFException("connection closed");
            }
            line.append((char) b);
        }
        in.read();
        return line.toString();
    }

    private static void requireCard(int port, long n) throws IOException {
        String card = call(port, "ZCARD", KEY);
        if (!card.equals(String.valueOf(n))) {
            throw new IllegalStateException("server on port " + port + " holds " + card + " members, not " + n);
        }
    }

    private static String scriptLoad(int port) throws IOException {
        return call(port, "SCRIPT", "LOAD", AROUND);
    }

    private static double save(int port) throws IOException {
        long start = System.nanoTime();
        call(port, "SAVE");
        return (System.nanoTime() - start) / 1e9;
    }

    private static void stop(Process p, int port) throws InterruptedException {
        if (p.isAlive()) {
            try {
                call(port, "SHUTDOWN", "NOSAVE");
            } catch (IOException | RuntimeException e) {
                p.destroy();
            }
            p.waitFor(60, TimeUnit.SECONDS);
        }
    }

    /**
     * Resident memory is read at rest, as a server holding the data sits between bursts: five
     * seconds after the last request, the same for both servers (a JVM returns freed native
     * memory on a timer, and a just-started one is still compiling).
     */
    private static void settle() throws InterruptedException {
        Thread.sleep(5000);
    }

    private static long rss(Process p) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(p.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /** The same board in an engine in this JVM: load time, then each operation from one thread, timed per call. */
    private static void embedded(long members) {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engine-timers");
            t.setDaemon(true);
            return t;
        });
        Engine engine = new Engine(new Config(), System::currentTimeMillis, (task, delay) -> {
            var f = timers.schedule(task, delay, TimeUnit.MILLISECONDS);
            return () -> f.cancel(false);
        });
        EmbeddedClient client = engine.connect();
        System.out.println("\nembedded (this JVM, one thread)");
        long start = System.nanoTime();
        SplittableRandom random = new SplittableRandom(42);
        byte[] key = KEY.getBytes(StandardCharsets.US_ASCII);
        for (long from = 0; from < members; from += BATCH) {
            int count = (int) Math.min(BATCH, members - from);
            byte[][] args = new byte[2 + 2 * count][];
            args[0] = "ZADD".getBytes(StandardCharsets.US_ASCII);
            args[1] = key;
            for (int i = 0; i < count; i++) {
                args[2 + 2 * i] = Double.toString(random.nextDouble() * 1e9).getBytes(StandardCharsets.US_ASCII);
                args[3 + 2 * i] = String.format("m:%012d", from + i).getBytes(StandardCharsets.US_ASCII);
            }
            client.call(args);
        }
        double loadSeconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "  load %.1f s; MEMORY USAGE %,d bytes (%.1f per member)%n", loadSeconds,
                (Long) client.call("MEMORY", "USAGE", KEY), (Long) client.call("MEMORY", "USAGE", KEY) / (double) members);
        int calls = Integer.getInteger("embeddedCalls", 1_000_000);
        System.out.printf(Locale.ROOT, "  %-14s %11s %9s %9s%n", "op", "ops/s", "p50", "p99");
        SplittableRandom pick = new SplittableRandom(7);
        String[] labels = {"ZADD (update)", "ZINCRBY", "ZREVRANK", "ZSCORE", "top 100", "around-me 21"};
        for (int op = 0; op < labels.length; op++) {
            Histogram h = new Histogram(3);
            long total = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                String m = String.format("m:%012d", pick.nextLong(members));
                long t0 = System.nanoTime();
                switch (op) {
                    case 0 -> client.call("ZADD", KEY, String.valueOf(pick.nextLong(members)), m);
                    case 1 -> client.call("ZINCRBY", KEY, "1", m);
                    case 2 -> client.call("ZREVRANK", KEY, m);
                    case 3 -> client.call("ZSCORE", KEY, m);
                    case 4 -> client.call("ZREVRANGE", KEY, "0", "99", "WITHSCORES");
                    default -> {
                        long r = (Long) client.call("ZREVRANK", KEY, m);
                        client.call("ZREVRANGE", KEY, String.valueOf(Math.max(0, r - 10)), String.valueOf(r + 10), "WITHSCORES");
                    }
                }
                h.recordValue(System.nanoTime() - t0);
            }
            double seconds = (System.nanoTime() - total) / 1e9;
            System.out.printf(Locale.ROOT, "  %-14s %11.0f %7.3fus %7.3fus%n", labels[op], calls / seconds,
                    h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0);
        }
        engine.close();
        timers.shutdownNow();
    }

    /** Splits a command for display. */
    static String describe(String[] command) {
        return String.join(" ", Arrays.asList(command));
    }
}
