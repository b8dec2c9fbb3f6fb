package dev.ordo.engine;

import dev.ordo.engine.time.Scheduler;
import dev.ordo.engine.time.Clock;
import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.command.BlockedClients;
import dev.ordo.engine.command.Call;
import dev.ordo.engine.command.CallContext;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandObserver;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.command.DumpFormat;
import dev.ordo.engine.command.InstantaneousMetrics;
import dev.ordo.engine.command.MaxMemory;
import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.ScriptCounts;
import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.command.Tracking;
import dev.ordo.engine.command.Transactions;
import dev.ordo.engine.command.CommandFamilies;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.keyspace.EventClass;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.keyspace.KeyspaceListener;
import dev.ordo.engine.memory.HeapBudget;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.persist.Persistence;
import dev.ordo.engine.persist.PersistenceHost;
import dev.ordo.engine.persist.RdbDumpFormat;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.pubsub.KeyspaceNotifier;
import dev.ordo.engine.pubsub.PubSub;
import dev.ordo.engine.pubsub.Subscriber;
import dev.ordo.engine.script.ScriptCommands;
import dev.ordo.engine.script.Functions;
import dev.ordo.engine.script.Scripting;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The engine itself, behind {@link Engine}: the keyspace, the command table, the lock and
 * everything a network server hooks into ({@link HostedEngine}). Package-private: embedders see
 * {@link Engine}, the server sees {@link HostedEngine}. The rules for running commands are in
 * {@link Engine}'s header.
 */
final class EngineCore implements CallContext, KeyspaceListener, PersistenceHost, HostedEngine {
    private final ReentrantLock lock = new ReentrantLock();
    private final Config config;
    private final Keyspace keyspace;
    private final CommandTable commands;
    private final Scheduler scheduler;
    private final Dispatcher dispatcher;
    private final Scripting scripting;
    private final Acl acl;
    private final Transactions transactions = new Transactions();
    private final PubSub pubSub = new PubSub();
    private final Tracking tracking;
    /** Runs embedded subscribers' listeners when they name no executor: one daemon thread, made on first use. */
    private java.util.concurrent.ExecutorService listenerThread;
    private final EmbeddedServerControl embeddedClients;
    private volatile ServerControl server;
    private final Persistence persistence;
    private final DumpFormat dumpFormat;
    private final MaxMemory maxMemory;
    private volatile boolean persistent;
    /** DEBUG PAUSE-CRON: while set, the periodic tasks run but do nothing. */
    private volatile boolean cronPaused;
    /** Whether a task continuing an eviction round is scheduled. */
    private boolean evictionScheduled;
    /** Why the engine stopped for good ({@link #failStop}), or null while it runs. */
    private volatile String stopped;
    private volatile java.util.function.Consumer<String> onFailStop = why -> { };

    private final Waiters waiters;
    private final BusyScriptGate busyGate;
    private volatile boolean closed;

    /** An engine whose implicit memory limits come from {@code budget}. */
    EngineCore(Config config, Clock clock, Scheduler scheduler, HeapBudget budget) {
        this.config = config;
        this.keyspace = new Keyspace(config.getInt("databases"), clock);
        keyspace.setLfuSettings(config.lfuSettings());
        this.commands = CommandFamilies.all();
        this.scheduler = scheduler;
        this.tracking = new Tracking(config.liveNumber("tracking-table-max-keys"));
        this.dispatcher = new Dispatcher(this);
        this.scripting = new Scripting(this);
        this.waiters = new Waiters(lock, keyspace, dispatcher, scheduler);
        ScriptCommands.register(commands, scripting);
        this.acl = new Acl(config, commands);
        this.busyGate = new BusyScriptGate(lock, config, commands, acl, scripting, dispatcher, () -> server);
        this.embeddedClients = new EmbeddedServerControl();
        this.server = embeddedClients;
        this.persistence = new Persistence(this);
        this.dumpFormat = new RdbDumpFormat(config);
        this.maxMemory = new MaxMemory(config, keyspace, () -> server.clientMemory(), scripting::memoryUsage, budget, clock::millis,
                System::nanoTime, dispatcher.latencyMonitor());
        keyspace.addListener(this);
        keyspace.addListener(new KeyspaceNotifier(pubSub, keyspace::notifyMask));
        keyspace.setNotifyMask(EventClass.mask(config.get("notify-keyspace-events")));
        config.onChange("notify-keyspace-events", v -> keyspace.setNotifyMask(EventClass.mask(v)));
        scheduleActiveExpiry();
        scheduleMetricsSample();
    }

