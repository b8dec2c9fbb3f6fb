package dev.ordo.patterns.queue;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The priority queue's contract, on every back end. */
class PriorityJobQueueTest {
    private static PriorityJobQueue<String> queue(Backend backend) {
        return PriorityJobQueue.create(backend.store(), Backend.uniqueName("pq"));
    }

    @OnEveryBackend
    void poll_mostUrgentFirstAndFifoWithinAPriority(Backend backend) {
        PriorityJobQueue<String> q = queue(backend);
        q.offer(5, "e1");
        q.offer(0, "urgent1");
        q.offerAll(5, List.of("e2", "e3"));
        q.offer(PriorityJobQueue.MAX_PRIORITY, "whenever");
        q.offer(0, "urgent2: with a colon");
        assertThat(q.size()).isEqualTo(6);
        assertThat(q.size(5)).isEqualTo(3);
        assertThat(q.size(0)).isEqualTo(2);
        assertThat(q.size(1)).isZero();
        List<Job<String>> jobs = q.poll(10);
        assertThat(jobs).extracting(Job::payload).containsExactly("urgent1", "urgent2: with a colon", "e1", "e2", "e3", "whenever");
        assertThat(jobs).extracting(Job::priority).containsExactly(0, 0, 5, 5, 5, PriorityJobQueue.MAX_PRIORITY);
        assertThat(q.poll()).isEmpty();
    }

    @OnEveryBackend
    void offer_badInput_refusedAndNothingAdded(Backend backend) {
        PriorityJobQueue<String> q = queue(backend);
        assertThatThrownBy(() -> q.offer(-1, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.offer(PriorityJobQueue.MAX_PRIORITY + 1, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.offerAll(1, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.poll(0)).isInstanceOf(IllegalArgumentException.class);
        try (PriorityJobQueue<String>.Worker consumer = q.worker()) {
            assertThatThrownBy(() -> consumer.take(Duration.ofNanos(500_000))).as("would block forever as BZPOPMIN 0")
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(q.size()).isZero();
    }

    @OnEveryBackend
    void take_waitsForAnOfferAndTimesOutWhenNoneComes(Backend backend) throws Exception {
        PriorityJobQueue<String> q = queue(backend);
        try (PriorityJobQueue<String>.Worker consumer = q.worker()) {
            assertThat(consumer.take(Duration.ofMillis(100))).isEmpty();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                CountDownLatch waiting = new CountDownLatch(1);
                Future<Optional<Job<String>>> taken = pool.submit(() -> {
                    waiting.countDown();
                    return consumer.take(Duration.ofSeconds(20));
                });
                waiting.await();
                long id = q.offer(3, "wake up");
                assertThat(taken.get(20, TimeUnit.SECONDS)).contains(new Job<>(id, 3, "wake up"));
            } finally {
                pool.shutdownNow();
            }
            assertThat(q.size()).as("other operations ran while the consumer was blocked").isZero();
        }
    }

    /**
     * 8 producers and 8 consumers move 100,000 jobs of mixed priorities: every job is delivered
     * exactly once, and no consumer receives a producer's job of some priority after a later one
     * of that producer and priority (ZPOPMIN always takes the oldest).
     */
    @OnEveryBackend
    void manyProducersAndConsumers_100000Jobs_eachDeliveredOnceInOrder(Backend backend) throws Exception {
        PriorityJobQueue<String> q = queue(backend);
        int producers = 8;
        int perProducer = 12_500;
        int batch = 25;
        AtomicInteger producing = new AtomicInteger(producers);
        ConcurrentLinkedQueue<List<Job<String>>> received = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < perProducer; i += batch) {
                        int priority = (i / batch) % 4;
                        List<String> payloads = new ArrayList<>(batch);
                        for (int k = i; k < i + batch; k++) {
                            payloads.add(producer + "/" + k);
                        }
                        q.offerAll(priority, payloads);
                    }
                    producing.decrementAndGet();
                    return null;
                }));
            }
            for (int c = 0; c < 8; c++) {
                work.add(pool.submit(() -> {
                    List<Job<String>> mine = new ArrayList<>();
                    try (PriorityJobQueue<String>.Worker consumer = q.worker()) {
                        while (true) {
                            List<Job<String>> got = q.poll(50);
                            if (got.isEmpty()) {
                                if (producing.get() == 0 && q.size() == 0) {
                                    break;
                                }
                                consumer.take(Duration.ofMillis(50)).ifPresent(mine::add);
                            }
                            mine.addAll(got);
                        }
                    }
                    received.add(mine);
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> seen = new HashSet<>();
        int total = 0;
        for (List<Job<String>> mine : received) {
            Map<String, Integer> lastSeen = new HashMap<>();
            for (Job<String> job : mine) {
                total++;
                assertThat(seen.add(job.payload())).as("delivered once: " + job).isTrue();
                String[] parts = job.payload().split("/");
                int k = Integer.parseInt(parts[1]);
                assertThat(job.priority()).isEqualTo((k / batch) % 4);
                String lane = parts[0] + "@" + job.priority();
                Integer before = lastSeen.put(lane, k);
                assertThat(before == null || before < k).as("order within " + lane + ": " + before + " then " + k).isTrue();
            }
        }
        assertThat(total).isEqualTo(producers * perProducer);
        assertThat(seen).hasSize(producers * perProducer);
    }
}
