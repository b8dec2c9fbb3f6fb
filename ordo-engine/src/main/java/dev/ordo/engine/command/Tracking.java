package dev.ordo.engine.command;

import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.pubsub.ClientTracking;
import dev.ordo.engine.pubsub.PushSink;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Client-side caching (CLIENT TRACKING), as Redis keeps it. Default mode: the keys each tracking
 * client's read commands fetched, in one table of key name to client ids (databases are not told
 * apart, as in Redis); when such a key changes, each of those clients gets one invalidation and
 * the key leaves the table, so a client hears of a key once per read. BCAST mode: a client
 * registers prefixes (none: every key) and hears of every change to a key under one, the keys
 * of a prefix gathered until the end of the command that changed them ({@link #flushBroadcasts}).
 * A flush tells every tracking client to drop everything (a null invalidation).
 *
 * <p>Invariants: the table holds at most {@code tracking-table-max-keys} keys (0: no limit); past
 * it, the oldest keys are invalidated and dropped, as Redis evicts from its table. A client id
 * in the table may belong to a client that turned tracking off or left: it is skipped when an
 * invalidation comes. NOLOOP spares a client the invalidations its own commands cause. All of
 * this runs under the engine lock.
 */
public final class Tracking {
    /** For contexts without clients that can track: nothing is ever remembered there. */
    static final Tracking NONE = new Tracking(() -> 0);

    private final java.util.function.LongSupplier maxKeys;
    private final Map<Key, Set<Long>> table = new LinkedHashMap<>();
    /** Tracking clients and redirect targets, by id, while connected. */
    private final Map<Long, Session> clients = new HashMap<>();
    private final Map<Long, Session> targets = new HashMap<>();
    /** BCAST prefixes: their clients and the keys changed under them since the last flush, with who changed each. */
    private final Map<Key, Prefix> prefixes = new LinkedHashMap<>();
    /** The client whose command runs now (NOLOOP's "own"), or null. */
    private Session current;
    private boolean flushing;
    private long totalItems;

    private static final class Prefix {
        final Set<Session> clients = new LinkedHashSet<>();
        final Map<Key, Session> changed = new LinkedHashMap<>();
    }

    /**
     * Tracking that remembers at most {@code maxKeys} keys (tracking-table-max-keys; 0 for no limit).
     *
     * @param maxKeys reads the limit
     */
    public Tracking(java.util.function.LongSupplier maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** CLIENT TRACKING ON: {@code target} is the redirect client (null for none), already checked to exist. */
    void enable(Session s, ClientTracking mode, Session target) {
        s.setTracking(mode);
        clients.put(s.id(), s);
        if (target != null) {
            targets.put(target.id(), target);
        }
        if (mode.bcast()) {
            List<byte[]> names = mode.prefixes().isEmpty() ? List.of(new byte[0]) : mode.prefixes();
            for (byte[] name : names) {
                prefixes.computeIfAbsent(Key.of(name), k -> new Prefix()).clients.add(s);
            }
        }
    }

    /** CLIENT TRACKING OFF (or the client left). */
    void disable(Session s) {
        ClientTracking mode = s.tracking();
        s.setTracking(null);
        clients.remove(s.id());
        if (mode != null && mode.bcast()) {
            for (Iterator<Prefix> it = prefixes.values().iterator(); it.hasNext(); ) {
                Prefix p = it.next();
                p.clients.remove(s);
                if (p.clients.isEmpty()) {
                    it.remove();
                }
            }
        }
    }

    /**
     * Forgets a client that left: its tracking, and its use as a redirect target.
     *
     * @param s the client
     */
    public void forget(Session s) {
        disable(s);
        targets.remove(s.id());
    }

    /**
     * Sets the client whose command runs (for NOLOOP, and whose reads a script's commands are); null after it.
     *
     * @param s the client, or null
     */
    public void setCurrent(Session s) {
        current = s;
    }

    /** Whether any client tracks (the command path asks this first). */
    boolean active() {
        return !clients.isEmpty();
    }

    /** The client whose command runs, or null. */
    Session current() {
        return current;
    }

    /**
     * After a read command of {@code reader} ran, on behalf of {@code client} (itself, or the client
     * whose script or transaction ran it): remembers its keys if that client tracks them.
     */
    void remember(Session client, Command command, byte[][] args) {
        ClientTracking mode = client.tracking();
        if (mode == null || !mode.remembersReads() || !command.is(Command.Flag.READONLY) || !CommandKeys.hasKeys(command)) {
            return;
        }
        for (int position : CommandKeys.positions(command, args)) {
            Key key = Key.of(args[position].clone());
            if (table.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(client.id())) {
                totalItems++;
            }
        }
        long max = maxKeys.getAsLong();
        while (max > 0 && table.size() > max) {
            Key oldest = table.keySet().iterator().next();
            invalidate(oldest, false);
        }
    }

    /**
     * After each top-level command: CLIENT CACHING's choice lasts until a command other than a
     * CLIENT subcommand has run (outside MULTI), as Redis resets it.
     *
     * @param s the client
     * @param clientCommand whether the command was a CLIENT subcommand
     */
    public void commandDone(Session s, boolean clientCommand) {
        ClientTracking mode = s.tracking();
        if (mode != null && mode.caching() != null && !s.inMulti() && !clientCommand) {
            mode.setCaching(null);
        }
    }

    /**
     * A key changed (written, deleted, expired, evicted): tells the clients that read it, and gathers it for BCAST prefixes.
     *
     * @param key the key
     */
    public void keyChanged(Key key) {
        if (flushing || (table.isEmpty() && prefixes.isEmpty())) {
            return;
        }
        invalidate(key, true);
        for (Map.Entry<Key, Prefix> e : prefixes.entrySet()) {
            if (startsWith(key.bytes(), e.getKey().bytes())) {
                e.getValue().changed.put(key, current);
            }
        }
    }

    private void invalidate(Key key, boolean sparesCurrent) {
        Set<Long> ids = table.remove(key);
        if (ids == null) {
            return;
        }
        totalItems -= ids.size();
        List<byte[]> keys = List.of(key.bytes());
        for (long id : ids) {
            Session c = clients.get(id);
            if (c == null || c.tracking() == null || c.tracking().bcast()) {
                continue;
            }
            if (sparesCurrent && c.tracking().noloop() && c == current) {
                continue;
            }
            send(c, keys);
        }
    }

    /** Sends each BCAST prefix's gathered keys to its clients (NOLOOP: not the keys a client changed itself). */
    public void flushBroadcasts() {
        if (prefixes.isEmpty()) {
            return; // after every command: nothing to walk unless a client broadcasts
        }
        for (Prefix p : prefixes.values()) {
            if (p.changed.isEmpty()) {
                continue;
            }
            for (Session c : p.clients) {
                List<byte[]> keys = new ArrayList<>(p.changed.size());
                p.changed.forEach((key, by) -> {
                    if (!(c.tracking().noloop() && by == c)) {
                        keys.add(key.bytes());
                    }
                });
                if (!keys.isEmpty()) {
                    send(c, keys);
                }
            }
            p.changed.clear();
        }
    }

    /** FLUSHALL, FLUSHDB: every tracking client drops its whole cache; the table empties. */
    public void flushed() {
        for (Session c : clients.values()) {
            send(c, null);
        }
        table.clear();
        totalItems = 0;
        prefixes.values().forEach(p -> p.changed.clear());
    }

    /**
     * Whether a flush is under way, so its per-key changes are not sent one by one.
     *
     * @param flushing whether a flush runs
     */
    public void setFlushing(boolean flushing) {
        this.flushing = flushing;
    }

    private void send(Session c, List<byte[]> keys) {
        ClientTracking mode = c.tracking();
        if (mode.redirect() == 0) {
            if (c.pushSink() != null) {
                c.pushSink().invalidate(keys, false);
            }
            return;
        }
        Session target = targets.get(mode.redirect());
        if (target == null) {
            if (!mode.redirectBroken()) {
                mode.markRedirectBroken();
                if (c.pushSink() != null) {
                    c.pushSink().trackingRedirectBroken(mode.redirect());
                }
            }
            return;
        }
        PushSink sink = target.pushSink();
        if (sink != null) {
            sink.invalidate(keys, true);
        }
    }

    /**
     * INFO's tracking_clients.
     *
     * @return the count
     */
    public int clientCount() {
        return clients.size();
    }

    /**
     * INFO's tracking_total_keys.
     *
     * @return the count
     */
    public int keyCount() {
        return table.size();
    }

    /**
     * INFO's tracking_total_items: (key, client) pairs.
     *
     * @return the count
     */
    public long itemCount() {
        return totalItems;
    }

    /**
     * INFO's tracking_total_prefixes.
     *
     * @return the count
     */
    public int prefixCount() {
        return prefixes.size();
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }
}
