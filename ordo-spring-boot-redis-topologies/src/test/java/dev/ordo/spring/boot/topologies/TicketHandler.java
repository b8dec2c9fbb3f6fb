package dev.ordo.spring.boot.topologies;

import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.DelayedJobQueue.Counts;
import dev.ordo.patterns.queue.Due;
import dev.ordo.spring.boot.jobs.JobHandler;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The handler of the {@code tickets} queue: the starter's workers claim its jobs on connections of
 * their own (blocking there between jobs) and ack each once handled.
 */
class TicketHandler {
    final Queue<String> handled = new ConcurrentLinkedQueue<>();

    @JobHandler("tickets")
    void handle(String payload) {
        handled.add(payload);
    }

    /** Schedules three tickets due now and waits until the workers have handled and acked them all. */
    void scheduleThreeAndAwaitThem(DelayedJobQueue<String> tickets) throws InterruptedException {
        List<String> payloads = List.of("t1", "t2", "t3");
        payloads.forEach(p -> assertThat(tickets.schedule(p, p, Due.now())).isTrue());
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!(handled.size() == payloads.size() && tickets.counts().equals(new Counts(0, 0, 0, 0)))) {
            assertThat(System.nanoTime()).as("waiting for three tickets handled and acked: %s, %s", handled, tickets.counts())
                    .isLessThan(deadline);
            Thread.sleep(10);
        }
        assertThat(handled).containsExactlyInAnyOrderElementsOf(payloads);
    }
}
