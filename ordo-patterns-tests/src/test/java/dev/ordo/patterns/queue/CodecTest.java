package dev.ordo.patterns.queue;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.Codec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Queues carry typed payloads through a {@link Codec}: stored as its text, handed back decoded. */
class CodecTest {
    /** A small typed payload, stored as {@code "<user>|<amount>"}. */
    record Order(String user, int amount) {
    }

    private static final Codec<Order> ORDERS = Codec.of(o -> o.user() + "|" + o.amount(), text -> {
        int bar = text.lastIndexOf('|');
        return new Order(text.substring(0, bar), Integer.parseInt(text.substring(bar + 1)));
    });

    @OnEveryBackend
    void priorityQueue_codec_storesTextAndHandsBackValues(Backend backend) {
        PriorityJobQueue<Order> q = PriorityJobQueue.create(backend.store(), Backend.uniqueName("cpq"), ORDERS);
        q.offer(3, new Order("ann", 5));
        q.offerAll(1, List.of(new Order("bob|x", 7), new Order("", 0)));
        assertThat(q.poll(3)).extracting(Job::payload).containsExactly(new Order("bob|x", 7), new Order("", 0), new Order("ann", 5));
        q.offer(0, new Order("cy", 1));
        try (PriorityJobQueue<Order>.Worker worker = q.worker()) {
            assertThat(worker.take(Duration.ofSeconds(5))).map(Job::payload).contains(new Order("cy", 1));
        }
        PriorityJobQueue<String> plain = PriorityJobQueue.create(backend.store(), Backend.uniqueName("cpq"));
        plain.offer(0, "ann|5");
        assertThat(plain.poll()).map(Job::payload).contains("ann|5");
    }

    @OnEveryBackend
    void delayedQueue_codec_claimsAndDeadLettersDecoded(Backend backend) {
        DelayedJobQueue.Options once = DelayedJobQueue.Options.defaults().withMaxAttempts(1).withBackoff(Backoff.fixed(Duration.ZERO));
        DelayedJobQueue<Order> q = DelayedJobQueue.create(backend.store(), Backend.uniqueName("cdq"), once, ORDERS);
        assertThat(q.schedule("o-1", new Order("ann", 5), Due.now())).isTrue();
        List<ClaimedJob<Order>> claimed = q.claim(5);
        assertThat(claimed).extracting(ClaimedJob::payload).containsExactly(new Order("ann", 5));
        assertThat(q.nack(claimed.get(0), "card declined")).isEqualTo(DelayedJobQueue.NackOutcome.DEAD);
        assertThat(q.deadLetters(5)).containsExactly(new DelayedJobQueue.DeadJob<>("o-1", new Order("ann", 5), "card declined"));
    }

    @Test
    void payloadLimit_appliesToTheEncodedText() {
        Codec<String> doubling = Codec.of(s -> s + s, s -> s.substring(0, s.length() / 2));
        String half = "x".repeat(PriorityJobQueue.MAX_PAYLOAD / 2 + 1);
        PriorityJobQueue<String> q = PriorityJobQueue.create(Backend.EMBEDDED.store(), Backend.uniqueName("cpq"), doubling);
        assertThatThrownBy(() -> q.offer(0, half)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + PriorityJobQueue.MAX_PAYLOAD);
        DelayedJobQueue<String> d = DelayedJobQueue.create(Backend.EMBEDDED.store(), Backend.uniqueName("cdq"), DelayedJobQueue.Options.defaults(), doubling);
        assertThatThrownBy(() -> d.schedule("j", half, Due.now())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + PriorityJobQueue.MAX_PAYLOAD);
        assertThat(d.counts()).isEqualTo(new DelayedJobQueue.Counts(0, 0, 0, 0));
        assertThatThrownBy(() -> Codec.strings().encode(null)).isInstanceOf(NullPointerException.class);
    }
}