    /** Adds an observer of every command that runs (MONITOR; which and when: {@link CommandObserver}). */
    @Override
    public void addObserver(CommandObserver observer) {
        dispatcher.addObserver(observer);
    }

    @Override
    public void removeObserver(CommandObserver observer) {
        dispatcher.removeObserver(observer);
    }

    /**
     * Lets a network server take over CLIENT, SHUTDOWN and INFO's transport fields. The embedded
     * clients stay registered with the control it replaces, which it must list and kill through.
     */
    @Override
    public void setServerControl(ServerControl server) {
        this.server = server;
    }

    @Override
    public Keyspace keyspace() {
        return keyspace;
    }

    @Override
    public Config config() {
        return config;
    }

    @Override
    public CommandTable commands() {
        return commands;
    }

    @Override
    public ServerControl server() {
        return server;
    }

    @Override
    public Dispatcher dispatcher() {
        return dispatcher;
    }

    @Override
    public Persistence persistence() {
        return persistence;
    }

    @Override
    public DumpFormat dumpFormat() {
        return dumpFormat;
    }

    /**
     * Loads the data kept in the configured {@code dir} (the append-only file, else the snapshot)
     * and from then on keeps it there: save rules, the append-only file when {@code appendonly
     * yes}, a save at SHUTDOWN. Without this call the engine is in memory only (SAVE and BGSAVE
     * still write to {@code dir}). Throws when a file is corrupt, naming it and the offset.
     */
    @Override
    public void startPersistence() throws java.io.IOException {
        persistence.start();
        persistent = true;
    }

    /**
     * Called by transports before they send replies: with {@code appendfsync always} the writes
     * those replies acknowledge are on disk when this returns (one fsync covers every caller
     * waiting at the time); with the other policies it returns at once.
     */
    @Override
    public void awaitDurable() {
        if (persistent) {
            persistence.awaitDurable();
        }
    }

