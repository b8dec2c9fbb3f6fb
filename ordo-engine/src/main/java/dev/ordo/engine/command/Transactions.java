package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.Errors;
import dev.ordo.engine.keyspace.Key;

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
 * marked dirty and its next EXEC answers null; SWAPDB dirties keys watched in either database
 * that exist in either. All of a session's watches end at EXEC, DISCARD,
 * UNWATCH and disconnection.
 */
public final class Transactions {
    private final Map<WatchedKey, Set<Session>> watchers = new HashMap<>();

    record WatchedKey(int db, Key key) {
    }

    /** A session's open transaction. */
    static final class Multi {
        final List<Queued> queued = new ArrayList<>();
        boolean flagged;
    }

    record Queued(Command command, byte[][] args) {
    }

    static void register(CommandTable t) {
        t.register(Command.of("multi", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transactions", Transactions::multi));
        t.register(Command.of("exec", 1, "noscript loading stale skip_slowlog", 0, 0, 0, "transactions", Transactions::exec));
        t.register(Command.of("discard", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transactions", Transactions::discard));
        t.register(Command.of("watch", -2, "noscript loading stale fast allow_busy", 1, -1, 1, "transactions", Transactions::watch));
        t.register(Command.of("unwatch", 1, "noscript loading stale fast allow_busy", 0, 0, 0, "transactions", Transactions::unwatch));
    }

    /** Whether {@code command} runs at once inside MULTI instead of being queued. */
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
        for (Queued q : multi.queued) {
            c.context().dispatcher().runNested(q.command(), session, q.args(), c.reply());
        }
    }

    void watch(Session session, int db, Key key) {
        WatchedKey k = new WatchedKey(db, key);
        if (watchers.computeIfAbsent(k, x -> new HashSet<>()).add(session)) {
            session.watching().add(k);
        }
    }

    /** Lazily expires the session's watched keys, so a key that expired since WATCH makes it dirty. */
    void expireWatched(Session session, dev.ordo.engine.keyspace.Keyspace keyspace) {
        for (WatchedKey w : session.watching()) {
            keyspace.db(w.db()).exists(w.key());
        }
    }

    /** Ends every watch of {@code session} and clears its dirty mark. */
    public void unwatchAll(Session session) {
        for (WatchedKey k : session.watching()) {
            Set<Session> set = watchers.get(k);
            if (set != null && set.remove(session) && set.isEmpty()) {
                watchers.remove(k);
            }
        }
        session.watching().clear();
        session.setWatchDirty(false);
    }

    /**
     * SWAPDB a b: a key watched in either database changed if it exists in either one now (as
     * Redis 7.2 decides it).
     */
    public void swapped(int a, int b, dev.ordo.engine.keyspace.Keyspace keyspace) {
        watchers.forEach((k, sessions) -> {
            if ((k.db() == a || k.db() == b) && (keyspace.db(a).exists(k.key()) || keyspace.db(b).exists(k.key()))) {
                sessions.forEach(s -> s.setWatchDirty(true));
            }
        });
    }

    /** Number of distinct keys watched, over all databases (INFO's total_watched_keys). */
    public int watchedKeys() {
        return watchers.size();
    }

    /** Number of sessions watching at least one key (INFO's watching_clients). */
    public int watchingClients() {
        Set<Session> sessions = new HashSet<>();
        watchers.values().forEach(sessions::addAll);
        return sessions.size();
    }

    /** A key changed: every session watching it becomes dirty. */
    public void touched(int db, Key key) {
        if (watchers.isEmpty()) {
            return;
        }
        Set<Session> set = watchers.get(new WatchedKey(db, key));
        if (set != null) {
            for (Session s : set) {
                s.setWatchDirty(true);
            }
        }
    }
}
