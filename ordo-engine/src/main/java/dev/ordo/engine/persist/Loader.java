package dev.ordo.engine.persist;

import dev.ordo.engine.command.ObjectReplyWriter;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.persist.aof.AofLayout;
import dev.ordo.engine.persist.aof.AofReader;
import dev.ordo.engine.persist.rdb.RdbReader;
import dev.ordo.engine.persist.rdb.RdbSink;
import dev.ordo.engine.script.Functions;
import dev.ordo.engine.value.Value;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the data files into the keyspace, for {@link Persistence}: at startup, for DEBUG RELOAD
 * and for DEBUG LOADAOF. A snapshot goes through {@link RdbReader}; an append-only file's base
 * (RDB or commands) and then its incremental files are replayed through the dispatcher in
 * loading mode. A load that fails leaves the keyspace and the function libraries empty, and
 * says which file and offset. Runs under the engine lock; remembers what the last load found
 * (INFO's rdb_last_load_keys_*, the AOF sizes).
 */
final class Loader {
    private final PersistenceHost host;
    private final Config config;
    private final Keyspace keyspace;
    private final DataFiles files;
    private final Consumer<String> log;
    private long loadedKeys;
    private long expiredKeys;
    private long aofBaseSize;
    private long aofOlderIncrSize;

    Loader(PersistenceHost host, DataFiles files, Consumer<String> log) {
        this.host = host;
        this.config = host.config();
        this.keyspace = host.keyspace();
        this.files = files;
        this.log = log;
    }

    /** Keys the last snapshot load added. */
    long loadedKeys() {
        return loadedKeys;
    }

    /** Keys the last snapshot load skipped as already expired. */
    long expiredKeys() {
        return expiredKeys;
    }

    /** The size of the base file the last append-only load read. */
    long aofBaseSize() {
        return aofBaseSize;
    }

    /** The sizes of the incremental files before the last one, as the last append-only load read them. */
    long aofOlderIncrSize() {
        return aofOlderIncrSize;
    }

    /**
     * Loads the data at startup: the append-only file when {@code appendonly yes} and its
     * manifest exists (upgrading a Redis 6 single file first), else the snapshot if there is one.
     * Returns the manifest loaded, or null.
     */
    AofLayout.Manifest loadAtStartup() throws IOException {
        AofLayout.Manifest manifest = null;
        long started = System.nanoTime();
        Path manifestFile = files.layout().manifestPath();
        if (files.appendOnly()) {
            upgradeSingleFileAof();
        }
        if (files.appendOnly() && Files.exists(manifestFile)) {
            manifest = AofLayout.read(manifestFile);
            loadAppendOnlyFile(manifest);
            log.accept(String.format(java.util.Locale.ROOT, "DB loaded from append only file: %.3f seconds", seconds(started)));
        } else if (Files.exists(files.rdbFile())) {
            loadRdb(files.rdbFile());
            log.accept(String.format(java.util.Locale.ROOT, "DB loaded from disk: %.3f seconds (%d keys)", seconds(started),
                    loadedKeys));
        }
        return manifest;
    }

    /**
     * Redis 7's upgrade of a Redis 6 append-only file, a single {@code appendfilename} in
     * {@code dir}: it becomes the base of a new AOF directory. The manifest naming it is written
     * first, then the file moves in; a crash in between is completed here at the next start.
     */
    private void upgradeSingleFileAof() throws IOException {
        Path old = files.dir().resolve(config.get("appendfilename"));
        if (!Files.isRegularFile(old)) {
            return;
        }
        String name = old.getFileName().toString();
        Path manifestFile = files.layout().manifestPath();
        if (!Files.exists(manifestFile)) {
            Files.createDirectories(files.aofDir());
            AofLayout.writeAtomically(files.aofDir(), files.layout().manifestName(),
                    new AofLayout.Manifest(new AofLayout.FileEntry(name, 1, AofLayout.Type.BASE), List.of(), List.of()));
        } else {
            AofLayout.FileEntry base = AofLayout.read(manifestFile).base();
            if (base == null || !base.name().equals(name) || Files.exists(files.aofDir().resolve(name))) {
                return;
            }
        }
        Files.move(old, files.aofDir().resolve(name), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        AofLayout.fsyncDirectory(files.aofDir());
        AofLayout.fsyncDirectory(files.dir());
        log.accept("Successfully migrated an old-style AOF into the AOF directory: " + name);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Loads a snapshot at startup (or an AOF base) into the empty keyspace; a failure leaves it empty. */
    private void loadRdb(Path file) throws IOException {
        try {
            loadRdb(file, true);
        } catch (IOException e) {
            emptyAll();
            throw e;
        }
    }

    /**
     * Loads a snapshot into the keyspace as it is; with {@code merge} a key or library in the
     * file replaces one already there, without it that fails the load (what loaded stays).
     */
    void loadRdb(Path file, boolean merge) throws IOException {
        long[] counts = new long[2];
        Functions functions = host.functions();
        long now = keyspace.now();
        try {
            RdbReader.read(file, new RdbSink() {
                @Override
                public void function(byte[] libraryCode) {
                    functions.load(libraryCode, merge);
                }

                @Override
                public void entry(int db, Key key, Value value, long expireAtMillis) {
                    if (db >= keyspace.databases()) {
                        throw new UncheckedIOException(new IOException("the file selects database " + db + ", but only "
                                + keyspace.databases() + " are configured"));
                    }
                    if (expireAtMillis != Database.NO_EXPIRY && expireAtMillis <= now && !keyspace.loading()) {
                        counts[1]++;
                        return;
                    }
                    Database d = keyspace.db(db);
                    if (d.delete(key) && !merge) {
                        throw new UncheckedIOException(new IOException("duplicated key '" + key + "' in DB " + db));
                    }
                    d.add(key, value);
                    if (expireAtMillis != Database.NO_EXPIRY) {
                        d.setExpireAt(key, expireAtMillis);
                    }
                    counts[0]++;
                }
            }, config);
        } catch (IOException | RuntimeException e) {
            throw new IOException("Bad file format reading " + file + ": " + e.getMessage(), e);
        }
        loadedKeys = counts[0];
        expiredKeys = counts[1];
    }

    /**
     * Loads the base, then replays the incremental files, all in loading mode: no key expires
     * until the end (a base key past its time is kept too), so every logged command meets the
     * state it met when it ran.
     */
    void loadAppendOnlyFile(AofLayout.Manifest m) throws IOException {
        keyspace.setLoading(true);
        try {
            loadAppendOnlyFiles(m);
        } catch (java.nio.file.NoSuchFileException e) {
            emptyAll();
            throw new IOException("The AOF manifest " + files.layout().manifestPath() + " lists " + e.getFile() + ", which does not exist", e);
        } finally {
            keyspace.setLoading(false);
        }
    }

    private void loadAppendOnlyFiles(AofLayout.Manifest m) throws IOException {
        aofBaseSize = 0;
        aofOlderIncrSize = 0;
        Path dir = files.aofDir();
        if (m.base() != null) {
            Path base = dir.resolve(m.base().name());
            if (AofReader.startsWithRdb(base)) {
                loadRdb(base);
            } else {
                replay(base, false);
            }
            aofBaseSize = Files.size(base);
        }
        for (int i = 0; i < m.incrs().size(); i++) {
            Path incr = dir.resolve(m.incrs().get(i).name());
            replay(incr, i == m.incrs().size() - 1);
            if (i < m.incrs().size() - 1) {
                aofOlderIncrSize += Files.size(incr);
            }
        }
    }

    /** Runs the commands of one AOF file; only the last incremental file may end torn. */
    private void replay(Path file, boolean last) throws IOException {
        Session session = new Session(keyspace.now(), true);
        ObjectReplyWriter out = new ObjectReplyWriter(session::protocol);
        long[] errors = new long[1];
        AofReader.Result result;
        try {
            result = AofReader.read(file, (args, offset) -> {
                keyspace.beginCommand();
                host.dispatcher().dispatch(session, args, out, false);
                if (out.take() instanceof ErrorReply e && errors[0]++ < 10) {
                    log.accept("Command in " + file.getFileName() + " at offset " + offset + " failed: " + e.getMessage());
                }
            });
        } catch (IOException | RuntimeException e) {
            emptyAll();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        if (result.torn()) {
            if (!last || !config.get("aof-load-truncated").equals("yes")) {
                emptyAll();
                throw new IOException("Unexpected end of file in " + file + " at offset " + result.validUpTo()
                        + (last ? " (aof-load-truncated is no)" : " (not the last file)")
                        + ": run ordo-server --check-aof --fix " + file);
            }
            log.accept("!!! Warning: short read while loading the AOF file " + file.getFileName() + "!!! Truncating the AOF at offset "
                    + result.validUpTo() + " (the last write was torn by a crash)");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(result.validUpTo());
                ch.force(true);
            }
        }
    }

    void emptyAll() {
        keyspace.flushAll();
        host.functions().flush();
    }
}
