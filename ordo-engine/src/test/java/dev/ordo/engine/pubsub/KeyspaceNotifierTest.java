package dev.ordo.engine.pubsub;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyspace events inside the engine: what an embedder's listener hears (the classes
 * {@code notify-keyspace-events} enables, whatever K and E say), and what an in-process
 * {@link Subscriber} receives on the keyspace and keyevent channels.
 */
class KeyspaceNotifierTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.engine.connectText();
    private final List<String> heard = new ArrayList<>();

    KeyspaceNotifierTest() {
        support.engine.addKeyspaceEventListener((db, event, key) ->
                heard.add(db + " " + event + " " + new String(key, StandardCharsets.UTF_8)));
    }

    @AfterEach
    void close() {
        support.close();
    }

    /** What the listener heard so far, read under the engine lock, and forgotten. */
    private List<String> takeHeard() {
        List<String> out = new ArrayList<>();
        support.engine.withLock(() -> {
            out.addAll(heard);
            heard.clear();
        });
        return out;
    }

    @Test
    void keyspaceEvent_settingEmpty_hearsNothing() {
        client.call("ZADD", "z", "1", "a");
        client.call("SET", "s", "v", "EX", "10");
        client.call("DEL", "z", "s");
        client.call("GET", "nosuch");
        assertThat(takeHeard()).isEmpty();
    }

    @Test
    void keyspaceEvent_classWithoutKOrE_isHeardByTheListenerOnly() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (Subscriber s = support.engine.subscriber(m -> got.add(text(m.channel())))) {
            s.psubscribe("__key*__:*");
            client.call("CONFIG", "SET", "notify-keyspace-events", "z");
            client.call("ZADD", "z", "1", "a", "2", "b");
            client.call("SET", "s", "v");
            client.call("ZPOPMIN", "z", "5");
            assertThat(takeHeard()).containsExactly("0 zadd z", "0 zpopmin z");
            client.call("PUBLISH", "__keyspace@0__:marker", "x");
            assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo("__keyspace@0__:marker");
        }
    }

    @Test
    void keyspaceEvent_configSetChangesTheClassesForLaterCommands() {
        client.call("CONFIG", "SET", "notify-keyspace-events", "Eg");
        client.call("SET", "s", "v");
        client.call("EXPIRE", "s", "100");
        client.call("CONFIG", "SET", "notify-keyspace-events", "KEA");
        client.call("SELECT", "3");
        client.call("SET", "s", "v");
        client.call("CONFIG", "SET", "notify-keyspace-events", "");
        client.call("DEL", "s");
        assertThat(takeHeard()).containsExactly("0 expire s", "3 set s");
    }

    @Test
    void keyspaceEvent_expiredOnRead_isHeardWithKeymissAfterIt() {
        client.call("CONFIG", "SET", "notify-keyspace-events", "xmn");
        client.call("SET", "k", "v", "PX", "100");
        support.advance(200);
        assertThat(client.call("GET", "k")).isNull();
        assertThat(takeHeard()).containsExactly("0 new k", "0 expired k", "0 keymiss k");
    }

    @Test
    void keyspaceEvent_expiredByTheActiveCycle_isHeardWithoutARead() throws Exception {
        client.call("CONFIG", "SET", "notify-keyspace-events", "x");
        client.call("SET", "k", "v", "PX", "100");
        support.advance(1000);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> got = takeHeard();
        while (got.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            got = takeHeard();
        }
        assertThat(got).containsExactly("0 expired k");
    }

    @Test
    void subscriber_receivesKeyspaceThenKeyeventMessage() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (Subscriber s = support.engine.subscriber(m -> got.add(text(m.channel()) + " " + text(m.payload())))) {
            s.psubscribe("__key*__:*");
            client.call("CONFIG", "SET", "notify-keyspace-events", "KEh");
            client.call("HSET", "h", "f", "v");
            assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo("__keyspace@0__:h hset");
            assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo("__keyevent@0__:hset h");
        }
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
