package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.Eviction;
import dev.ordo.engine.keyspace.EvictionPolicy;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.memory.HeapBudget;
import dev.ordo.engine.memory.ProcessMemory;

import java.util.function.LongSupplier;

/**
 * Memory as Redis manages it: what counts as used, the limit, eviction before commands, and the
 * out-of-memory state that refuses {@code denyoom} commands.
 *
 * <p>Used memory ({@link #used}, INFO's {@code used_memory}) is counted, not measured: the
 * keyspace's stored bytes (keys, entries, values, each encoding keeping its figure in O(1) per
 * write), the key tables, the clients' buffers as the transport reports them, and the script
 * cache. Heap figures cannot drive limits: deleted data frees nothing until a collection runs.
 *
 * <p>The limit is {@code maxmemory}, or with {@code maxmemory 0} the heap's implicit limit
 * ({@link HeapBudget}), under which nothing is evicted and writes are refused. Before each
 * command (not inside scripts or transactions, which were checked when they began) {@link
 * #beforeCommand} evicts by {@code maxmemory-policy} until memory is within the limit; a round
 * cut short by {@code maxmemory-eviction-tenacity} continues from a timer ({@link #continueEviction})
 * and does not refuse commands meanwhile. The engine's lock guards everything here.
 */
public final class MaxMemory {
    private final Config config;
    private final Keyspace keyspace;
    private final LongSupplier clientMemory;
    private final LongSupplier scriptMemory;
    private final HeapBudget budget;
    private final Eviction eviction;
    private final LongSupplier maxmemory;
    private final LongSupplier samples;
    private final LongSupplier tenacity;
    private final LongSupplier clock;
    private long peak;
    private final long startup;
    private final LongSupplier nanoTime;
    private final LatencyMonitor latency;
    /** When memory was last found over the limit with eviction still to do, in ms; -1 when it is not. */
    private long exceededSince = -1;
    private long exceededMillis;
    private boolean running;

    /**
     * Memory management over {@code keyspace}, counting {@code clientMemory} and {@code
     * scriptMemory} too; {@code clock} gives milliseconds, {@code nanoTime} times eviction rounds,
     * which {@code latency} hears of as its {@code eviction-cycle} event.
     *
     * @param config the live configuration
     * @param keyspace the data
     * @param clientMemory reads the client buffers' bytes
     * @param scriptMemory reads the script engine's bytes
     * @param budget the heap budget the implicit limits come from
     * @param latency records eviction cycles
     * @param clock gives the time in ms
     * @param nanoTime times eviction rounds
     */
    public MaxMemory(Config config, Keyspace keyspace, LongSupplier clientMemory, LongSupplier scriptMemory, HeapBudget budget,
                     LongSupplier clock, LongSupplier nanoTime, LatencyMonitor latency) {
        this.config = config;
        this.keyspace = keyspace;
        this.clientMemory = clientMemory;
        this.scriptMemory = scriptMemory;
        this.budget = budget;
        this.eviction = new Eviction(keyspace, nanoTime);
        this.nanoTime = nanoTime;
        this.latency = latency;
        this.maxmemory = config.liveNumber("maxmemory");
        this.samples = config.liveNumber("maxmemory-samples");
        this.tenacity = config.liveNumber("maxmemory-eviction-tenacity");
        this.clock = clock;
        this.startup = keyspace.tableBytes();
    }

    /**
     * The bytes counted toward the limit (INFO's used_memory).
     *
     * @return the bytes
     */
    public long used() {
        long used = dataset() + overhead();
        if (used > peak) {
            peak = used;
        }
        return used;
    }

    /**
     * The bytes of keys and values (INFO's used_memory_dataset).
     *
     * @return the bytes
     */
    public long dataset() {
        return keyspace.storedBytes();
    }

    /**
     * The bytes of the key tables, clients and scripts (INFO's used_memory_overhead).
     *
     * @return the bytes
     */
    public long overhead() {
        return keyspace.tableBytes() + clientMemory.getAsLong() + scriptMemory.getAsLong();
    }

    /**
     * The bytes used by the empty keyspace the engine started with (INFO's used_memory_startup).
     *
     * @return the bytes
     */
    public long startup() {
        return startup;
    }

    /**
     * The most {@link #used} has been (INFO's used_memory_peak).
     *
     * @return the bytes
     */
    public long peak() {
        return Math.max(peak, used());
    }

