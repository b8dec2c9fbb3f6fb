package dev.ordo.engine.pubsub;

import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** In-process subscribers: what they receive, in what order, and what happens to one that falls behind. */
class SubscriberTest {
    private final EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.engine.connectText();

    @AfterEach
    void close() {
        support.close();
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private static String describe(Message m) {
        return m.kind().name().toLowerCase() + " " + (m.pattern() == null ? "" : text(m.pattern()) + " ") + text(m.channel()) + " "
                + text(m.payload());
    }

    @Test
    void channelPatternAndShardMessagesArriveInPublicationOrderAndCountAsReceivers() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (Subscriber s = support.engine.subscriber(m -> got.add(describe(m)))) {
            s.subscribe("orders").psubscribe("ord*").ssubscribe("shard");
            assertThat(client.call("PUBLISH", "orders", "1")).isEqualTo(2L);
            assertThat(client.call("PUBLISH", "ordinal", "2")).isEqualTo(1L);
            assertThat(client.call("SPUBLISH", "shard", "3")).isEqualTo(1L);
            assertThat(client.call("PUBLISH", "other", "4")).isEqualTo(0L);
            assertThat(client.call("PUBSUB", "NUMSUB", "orders")).isEqualTo(List.of("orders", 1L));
            assertThat(client.call("PUBSUB", "NUMPAT")).isEqualTo(1L);
            List<String> messages = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                messages.add(got.poll(5, TimeUnit.SECONDS));
            }
            assertThat(messages).containsExactly("message orders 1", "pmessage ord* orders 1", "pmessage ord* ordinal 2",
                    "smessage shard 3");
            s.unsubscribe("orders");
            assertThat(client.call("PUBLISH", "orders", "5")).isEqualTo(1L);
        }
        assertThat(client.call("PUBLISH", "orders", "6")).isEqualTo(0L);
        assertThat(client.call("PUBSUB", "NUMPAT")).isEqualTo(0L);
    }

    @Test
    void theListenerRunsOutsideTheEngineLockSoItMayCallTheEngine() throws Exception {
        BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        EmbeddedClient other = support.client();
        try (Subscriber s = support.engine.subscriber(m -> got.add(other.call("INCR", "seen")))) {
            s.subscribe("tick");
            client.call("PUBLISH", "tick", "x");
            assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo(1L);
        }
    }

    @Test
    void aListenerThatFallsBehindIsClosedAtThePubsubOutputLimitAndOthersGoOn() throws Exception {
        client.call("CONFIG", "SET", "client-output-buffer-limit", "pubsub 64kb 0 0");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Subscriber stuck = support.engine.subscriber(new Subscriber.Listener() {
            @Override
            public void message(Message message) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void closed(String why) {
                closed.countDown();
            }
        }, r -> new Thread(r).start());
        stuck.subscribe("firehose");
        String payload = "x".repeat(1024);
        long receivers = 1;
        int published = 0;
        while (receivers == 1 && published < 1000) {
            receivers = (Long) client.call("PUBLISH", "firehose", payload);
            published++;
        }
        assertThat(receivers).as("after %d messages of 1 KB", published).isEqualTo(0L);
        assertThat(published).isBetween(60, 70);
        assertThat(stuck.isClosed()).isTrue();
        release.countDown();
        assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(client.call("PUBSUB", "NUMSUB", "firehose")).isEqualTo(List.of("firehose", 0L));
    }

    @Test
    void aFailingListenerKeepsItsSubscriptionsAndGetsTheNextMessage() throws Exception {
        BlockingQueue<String> got = new LinkedBlockingQueue<>();
        try (Subscriber s = support.engine.subscriber(m -> {
            if (text(m.payload()).equals("bad")) {
                throw new IllegalStateException("listener bug");
            }
            got.add(text(m.payload()));
        })) {
            s.subscribe("c");
            client.call("PUBLISH", "c", "bad");
            client.call("PUBLISH", "c", "good");
            assertThat(got.poll(5, TimeUnit.SECONDS)).isEqualTo("good");
        }
    }

    @Test
    void anEmbeddedClientCannotRunSubscribeAndIsToldWhatToUseInstead() {
        assertThatThrownBy(() -> client.call("SUBSCRIBE", "x")).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR SUBSCRIBE needs a connection that can receive messages; in process, use Engine.subscriber");
        assertThat(client.call("PUBLISH", "x", "y")).isEqualTo(0L);
    }
}
