package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.memory.Footprint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MULTI, EXEC, DISCARD, WATCH and UNWATCH with Redis's semantics, and the registry of watched
 * keys.
 *
 * <p>Queueing happens in {@link Dispatcher}: inside MULTI every command but EXEC, DISCARD,
 * MULTI, WATCH, QUIT and RESET is checked (unknown command, arity, authentication, no_multi) and
 * queued; a rejected one flags the transaction, and EXEC then answers EXECABORT. At EXEC the
 * queued commands run one after another under the engine lock, so nothing else runs between
 * them; one failing does not undo the others; blocking commands answer as if their timeout had
 * passed.
 *
 * <p>WATCH: the engine reports every change to a key (writes, deletion, expiry, FLUSHDB and
 * FLUSHALL of keys that existed) through {@link #touched}; a session that watches the key is
 * marked dirty and its next EXEC answers null. All of a session's watches end at EXEC, DISCARD,
 * UNWATCH and disconnection.
 *
 * <p>SWAPDB follows Redis's rules for expired keys: a watched key that another database's swap
 * replaces with a live key, or that a swap takes away while live, is a change; a missing key
 * replaced by an already expired one is not, and the watch remembers it as "expired" (Redis's
 * {@code watchedKey.expired}). While a watch is so marked, the key's deletion (its expiry, a
 * flush, a swap taking it away) changes nothing and ends the mark; any other change is one.
 * Ordo deletes a key that has expired when WATCH names it, so a mark arises from SWAPDB only.
 */
public final class Transactions {
    private final Map<WatchedKey, Set<Session>> watchers = new HashMap<>();
    /** For each watched key, the sessions whose watch is marked expired (see the class comment). */
    private final Map<WatchedKey, Set<Session>> expiredWatchers = new HashMap<>();

    record WatchedKey(int db, Key key) {
    }

    /** A session's open transaction. */
    static final class Multi {
        final List<Queued> queued = new ArrayList<>();
        boolean flagged;
        /** Whether a queued call is denyoom, so that EXEC is refused under OOM (Redis's mstate.cmd_flags). */
        boolean denyOom;
        /** The heap bytes of the queued commands (CLIENT LIST's multi-mem). */
        volatile long memory;

        /** Queues a command, counting what it holds. */
        void queue(Command command, byte[][] args, boolean denyOomCall) {
            queued.add(new Queued(command, args));
            denyOom |= denyOomCall;
            long bytes = Footprint.object(2, 0) + Footprint.referenceArray(args.length) + Footprint.REFERENCE;
            for (byte[] a : args) {
                bytes += Footprint.array(a.length);
            }
            memory += bytes;
        }
    }

    record Queued(Command command, byte[][] args) {
    }

    static void register(CommandTable t) {
        t.register(Command.of("multi", Transactions::multi));
        t.register(Command.of("exec", Transactions::exec));
        t.register(Command.of("discard", Transactions::discard));
        t.register(Command.of("watch", Transactions::watch));
        t.register(Command.of("unwatch", Transactions::unwatch));
    }

    /**
     * Whether {@code command} runs at once inside MULTI instead of being queued.
     *
     * @param command the command
     * @return whether it runs at once
     */
    public static boolean runsInsideMulti(Command command) {
        switch (command.fullName()) {
            case "exec":
            case "discard":
            case "multi":
            case "watch":
            case "quit":
            case "reset":
                return true;
            default:
                return false;
        }
    }

    private static void multi(Call c) {
        if (c.session().multi() != null) {
            throw new ErrorReply("ERR MULTI calls can not be nested");
        }
        c.session().beginMulti(new Multi());
        c.reply().simpleString("OK");
    }

    private static void discard(Call c) {
        if (c.session().multi() == null) {
            throw new ErrorReply("ERR DISCARD without MULTI");
        }
        c.session().endMulti();
        c.context().transactions().unwatchAll(c.session());
        c.reply().simpleString("OK");
    }

    private static void watch(Call c) {
        if (c.session().multi() != null) {
            throw new ErrorReply("ERR WATCH inside MULTI is not allowed");
        }
        Transactions t = c.context().transactions();
        for (int i = 1; i < c.argc(); i++) {
            Key key = c.key(i);
            c.db().exists(key);
            t.watch(c.session(), c.session().db(), key);
        }
        c.reply().simpleString("OK");
    }

    private static void unwatch(Call c) {
        c.context().transactions().unwatchAll(c.session());
        c.reply().simpleString("OK");
    }

