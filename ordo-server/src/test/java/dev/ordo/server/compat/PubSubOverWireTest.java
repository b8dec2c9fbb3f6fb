package dev.ordo.server.compat;

import dev.ordo.server.RawClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publish/subscribe over the wire, against an Ordo server and a real {@code redis-server}: the
 * same conversation (subscribers in RESP2 and RESP3, publishers, PUBSUB, scripts, ACL channel
 * rules) must give both servers the same bytes, recorded reply by reply and compared whole. A
 * subscriber reads a message only after its publisher's reply, so the order is certain.
 *
 * <p>One behaviour follows Redis 7.2 rather than the 7.0 server here: a message a client
 * publishes to itself comes after its command's reply (7.0 writes it inside EXEC's array).
 */
class PubSubOverWireTest {
    private static final Pattern TOT_MEM = Pattern.compile(" tot-mem=(\\d+) ");

    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();
    @RegisterExtension
    final OpenClients clients = new OpenClients();

    static List<SideBySide.Target> servers() {
        return SERVERS.targets();
    }

    @Test
    void theSameConversationGetsTheSameBytesFromBothServers() throws Exception {
        List<String> ordo = conversation(SERVERS.ordoPort());
        List<String> redis = conversation(SERVERS.redis().port());
        assertThat(ordo).containsExactlyElementsOf(redis);
    }

    /** Every reply and message of one scripted conversation with the server on {@code port}. */
    private List<String> conversation(int port) throws Exception {
        List<String> seen = new ArrayList<>();
        RawClient admin = clients.open(port);
        admin.call("FLUSHALL");
        RawClient sub = clients.open(port);
        RawClient pub = clients.open(port);
        String subId = sub.clientId();
        long[] countsBefore = pubsubCounts(pub);
        record(seen, sub, "SUBSCRIBE", "a", "b", "a");
        seen.add(sub.reply());
        seen.add(sub.reply());
        record(seen, sub, "PSUBSCRIBE", "a*");
        record(seen, sub, "GET", "x");
        record(seen, sub, "MULTI");
        record(seen, sub, "PING");
        record(seen, sub, "PING", "z");
        record(seen, pub, "PUBLISH", "a", "m");
        seen.add(sub.reply());
        seen.add(sub.reply());
        record(seen, pub, "PUBLISH", "ab", "only the pattern");
        seen.add(sub.reply());
        record(seen, pub, "PUBLISH", "nobody", "x");
        record(seen, pub, "PUBSUB", "NUMSUB", "a", "b", "c");
        record(seen, pub, "PUBSUB", "NUMSUB");
        record(seen, pub, "PUBSUB", "NUMPAT");
        record(seen, pub, "PUBSUB", "CHANNELS", "b*");
        record(seen, pub, "PUBSUB", "CHANNELS", "x", "y");
        record(seen, pub, "PUBSUB", "NUMPAT", "x");
        record(seen, pub, "PUBSUB", "NOSUCH");
        record(seen, sub, "PUNSUBSCRIBE", "zz");
        record(seen, sub, "SSUBSCRIBE", "s1", "s2");
        seen.add(sub.reply());
        record(seen, pub, "SPUBLISH", "s1", "q");
        seen.add(sub.reply());
        record(seen, pub, "PUBSUB", "SHARDNUMSUB", "s1", "s3");
        record(seen, pub, "PUBSUB", "SHARDCHANNELS", "s2");
        seen.add(clientLine(pub.call("CLIENT", "LIST", "ID", subId)));
        long[] counts = pubsubCounts(pub);
        seen.add("pubsub_channels +" + (counts[0] - countsBefore[0]) + ", pubsub_patterns +" + (counts[1] - countsBefore[1])
                + ", pubsubshard_channels +" + (counts[2] - countsBefore[2]));
        record(seen, sub, "UNSUBSCRIBE", "a", "nosuch");
        seen.add(sub.reply());
        // Unsubscribing from all goes in an unspecified order (Redis walks a hash table with a
        // random seed): with one name left, the order is certain.
        record(seen, sub, "SUNSUBSCRIBE", "s2");
        record(seen, sub, "SUNSUBSCRIBE");
        record(seen, sub, "RESET");
        record(seen, sub, "UNSUBSCRIBE");
        record(seen, sub, "PUNSUBSCRIBE");
        record(seen, sub, "SUNSUBSCRIBE");
        record(seen, sub, "GET", "x");
        record(seen, sub, "SUBSCRIBE");
        record(seen, pub, "PUBSUB", "NUMSUB", "a", "b");
        // From scripts: PUBLISH runs, SUBSCRIBE is refused, and a read-only script may not publish.
        record(seen, sub, "SUBSCRIBE", "a");
        record(seen, pub, "EVAL", "return redis.call('publish', 'a', 'from a script')", "0");
        seen.add(sub.reply());
        record(seen, pub, "EVAL", "return redis.pcall('subscribe', 'x')", "0");
        record(seen, pub, "EVAL_RO", "return redis.pcall('publish', 'x', 'y')", "0");
        record(seen, pub, "COMMAND", "GETKEYS", "SPUBLISH", "a", "b");
        // A transaction's PUBLISH reaches the subscriber when EXEC runs.
        record(seen, pub, "MULTI");
        record(seen, pub, "PUBLISH", "a", "queued");
        record(seen, pub, "EXEC");
        seen.add(sub.reply());
        // RESP3: messages are pushes, and every command may run while subscribed.
        RawClient resp3 = clients.open(port);
        resp3.call("HELLO", "3");
        record(seen, resp3, "SUBSCRIBE", "c");
        record(seen, resp3, "PSUBSCRIBE", "c*");
        record(seen, resp3, "SET", "k", "v");
        record(seen, pub, "PUBLISH", "c", "hello");
        seen.add(resp3.reply());
        seen.add(resp3.reply());
        record(seen, resp3, "PING");
        record(seen, resp3, "UNSUBSCRIBE");
        record(seen, resp3, "PUNSUBSCRIBE");
        record(seen, resp3, "UNSUBSCRIBE");
        return seen;
    }

