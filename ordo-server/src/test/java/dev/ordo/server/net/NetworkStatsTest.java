package dev.ordo.server.net;

import dev.ordo.engine.command.TransportStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

class NetworkStatsTest {
    private final NetworkStats stats = new NetworkStats();

    /** An event loop stand-in: meters are kept per loop object. */
    private static final class Loop implements Executor {
        @Override
        public void execute(Runnable task) {
            task.run();
        }
    }

    @Test
    void snapshot_sumsEveryLoopsMeterAndTheTakeoversTraffic() {
        Executor loopA = new Loop();
        Executor loopB = new Loop();
        stats.meter(loopA).read(10);
        stats.meter(loopA).wrote(4);
        stats.meter(loopA).flushed();
        stats.meter(loopB).read(7);
        stats.read(3);
        stats.wroteAndFlushed(5);
        stats.connectionAdmitted();
        stats.connectionRejected();

        assertThat(stats.meter(loopA)).isSameAs(stats.meter(loopA)).isNotSameAs(stats.meter(loopB));
        assertThat(stats.snapshot()).isEqualTo(new TransportStats(1, 1, 20, 9, 3, 2, 0, 0, 0));
    }

    @Test
    void reset_makesTheCurrentTotalsZero_andCountingGoesOnFromThere() {
        Executor loop = new Loop();
        stats.meter(loop).read(10);
        stats.wroteAndFlushed(5);
        stats.connectionAdmitted();

        stats.reset();
        assertThat(stats.snapshot()).isEqualTo(TransportStats.NONE);

        stats.meter(loop).read(2);
        stats.meter(new Loop()).wrote(6);
        assertThat(stats.snapshot()).isEqualTo(new TransportStats(0, 0, 2, 6, 1, 0, 0, 0, 0));
    }

    /** Each loop writes its own meter while takeovers on other threads write the shared one: nothing is lost. */
    @Test
    void concurrentLoopsAndTakeovers_loseNoCount() throws InterruptedException {
        int perThread = 200_000;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            NetworkStats.Meter own = stats.meter(new Loop());
            threads.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    own.read(1);
                }
            }));
            threads.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    stats.wroteAndFlushed(2);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }

        TransportStats s = stats.snapshot();
        assertThat(s.inputBytes()).isEqualTo(2L * perThread);
        assertThat(s.outputBytes()).isEqualTo(4L * perThread);
        assertThat(s.writesProcessed()).isEqualTo(2L * perThread);
    }
}