    private static void exec(Call c) {
        Session session = c.session();
        Multi multi = session.multi();
        if (multi == null) {
            throw new ErrorReply("ERR EXEC without MULTI");
        }
        session.endMulti();
        Transactions t = c.context().transactions();
        if (multi.flagged) {
            t.unwatchAll(session);
            throw new ErrorReply(Errors.EXEC_ABORT_PREVIOUS);
        }
        t.expireWatched(session, c.keyspace());
        boolean dirty = session.watchDirty();
        t.unwatchAll(session);
        if (dirty) {
            c.reply().nullArray();
            return;
        }
        c.reply().arrayHeader(multi.queued.size());
        session.setExecuting(multi);
        try {
            for (Queued q : multi.queued) {
                String refusal = c.context().dispatcher().checkQueuedCommand(session, q.command(), q.args());
                if (refusal != null) {
                    c.context().dispatcher().replyError(c.reply(), refusal);
                    continue;
                }
                c.context().dispatcher().runNested(q.command(), session, q.args(), c.reply());
            }
        } finally {
            session.setExecuting(null);
        }
    }

    void watch(Session session, int db, Key key) {
        WatchedKey k = new WatchedKey(db, key);
        if (watchers.computeIfAbsent(k, x -> new HashSet<>()).add(session)) {
            session.watching().add(k);
        }
    }

    /** Lazily expires the session's watched keys, so a key that expired since WATCH makes it dirty. */
    void expireWatched(Session session, Keyspace keyspace) {
        for (WatchedKey w : session.watching()) {
            keyspace.db(w.db()).exists(w.key());
        }
    }

    /**
     * Ends every watch of {@code session} and clears its dirty mark.
     *
     * @param session the client
     */
    public void unwatchAll(Session session) {
        for (WatchedKey k : session.watching()) {
            remove(watchers, k, session);
            remove(expiredWatchers, k, session);
        }
        session.watching().clear();
        session.setWatchDirty(false);
    }

    private static void remove(Map<WatchedKey, Set<Session>> map, WatchedKey k, Session session) {
        Set<Session> set = map.get(k);
        if (set != null && set.remove(session) && set.isEmpty()) {
            map.remove(k);
        }
    }

    /**
     * SWAPDB a b, called once the contents are exchanged: for each key watched in a or b, what
     * its database held before (now in the other one) is "emptied", what it holds now is
     * "replaced"; stored means present, expired or not. Redis's rules, in the class comment.
     *
     * @param a one database's number
     * @param b the other's
     * @param keyspace the keyspace, after the swap
     */
    public void swapped(int a, int b, Keyspace keyspace) {
        watchers.forEach((k, sessions) -> {
            if (k.db() != a && k.db() != b) {
                return;
            }
            Database now = keyspace.db(k.db());
            boolean inEmptied = keyspace.db(k.db() == a ? b : a).peek(k.key()) != null;
            boolean inReplaced = now.peek(k.key()) != null;
            if (!inEmptied && !inReplaced) {
                return;
            }
            boolean replacedExpired = inReplaced && now.isExpired(k.key());
            Set<Session> marked = expiredWatchers.get(k);
            for (Session s : sessions) {
                if (marked != null && marked.contains(s)) {
                    if (!inReplaced) {
                        remove(expiredWatchers, k, s);
                        continue;
                    }
                    if (replacedExpired) {
                        continue;
                    }
                } else if (!inEmptied && replacedExpired) {
                    expiredWatchers.computeIfAbsent(k, x -> new HashSet<>()).add(s);
                    continue;
                }
                s.setWatchDirty(true);
            }
        });
    }

    /**
     * Number of distinct keys watched, over all databases (INFO's total_watched_keys).
     *
     * @return the count
     */
    public int watchedKeys() {
        return watchers.size();
    }

    /**
     * Number of sessions watching at least one key (INFO's watching_clients).
     *
     * @return the count
     */
    public int watchingClients() {
        Set<Session> sessions = new HashSet<>();
        watchers.values().forEach(sessions::addAll);
        return sessions.size();
    }

    /**
     * A key changed: every session watching it becomes dirty, but for a watch marked expired when
     * the key is now deleted or expired (the change is then its deletion, and the mark ends).
     *
     * @param db the database's number
     * @param key the key
     * @param keyspace the keyspace
     */
    public void touched(int db, Key key, Keyspace keyspace) {
        if (watchers.isEmpty()) {
            return;
        }
        WatchedKey k = new WatchedKey(db, key);
        Set<Session> set = watchers.get(k);
        if (set == null) {
            return;
        }
        Set<Session> marked = expiredWatchers.get(k);
        boolean gone = marked != null && (keyspace.db(db).peek(key) == null || keyspace.db(db).isExpired(key));
        for (Session s : set) {
            if (gone && marked.contains(s)) {
                continue; // an expired key's deletion is no change; the mark ends below
            }
            s.setWatchDirty(true);
        }
        if (gone) {
            expiredWatchers.remove(k);
        }
    }
}
