package dev.ordo.console;

import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;

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
    private final List<Watcher> watchers = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "ordo-console-feed");
        t.setDaemon(true);
        return t;
    });
    private Map<String, String> previous;
    private long previousAt;
    private java.util.concurrent.ScheduledFuture<?> running;
    /** Set once a node refused INFO with several sections (a server older than Redis 7). */
    private volatile boolean oneSectionOnly;

    /** A watcher: what takes each reading, and what is told when the feed closes under it. */
    private record Watcher(Consumer<Sample> readings, Runnable ended) {
    }

    LiveFeed(List<Store> nodes, ConsoleOptions options) {
        this.nodes = nodes;
        this.options = options;
    }

    /**
     * Adds a watcher, starting the readings if it is the first; returns what stops it watching.
     * {@code ended} runs if the feed closes first (its console closed), so the watcher's stream
     * can end too.
     */
    synchronized Runnable watch(Consumer<Sample> readings, Runnable ended) {
        Watcher watcher = new Watcher(readings, ended);
        watchers.add(watcher);
        if (running == null) {
            long every = options.sampleEvery().toMillis();
            running = timer.scheduleWithFixedDelay(this::sampleQuietly, 0, every, TimeUnit.MILLISECONDS);
        }
        return () -> unwatch(watcher);
    }

    private synchronized void unwatch(Watcher watcher) {
        watchers.remove(watcher);
        if (watchers.isEmpty() && running != null) {
            running.cancel(false);
            running = null;
            previous = null; // the next feed's first rates are the server's own, not averaged over the pause
        }
    }

    synchronized List<Sample> history() {
        return new ArrayList<>(history);
    }

    /**
     * The overview's current figures: the last reading while the feed runs, else one read now,
     * which is not kept (the feed's readings stay one interval apart, and its rates span one
     * interval each).
     */
    Sample current() {
        synchronized (this) {
            if (running != null && !history.isEmpty()
                    && System.currentTimeMillis() - history.getLast().at() <= 2 * options.sampleEvery().toMillis()) {
                return history.getLast();
            }
        }
        Map<String, String> info = summed();
        return reading(info, System.currentTimeMillis(), null, 0);
    }

    /** Reads the server, keeps the reading and returns it. */
    private Sample sample() {
        Map<String, String> info = summed();
        long now = System.currentTimeMillis();
        Sample s;
        synchronized (this) {
            s = reading(info, now, previous, previousAt);
            previous = info;
            previousAt = now;
            history.addLast(s);
            while (history.size() > options.history()) {
                history.removeFirst();
            }
        }
        return s;
    }

    /** A reading from {@code info}: rates since {@code before} (taken at {@code beforeAt}), or the server's own when there is none. */
    private static Sample reading(Map<String, String> info, long now, Map<String, String> before, long beforeAt) {
        double seconds = before == null ? 0 : (now - beforeAt) / 1000.0;
        double ops = seconds > 0 ? Math.max(0, number(info, "total_commands_processed") - number(before, "total_commands_processed")) / seconds
                : number(info, "instantaneous_ops_per_sec");
        long hits = number(info, "keyspace_hits") - number(before, "keyspace_hits");
        long misses = number(info, "keyspace_misses") - number(before, "keyspace_misses");
        long evicted = before == null ? 0 : Math.max(0, number(info, "evicted_keys") - number(before, "evicted_keys"));
        return new Sample(now, ops, number(info, "used_memory"), number(info, "connected_clients"), keys(info),
                hits + misses == 0 ? 1.0 : (double) hits / (hits + misses), evicted, number(info, "maxmemory"),
                info.getOrDefault("redis_version", "?"));
    }

    private void sampleQuietly() {
        try {
            Sample s = sample();
            for (Watcher w : watchers) {
                w.readings().accept(s);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the console could not read the server's INFO: " + e.getMessage());
        }
    }

    /** A numeric INFO field; 0 when it is missing, or there is no reading ({@code info} null). */
    private static long number(Map<String, String> info, String field) {
        String v = info == null ? null : info.get(field);
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
    private Map<String, String> summed() {
        Map<String, String> out = null;
        long keys = 0;
        for (Store node : nodes) {
            Map<String, String> info = info(readInfo(node));
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

    /**
     * The INFO sections the readings use. Asking for them alone halves INFO's cost on an Ordo
     * server (its cpu section reads every thread's clock); a server older than Redis 7, which
     * takes one section at most, gets the default INFO.
     */
    private String readInfo(Store node) {
        if (!oneSectionOnly) {
            try {
                return node.call(StoreCommand.of("INFO").arg("server").arg("clients").arg("memory").arg("stats").arg("keyspace")).asString();
            } catch (StoreException refused) {
                oneSectionOnly = true;
            }
        }
        return node.call(StoreCommand.of("INFO")).asString();
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

    /** Stops the readings and tells every watcher the feed has ended. */
    @Override
    public void close() {
        timer.shutdownNow();
        for (Watcher w : watchers) {
            w.ended().run();
        }
        watchers.clear();
    }
}
