package dev.ordo.console;

import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The overview's figures over time: one thread reads the server's INFO every
 * {@link ConsoleOptions#sampleEvery()} while at least one dashboard watches (and never otherwise,
 * so a console nobody looks at costs the server nothing), keeps the last
 * {@link ConsoleOptions#history()} readings, and hands each new one to every watcher. However
 * many dashboards are open, the server is read once per interval.
 *
 * <p>A reading: ops/s (commands processed since the last reading, per second of the time
 * between them), memory used, connected clients, keys in all databases, the hit ratio of the
 * reads since the last reading, and keys evicted since then.
 */
final class LiveFeed implements AutoCloseable {
    /** One reading of the server's figures. */
    record Sample(long at, double opsPerSec, long usedMemory, long clients, long keys, double hitRatio, long evicted,
                  long maxMemory, String version) {
    }

    private static final System.Logger LOG = System.getLogger(LiveFeed.class.getName());

    private final List<Store> nodes;
    private final ConsoleOptions options;
    private final ArrayDeque<Sample> history = new ArrayDeque<>();
    private final List<Consumer<Sample>> watchers = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ordo-console-feed");
        t.setDaemon(true);
        return t;
    });
    private Map<String, String> previous;
    private long previousAt;
    private java.util.concurrent.ScheduledFuture<?> running;

    LiveFeed(List<Store> nodes, ConsoleOptions options) {
        this.nodes = nodes;
        this.options = options;
    }

    /** Adds a watcher, starting the readings if it is the first; returns what stops it watching. */
    synchronized Runnable watch(Consumer<Sample> watcher) {
        watchers.add(watcher);
        if (running == null) {
            long every = options.sampleEvery().toMillis();
            running = timer.scheduleWithFixedDelay(this::sampleQuietly, 0, every, TimeUnit.MILLISECONDS);
        }
        return () -> unwatch(watcher);
    }

    private synchronized void unwatch(Consumer<Sample> watcher) {
        watchers.remove(watcher);
        if (watchers.isEmpty() && running != null) {
            running.cancel(false);
            running = null;
        }
    }

    synchronized List<Sample> history() {
        return new ArrayList<>(history);
    }

    /** Reads the server now (also the overview's first figures when nobody watches yet). */
    Sample sample() {
        Map<String, String> info = summed(nodes);
        long now = System.currentTimeMillis();
        Sample s;
        synchronized (this) {
            double seconds = previous == null ? 0 : (now - previousAt) / 1000.0;
            double ops = seconds > 0 ? Math.max(0, delta(info, "total_commands_processed")) / seconds : number(info, "instantaneous_ops_per_sec");
            long hits = previous == null ? number(info, "keyspace_hits") : delta(info, "keyspace_hits");
            long misses = previous == null ? number(info, "keyspace_misses") : delta(info, "keyspace_misses");
            long evicted = previous == null ? 0 : Math.max(0, delta(info, "evicted_keys"));
            s = new Sample(now, ops, number(info, "used_memory"), number(info, "connected_clients"), keys(info),
                    hits + misses == 0 ? 1.0 : (double) hits / (hits + misses), evicted, number(info, "maxmemory"),
                    info.getOrDefault("redis_version", "?"));
            previous = info;
            previousAt = now;
            history.addLast(s);
            while (history.size() > options.history()) {
                history.removeFirst();
            }
        }
        return s;
    }

    private void sampleQuietly() {
        try {
            Sample s = sample();
            for (Consumer<Sample> w : watchers) {
                w.accept(s);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the console could not read the server's INFO: " + e.getMessage());
        }
    }

    private long delta(Map<String, String> info, String field) {
        return number(info, field) - number(previous, field);
    }

    private static long number(Map<String, String> info, String field) {
        String v = info.get(field);
        if (v == null) {
            return 0;
        }
        try {
            return (long) Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Keys in every database: the sum of the {@code dbN:keys=} lines. */
    private static long keys(Map<String, String> info) {
        long keys = 0;
        for (Map.Entry<String, String> e : info.entrySet()) {
            if (e.getKey().startsWith("db") && e.getValue().startsWith("keys=")) {
                int comma = e.getValue().indexOf(',');
                keys += Long.parseLong(e.getValue().substring(5, comma < 0 ? e.getValue().length() : comma));
            }
        }
        return keys;
    }

    /**
     * Every node's INFO, numeric fields summed (a cluster's ops, memory, clients and keys are its
     * nodes' together); other fields are the first node's. The keyspace lines are summed into one
     * {@code db0} line.
     */
    private static Map<String, String> summed(List<Store> nodes) {
        Map<String, String> out = null;
        long keys = 0;
        for (Store node : nodes) {
            Map<String, String> info = info(node.call(StoreCommand.of("INFO")).asString());
            keys += keys(info);
            if (out == null) {
                out = info;
                continue;
            }
            for (Map.Entry<String, String> e : info.entrySet()) {
                String mine = out.get(e.getKey());
                if (mine != null && mine.matches("[0-9]+") && e.getValue().matches("[0-9]+")) {
                    out.put(e.getKey(), Long.toString(Long.parseLong(mine) + Long.parseLong(e.getValue())));
                }
            }
        }
        out.keySet().removeIf(k -> k.startsWith("db"));
        out.put("db0", "keys=" + keys);
        return out;
    }

    /** INFO's {@code field:value} lines. */
    static Map<String, String> info(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                out.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return out;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
