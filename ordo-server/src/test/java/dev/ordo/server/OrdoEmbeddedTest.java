package dev.ordo.server;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.config.Config;
import io.lettuce.core.RedisClient;
import io.netty.channel.uring.IoUring;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Ordo}: the in-process client and a port on the same data, used by real Redis clients. */
class OrdoEmbeddedTest {

    @Test
    void embeddedClientAndNetworkClientsShareTheData() {
        try (Ordo ordo = Ordo.embedded()) {
            assertThat(ordo.client().call("ZADD", "board", "120", "alice")).isEqualTo(1L);
            int port = ordo.openPort(0);
            assertThat(port).isPositive();
            RedisClient lettuce = RedisClient.create(RedisURI.create("127.0.0.1", port));
            try (StatefulRedisConnection<String, String> connection = lettuce.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                assertThat(redis.ping()).isEqualTo("PONG");
                assertThat(redis.echo("hello from lettuce")).isEqualTo("hello from lettuce");
                assertThat(redis.zscore("board", "alice")).isEqualTo(120.0);
            } finally {
                lettuce.shutdown(0, 2, TimeUnit.SECONDS);
            }
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                assertThat(jedis.ping()).isEqualTo("PONG");
                assertThat(jedis.echo("hello from jedis")).isEqualTo("hello from jedis");
                assertThat(jedis.zadd("board", 95, "bob")).isEqualTo(1L);
            }
            assertThat(ordo.client().call("ZCARD", "board")).isEqualTo(2L);
        }
    }

    @Test
    void redisCliPingsThroughAProcess() throws Exception {
        File cli = findRedisCli();
        if (cli == null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("redis-cli is not installed, and CI=true requires it");
            }
            Assumptions.abort("redis-cli is not installed (not on PATH): skipping the redis-cli test");
        }
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            Process p = new ProcessBuilder(cli.getPath(), "-p", String.valueOf(port), "ping").redirectErrorStream(true).start();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("redis-cli finished").isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).isEqualTo("PONG\n");
            assertThat(p.exitValue()).isZero();
        }
    }

    private static File findRedisCli() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "redis-cli");
            if (f.canExecute()) {
                return f;
            }
        }
        return null;
    }

    @Test
    void shutdownOverTheNetworkClosesThePortButNotTheEngine() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            try (RawClient c = new RawClient(port)) {
                c.send("SHUTDOWN\r\n");
                assertThat(c.closedByServer()).isTrue();
            }
            awaitRefused(port);
            assertThat(ordo.client().call("PING")).isEqualTo("PONG");
        }
    }

    /**
     * Waits until connecting to {@code port} is refused. A connection reset on the way is the
     * listener closing with a connection still in its backlog: the port is going, so keep asking.
     */
    private static void awaitRefused(int port) {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                new Socket("127.0.0.1", port).close();
            } catch (ConnectException e) {
                return;
            } catch (SocketException e) {
                if (!String.valueOf(e.getMessage()).contains("Connection reset")) {
                    throw new AssertionError(e);
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("port " + port + " still accepts connections");
    }

    @Test
    void listensOnEveryBindAddressWithOnePort() throws IOException {
        Config config = new Config();
        config.set("bind", "127.0.0.1 127.0.0.2 -192.0.2.1", true);
        try (Ordo ordo = Ordo.embedded(config)) {
            int port = ordo.openPort(0);
            for (String host : new String[] {"127.0.0.1", "127.0.0.2"}) {
                try (Socket s = new Socket(host, port)) {
                    s.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                    assertThat(new String(s.getInputStream().readNBytes(7), StandardCharsets.US_ASCII)).isEqualTo("+PONG\r\n");
                }
            }
        }
    }

    /** {@code io-transport}: auto takes io_uring where the kernel offers it; INFO names the one in use. */
    @Test
    void ioTransport_isChosenByConfig_andShownByInfo() throws IOException {
        for (String transport : new String[] {"auto", "nio"}) {
            Config config = new Config();
            config.set("io-transport", transport, true);
            try (Ordo ordo = Ordo.embedded(config)) {
                try (RawClient c = new RawClient(ordo.openPort(0))) {
                    String expected = transport.equals("nio") || !IoUring.isAvailable() ? "nio" : "io_uring";
                    assertThat(c.call("INFO", "server")).as(transport).contains("multiplexing_api:" + expected + "\r\n");
                    assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
                }
            }
        }
        Config bad = new Config();
        assertThatThrownBy(() -> bad.set("io-transport", "epoll", true)).hasMessageContaining("io-transport");
    }

    @Test
    void severalIoThreadsShareOneEngine() throws Exception {
        Config config = new Config();
        config.set("io-threads", "2", true);
        try (Ordo ordo = Ordo.embedded(config)) {
            int port = ordo.openPort(0);
            List<RawClient> clients = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    clients.add(new RawClient(port).send("INCR counter\r\n".repeat(1000)));
                }
                for (RawClient c : clients) {
                    for (int i = 0; i < 1000; i++) {
                        assertThat(c.reply()).startsWith(":");
                    }
                }
            } finally {
                for (RawClient c : clients) {
                    c.close();
                }
            }
            assertThat(ordo.client().call("GET", "counter")).isEqualTo("4000".getBytes(StandardCharsets.US_ASCII));
        }
    }

    @Test
    void onePortPerInstance() {
        try (Ordo ordo = Ordo.embedded()) {
            ordo.openPort(0);
            assertThatThrownBy(() -> ordo.openPort(0)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aPortInUseFailsWithRedisMessage() {
        try (Ordo first = Ordo.embedded(); Ordo second = Ordo.embedded()) {
            int port = first.openPort(0);
            assertThatThrownBy(() -> second.openPort(port))
                    .hasMessageContaining("Could not create server TCP listening socket 127.0.0.1:" + port);
        }
    }

    @Test
    void openKeepsDataInItsDirectoryAcrossRestarts(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path data = dir.resolve("data");
        try (Ordo ordo = Ordo.open(data)) {
            ordo.client().call("ZADD", "board", "120", "alice", "95", "bob");
            ordo.client().call("ZINCRBY", "board", "60", "bob");
            ordo.client().call("SET", "token", "x", "PX", "600000");
        }
        assertThat(data.resolve("appendonlydir").resolve("appendonly.aof.manifest")).exists();
        try (Ordo ordo = Ordo.open(data)) {
            List<?> range = (List<?>) ordo.client().call("ZRANGE", "board", "0", "-1", "WITHSCORES");
            assertThat(range).extracting(b -> new String((byte[]) b, StandardCharsets.UTF_8)).containsExactly("alice", "120", "bob", "155");
            assertThat((Long) ordo.client().call("PTTL", "token")).isBetween(1L, 600_000L);
        }
    }

    /** The client ids of a CLIENT LIST reply, in the order listed. */
    private static List<Long> listedIds(String clientList) {
        List<Long> ids = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^(?:\\$\\d+\r\n)?id=(\\d+) ").matcher(clientList);
        while (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static long idOf(RawClient c) throws IOException {
        return Long.parseLong(c.call("CLIENT", "ID").substring(1).trim());
    }

    /** An embedded client's id, as it learns it itself. */
    private static long idOf(EmbeddedClient c) {
        return (Long) c.call("CLIENT", "ID");
    }

    @Test
    void clientList_embeddedClientsBeforeAndAfterOpenPort_listsEveryClientOnceInIdOrder() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            EmbeddedClient before = ordo.engine().connect();
            int port = ordo.openPort(0);
            try (RawClient network = new RawClient(port)) {
                long networkId = idOf(network);
                EmbeddedClient after = ordo.engine().connect();

                assertThat(listedIds(network.call("CLIENT", "LIST")))
                        .containsExactly(idOf(before), networkId, idOf(after));
                assertThat(listedIds(text(after.call("CLIENT", "LIST")))).containsExactly(idOf(before), networkId,
                        idOf(after));
                assertThat(network.call("INFO", "clients")).contains("\r\nconnected_clients:3\r\n");

                after.close();
                assertThat(listedIds(network.call("CLIENT", "LIST"))).containsExactly(idOf(before), networkId);
                before.close();
                assertThat(listedIds(network.call("CLIENT", "LIST"))).containsExactly(networkId);
            }
        }
    }

    @Test
    void clientListIdAndInfo_embeddedClientAfterOpenPort_describeTheSameClient() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            try (RawClient network = new RawClient(port)) {
                EmbeddedClient embedded = ordo.engine().connect();
                embedded.call("CLIENT", "SETNAME", "worker");
                embedded.call("SELECT", "4");
                String id = String.valueOf(idOf(embedded));

                String info = text(embedded.call("CLIENT", "INFO"));
                String listed = network.call("CLIENT", "LIST", "ID", id);

                assertThat(info).startsWith("id=" + id + " addr= laddr= fd=-1 name=worker ").contains(" db=4 ");
                assertThat(listed).contains("\r\nid=" + id + " addr= laddr= fd=-1 name=worker ").contains(" db=4 ");
                assertThat(info.substring(info.indexOf(" flags="), info.indexOf(" cmd=")))
                        .isEqualTo(listed.substring(listed.indexOf(" flags="), listed.indexOf(" cmd=")));
            }
        }
    }

    @Test
    void clientKillId_embeddedClientAfterOpenPort_endsItAndItsBlockedCall() throws Exception {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            try (RawClient network = new RawClient(port)) {
                EmbeddedClient embedded = ordo.engine().connect();
                long id = idOf(embedded);
                java.util.concurrent.CompletableFuture<Object> blocked =
                        java.util.concurrent.CompletableFuture.supplyAsync(() -> embedded.call("BZPOPMIN", "q", "0"));
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (ordo.engine().blockedClients() != 1 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertThat(ordo.engine().blockedClients()).isEqualTo(1);

                assertThat(network.call("CLIENT", "KILL", "ID", String.valueOf(id))).isEqualTo(":1\r\n");

                assertThatThrownBy(() -> blocked.get(5, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(IllegalStateException.class);
                assertThat(ordo.engine().blockedClients()).isZero();
                assertThat(embedded.isClosed()).isTrue();
                assertThatThrownBy(() -> embedded.call("PING")).isInstanceOf(IllegalStateException.class);
                assertThat(listedIds(network.call("CLIENT", "LIST"))).doesNotContain(id);
                assertThat(network.call("CLIENT", "KILL", "ID", String.valueOf(id))).isEqualTo(":0\r\n");
                network.call("ZADD", "q", "1", "kept");
                assertThat(network.call("ZCARD", "q")).isEqualTo(":1\r\n");
            }
        }
    }

    @Test
    void client_sharedClientKilled_isReplacedByANewOne() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            EmbeddedClient first = ordo.client();
            int port = ordo.openPort(0);
            try (RawClient network = new RawClient(port)) {
                assertThat(network.call("CLIENT", "KILL", "ID", String.valueOf(idOf(first)))).isEqualTo(":1\r\n");
            }
            assertThat(first.isClosed()).isTrue();
            assertThat(ordo.client()).isNotSameAs(first);
            assertThat(ordo.client().call("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void clientList_afterThePortCloses_stillListsEmbeddedClientsCreatedWhileItWasOpen() throws IOException {
        try (Ordo ordo = Ordo.embedded()) {
            int port = ordo.openPort(0);
            EmbeddedClient whileOpen = ordo.engine().connect();
            try (RawClient c = new RawClient(port)) {
                c.send("SHUTDOWN\r\n");
                assertThat(c.closedByServer()).isTrue();
            }
            awaitRefused(port);
            EmbeddedClient afterwards = ordo.engine().connect();

            assertThat(listedIds(text(afterwards.call("CLIENT", "LIST"))))
                    .containsExactly(idOf(whileOpen), idOf(afterwards));
        }
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) reply;
    }
}
