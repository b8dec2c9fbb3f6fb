package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TrackingArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.support.caching.CacheAccessor;
import io.lettuce.core.support.caching.CacheFrontend;
import io.lettuce.core.support.caching.ClientSideCaching;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client-side caching (CLIENT TRACKING) over the wire, Ordo beside redis-server: one
 * conversation through every mode (default, BCAST with prefixes and NOLOOP, OPTIN and OPTOUT with
 * CLIENT CACHING, REDIRECT to a RESP2 subscriber, flushes, a redirect target that leaves, and the
 * errors of each option) must give both servers the same bytes, client ids aside; and Lettuce's
 * own ClientSideCaching must see a value change on both. A client reads an invalidation only
 * after the write that causes it has been answered, so the order is certain.
 */
class ClientTrackingOverWireTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    @Test
    void theSameConversationGetsTheSameBytesFromBothServers() throws Exception {
        assertThat(conversation(SERVERS.ordoPort())).containsExactlyElementsOf(conversation(SERVERS.redis().port()));
    }

    private List<String> conversation(int port) throws Exception {
        List<String> seen = new ArrayList<>();
        RawClient a = clients.open(port);
        RawClient c = clients.open(port);
        c.call("FLUSHALL");
        a.call("HELLO", "3");
        record(seen, a, "CLIENT", "TRACKINGINFO");
        record(seen, a, "CLIENT", "GETREDIR");
        record(seen, a, "CLIENT", "CACHING", "YES");
        record(seen, a, "CLIENT", "TRACKING", "ON", "PREFIX", "a");
        record(seen, a, "CLIENT", "TRACKING", "ON", "BCAST", "OPTIN");
        record(seen, a, "CLIENT", "TRACKING", "ON", "OPTIN", "OPTOUT");
        record(seen, a, "CLIENT", "TRACKING", "ON", "REDIRECT", "999999");
        record(seen, a, "CLIENT", "TRACKING", "MAYBE");
        // Default mode: a read key is invalidated once, on its next change; own writes too, after the reply.
        record(seen, a, "CLIENT", "TRACKING", "ON");
        record(seen, a, "CLIENT", "TRACKINGINFO");
        record(seen, a, "CLIENT", "GETREDIR");
        record(seen, a, "GET", "k");
        record(seen, a, "MGET", "k", "k2", "k3");
        record(seen, c, "SET", "k", "1");
        seen.add(a.reply());
        record(seen, c, "SET", "k", "2");
        record(seen, c, "DEL", "k2", "k3");
        record(seen, c, "SET", "k2", "x");
        seen.add(a.reply());
        record(seen, a, "GET", "k");
        record(seen, a, "SET", "k", "3");
        seen.add(a.reply());
        record(seen, a, "GET", "k");
        record(seen, a, "MULTI");
        record(seen, a, "SET", "k", "4");
        record(seen, a, "EXEC");
        seen.add(a.reply());
        record(seen, a, "GET", "k");
        record(seen, c, "FLUSHALL");
        seen.add(a.reply());
        record(seen, a, "CLIENT", "TRACKING", "ON", "BCAST");
        record(seen, a, "CLIENT", "TRACKING", "OFF");
        // BCAST: every change under a prefix, gathered per command and per prefix.
        record(seen, a, "CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a", "PREFIX", "b", "NOLOOP");
        record(seen, a, "CLIENT", "TRACKINGINFO");
        record(seen, a, "CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "ab");
        record(seen, c, "MSET", "ax", "1", "bx", "2", "cx", "3");
        seen.add(a.reply());
        seen.add(a.reply());
        record(seen, a, "SET", "ay", "1");
        record(seen, c, "EVAL", "redis.call('set', 'a1', '1') redis.call('set', 'a2', '1')", "0");
        seen.add(a.reply());
        record(seen, a, "CLIENT", "TRACKING", "OFF");
        record(seen, a, "CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "x", "PREFIX", "xy");
        // OPTIN: only the command after CLIENT CACHING YES is tracked.
        record(seen, a, "CLIENT", "TRACKING", "ON", "OPTIN");
        record(seen, a, "GET", "o1");
        record(seen, a, "CLIENT", "CACHING", "YES");
        record(seen, a, "CLIENT", "TRACKINGINFO");
        record(seen, a, "GET", "o2");
        record(seen, a, "GET", "o3");
        record(seen, c, "MSET", "o1", "1", "o2", "2", "o3", "3");
        seen.add(a.reply());
        record(seen, a, "CLIENT", "CACHING", "NO");
        record(seen, a, "CLIENT", "TRACKING", "ON", "OPTOUT");
        record(seen, a, "CLIENT", "TRACKING", "OFF");
        // OPTOUT: every command is, but the one after CLIENT CACHING NO.
        record(seen, a, "CLIENT", "TRACKING", "ON", "OPTOUT");
        record(seen, a, "CLIENT", "CACHING", "NO");
        record(seen, a, "GET", "p1");
        record(seen, a, "GET", "p2");
        record(seen, c, "MSET", "p1", "1", "p2", "2");
        seen.add(a.reply());
        record(seen, a, "CLIENT", "CACHING", "YES");
        record(seen, a, "CLIENT", "TRACKING", "OFF");
        // REDIRECT to a RESP2 subscriber of __redis__:invalidate; then the target leaves.
        RawClient b = clients.open(port);
        String bid = b.clientId();
        b.call("SUBSCRIBE", "__redis__:invalidate");
        RawClient d = clients.open(port);
        seen.add("REDIRECT <b> -> " + d.call("CLIENT", "TRACKING", "ON", "REDIRECT", bid));
        seen.add(d.call("CLIENT", "GETREDIR").replace(":" + bid + "\r\n", ":<b>\r\n"));
        record(seen, d, "GET", "r1");
        record(seen, c, "SET", "r1", "x");
        seen.add(b.reply());
        record(seen, d, "GET", "r1");
        record(seen, c, "FLUSHDB");
        seen.add(b.reply());
        b.close();
        waitUntilGone(c, bid);
        record(seen, d, "GET", "r1");
        record(seen, c, "SET", "r1", "y");
        seen.add(d.call("CLIENT", "TRACKINGINFO").replace(":" + bid + "\r\n", ":<b>\r\n"));
        seen.add(d.call("CLIENT", "TRACKING", "ON", "REDIRECT", bid));
        seen.add(clientFlags(c.call("CLIENT", "LIST", "ID", d.clientId())));
        return seen;
    }

    private static void record(List<String> seen, RawClient c, String... command) throws IOException {
        seen.add(String.join(" ", command) + " -> " + c.call(command));
    }

    private static String clientFlags(String line) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("flags=\\S+").matcher(line);
        return m.find() ? m.group() : line;
    }

    /** Waits (up to 10 s) until the server no longer lists the client {@code id}. */
    private static void waitUntilGone(RawClient admin, String id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (admin.call("CLIENT", "LIST", "ID", id).contains("id=" + id + " ") && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void theTrackingTableIsBoundedAndKeysPastTheLimitAreInvalidated(SideBySide.Target target) throws Exception {
        RawClient admin = clients.open(target.port());
        assertThat(admin.call("CONFIG", "SET", "tracking-table-max-keys", "10")).isEqualTo("+OK\r\n");
        try {
            RawClient reader = clients.open(target.port());
            reader.call("HELLO", "3");
            assertThat(reader.call("CLIENT", "TRACKING", "ON")).isEqualTo("+OK\r\n");
            String[] mget = new String[21];
            mget[0] = "MGET";
            for (int i = 1; i <= 20; i++) {
                mget[i] = "bounded:" + i;
            }
            assertThat(reader.call(mget)).startsWith("*20\r\n");
            for (int i = 0; i < 10; i++) {
                assertThat(reader.reply()).startsWith(">2\r\n$10\r\ninvalidate\r\n*1\r\n$").contains("bounded:");
            }
            assertThat(admin.call("INFO", "stats")).contains("\r\ntracking_total_keys:10\r\n");
            assertThat(reader.call("CLIENT", "TRACKING", "OFF")).isEqualTo("+OK\r\n");
        } finally {
            admin.call("CONFIG", "SET", "tracking-table-max-keys", "1000000");
            admin.call("FLUSHALL");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void lettuceClientSideCachingSeesAChangeMadeElsewhere(SideBySide.Target target) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + target.port());
        try (StatefulRedisConnection<String, String> cached = client.connect(); StatefulRedisConnection<String, String> other = client.connect()) {
            other.sync().set("cached:k", "v1");
            Map<String, String> local = new ConcurrentHashMap<>();
            CacheFrontend<String, String> frontend = ClientSideCaching.enable(CacheAccessor.forMap(local), cached,
                    TrackingArgs.Builder.enabled());
            assertThat(frontend.get("cached:k")).isEqualTo("v1");
            assertThat(local).containsEntry("cached:k", "v1");
            other.sync().set("cached:k", "v2");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (local.containsKey("cached:k") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(local).as("the invalidation removed the cached value").doesNotContainKey("cached:k");
            assertThat(frontend.get("cached:k")).isEqualTo("v2");
            frontend.close();
        } finally {
            client.shutdown();
        }
    }
}
