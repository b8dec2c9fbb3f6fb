package dev.ordo.engine.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The effects of writes, in the order they happened, grouped into atomic units: what the
 * append-only file (and any future replica) needs to reproduce the same state.
 *
 * <p>Rules, as Redis 7 propagates:
 * <ul>
 *   <li>A write command that changed the keyspace is logged as its own arguments, unless its
 *       handler said what its effect was instead ({@link Call#propagate}): relative expiries
 *       become absolute (PEXPIREAT, SET ... PXAT), pops (ZPOPMIN, BZPOPMIN, ZMPOP, SPOP ...)
 *       become the removals they performed, an expiry that deleted its key becomes DEL. Write
 *       commands without key arguments (FLUSHALL, SWAPDB, FUNCTION LOAD ...) are logged whenever
 *       they succeed.</li>
 *   <li>A key found expired (lazily by a command, or by the active cycle) is logged as DEL.</li>
 *   <li>Everything one top-level command caused (a script's writes, a transaction's commands,
 *       their lazy expiries) is one unit; the listener wraps a unit of several commands in
 *       MULTI/EXEC. Scripts and EXEC themselves are never logged, only what they did.</li>
 * </ul>
 * Each effect carries the database it applies to. Used under the engine lock only.
 */
public final class EffectLog {
    /** Receives each finished unit (under the engine lock; it must not keep the list). */
    @FunctionalInterface
    public interface Listener {
        /**
         * Receives one unit: a command's effects, or those of a script or transaction together.
         *
         * @param effects the effects, in order
         */
        void unit(List<Effect> effects);
    }

    /** One command to replay in database {@code db}. */
    public record Effect(int db, byte[][] args) {
    }

    private static final byte[] DEL = "DEL".getBytes(StandardCharsets.US_ASCII);

    private Listener listener;
    private int depth;
    private final List<Effect> pending = new ArrayList<>();

    /**
     * Starts (or stops, with null) logging.
     *
     * @param listener the listener, or null
     */
    public void setListener(Listener listener) {
        this.listener = listener;
        pending.clear();
    }

    /**
     * Whether anyone listens: handlers skip building effect arguments when nobody does.
     *
     * @return whether effects are logged
     */
    public boolean enabled() {
        return listener != null;
    }

    void begin() {
        depth++;
    }

    void end() {
        if (--depth == 0 && !pending.isEmpty()) {
            flush();
        }
    }

    /**
     * Logs one command; outside any command it is a unit of its own.
     *
     * @param db the database's number
     * @param args the command and its arguments
     */
    public void add(int db, byte[][] args) {
        if (listener == null) {
            return;
        }
        pending.add(new Effect(db, args));
        if (depth == 0) {
            flush();
        }
    }

    /**
     * Logs that the server deleted {@code key} on its own: it expired (lazily or by the active cycle), or was evicted.
     *
     * @param db the database's number
     * @param key the key deleted
     */
    public void deleted(int db, byte[] key) {
        add(db, new byte[][] {DEL, key});
    }

    private void flush() {
        try {
            listener.unit(pending);
        } finally {
            pending.clear();
        }
    }
}