    /** The engine's timer (for services that run periodic work). */
    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    /** Runs {@code action} under the lock if it is free now; returns whether it ran. */
    @Override
    public boolean tryWithLock(Runnable action) {
        if (!lock.tryLock()) {
            return false;
        }
        try {
            action.run();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Transactions transactions() {
        return transactions;
    }

    /**
     * A client in this process: the same commands and replies as over the network, no sockets.
     * Bulk strings arrive as {@code byte[]}.
     */
    public EmbeddedClient connect() {
        return new EmbeddedClient(this, false);
    }

    /**
     * A client like {@link #connect()} whose bulk strings arrive as {@link String}s decoded from
     * UTF-8, made straight from the engine's own bytes: for callers that want text, which then
     * skip a byte array and a second copy per string.
     */
    public EmbeddedClient connectText() {
        return new EmbeddedClient(this, true);
    }

    /** The registry of live embedded clients (also the control while no network server has taken over). */
    EmbeddedServerControl embeddedClients() {
        return embeddedClients;
    }

    /** A new session, as the default user; authenticated from the start when that user is on and has no password. */
    @Override
    public Session newSession() {
        Session s = new Session(keyspace.clock().millis(), !acl.authRequired());
        s.setUser(acl.defaultUser());
        return s;
    }

    /** The users and their permissions (ACL). */
    @Override
    public Acl acl() {
        return acl;
    }

    /**
     * Runs one command for {@code session}, writing its reply to {@code out}. Returns
     * {@link HostedEngine.Outcome#BLOCKED} when the command waits for a key; the reply then comes later.
     */
    @Override
    public HostedEngine.Outcome execute(Session session, byte[][] args, ReplyWriter out, HostedEngine.Resumer resumer) {
        return execute(session, args, out, resumer, false);
    }

    @Override
    public HostedEngine.Outcome executeNext(Session session, byte[][] args, ReplyWriter out, HostedEngine.Resumer resumer) {
        return execute(session, args, out, resumer, true);
    }

    /**
     * Runs a client's command. When it follows the caller's previous command at once ({@code
     * next}), took the lock without waiting, and the last command ran to its end, it begins at
     * that command's end reading: nothing but the caller's reply and parsing came between.
     */
    private HostedEngine.Outcome execute(Session session, byte[][] args, ReplyWriter out, HostedEngine.Resumer resumer, boolean next) {
        if (stopped != null) {
            out.error(Errors.ENGINE_STOPPED);
            return HostedEngine.Outcome.DONE;
        }
        if (!busyGate.acquire(session, args, out)) {
            return HostedEngine.Outcome.DONE;
        }
        try {
            if (next && !busyGate.waited() && dispatcher.ranToEnd()) {
                keyspace.beginCommandAt(dispatcher.endNanos());
            } else {
                keyspace.beginCommand();
            }
            tracking.setCurrent(session);
            Call.BlockRequest block;
            try {
                block = dispatcher.dispatchBegun(session, args, out);
            } finally {
                tracking.setCurrent(null);
            }
            if (session.tracking() != null) {
                Command named = commands.lookup(args[0]);
                tracking.commandDone(session, named != null && named.name().equals("client"));
            }
            tracking.flushBroadcasts();
            if (block != null) {
                waiters.register(session, args, out, resumer, block);
                return HostedEngine.Outcome.BLOCKED;
            }
            waiters.serveReadyKeys();
            return HostedEngine.Outcome.DONE;
        } finally {
            scheduleEvictionIfRunning();
            lock.unlock();
        }
    }

    @Override
    public MaxMemory maxMemory() {
        return maxMemory;
    }

    /**
     * Stops the engine for good: a write ran out of memory part way, so the data in memory may be
     * inconsistent (the append-only file and snapshots hold only whole writes, since effects are
     * logged after a command ends). Every later command gets {@link Errors#ENGINE_STOPPED}, and
     * the handler set with {@link #onFailStop} runs (the server logs and exits at once). Called
     * under the lock.
     */
    @Override
    public void failStop(String why) {
        if (stopped == null) {
            stopped = why;
            onFailStop.accept(why);
        }
    }

    /** What {@link #failStop} does besides refusing every later command (the server exits). */
    @Override
    public void onFailStop(java.util.function.Consumer<String> action) {
        this.onFailStop = action;
    }

    /** Under the lock: when an eviction round ran out of time, continues it from a task, as Redis's eviction timer does. */
    private void scheduleEvictionIfRunning() {
        if (maxMemory.evictionRunning() && !evictionScheduled && !closed) {
            evictionScheduled = true;
            scheduler.schedule(this::continueEviction, 0);
        }
    }

    private void continueEviction() {
        if (!lock.tryLock()) {
            scheduler.schedule(this::continueEviction, 1);
            return;
        }
        try {
            evictionScheduled = false;
            keyspace.beginCommand();
            maxMemory.continueEviction();
            scheduleEvictionIfRunning();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} under the lock as one unit (see {@link EmbeddedClient#atomically}): time
     * stands still, writes are logged together, and waiting clients are served once it ends.
     * Bulk strings of the commands' replies arrive as text when {@code textBulks}.
     */
    <T> T atomically(Session session, boolean textBulks, Function<EmbeddedClient.Commands, T> body) {
        lock.lock();
        try {
            if (session.inMulti()) {
                throw new IllegalStateException("atomically inside MULTI: EXEC or DISCARD first");
            }
            keyspace.beginCommand();
            return dispatcher.asOneUnit(() -> body.apply(args -> callInUnit(session, textBulks, args)));
        } finally {
            try {
                waiters.serveReadyKeys();
            } finally {
                lock.unlock();
            }
        }
    }

    private Object callInUnit(Session session, boolean textBulks, byte[][] args) {
        EmbeddedClient.requireName(args);
        ObjectReplyWriter out = EmbeddedClient.replyWriter(session, textBulks);
        dispatcher.dispatch(session, args, out, false);
        return EmbeddedClient.replyOf(out);
    }

    /**
     * What Redis answers while a script is busy, for a transport serving its clients from inside
     * the script's thread (see {@link Scripting.BusyHandler} and {@link BusyScriptGate}).
     */
    @Override
    public void answerWhileBusy(Session session, byte[][] args, ReplyWriter out, Scripting.Run run) {
        busyGate.answerWhileBusy(session, args, out, run, true);
    }

    @Override
    public ScriptCounts scriptCounts() {
        return new ScriptCounts(scripting.cachedScripts(), scripting.functions().functionCount(),
                scripting.functions().libraries().size());
    }

    @Override
    public Functions functions() {
        return scripting.functions();
    }

    /** The script runner (SCRIPT and FUNCTION state, the running script). */
    @Override
    public Scripting scripting() {
        return scripting;
    }

    /** Runs {@code action} under the engine lock (for transports and tools that read engine state). */
    @Override
    public void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }

    /** Whether the calling thread holds the engine lock (it then must not wait for work that needs the lock). */
    @Override
    public boolean holdsLock() {
        return lock.isHeldByCurrentThread();
    }

    /** Forgets a closed connection: it is no longer waiting for any key nor watching any. */
    @Override
    public void disconnect(Session session) {
        if (!lock.tryLock()) {
            scheduler.schedule(() -> disconnect(session), 10);
            return;
        }
        try {
            transactions.unwatchAll(session);
            if (session.subscriptions() != null) {
                pubSub.forget(session.subscriptions());
            }
            tracking.forget(session);
            waiters.forget(session);
        } finally {
            lock.unlock();
        }
    }

    /** Engine.stats(): every figure read under the lock, the command map copied. */
    EngineStats stats() {
        EngineStats[] out = new EngineStats[1];
        withLock(() -> {
            Map<String, EngineStats.CommandStats> commands = new TreeMap<>();
            dispatcher.stats().forEach((name, s) -> commands.put(name,
                    new EngineStats.CommandStats(s.calls, s.micros, s.rejectedCalls, s.failedCalls)));
            long keys = 0;
            for (int db = 0; db < keyspace.databases(); db++) {
                keys += keyspace.db(db).size();
            }
            out[0] = new EngineStats(commands, maxMemory.used(), keys, server.clients().size());
        });
        return out[0];
    }

    /** Number of clients waiting in a blocking command. */
    @Override
    public int blockedClients() {
        return waiters.count();
    }

    @Override
    public BlockedClients blocking() {
        return waiters.stats();
    }

    @Override
    public void keyModified(int db, Key key) {
        transactions.touched(db, key, keyspace);
        tracking.keyChanged(key);
    }

    @Override
    public void keyExpired(int db, Key key) {
        dispatcher.effects().deleted(db, key.bytes());
    }

    @Override
    public void keyEvicted(int db, Key key) {
        dispatcher.effects().deleted(db, key.bytes());
    }

    /** A database is being emptied: tracking clients drop their caches once, not key by key. */
    @Override
    public void flushing(int db, boolean started) {
        if (started) {
            tracking.flushed();
        }
        tracking.setFlushing(started);
    }

    /**
     * SWAPDB: watched keys of either database are touched, and a key that clients of either
     * database wait for and that exists there now is ready, as if it had just been created (Redis
     * rescans its blocked keys the same way). Keys are served in the order their first waiter came.
     */
    @Override
    public void databasesSwapped(int a, int b) {
        transactions.swapped(a, b, keyspace);
        waiters.swapped(a, b);
    }

    @Override
    public void keyCreated(int db, Key key) {
        waiters.keyCreated(db, key);
    }

    @Override
    public boolean unblock(long clientId, boolean withError) {
        return waiters.unblock(clientId, withError);
    }

    /** The subscriptions of every client (PUBLISH, SUBSCRIBE, PUBSUB); changed under the engine lock. */
    @Override
    public PubSub pubSub() {
        return pubSub;
    }

    /** Client-side caching: what tracking clients read, and their invalidations. */
    @Override
    public Tracking tracking() {
        return tracking;
    }

    /**
     * An in-process subscriber whose listener runs on the engine's listener thread (one daemon
     * thread for all such subscribers, each still served in order).
     */
    public Subscriber subscriber(Subscriber.Listener listener) {
        synchronized (this) {
            if (listenerThread == null) {
                listenerThread = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "ordo-pubsub-listener");
                    t.setDaemon(true);
                    return t;
                });
            }
        }
        return subscriber(listener, listenerThread);
    }

    /** An in-process subscriber whose listener runs on {@code executor}, one message at a time, in order. */
    public Subscriber subscriber(Subscriber.Listener listener, java.util.concurrent.Executor executor) {
        return new Subscriber(pubSub, this::withLock, executor, listener, () -> config.outputBufferLimits().pubsub());
    }

    /** Stops background work (the active expiry cycle, the sampling of instantaneous figures, idle coroutine threads). */
    public void close() {
        closed = true;
        synchronized (this) {
            if (listenerThread != null) {
                listenerThread.shutdown();
            }
        }
        scripting.abort();
        scripting.close();
        if (persistent) {
            persistent = false;
            persistence.stop();
        }
    }

    @Override
    public void pauseCron(boolean paused) {
        cronPaused = paused;
    }

    /** Whether DEBUG PAUSE-CRON stopped the periodic work (active expiry, metrics, save points, AOF rewrites). */
    @Override
    public boolean cronPaused() {
        return cronPaused;
    }

    private void scheduleActiveExpiry() {
        if (!closed) {
            scheduler.schedule(this::activeExpiryCycle, 1000L / Math.max(1, config.getInt("hz")));
        }
    }

    /**
     * Redis's active expiry, simplified: per database, sample 20 keys with a TTL and delete the
     * expired ones, repeating while more than a quarter of a sample had expired (bounded work).
     */
    private void activeExpiryCycle() {
        if (cronPaused || !lock.tryLock()) {
            scheduleActiveExpiry();
            return;
        }
        try {
            long start = System.nanoTime();
            keyspace.beginCommand();
            for (int d = 0; keyspace.activeExpireEnabled() && d < keyspace.databases(); d++) {
                for (int round = 0; round < 16; round++) {
                    if (keyspace.db(d).expireSample(20, keyspace.random()) <= 5) {
                        break;
                    }
                }
            }
            long micros = (System.nanoTime() - start) / 1000;
            keyspace.stats().expireCycleMicros += micros;
            dispatcher.latencyMonitor().sample("expire-cycle", micros / 1000);
            tracking.flushBroadcasts();
        } finally {
            lock.unlock();
        }
        scheduleActiveExpiry();
    }

    private void scheduleMetricsSample() {
        if (!closed) {
            scheduler.schedule(this::sampleMetrics, InstantaneousMetrics.SAMPLE_PERIOD_MILLIS);
        }
    }

    /** Samples the instantaneous figures (skipped while a long command holds the lock: the next sample covers the gap). */
    private void sampleMetrics() {
        if (!cronPaused) {
            tryWithLock(() -> dispatcher.instantaneous().sample(keyspace.clock().millis(), dispatcher.totalCommands(),
                    server.transportStats()));
        }
        scheduleMetricsSample();
    }

    /** The command a session's arguments name, for transports that need flags (e.g. QUIT). */
    @Override
    public Command lookup(byte[] name) {
        return commands.lookup(name);
    }
}
