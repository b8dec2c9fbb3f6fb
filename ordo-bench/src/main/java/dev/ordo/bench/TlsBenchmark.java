package dev.ordo.bench;

import dev.ordo.server.tls.TestCertificates;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * ZSCORE and ZADD over TLS, Ordo beside redis-server configured the same way, in one run: each
 * serves TLS only ({@code --port 0 --tls-port N}) with the same certificate (EC P-256, made for
 * the run by the test fixture's {@link TestCertificates}), requires a client certificate
 * ({@code tls-auth-clients yes}) and gets the same 1,000,000-member set as {@link WireBenchmark}'s.
 * {@code redis-benchmark --tls} (50 clients, 200,000 requests, keep-alive, so a handshake per
 * client and then records) drives each command at {@code -P 1} and {@code -P 16} after one
 * unreported warm-up pass against both; each row is the median of {@code -Drounds} (3) rounds,
 * the servers alternating. Prints ops/s, the ratio Ordo / Redis and p99 for both, and which TLS
 * provider Ordo logged. {@code -Drequests}, {@code -Dwarmup} change the counts.
 *
 * <p>Run: {@code SUITE=tls ordo-bench/wire-benchmark.sh} (builds the jars first), or
 * {@code java -cp ordo-bench/target/benchmarks.jar dev.ordo.bench.TlsBenchmark ordo-server/bin/ordo-server [ordo JVM flags...]}:
 * Ordo starts as the README starts it (the launcher and its jvm.options).
 */
public final class TlsBenchmark {
    private static final String[][] COMMANDS = {
        {"ZSCORE", "bench", "m:__rand_int__"},
        {"ZADD", "bench", "__rand_int__", "m:__rand_int__"},
    };

    private TlsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: TlsBenchmark <ordo-server/bin/ordo-server | ordo-server.jar> [JVM flags for Ordo...]");
            System.exit(2);
        }
        String redisServer = WireBenchmark.require("redis-server");
        String benchmark = WireBenchmark.require("redis-benchmark");
        int requests = Integer.getInteger("requests", 200_000);
        int warmup = Integer.getInteger("warmup", requests);
        int rounds = Integer.getInteger("rounds", 3);
        Path dir = Files.createTempDirectory("ordo-tls-bench");
        TestCertificates ca = TestCertificates.authority(dir, "bench-ca");
        TestCertificates server = ca.server("bench-server");
        TestCertificates client = ca.client("bench-client");
        List<String> tls = List.of("--tls-cert-file", server.certFile().toString(), "--tls-key-file", server.keyFile().toString(),
                "--tls-ca-cert-file", ca.certFile().toString(), "--tls-auth-clients", "yes");
        int redisPort = WireBenchmark.freePort();
        int ordoPort = WireBenchmark.freePort();
        Path redisDir = Files.createDirectories(dir.resolve("redis"));
        Path ordoDir = Files.createDirectories(dir.resolve("ordo"));
        List<String> redisCmd = new ArrayList<>(List.of(redisServer, "--port", "0", "--tls-port", String.valueOf(redisPort), "--save", "",
                "--appendonly", "no", "--dir", redisDir.toString()));
        redisCmd.addAll(tls);
        List<String> ordoCmd = new ArrayList<>(WireBenchmark.ordoCommand(args[0], List.of(args).subList(1, args.length), 0, ordoDir));
        ordoCmd.addAll(List.of("--tls-port", String.valueOf(ordoPort)));
        ordoCmd.addAll(tls);
        Process redis = WireBenchmark.start(redisCmd, dir.resolve("redis.log"), redisPort);
        Process ordo;
        try {
            ordo = WireBenchmark.start(ordoCmd, dir.resolve("ordo.log"), ordoPort);
        } catch (Exception e) {
            redis.destroy();
            throw e;
        }
        try {
            System.out.printf(Locale.ROOT, "loading 1,000,000 members into each server over TLS ...%n");
            WireBenchmark.load(tlsClient(redisPort, ca, client), "redis-server");
            WireBenchmark.load(tlsClient(ordoPort, ca, client), "Ordo");
            Files.readAllLines(dir.resolve("ordo.log")).stream().filter(l -> l.contains(" provider")).forEach(l -> System.out.println("Ordo log: " + l));
            List<String> redisConn = connection(redisPort, ca, client);
            List<String> ordoConn = connection(ordoPort, ca, client);
            System.out.println("warming up (each command once against both servers, not reported) ...");
            for (String[] command : COMMANDS) {
                WireBenchmark.run(benchmark, redisConn, 16, warmup, command, "1000000");
                WireBenchmark.run(benchmark, ordoConn, 16, warmup, command, "1000000");
            }
            System.out.printf(Locale.ROOT, "TLS, median of %d rounds per row, servers alternating%n", rounds);
            System.out.printf(Locale.ROOT, "%-36s %3s %12s %12s %6s %10s %10s%n", "command", "-P", "Redis ops/s", "Ordo ops/s", "ratio",
                    "Redis p99", "Ordo p99");
            for (String[] command : COMMANDS) {
                for (int pipeline : new int[] {1, 16}) {
                    WireBenchmark.Result[] r = new WireBenchmark.Result[rounds];
                    WireBenchmark.Result[] o = new WireBenchmark.Result[rounds];
                    for (int k = 0; k < rounds; k++) {
                        r[k] = WireBenchmark.run(benchmark, redisConn, pipeline, requests, command, "1000000");
                        o[k] = WireBenchmark.run(benchmark, ordoConn, pipeline, requests, command, "1000000");
                        System.out.printf(Locale.ROOT, "  round %d %s -P %d: redis %.0f ops/s p99 %.3f ms, ordo %.0f ops/s p99 %.3f ms%n", k + 1,
                                command[0], pipeline, r[k].rps(), r[k].p99(), o[k].rps(), o[k].p99());
                    }
                    WireBenchmark.Result rm = WireBenchmark.Result.median(r);
                    WireBenchmark.Result om = WireBenchmark.Result.median(o);
                    System.out.printf(Locale.ROOT, "%-36s %3d %12.0f %12.0f %6.2f %8.3fms %8.3fms%n", String.join(" ", command), pipeline,
                            rm.rps(), om.rps(), om.rps() / rm.rps(), rm.p99(), om.p99());
                }
            }
        } finally {
            ordo.destroy();
            redis.destroy();
            ordo.waitFor();
            redis.waitFor();
        }
    }

    /** redis-benchmark's options to reach a TLS-only server on {@code port} with the client certificate. */
    private static List<String> connection(int port, TestCertificates ca, TestCertificates client) {
        return List.of("-h", "127.0.0.1", "-p", String.valueOf(port), "--tls", "--cacert", ca.certFile().toString(),
                "--cert", client.certFile().toString(), "--key", client.keyFile().toString());
    }

    private static RedisClient tlsClient(int port, TestCertificates ca, TestCertificates client) {
        RedisClient c = RedisClient.create(RedisURI.create("rediss://localhost:" + port));
        c.setOptions(ClientOptions.builder().sslOptions(SslOptions.builder().jdkSslProvider().trustManager(ca.certFile().toFile())
                .keyManager(client.certFile().toFile(), client.keyFile().toFile(), null).build()).build());
        return c;
    }
}
