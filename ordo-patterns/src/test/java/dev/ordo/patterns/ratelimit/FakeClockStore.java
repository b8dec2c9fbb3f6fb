package dev.ordo.patterns.ratelimit;

import dev.ordo.engine.Clock;
import dev.ordo.engine.Engine;
import dev.ordo.engine.config.Config;
import dev.ordo.patterns.store.EmbeddedStore;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedded engine whose clock (and so the TIME every script reads) the test sets, in
 * microseconds; it also remembers, per thread, the time the last script on that thread read, so
 * a test can tell when the server granted a request.
 */
final class FakeClockStore implements AutoCloseable {
    final AtomicLong micros = new AtomicLong(1_800_000_000_000_000L);
    private final ThreadLocal<long[]> lastRead = ThreadLocal.withInitial(() -> new long[1]);
    private final Engine engine;
    final EmbeddedStore store;

    FakeClockStore() {
        Clock clock = new Clock() {
            @Override
            public long millis() {
                return micros.get() / 1000;
            }

            @Override
            public long micros() {
                long now = micros.get();
                lastRead.get()[0] = now;
                return now;
            }
        };
        engine = new Engine(new Config(), clock, (task, delayMillis) -> () -> {
        });
        store = new EmbeddedStore(engine);
    }

    /** The clock time the last script run on this thread read. */
    long lastTimeRead() {
        return lastRead.get()[0];
    }

    void advanceMillis(double ms) {
        micros.addAndGet(Math.round(ms * 1000));
    }

    @Override
    public void close() {
        engine.close();
    }
}
