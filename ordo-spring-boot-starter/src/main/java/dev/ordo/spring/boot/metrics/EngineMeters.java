package dev.ordo.spring.boot.metrics;

import dev.ordo.engine.Engine;
import dev.ordo.engine.EngineStats;
import dev.ordo.patterns.metrics.OrdoMetrics;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The in-process Ordo's own figures as meters: {@code ordo.command.duration} (a function timer
 * per command: INFO commandstats' calls and time), {@code ordo.memory.used} (bytes),
 * {@code ordo.keys} and {@code ordo.clients.connected}. On each refresh of the patterns' {@link
 * OrdoMetrics} (its one refresh thread, every {@code ordo.metrics.refresh}, beside its cached
 * gauges) it takes an {@link Engine#stats()} snapshot and registers a timer for each command seen
 * for the first time; meters read the last snapshot, so a scrape never takes the engine's lock.
 * Counts go back to zero after CONFIG RESETSTAT, as a restarted process's would.
 */
final class EngineMeters implements AutoCloseable {
    private final Engine engine;
    private final MeterRegistry meters;
    private final Set<String> commands = ConcurrentHashMap.newKeySet();
    private final List<Meter> registered = new CopyOnWriteArrayList<>();
    private final OrdoMetrics refresher;
    private final Runnable refreshTask = this::refresh;
    private volatile EngineStats stats;

    /** Meters of {@code engine} on {@code meters}, refreshed by {@code refresher}'s refresh thread. */
    EngineMeters(Engine engine, MeterRegistry meters, OrdoMetrics refresher) {
        this.engine = engine;
        this.meters = meters;
        this.refresher = refresher;
        this.stats = engine.stats();
        registered.add(Gauge.builder("ordo.memory.used", this, m -> m.stats.usedMemory()).baseUnit("bytes")
                .description("Memory the in-process Ordo counts toward maxmemory").register(meters));
        registered.add(Gauge.builder("ordo.keys", this, m -> m.stats.keys())
                .description("Keys in all databases of the in-process Ordo").register(meters));
        registered.add(Gauge.builder("ordo.clients.connected", this, m -> m.stats.connectedClients())
                .description("Clients connected to the in-process Ordo").register(meters));
        registerNewCommands();
        refresher.addRefreshTask(refreshTask);
    }

    /** Takes a new snapshot now; the meters show it from then on. */
    void refresh() {
        try {
            stats = engine.stats();
        } catch (RuntimeException e) {
            return; // the engine is closing: keep the last figures
        }
        registerNewCommands();
    }

    private void registerNewCommands() {
        for (String command : stats.commands().keySet()) {
            if (commands.add(command)) {
                registered.add(FunctionTimer.builder("ordo.command.duration", this, m -> m.figures(command).calls(),
                                m -> m.figures(command).micros(), TimeUnit.MICROSECONDS)
                        .tag("command", command).description("Commands the in-process Ordo ran, and the time they took").register(meters));
            }
        }
    }

    private EngineStats.CommandStats figures(String command) {
        EngineStats.CommandStats figures = stats.commands().get(command);
        return figures == null ? new EngineStats.CommandStats(0, 0, 0, 0) : figures;
    }

    /** Stops being refreshed and removes the meters. */
    @Override
    public void close() {
        refresher.removeRefreshTask(refreshTask);
        for (Meter meter : registered) {
            meters.remove(meter);
        }
        registered.clear();
    }
}
