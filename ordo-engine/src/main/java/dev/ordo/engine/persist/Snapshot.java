package dev.ordo.engine.persist;

import dev.ordo.engine.value.Value;
import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.persist.rdb.RdbWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A point-in-time image of the keyspace, written in RDB format while clients keep writing: the
 * fork-free equivalent of Redis's child process.
 *
 * <p>How it stays point-in-time: {@link #capture} records, under the engine lock, every live key
 * with a reference to its value object and its expiry (a shallow copy: no value is copied). From
 * then on the snapshot is a {@link Dispatcher.WriteBarrier}: before any write command runs, each
 * of its arguments that names a key whose value object the snapshot has not written yet gets that
 * value written first, as it still is. Values are changed in place only by write commands on
 * their own key (a script's or a transaction's commands each pass the barrier), and the barrier
 * matches value objects by identity, so a value renamed, moved or swapped to another database
 * before it is changed is caught too; deleting or replacing a key never changes the old object.
 * The barrier is conservative: an argument that merely equals a key's name (a member, a field)
 * writes that key early, which is harmless because keys may appear in any order in the file.
 *
 * <p>Progress: the owner calls {@link #step} under the engine lock with a budget of elements,
 * takes the bytes produced with {@link #takeOutput}, and writes them to the file outside the lock,
 * so other clients run between steps. A single value is always written whole within one step
 * (a sorted set of a million members holds the lock for as long as writing it takes).
 *
 * <p>Thread-safety: every method runs under the engine lock.
 */
final class Snapshot implements Dispatcher.WriteBarrier {
    private final Keyspace keyspace;
    private final List<Item> items = new ArrayList<>();
    private final Map<Object, Item> pending = new IdentityHashMap<>();
    private final long[] keysPerDb;
    private final long[] expiresPerDb;
    /** Where a background image collects its bytes between steps; null when writing straight to a file. */
    private final ByteArrayOutputStream out;
    private final RdbWriter writer;
    private final boolean tracking;
    private int cursor;
    private long written;
    private int currentDb = -1;
    private boolean finished;

    private record Item(int db, Key key, Value value, long expireAt) {
    }

    private Snapshot(Keyspace keyspace, boolean compress, boolean checksum, OutputStream direct) {
        this.keyspace = keyspace;
        this.tracking = direct == null;
        this.out = direct == null ? new ByteArrayOutputStream(1 << 16) : null;
        this.keysPerDb = new long[keyspace.databases()];
        this.expiresPerDb = new long[keyspace.databases()];
        this.writer = new RdbWriter(direct == null ? out : direct, compress, checksum);
    }

    /**
     * Records the keyspace as it is now and writes the file header (aux fields, then the function
     * libraries). Keys already expired are left out. With {@code direct} null the image is a
     * background one: it collects its bytes for {@link #takeOutput} and tracks which values it
     * has written, for the write barrier. Otherwise it writes straight to {@code direct}, whole,
     * under the lock ({@link #writeAll}: SAVE, a base at startup), and needs no tracking.
     */
    static Snapshot capture(Keyspace keyspace, Map<String, String> aux, List<byte[]> libraries, boolean compress,
            boolean checksum, OutputStream direct) {
        Snapshot s = new Snapshot(keyspace, compress, checksum, direct);
        boolean background = direct == null;
        long now = keyspace.now();
        for (int d = 0; d < keyspace.databases(); d++) {
            int db = d;
            keyspace.db(d).forEachStored((key, e) -> {
                if (e.expireAt() == Database.NO_EXPIRY || e.expireAt() > now) {
                    Item item = new Item(db, key, e.value(), e.expireAt());
                    s.items.add(item);
                    if (background) {
                        s.pending.put(e.value(), item);
                    }
                    s.keysPerDb[db]++;
                    if (e.expireAt() != Database.NO_EXPIRY) {
                        s.expiresPerDb[db]++;
                    }
                }
            });
        }
        s.writer.header(aux);
        libraries.forEach(s.writer::function);
        return s;
    }

    /** Number of keys in the image. */
    int keys() {
        return items.size();
    }

    @Override
    public void beforeWrite(int db, byte[][] args) {
        if (pending.isEmpty()) {
            return;
        }
        Database database = keyspace.db(db);
        for (int i = 1; i < args.length; i++) {
            Value value = database.peek(Key.of(args[i]));
            if (value != null) {
                Item item = pending.remove(value);
                if (item != null) {
                    write(item);
                }
            }
        }
    }

    /**
     * Writes pending keys until about {@code budget} elements have been written; returns whether
     * the image is complete (the end marker and checksum written).
     */
    boolean step(long budget) {
        long spent = 0;
        while (spent < budget && cursor < items.size()) {
            Item item = items.get(cursor++);
            if (!tracking || pending.remove(item.value) != null) {
                write(item);
                spent += item.value.weight();
            }
        }
        if (cursor == items.size() && !finished) {
            writer.finish();
            finished = true;
        }
        return finished;
    }

    /** The bytes produced since the last call. */
    byte[] takeOutput() {
        if (!finished) {
            writer.flush();
        }
        byte[] bytes = out.toByteArray();
        out.reset();
        return bytes;
    }

    /** Writes the whole image to the stream it was captured for (holding the lock throughout). */
    void writeAll() {
        while (!step(Long.MAX_VALUE)) {
            // each step writes until the budget; this one is unlimited
        }
    }

    /** Keys written so far. */
    long written() {
        return written;
    }

    private void write(Item item) {
        written++;
        if (item.db != currentDb) {
            currentDb = item.db;
            writer.selectDb(item.db, keysPerDb[item.db], expiresPerDb[item.db]);
        }
        writer.entry(item.key, item.value, item.expireAt);
    }

}
