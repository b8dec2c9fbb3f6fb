package dev.ordo.engine;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.KeyspaceListener;
import dev.ordo.engine.memory.HeapBudget;
import dev.ordo.engine.pubsub.Subscriber;
import dev.ordo.engine.time.Clock;
import dev.ordo.engine.time.Scheduler;

import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The database engine: the keyspace, the command table and the rules for running commands.
 *
 * <p>Atomicity: every command runs while holding one lock, so each is atomic with respect to
 * every other, as under Redis's single thread. The network server runs its I/O on one event loop
 * thread that takes the lock per command, so on the fast path the lock is never contended;
 * embedded callers take it from their own threads. Blocked clients (BLPOP, BZPOPMIN ...; {@code Waiters}) wait without
 * the lock and are served, first come first served, right after the command that created the key
 * they wait for or swapped it in (SWAPDB), still under that command's lock, from that key, and
 * only while it holds the type of value they wait for: a key of another type leaves them waiting.
 *
 * <p>Work the engine schedules itself (active expiry, blocking timeouts, forgetting a closed
 * connection, sampling INFO's instantaneous figures) only tries the lock and retries shortly, so it never stalls the thread it runs on
 * behind a long script.
 *
 * <p>Scripts: a script holds the lock while it runs. A caller that cannot get the lock waits,
 * and once the running script is older than {@code busy-reply-threshold} it gets Redis's BUSY
 * error instead; SCRIPT KILL, FUNCTION KILL and SHUTDOWN NOSAVE are then served without the lock.
 * A network server whose event loop runs a long script answers its other clients from inside
 * the script ({@code Scripting.BusyHandler}), as Redis does.
 *
 * <p>This class is what an embedder uses: make an engine, {@link #connect()} clients, subscribe,
 * keep the data on disk, close. A network server hosting the engine reaches more through
 * {@code dev.ordo.engine.host.HostedEngine}, which is not exported to other modules.
 */
public final class Engine implements AutoCloseable {
    private final EngineCore core;

    /**
     * An engine with {@code config} (read live: CONFIG SET changes it), reading time from
     * {@code clock} and running its periodic work (active expiry, blocking timeouts, save rules)
     * on {@code scheduler}.
     *
     * @param config    the configuration (Redis's defaults: {@code new Config()})
     * @param clock     the time source ({@code Clock.SYSTEM} outside tests)
     * @param scheduler runs the engine's timed work
     */
    public Engine(Config config, Clock clock, Scheduler scheduler) {
        this(config, clock, scheduler, HeapBudget.ofThisJvm());
    }

    /** An engine whose implicit memory limits come from {@code budget} instead of this JVM's heap (for tests). */
    Engine(Config config, Clock clock, Scheduler scheduler, HeapBudget budget) {
        this.core = new EngineCore(config, clock, scheduler, budget);
        HostedEngine.register(this, core);
    }

    /**
     * The configuration, live: a change through CONFIG SET shows here.
     *
     * @return the configuration
     */
    public Config config() {
        return core.config();
    }

    /**
     * A client in this process: the same commands and replies as over the network, no sockets.
     * Bulk strings arrive as {@code byte[]}.
     *
     * @return a new client, open until closed
     */
    public EmbeddedClient connect() {
        return core.connect();
    }

    /**
     * A client like {@link #connect()} whose bulk strings arrive as {@link String}s decoded from
     * UTF-8, made straight from the engine's own bytes: for callers that want text, which then
     * skip a byte array and a second copy per string.
     *
     * @return a new client, open until closed
     */
    public EmbeddedClient connectText() {
        return core.connectText();
    }

    /**
     * An in-process subscriber whose listener runs on the engine's listener thread (one daemon
     * thread for all such subscribers, each still served in order).
     *
     * @param listener receives the messages
     * @return a subscriber with no subscription yet
     */
    public Subscriber subscriber(Subscriber.Listener listener) {
        return core.subscriber(listener);
    }

    /**
     * An in-process subscriber whose listener runs on {@code executor}, one message at a time, in order.
     *
     * @param listener receives the messages
     * @param executor runs the listener
     * @return a subscriber with no subscription yet
     */
    public Subscriber subscriber(Subscriber.Listener listener, Executor executor) {
        return core.subscriber(listener, executor);
    }

    /**
     * Loads the data kept in the configured {@code dir} (the append-only file, else the snapshot)
     * and from then on keeps it there: save rules, the append-only file when {@code appendonly
     * yes}, a save at SHUTDOWN. Without this call the engine is in memory only (SAVE and BGSAVE
     * still write to {@code dir}).
     *
     * @throws IOException when a file cannot be read or is corrupt (the message names it and the offset)
     */
    public void startPersistence() throws IOException {
        core.startPersistence();
    }

    /**
     * With {@code appendfsync always}, returns once the writes acknowledged so far are on disk
     * (one fsync covers every caller waiting at the time); with the other policies at once.
     */
    public void awaitDurable() {
        core.awaitDurable();
    }

    /**
     * Runs {@code action} while no command runs (under the engine's lock), for reading several things at one instant.
     *
     * @param action what to run; it must not wait for other clients
     */
    public void withLock(Runnable action) {
        core.withLock(action);
    }

    /**
     * Number of clients waiting in a blocking command (BLPOP, BZPOPMIN ...).
     *
     * @return the number of blocked clients
     */
    public int blockedClients() {
        return core.blockedClients();
    }

    /**
     * The figures a monitoring system reads (commands' calls and time, memory, keys, clients),
     * taken together under the engine's lock, as INFO would report them at this instant.
     *
     * @return a snapshot that does not change afterwards
     */
    public EngineStats stats() {
        return core.stats();
    }

    /**
     * What happens, besides every later command being refused, when the engine stops for good
     * because a write ran out of memory part way ({@code why} says so); by default nothing.
     *
     * @param action told why the engine stopped
     */
    public void onFailStop(Consumer<String> action) {
        core.onFailStop(action);
    }

    /**
     * Hears keyspace events as Redis would publish them, for embedders that want them without
     * subscribing to {@code __keyspace@*__} or {@code __keyevent@*__}.
     */
    @FunctionalInterface
    public interface KeyspaceEventListener {
        /**
         * One event, under the engine's lock, in the order the changes happen: keep it short and
         * do not call the engine from it.
         *
         * @param db    the database
         * @param event the event's name ({@code set}, {@code zadd}, {@code expired} ...)
         * @param key   the key (a copy)
         */
        void event(int db, String event, byte[] key);
    }

    /**
     * Adds a listener of the keyspace events whose class {@code notify-keyspace-events} enables
     * (whatever its K and E say: those choose the Pub/Sub channels).
     *
     * @param listener told each event
     */
    public void addKeyspaceEventListener(KeyspaceEventListener listener) {
        core.withLock(() -> core.keyspace().addListener(new KeyspaceListener() {
            @Override
            public void keyCreated(int db, Key key) {
            }

            @Override
            public void keyspaceEvent(int db, String event, Key key) {
                listener.event(db, event, key.bytes().clone());
            }
        }));
    }

    /** Stops background work (the active expiry cycle, the sampling of instantaneous figures, idle script threads) and persistence. */
    @Override
    public void close() {
        core.close();
    }
}
