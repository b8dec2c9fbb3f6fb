package dev.ordo.patterns.ratelimit;

import dev.ordo.engine.time.Clock;
import dev.ordo.engine.Engine;
import dev.ordo.engine.config.Config;
import dev.ordo.patterns.embedded.EmbeddedStore;

import java.util.concurrent.atomic.AtomicLong;

/** An embedded engine whose clock (and so the TIME every script reads) the test sets, in microseconds. */
final class FakeClockStore implements AutoCloseable {
    final AtomicLong micros = new AtomicLong(1_800_000_000_000_000L);
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
                return micros.get();
            }
        };
        engine = new Engine(new Config(), clock, (task, delayMillis) -> () -> {
        });
        store = EmbeddedStore.on(engine);
    }

    void advanceMillis(double ms) {
        micros.addAndGet(Math.round(ms * 1000));
    }

    @Override
    public void close() {
        engine.close();
    }
}