    /**
     * The bytes of the client buffers, as the transport counts them.
     *
     * @return the bytes
     */
    public long clients() {
        return clientMemory.getAsLong();
    }

    /**
     * Whether {@code maxmemory} is 0, so the heap's implicit limit applies.
     *
     * @return whether the limit is implicit
     */
    public boolean implicit() {
        return maxmemory.getAsLong() == 0;
    }

    /**
     * The limit in force: {@code maxmemory}, or the heap's implicit limit.
     *
     * @return the limit, in bytes
     */
    public long limit() {
        long configured = maxmemory.getAsLong();
        return configured > 0 ? configured : budget.implicitMaxmemory();
    }

    /**
     * The heap budget the implicit limits come from.
     *
     * @return the budget
     */
    public HeapBudget budget() {
        return budget;
    }

    /** The policy in force: {@code maxmemory-policy}, or noeviction under the implicit limit. */
    private EvictionPolicy policy() {
        return implicit() ? EvictionPolicy.NOEVICTION : EvictionPolicy.of(config.get("maxmemory-policy"));
    }

    /**
     * Before a command: evicts as the policy says while memory is over the limit; returns whether
     * it stays over with nothing left to evict (then {@code denyoom} commands are refused).
     *
     * @return whether memory stays over the limit
     */
    public boolean beforeCommand() {
        return evict() == Eviction.Result.FAIL;
    }

    /**
     * Whether a round cut short by its time budget waits to be continued ({@link #continueEviction}).
     *
     * @return whether a round waits
     */
    public boolean evictionRunning() {
        return running;
    }

    /**
     * Continues an eviction round that ran out of time; returns whether more rounds are needed.
     *
     * @return whether more rounds are needed
     */
    public boolean continueEviction() {
        evict();
        return running;
    }

    private Eviction.Result evict() {
        long limit = limit();
        // The common case, on every command: within the limit, nothing to read or build.
        Eviction.Result result = used() <= limit ? Eviction.Result.OK : timedEviction(limit);
        if (result == Eviction.Result.OK && exceededSince < 0) {
            running = false;
            return result;
        }
        running = result == Eviction.Result.RUNNING;
        long now = clock.getAsLong();
        if (result == Eviction.Result.OK) {
            if (exceededSince >= 0) {
                exceededMillis += now - exceededSince;
                exceededSince = -1;
            }
        } else if (exceededSince < 0) {
            exceededSince = now;
        }
        return result;
    }

    /** One eviction round, reported to the latency monitor as an {@code eviction-cycle}. */
    private Eviction.Result timedEviction(long limit) {
        long start = nanoTime.getAsLong();
        Eviction.Result result = eviction.evict(limit, this::used,
                new Eviction.Settings(policy(), (int) Math.min(Integer.MAX_VALUE, samples.getAsLong()), (int) tenacity.getAsLong()));
        latency.sample("eviction-cycle", (nanoTime.getAsLong() - start) / 1_000_000);
        return result;
    }

    /**
     * Reads every figure at once.
     *
     * @return the figures
     */
    public MemoryFigures figures() {
        Runtime rt = Runtime.getRuntime();
        long tables = keyspace.tableBytes();
        long clients = clientMemory.getAsLong();
        long scripts = scriptMemory.getAsLong();
        long dataset = dataset();
        long used = dataset + tables + clients + scripts;
        peak = Math.max(peak, used);
        return new MemoryFigures(used, peak, startup(), tables + clients + scripts, tables, clients, scripts, dataset,
                ProcessMemory.residentBytes(), rt.totalMemory() - rt.freeMemory(), rt.totalMemory(), budget.maxHeap(), limit(),
                implicit());
    }

    /** Starts the eviction time figures again (CONFIG RESETSTAT). */
    public void resetStats() {
        exceededMillis = 0;
        if (exceededSince >= 0) {
            exceededSince = clock.getAsLong();
        }
    }

    /**
     * Milliseconds spent over the limit in total (INFO's total_eviction_exceeded_time).
     *
     * @return the milliseconds
     */
    public long totalExceededMillis() {
        return exceededMillis + currentExceededMillis();
    }

    /**
     * Milliseconds over the limit since it was last exceeded, 0 when within it (current_eviction_exceeded_time).
     *
     * @return the milliseconds
     */
    public long currentExceededMillis() {
        return exceededSince < 0 ? 0 : clock.getAsLong() - exceededSince;
    }
}
