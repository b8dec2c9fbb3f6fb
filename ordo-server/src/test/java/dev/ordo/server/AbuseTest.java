package dev.ordo.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every memory limit, tried against a server in its own JVM with a small heap (128 MB, and no
 * -XX:+ExitOnOutOfMemoryError: the limits alone must hold). After each abuse the server still
 * answers PING, and at the end every write it acknowledged is still there and its log has no
 * OutOfMemoryError. With a 128 MB heap the heap's implicit limits apply: data stops at 64 MB,
 * one client's pending input at 16 MB, all clients together at 32 MB (HeapBudget).
 *
 * <p>The abuses run in order on one server, as a hostile mix would arrive.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AbuseTest {
    private static final String OOM = "-OOM command not allowed when used memory > 'maxmemory'.\r\n";
    private static Path dir;
    private static Process server;
    private static int port;
    private static RawClient bystander;
    /** Members the writers got acknowledged, per key. */
    private static final long[] acknowledged = new long[2];

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ordo-abuse");
        port = freePort();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        server = new ProcessBuilder(java, "-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "dev.ordo.server.Main", "--port", String.valueOf(port), "--dir", dir.toString(), "--save", "")
                .redirectErrorStream(true).redirectOutput(dir.resolve("server.log").toFile()).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (bystander == null) {
            try {
                RawClient probe = new RawClient(port);
                assertThat(probe.call("PING")).isEqualTo("+PONG\r\n");
                bystander = probe;
            } catch (IOException e) {
                assertThat(server.isAlive()).as("server alive: %s", log()).isTrue();
                assertThat(System.nanoTime()).as("started within 60 s").isLessThan(deadline);
                Thread.sleep(50);
            }
        }
        for (int i = 0; i < 100; i++) {
            assertThat(bystander.call("SET", "kept:" + i, "value:" + i)).isEqualTo("+OK\r\n");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (bystander != null) {
            bystander.close();
        }
        server.destroy();
        server.waitFor(10, TimeUnit.SECONDS);
    }

    private static String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static void stillServing() throws IOException {
        assertThat(server.isAlive()).as("server alive: %s", log()).isTrue();
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
    }

    /**
     * Sends {@code start}, then {@code chunk} up to {@code times} times: the server must close
     * the connection part way, and go on serving.
     */
    private void abuseUntilClosed(String start, byte[] chunk, int times) throws IOException {
        try (RawClient abuser = new RawClient(port)) {
            abuser.send(start);
            try {
                for (int i = 0; i < times; i++) {
                    abuser.send(chunk);
                }
            } catch (IOException closedWhileSending) {
                // closed part way, as expected
            }
            assertThat(abuser.drainedUntilClosed(10_000)).isTrue();
        }
        stillServing();
    }

    @Test
    @Order(1)
    void manyEmptyArguments() throws IOException {
        abuseUntilClosed("*50000001\r\n$3\r\nDEL\r\n", "$0\r\n\r\n".repeat(100_000).getBytes(StandardCharsets.US_ASCII), 500);
    }

    @Test
    @Order(2)
    void oneHugeBulk() throws IOException {
        abuseUntilClosed("*3\r\n$3\r\nSET\r\n$4\r\nhuge\r\n$500000000\r\n", new byte[1 << 20], 500);
    }

    @Test
    @Order(3)
    void manyClientsHalfwayThroughLargeBulks() throws IOException {
        List<RawClient> clients = new ArrayList<>();
        try {
            for (int c = 0; c < 8; c++) {
                RawClient client = new RawClient(port);
                clients.add(client);
                client.send("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$15000000\r\n");
                try {
                    for (int i = 0; i < 14; i++) {
                        client.send(new byte[1 << 20]);
                    }
                } catch (IOException closedWhileSending) {
                    // evicted part way
                }
            }
            // Eight times 14 MB would be 112 MB of a 128 MB heap: client eviction keeps them under 32 MB.
            stillServing();
            long closed = 0;
            for (RawClient client : clients) {
                closed += client.drainedUntilClosed(200) ? 1 : 0;
            }
            assertThat(closed).isGreaterThanOrEqualTo(5);
        } finally {
            for (RawClient client : clients) {
                client.close();
            }
        }
        stillServing();
    }

    @Test
    @Order(4)
    void endlessTransaction() throws IOException {
        // 2,000,000 queued commands of about 150 bytes in memory each
        abuseUntilClosed("MULTI\r\n", RawClient.command("SET", "x", "y".repeat(100)).repeat(10_000).getBytes(StandardCharsets.US_ASCII), 200);
    }

    /** Two writers fill the data set to the limit: every ZADD is applied whole or refused, never half. */
    @Test
    @Order(5)
    void writersUntilTheLimit_everyZaddWholeOrRefused() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Long>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                writers.add(pool.submit(() -> fill("board:" + writer)));
            }
            for (int w = 0; w < 2; w++) {
                acknowledged[w] = writers.get(w).get(120, TimeUnit.SECONDS);
                assertThat(acknowledged[w]).isPositive();
                assertThat(bystander.call("ZCARD", "board:" + w)).isEqualTo(":" + acknowledged[w] + "\r\n");
            }
        } finally {
            pool.shutdownNow();
        }
        // Still at the limit: the writers' buffers, counted while they wrote, are freed now, which
        // may leave room for a little more, but a few batches at most (50,000 members is ~3 MB).
        assertThat(fill("board:more")).isLessThan(50_000);
        assertThat(bystander.call("SET", "one-more", "x".repeat(4 << 20))).isEqualTo(OOM);
        stillServing();
    }

    /** ZADDs of 1,000 new members until the OOM error; returns the members acknowledged. */
    private static long fill(String key) throws IOException {
        try (RawClient writer = new RawClient(port)) {
            long members = 0;
            for (int batch = 0; batch < 100_000; batch++) {
                List<String> args = new ArrayList<>(List.of("ZADD", key));
                for (int i = 0; i < 1000; i++) {
                    args.add(String.valueOf(batch * 1000 + i));
                    args.add(String.format("member:%09d", batch * 1000 + i));
                }
                String reply = writer.call(args.toArray(new String[0]));
                if (reply.equals(OOM)) {
                    return members;
                }
                assertThat(reply).isEqualTo(":1000\r\n");
                members += 1000;
            }
            throw new AssertionError("never reached the limit");
        }
    }

    @Test
    @Order(6)
    void slowReaders() throws IOException {
        List<RawClient> readers = new ArrayList<>();
        try {
            for (int r = 0; r < 4; r++) {
                RawClient reader = new RawClient(port);
                readers.add(reader);
                // 2,000 replies of about 270 KB (540 MB) each, never read.
                reader.send(RawClient.command("ZRANGE", "board:0", "0", "9999").repeat(2000));
            }
            for (int i = 0; i < 50; i++) {
                stillServing();
            }
            String info = bystander.call("INFO", "memory");
            long clients = Long.parseLong(info.replaceAll("(?s).*mem_clients_normal:(\\d+).*", "$1"));
            assertThat(clients).isLessThan(32L << 20);
        } finally {
            for (RawClient reader : readers) {
                reader.close();
            }
        }
        stillServing();
    }

    @Test
    @Order(7)
    void largeReplyToAReader_streamsWhole() throws IOException {
        String reply = bystander.call("ZRANGE", "board:1", "0", "-1");
        assertThat(reply).startsWith("*" + acknowledged[1] + "\r\n");
    }

    @Test
    @Order(8)
    void afterEverything_acknowledgedDataIsIntactAndNoOutOfMemoryError() throws IOException {
        stillServing();
        for (int i = 0; i < 100; i++) {
            assertThat(bystander.call("GET", "kept:" + i)).isEqualTo("$" + ("value:" + i).length() + "\r\nvalue:" + i + "\r\n");
        }
        for (int w = 0; w < 2; w++) {
            assertThat(bystander.call("ZCARD", "board:" + w)).isEqualTo(":" + acknowledged[w] + "\r\n");
        }
        assertThat(bystander.call("EXISTS", "huge", "k", "x")).isEqualTo(":0\r\n");
        assertThat(log()).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
        assertThat(log()).contains("Closing client that reached max query buffer length").contains("Evicting client");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