    private static void record(List<String> seen, RawClient c, String... command) throws IOException {
        seen.add(String.join(" ", command) + " -> " + c.call(command));
    }

    /** A CLIENT LIST line with only what both servers must agree on: flags, db and subscription counts. */
    private static String clientLine(String reply) {
        Matcher m = Pattern.compile("flags=\\S+ db=\\d+ sub=\\d+ psub=\\d+ ssub=\\d+").matcher(reply);
        return m.find() ? m.group() : reply;
    }

    /** INFO's pubsub_channels, pubsub_patterns and pubsubshard_channels (other tests' subscribers may count too). */
    private static long[] pubsubCounts(RawClient c) throws IOException {
        String info = c.call("INFO", "stats");
        long[] out = new long[3];
        String[] fields = {"pubsub_channels", "pubsub_patterns", "pubsubshard_channels"};
        for (int i = 0; i < fields.length; i++) {
            Matcher m = Pattern.compile("\r\n" + fields[i] + ":(\\d+)\r\n").matcher(info);
            assertThat(m.find()).as(fields[i]).isTrue();
            out[i] = Long.parseLong(m.group(1));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aclChannelRulesRefuseAndARevokedSubscriptionClosesTheClient(SideBySide.Target target) throws Exception {
        RawClient admin = clients.open(target.port());
        assertThat(admin.call("ACL", "SETUSER", "reader", "on", "nopass", "+@all", "~*", "resetchannels", "&news.*")).isEqualTo("+OK\r\n");
        // Redis 7.2's text, which Ordo gives; the 7.0 server here words it its own way.
        String noPerm = target.name().startsWith("redis 7.0")
                ? "-NOPERM this user has no permissions to access one of the channels used as arguments\r\n"
                : "-NOPERM No permissions to access a channel\r\n";
        try {
            RawClient reader = clients.open(target.port());
            assertThat(reader.call("AUTH", "reader", "any")).isEqualTo("+OK\r\n");
            assertThat(reader.call("SUBSCRIBE", "sports")).isEqualTo(noPerm);
            assertThat(reader.call("PUBLISH", "sports", "x")).isEqualTo(noPerm);
            // A pattern must be one of the user's patterns, literally.
            assertThat(reader.call("PSUBSCRIBE", "news.1*")).isEqualTo(noPerm);
            assertThat(reader.call("PSUBSCRIBE", "news.*")).isEqualTo("*3\r\n$10\r\npsubscribe\r\n$6\r\nnews.*\r\n:1\r\n");
            assertThat(reader.call("SUBSCRIBE", "news.1")).isEqualTo("*3\r\n$9\r\nsubscribe\r\n$6\r\nnews.1\r\n:2\r\n");
            assertThat(admin.call("ACL", "LOG", "RESET")).isEqualTo("+OK\r\n");
            assertThat(admin.call("ACL", "SETUSER", "reader", "resetchannels", "&news.1")).isEqualTo("+OK\r\n");
            assertThat(reader.closedByServer()).as("a subscriber whose pattern was revoked is closed").isTrue();
            assertThat(admin.call("PUBSUB", "NUMSUB", "news.1")).isEqualTo("*2\r\n$6\r\nnews.1\r\n:0\r\n");
        } finally {
            admin.call("ACL", "DELUSER", "reader");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aSubscriberThatDoesNotReadIsClosedAtThePubsubOutputLimit(SideBySide.Target target) throws Exception {
        RawClient admin = clients.open(target.port());
        assertThat(admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0")).isEqualTo("+OK\r\n");
        try {
            RawClient slow = clients.open(target.port());
            assertThat(slow.call("SUBSCRIBE", "firehose")).startsWith("*3\r\n");
            String payload = "x".repeat(64 * 1024);
            int published = 0;
            String receivers = ":1\r\n";
            // The kernel's socket buffers take some megabytes first; 64 MB is far past them.
            while (receivers.equals(":1\r\n") && published < 1024) {
                receivers = admin.call("PUBLISH", "firehose", payload);
                published++;
            }
            assertThat(receivers).as("after %d messages of 64 KB", published).isEqualTo(":0\r\n");
            assertThat(slow.drainedUntilClosed(10_000)).isTrue();
        } finally {
            admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void oneMessageLargerThanThePubsubHardLimitClosesTheSubscriber(SideBySide.Target target) throws Exception {
        RawClient admin = clients.open(target.port());
        assertThat(admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 1mb 0 0")).isEqualTo("+OK\r\n");
        try {
            RawClient big = clients.open(target.port());
            assertThat(big.call("SUBSCRIBE", "big")).startsWith("*3\r\n");
            // It counts as received, as in Redis, and the subscriber is closed rather than sent it.
            assertThat(admin.call("PUBLISH", "big", "x".repeat(2 << 20))).isEqualTo(":1\r\n");
            assertThat(big.drainedUntilClosed(10_000)).isTrue();
            assertThat(admin.call("PUBSUB", "NUMSUB", "big")).isEqualTo("*2\r\n$3\r\nbig\r\n:0\r\n");
        } finally {
            admin.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 32mb 8mb 60");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void subscriptionsCountInTheClientsMemory(SideBySide.Target target) throws Exception {
        RawClient sub = clients.open(target.port());
        String id = sub.clientId();
        long before = totMem(sub.call("CLIENT", "INFO"));
        String[] command = new String[10_001];
        command[0] = "SUBSCRIBE";
        for (int i = 1; i < command.length; i++) {
            command[i] = "channel:" + i;
        }
        sub.send(RawClient.command(command));
        for (int i = 1; i < command.length; i++) {
            sub.reply();
        }
        String info = sub.call("UNSUBSCRIBE", "nosuch");
        assertThat(info).endsWith(":10000\r\n");
        RawClient other = clients.open(target.port());
        String line = other.call("CLIENT", "LIST", "ID", id);
        assertThat(totMem(line) - before).as("tot-mem grows with 10,000 subscriptions").isGreaterThan(10_000L * 24);
    }

    private static long totMem(String clientLine) {
        Matcher m = TOT_MEM.matcher(clientLine);
        assertThat(m.find()).as(clientLine).isTrue();
        return Long.parseLong(m.group(1));
    }

    /**
     * Redis 7.2 sends a message a client publishes to itself after the command's reply, so a
     * transaction's or a script's reply is never split (7.0, the server here, writes it inside
     * EXEC's array). Ordo follows 7.2; checked on Ordo alone.
     */
    @Test
    void aMessageToTheClientItselfComesAfterTheReplyAsInRedis72() throws Exception {
        RawClient c = clients.open(SERVERS.ordoPort());
        c.call("HELLO", "3");
        assertThat(c.call("SUBSCRIBE", "self")).isEqualTo(">3\r\n$9\r\nsubscribe\r\n$4\r\nself\r\n:1\r\n");
        String message = ">3\r\n$7\r\nmessage\r\n$4\r\nself\r\n$2\r\nhi\r\n";
        assertThat(c.call("PUBLISH", "self", "hi")).isEqualTo(":1\r\n");
        assertThat(c.reply()).isEqualTo(message);
        c.call("MULTI");
        c.call("PUBLISH", "self", "hi");
        c.call("PING");
        assertThat(c.call("EXEC")).isEqualTo("*2\r\n:1\r\n+PONG\r\n");
        assertThat(c.reply()).isEqualTo(message);
        assertThat(c.call("EVAL", "redis.call('publish', 'self', 'hi') return 7", "0")).isEqualTo(":7\r\n");
        assertThat(c.reply()).isEqualTo(message);
        // Pushes are sent under CLIENT REPLY OFF too, as in Redis 7.2.
        c.send(RawClient.command("CLIENT", "REPLY", "OFF"));
        c.send(RawClient.command("PUBLISH", "self", "hi"));
        assertThat(c.reply()).isEqualTo(message);
    }
}
