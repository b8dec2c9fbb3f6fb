package dev.ordo.engine;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.command.BlockedClients;
import dev.ordo.engine.command.Call;
import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.time.Scheduler;
import dev.ordo.engine.value.KeyType;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The clients waiting in blocking commands (BLPOP, BZPOPMIN, BLMOVE ...), one mechanism for every
 * type. A client waits on one or more keys of its database, in a queue per key ordered by
 * arrival. A key becomes ready when it is created (or swapped in by SWAPDB); at the end of the
 * command that did it, {@link #serveReadyKeys} retries each waiter's command on that key, first
 * come first served, while the key holds a value of the type the waiter wants. A waiter leaves
 * every queue when served, timed out, unblocked or disconnected.
 *
 * <p>Everything runs under the engine lock; timeouts fire on the scheduler and take the lock.
 */
final class Waiters {
    private record DbKey(int db, Key key) {
    }

    private static final class Blocked {
        final Session session;
        final byte[][] args;
        final ReplyWriter out;
        final HostedEngine.Resumer resumer;
        final KeyType valueType;
        /** Order of arrival among all blocked clients (first come, first served). */
        final long arrival;
        final List<DbKey> keys = new ArrayList<>();
        Scheduler.Task timeout;

        Blocked(Session session, byte[][] args, ReplyWriter out, HostedEngine.Resumer resumer, KeyType valueType, long arrival) {
            this.session = session;
            this.args = args;
            this.out = out;
            this.resumer = resumer;
            this.valueType = valueType;
            this.arrival = arrival;
        }
    }

    private final ReentrantLock lock;
    private final Keyspace keyspace;
    private final Dispatcher dispatcher;
    private final Scheduler scheduler;
    private final Map<DbKey, ArrayDeque<Blocked>> blockedByKey = new HashMap<>();
    private final Set<DbKey> readyKeys = new LinkedHashSet<>();
    private int count;
    private long arrivals;

    Waiters(ReentrantLock lock, Keyspace keyspace, Dispatcher dispatcher, Scheduler scheduler) {
        this.lock = lock;
        this.keyspace = keyspace;
        this.dispatcher = dispatcher;
        this.scheduler = scheduler;
    }

    /** Number of clients waiting. */
    int count() {
        return count;
    }

    /** INFO's figures: clients waiting, distinct keys waited on, clients with a timeout. */
    BlockedClients stats() {
        Set<Blocked> distinct = new HashSet<>();
        blockedByKey.values().forEach(distinct::addAll);
        int withTimeout = 0;
        for (Blocked b : distinct) {
            if (b.timeout != null) {
                withTimeout++;
            }
        }
        return new BlockedClients(distinct.size(), blockedByKey.size(), withTimeout);
    }

    /** A closed connection waits no more; its timeout is cancelled. */
    void forget(Session session) {
        for (Iterator<Map.Entry<DbKey, ArrayDeque<Blocked>>> it = blockedByKey.entrySet().iterator(); it.hasNext(); ) {
            ArrayDeque<Blocked> queue = it.next().getValue();
            queue.removeIf(b -> {
                if (b.session == session) {
                    if (b.timeout != null) {
                        b.timeout.cancel();
                    }
                    return true;
                }
                return false;
            });
            if (queue.isEmpty()) {
                it.remove();
            }
        }
        count = stats().clients();
    }

    /** SWAPDB of {@code a} and {@code b}: keys waited for that now hold a value are ready, in their first waiter's order. */
    void swapped(int a, int b) {
        List<DbKey> swappedIn = new ArrayList<>();
        for (DbKey k : blockedByKey.keySet()) {
            if ((k.db() == a || k.db() == b) && keyspace.db(k.db()).peek(k.key()) != null) {
                swappedIn.add(k);
            }
        }
        swappedIn.sort(java.util.Comparator.comparingLong(k -> blockedByKey.get(k).peekFirst().arrival));
        readyKeys.addAll(swappedIn);
    }

    /** A key was created: its waiters, if any, are served at the end of the command. */
    void keyCreated(int db, Key key) {
        DbKey k = new DbKey(db, key);
        if (blockedByKey.containsKey(k)) {
            readyKeys.add(k);
        }
    }

    /** Parks a client whose command asked to wait ({@code block}) until a key is ready or its timeout passes. */
    void register(Session session, byte[][] args, ReplyWriter out, HostedEngine.Resumer resumer, Call.BlockRequest block) {
        Blocked b = new Blocked(session, args, out, resumer, block.valueType(), arrivals++);
        for (Key key : block.keys()) {
            DbKey k = new DbKey(session.db(), key);
            b.keys.add(k);
            blockedByKey.computeIfAbsent(k, x -> new ArrayDeque<>()).add(b);
        }
        count++;
        if (block.timeoutMillis() > 0) {
            b.timeout = scheduler.schedule(() -> timeOut(b), block.timeoutMillis());
        }
    }

    /** CLIENT UNBLOCK: answers the client's wait (nil, or the UNBLOCKED error); returns whether it was waiting. */
    boolean unblock(long clientId, boolean withError) {
        for (ArrayDeque<Blocked> queue : blockedByKey.values()) {
            for (Blocked b : queue) {
                if (b.session.id() == clientId) {
                    unregister(b);
                    if (b.timeout != null) {
                        b.timeout.cancel();
                    }
                    if (withError) {
                        dispatcher.replyError(b.out, Errors.UNBLOCKED);
                    } else {
                        b.out.nullArray();
                    }
                    b.resumer.resume();
                    return true;
                }
            }
        }
        return false;
    }

    private void timeOut(Blocked b) {
        if (!lock.tryLock()) {
            scheduler.schedule(() -> timeOut(b), 10);
            return;
        }
        try {
            if (unregister(b)) {
                b.out.nullArray();
                b.resumer.resume();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code b} from every queue; returns whether it was still waiting. */
    private boolean unregister(Blocked b) {
        boolean found = false;
        for (DbKey k : b.keys) {
            ArrayDeque<Blocked> queue = blockedByKey.get(k);
            if (queue != null && queue.remove(b)) {
                found = true;
                if (queue.isEmpty()) {
                    blockedByKey.remove(k);
                }
            }
        }
        if (found) {
            count--;
        }
        return found;
    }

    /** Serves the clients waiting on keys that were created or swapped in, key by key in the order they became ready. */
    void serveReadyKeys() {
        while (!readyKeys.isEmpty()) {
            Iterator<DbKey> it = readyKeys.iterator();
            DbKey k = it.next();
            it.remove();
            serveWaitersOf(k);
        }
    }

    /**
     * Serves the clients waiting on {@code k} in arrival order, each from {@code k}, while it holds
     * a value; a client waiting for another type of value is passed over and keeps waiting.
     */
    private void serveWaitersOf(DbKey k) {
        ArrayDeque<Blocked> queue = blockedByKey.get(k);
        if (queue == null) {
            return;
        }
        for (Blocked b : List.copyOf(queue)) {
            Database.Entry entry = keyspace.db(k.db()).entry(k.key());
            if (entry == null) {
                return;
            }
            if (entry.value().type() != b.valueType
                    || dispatcher.retryBlocked(b.session, b.args, b.out, k.key()) != null) {
                continue;
            }
            unregister(b);
            if (b.timeout != null) {
                b.timeout.cancel();
            }
            b.resumer.resume();
        }
    }
}
