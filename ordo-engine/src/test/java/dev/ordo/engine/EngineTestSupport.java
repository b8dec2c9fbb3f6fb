package dev.ordo.engine;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.memory.HeapBudget;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** An engine for tests: a manual clock and a real scheduler on a daemon thread. */
@SuppressWarnings("exports") // test code: HeapBudget is not exported, as no embedder needs it
public final class EngineTestSupport implements AutoCloseable {
    public final AtomicLong time = new AtomicLong(1_700_000_000_000L);
    public final Engine engine;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ordo-test-scheduler");
        t.setDaemon(true);
        return t;
    });

    /** An engine with Redis's defaults, but DEBUG allowed, as Redis's own tests run their servers. */
    public EngineTestSupport() {
        this(debuggable());
    }

    private static Config debuggable() {
        Config config = new Config();
        config.set("enable-debug-command", "yes", true);
        return config;
    }

    public EngineTestSupport(Config config) {
        this(config, HeapBudget.ofThisJvm());
    }

    /** An engine whose implicit memory limits come from {@code budget}. */
    public EngineTestSupport(Config config, HeapBudget budget) {
        engine = new Engine(config, time::get, (task, delay) -> {
            var f = executor.schedule(task, delay, TimeUnit.MILLISECONDS);
            return () -> f.cancel(false);
        }, budget);
    }

    /** A new embedded client of the engine. */
    public EmbeddedClient client() {
        return engine.connect();
    }

    /** Moves the manual clock forward. */
    public void advance(long millis) {
        time.addAndGet(millis);
    }

    @Override
    public void close() {
        engine.close();
        executor.shutdownNow();
    }
}
