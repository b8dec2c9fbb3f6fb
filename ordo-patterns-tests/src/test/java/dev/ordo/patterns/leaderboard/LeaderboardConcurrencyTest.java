package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 32 threads add points to the same few members of one board for ten seconds; afterwards each
 * member's score equals the sum of the increments the board acknowledged. Any failed call fails
 * the test (its increment would be neither provably applied nor provably lost). Points are
 * integers, so the sums are exact in a double.
 */
class LeaderboardConcurrencyTest {
    private static final int THREADS = 32;
    private static final long RUN_NANOS = 10_000_000_000L;
    private static final String[] MEMBERS = {"alice", "bob", "carol", "dave", "erin"};

    @OnEveryBackend
    void addPoints_32ThreadsFor10Seconds_finalScoresEqualAcknowledgedSums(Backend backend) throws Exception {
        Leaderboard board = Leaderboard.create(backend.store(), Backend.uniqueName("race"), BoardOptions.highestFirst());
        AtomicLongArray acknowledged = new AtomicLongArray(MEMBERS.length);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long deadline = System.nanoTime() + RUN_NANOS;
        List<Future<Long>> calls = new ArrayList<>();
        try {
            for (int t = 0; t < THREADS; t++) {
                calls.add(pool.submit(() -> {
                    long n = 0;
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < deadline) {
                        int m = random.nextInt(MEMBERS.length);
                        int points = random.nextInt(1, 100);
                        board.addPoints(MEMBERS[m], points);
                        acknowledged.addAndGet(m, points);
                        n++;
                    }
                    return n;
                }));
            }
            long total = 0;
            for (Future<Long> f : calls) {
                total += f.get();
            }
            assertThat(total).as("increments acknowledged").isPositive();
        } finally {
            pool.shutdownNow();
        }
        for (int m = 0; m < MEMBERS.length; m++) {
            assertThat(board.score(MEMBERS[m])).as(backend + " " + MEMBERS[m]).hasValue((double) acknowledged.get(m));
        }
    }
}
