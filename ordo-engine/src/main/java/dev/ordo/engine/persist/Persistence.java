package dev.ordo.engine.persist;

import dev.ordo.engine.command.PersistenceControl;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.persist.aof.AofLayout;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Keeps the data on disk, as Redis does: RDB snapshots (SAVE, BGSAVE, {@code save} rules, a save
 * at SHUTDOWN) and the multi-part append-only file ({@link AofLayout}: one base written from a
 * snapshot, then incremental files of effects), with startup loading, BGREWRITEAOF and the
 * automatic rewrite rule.
 *
 * <p>Background work runs on its own thread from a {@link Snapshot} (fork-free point-in-time
 * image); one background job runs at a time, as Redis allows one child. A rewrite opens a new
 * incremental file and records it in the manifest at the instant its snapshot is taken, so
 * whatever moment a crash happens, the manifest on disk names files that together hold every
 * write: either the old base with all incremental files, or the new base with the new one.
 *
 * <p>Files are written to a temporary name, fsynced, renamed over the final name, and the
 * directory fsynced. Everything but the background file writing and the everysec fsync runs
 * under the engine lock.
 */
public final class Persistence implements PersistenceControl {
    /** Elements a background job writes per hold of the engine lock. */
    private static final long STEP_BUDGET = 16_384;
    /** How often the background writer hands appended bytes to the operating system. */
    private static final long WRITE_INTERVAL_MILLIS = 100;
    /** The incremental sequence of a rewrite that logs nothing (appendonly no). */
    private static final long NO_INCR = -1;

    private final PersistenceHost engine;
    private final Config config;
    private final Keyspace keyspace;
    private final DataFiles files;
    private final Loader loader;
    private volatile Consumer<String> log = line -> { };
    private boolean started;

    private long lastSaveSeconds = System.currentTimeMillis() / 1000;
    private long dirtyAtLastSave;
    private long lastSaveAttemptMillis;
    private boolean lastBgsaveOk = true;
    private long rdbSaves;
    private long lastBgsaveSeconds = -1;

    private Job job;
    private boolean bgsaveScheduled;
    private boolean rewriteScheduled;

    private volatile AppendOnlyFile aof;
    private AofLayout.Manifest manifest;
    private long aofSizeAtRewrite;
    private long aofBaseSize;
    private long aofOlderIncrSize;
    private long aofRewrites;
    private long aofRewriteFailures;
    private long lastRewriteSeconds = -1;
    private boolean lastRewriteOk = true;
    private Thread fsyncThread;

    /**
     * Persistence for {@code engine}; nothing is loaded or written until {@link #start()}.
     *
     * @param engine the engine whose keyspace is loaded and saved
     */
    public Persistence(PersistenceHost engine) {
        this.engine = engine;
        this.config = engine.config();
        this.keyspace = engine.keyspace();
        this.files = new DataFiles(config);
        this.loader = new Loader(engine, files, line -> log.accept(line));
    }

    /**
     * Where log lines go (the server's log).
     *
     * @param log receives one line per event
     */
    public void setLog(Consumer<String> log) {
        this.log = log;
    }

    // ------------------------------------------------------------------ start and stop

    /**
     * Loads the data at startup (the append-only file when {@code appendonly yes} and it exists,
     * else the snapshot) and starts the save rules and the append-only file. Throws, naming the
     * file and offset, when a file is corrupt; the keyspace is then left empty.
     *
     * @throws IOException when a file cannot be read or is corrupt
     */
    public void start() throws IOException {
        locked(() -> {
            keyspace.beginCommand();
            manifest = loader.loadAtStartup();
            aofBaseSize = loader.aofBaseSize();
            aofOlderIncrSize = loader.aofOlderIncrSize();
            if (files.appendOnly()) {
                openAppendOnlyFile();
            }
            dirtyAtLastSave = keyspace.dirty();
            started = true;
        });
        fsyncThread = new Thread(this::backgroundWriter, "ordo-aof-writer");
        fsyncThread.setDaemon(true);
        fsyncThread.start();
        scheduleCron();
    }

    /** A graceful stop (engine close): saves when save rules are set, makes the append-only file durable and closes it. */
    public void stop() {
        Job[] running = new Job[1];
        engine.withLock(() -> {
            running[0] = job;
            if (started) {
                beforeShutdown(false, false);
            }
            started = false;
        });
        if (fsyncThread != null) {
            fsyncThread.interrupt();
        }
        if (running[0] != null && !engine.holdsLock()) {
            // An abandoned job stops at its next step, which needs the lock; wait so that it has removed its temp file.
            running[0].awaitEnd();
        }
    }

    /**
     * Before replies are sent under {@code appendfsync always}: everything written so far is on
     * disk when this returns. Throws {@link UncheckedIOException} when this write fails: the
     * replies waiting must not be sent. Under the other policies replies do not wait (the
     * background writer bounds what a crash can lose) and this returns at once.
     */
    public void awaitDurable() {
        AppendOnlyFile file = aof;
        // After a failure nothing new is appended (writes are refused), so there is nothing to wait for.
        if (file != null && file.fsync() == AppendOnlyFile.Fsync.ALWAYS && file.lastError() == null) {
            try {
                file.awaitDurable();
            } catch (IOException e) {
                log.accept("Error writing to the AOF file: " + e.getMessage() + ". Writes are refused until BGREWRITEAOF succeeds.");
                throw new UncheckedIOException("the append-only file could not be written", e);
            }
        }
    }

    @Override
    public String writeRefusal() {
        if (!lastBgsaveOk && hasSaveRules() && config.get("stop-writes-on-bgsave-error").equals("yes")) {
            return Errors.MISCONF_RDB;
        }
        AppendOnlyFile file = aof;
        IOException failed = file == null ? null : file.lastError();
        return failed == null ? null : "MISCONF Errors writing to the AOF file: " + failed.getMessage();
    }

    /**
     * The background writer: every {@value #WRITE_INTERVAL_MILLIS} ms it hands what has been
     * appended to the operating system (so a killed process loses at most that much under
     * {@code everysec} and {@code no}), and once a second, under {@code everysec}, fsyncs it
     * (so a machine crash loses at most about a second).
     */
    private void backgroundWriter() {
        long ticks = 0;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(WRITE_INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            AppendOnlyFile file = aof;
            if (file == null || file.lastError() != null) {
                continue;
            }
            try {
                if (++ticks % (1000 / WRITE_INTERVAL_MILLIS) == 0 && file.fsync() == AppendOnlyFile.Fsync.EVERYSEC) {
                    file.fsyncWritten();
                } else {
                    file.flush(false);
                }
            } catch (java.nio.channels.ClosedChannelException e) {
                // closed by a switch or a stop in between: whoever closed it flushed and fsynced it
            } catch (IOException e) {
                log.accept("Error writing to the AOF file: " + e.getMessage() + ". Writes are refused until BGREWRITEAOF succeeds.");
            }
        }
    }

    private void scheduleCron() {
        engine.scheduler().schedule(this::cron, 100);
    }

    /** Redis's serverCron for persistence: save rules, scheduled jobs, the automatic rewrite. */
    private void cron() {
        if (!engine.tryWithLock(() -> {
            if (!started || engine.cronPaused()) {
                return;
            }
            keyspace.beginCommand();
            if (job == null) {
                startDueWork();
            }
        })) {
            scheduleCron();
            return;
        }
        if (started) {
            scheduleCron();
        }
    }

    private void startDueWork() {
        try {
            if (rewriteScheduled) {
                startRewrite();
            } else if (bgsaveScheduled || saveRuleDue()) {
                bgsaveScheduled = false;
                startBgsave();
            } else if (autoRewriteDue()) {
                log.accept("Starting automatic rewriting of AOF on " + growthPercent() + "% growth");
                startRewrite();
            }
        } catch (IOException | RuntimeException e) {
            log.accept("Background job failed to start: " + e.getMessage());
        }
    }

    private boolean saveRuleDue() {
        long changes = keyspace.dirty() - dirtyAtLastSave;
        if (changes == 0) {
            return false;
        }
        long nowMillis = System.currentTimeMillis();
        if (!lastBgsaveOk && nowMillis - lastSaveAttemptMillis < 5000) {
            return false;
        }
        String[] rule = config.get("save").trim().split("\\s+");
        for (int i = 0; i + 1 < rule.length; i += 2) {
            try {
                long seconds = Long.parseLong(rule[i]);
                long needed = Long.parseLong(rule[i + 1]);
                if (changes >= needed && nowMillis / 1000 - lastSaveSeconds >= seconds) {
                    log.accept(needed + " changes in " + seconds + " seconds. Saving...");
                    return true;
                }
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    private boolean hasSaveRules() {
        return !config.get("save").isBlank();
    }

    private boolean autoRewriteDue() {
        long percent = config.getLong("auto-aof-rewrite-percentage");
        return aof != null && manifest != null && percent > 0 && aofSize() >= config.getLong("auto-aof-rewrite-min-size")
                && growthPercent() >= percent;
    }

    private long growthPercent() {
        long base = Math.max(1, aofSizeAtRewrite);
        return (aofSize() - aofSizeAtRewrite) * 100 / base;
    }

    private long aofSize() {
        return aof == null ? 0 : aofBaseSize + aofOlderIncrSize + aof.size();
    }

    // ------------------------------------------------------------------ snapshots

    @Override
    public void save() {
        if (job != null && !job.rewrite) {
            throw new ErrorReply("ERR Background save already in progress");
        }
        rdbSaves++;
        try {
            Path temp = files.dir().resolve("temp-" + ProcessHandle.current().pid() + ".rdb");
            try (OutputStream out = new OverlappedFileOutput(temp, config.getBoolean("rdb-save-incremental-fsync"))) {
                capture(false, out).writeAll();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            DataFiles.install(temp, files.rdbFile());
            savedNow(keyspace.dirty());
            log.accept("DB saved on disk");
        } catch (IOException e) {
            // As Redis: the reason goes to the log, the reply is a bare ERR, and only a
            // background save's failure stops writes (rdb_last_bgsave_status).
            log.accept("Failed saving the DB: " + e.getMessage());
            throw new ErrorReply("ERR");
        }
    }

    private void savedNow(long dirtyAtStart) {
        dirtyAtLastSave = dirtyAtStart;
        lastSaveSeconds = System.currentTimeMillis() / 1000;
        lastBgsaveOk = true;
    }

    @Override
    public String bgsave(boolean schedule) {
        if (job != null) {
            if (job.rewrite && schedule) {
                bgsaveScheduled = true;
                return "Background saving scheduled";
            }
            throw new ErrorReply(job.rewrite
                    ? "ERR Another child process is active (AOF?): can't BGSAVE right now. Use BGSAVE SCHEDULE in order to schedule a BGSAVE whenever possible."
                    : "ERR Background save already in progress");
        }
        try {
            startBgsave();
        } catch (IOException e) {
            throw new ErrorReply("ERR " + e.getMessage());
        }
        return "Background saving started";
    }

    private void startBgsave() throws IOException {
        lastSaveAttemptMillis = System.currentTimeMillis();
        rdbSaves++;
        long dirtyAtStart = keyspace.dirty();
        Path temp = files.dir().resolve("temp-bgsave-" + ProcessHandle.current().pid() + ".rdb");
        startJob(new Job(capture(false, null), temp, false, ok -> {
            if (ok) {
                DataFiles.install(temp, files.rdbFile());
                savedNow(dirtyAtStart);
                log.accept("Background saving terminated with success");
            } else {
                lastBgsaveOk = false;
            }
        }));
        log.accept("Background saving started");
    }

    @Override
    public long lastSave() {
        return lastSaveSeconds;
    }

    @Override
    public void reload(boolean save, boolean flush, boolean merge) {
        if (save) {
            save();
        }
        if (flush) {
            loader.emptyAll();
        }
        try {
            loader.loadRdb(files.rdbFile(), merge);
        } catch (IOException e) {
            log.accept("DEBUG RELOAD: " + e.getMessage());
            throw new ErrorReply("ERR Error trying to load the RDB dump, check server logs.");
        }
        log.accept("DB reloaded by DEBUG RELOAD");
    }

    @Override
    public void loadAof() {
        AppendOnlyFile file = aof;
        if (file == null || manifest == null) {
            // Redis 7.0 empties the dataset and then exits; Ordo refuses first, with Redis 7.2's text.
            log.accept("DEBUG LOADAOF: appendonly is no, there is no append-only file to load");
            throw new ErrorReply(Errors.AOF_LOAD_FAILED);
        }
        try {
            file.flush(true);
        } catch (IOException e) {
            log.accept("DEBUG LOADAOF: " + e.getMessage());
            throw new ErrorReply(Errors.AOF_LOAD_FAILED);
        }
        loader.emptyAll();
        // Replaying must not log the replayed commands into the file being read.
        engine.dispatcher().effects().setListener(null);
        try {
            loader.loadAppendOnlyFile(manifest);
            aofBaseSize = loader.aofBaseSize();
            aofOlderIncrSize = loader.aofOlderIncrSize();
        } catch (IOException e) {
            log.accept("DEBUG LOADAOF: " + e.getMessage());
            throw new ErrorReply(Errors.AOF_LOAD_FAILED);
        } finally {
            engine.dispatcher().effects().setListener(file);
        }
        log.accept("Append Only File loaded by DEBUG LOADAOF");
    }

    /** An image of now for a snapshot file ({@code aofBase}: an AOF base); see {@link Snapshot#capture}. */
    private Snapshot capture(boolean aofBase, OutputStream direct) {
        Map<String, String> aux = new LinkedHashMap<>();
        aux.put("redis-ver", "7.0.15");
        aux.put("redis-bits", "64");
        aux.put("ctime", Long.toString(System.currentTimeMillis() / 1000));
        aux.put("used-mem", Long.toString(Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()));
        aux.put("aof-base", aofBase ? "1" : "0");
        List<byte[]> libraries = new ArrayList<>();
        engine.functions().libraries().forEach(l -> libraries.add(l.code().getBytes(StandardCharsets.UTF_8)));
        return Snapshot.capture(keyspace, aux, libraries, config.get("rdbcompression").equals("yes"),
                config.get("rdbchecksum").equals("yes"), direct);
    }

    // ------------------------------------------------------------------ append-only file

    @Override
    public String bgrewriteaof() {
        if (job != null && job.rewrite) {
            throw new ErrorReply("ERR Background append only file rewriting already in progress");
        }
        if (job != null) {
            rewriteScheduled = true;
            return "Background append only file rewriting scheduled";
        }
        try {
            startRewrite();
        } catch (IOException e) {
            throw new ErrorReply("ERR Can't execute an AOF background rewriting. Please check the server logs for more information.");
        }
        return "Background append only file rewriting started";
    }

    /** At startup: continues the existing incremental file, or writes a first base and incremental file. */
    private void openAppendOnlyFile() throws IOException {
        if (manifest != null && !manifest.incrs().isEmpty()) {
            AofLayout.FileEntry last = manifest.incrs().get(manifest.incrs().size() - 1);
            FileChannel ch = FileChannel.open(files.aofDir().resolve(last.name()), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            appendTo(ch);
            aofSizeAtRewrite = aofSize();
            return;
        }
        Files.createDirectories(files.aofDir());
        long baseSeq = nextBaseSeq();
        long incrSeq = nextIncrSeq();
        Path temp = files.aofDir().resolve(files.layout().tempRewriteName());
        try (OutputStream out = new OverlappedFileOutput(temp, config.getBoolean("aof-rewrite-incremental-fsync"))) {
            capture(true, out).writeAll();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        FileChannel incr = createIncr(incrSeq);
        appendTo(incr);
        finishRewrite(temp, baseSeq, incrSeq);
    }

    private long nextIncrSeq() {
        return manifest == null ? 1 : manifest.nextIncrSeq();
    }

    private long nextBaseSeq() {
        return manifest == null ? 1 : manifest.nextBaseSeq();
    }

    private FileChannel createIncr(long seq) throws IOException {
        Path file = files.aofDir().resolve(files.layout().incrName(seq));
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        ch.force(true);
        AofLayout.fsyncDirectory(files.aofDir());
        return ch;
    }

    /**
     * Starts a rewrite: a new incremental file takes every write from now on (recorded in the
     * manifest before any write reaches it), and a snapshot of this instant becomes the new base.
     * With {@code appendonly no}, as in Redis, only the base is written and nothing is logged.
     */
    private void startRewrite() throws IOException {
        rewriteScheduled = false;
        Files.createDirectories(files.aofDir());
        long baseSeq = nextBaseSeq();
        long incrSeq = files.appendOnly() ? nextIncrSeq() : NO_INCR;
        if (incrSeq != NO_INCR) {
            startIncr(incrSeq);
        }
        Path temp = files.aofDir().resolve(files.layout().tempRewriteName());
        startJob(new Job(capture(true, null), temp, true, ok -> {
            if (ok) {
                finishRewrite(temp, baseSeq, incrSeq);
                log.accept("Background AOF rewrite finished successfully");
            } else {
                aofRewriteFailures++;
                lastRewriteOk = false;
            }
        }));
        log.accept("Background append only file rewriting started");
    }

    /** Sends every write from now on to a new incremental file. */
    private void startIncr(long incrSeq) throws IOException {
        FileChannel incr = createIncr(incrSeq);
        AofLayout.FileEntry newIncr = new AofLayout.FileEntry(files.layout().incrName(incrSeq), incrSeq,
                AofLayout.Type.INCR);
        if (aof != null && manifest != null) {
            // The manifest names the new file before any write goes to it: a crash in between
            // finds it empty, after the old file that still holds every write.
            AofLayout.Manifest next = manifest.withIncr(newIncr);
            try {
                AofLayout.writeAtomically(files.aofDir(), files.layout().manifestName(), next);
            } catch (IOException e) {
                incr.close();
                Files.deleteIfExists(files.aofDir().resolve(newIncr.name()));
                throw e;
            }
            manifest = next;
            long previous = aof.size();
            aof.switchTo(incr);
            aofOlderIncrSize += previous;
        } else {
            closeAof();
            appendTo(incr);
        }
    }

    /**
     * Installs a written base: the manifest then names it and the incremental file begun with it
     * (none for {@link #NO_INCR}); older files go.
     */
    private void finishRewrite(Path temp, long baseSeq, long incrSeq) throws IOException {
        Path base = files.aofDir().resolve(files.layout().baseName(baseSeq, true));
        DataFiles.install(temp, base);
        AofLayout.Manifest old = manifest;
        manifest = new AofLayout.Manifest(new AofLayout.FileEntry(base.getFileName().toString(), baseSeq, AofLayout.Type.BASE),
                incrSeq == NO_INCR ? List.of() : List.of(new AofLayout.FileEntry(files.layout().incrName(incrSeq), incrSeq, AofLayout.Type.INCR)),
                List.of());
        AofLayout.writeAtomically(files.aofDir(), files.layout().manifestName(), manifest);
        if (old != null) {
            List<AofLayout.FileEntry> gone = new ArrayList<>(old.history());
            if (old.base() != null) {
                gone.add(old.base());
            }
            for (AofLayout.FileEntry e : old.incrs()) {
                if (e.seq() != incrSeq) {
                    gone.add(e);
                }
            }
            for (AofLayout.FileEntry e : gone) {
                Files.deleteIfExists(files.aofDir().resolve(e.name()));
            }
        }
        aofBaseSize = Files.size(base);
        aofOlderIncrSize = 0;
        if (aof != null) {
            aof.clearError();
        }
        aofSizeAtRewrite = aofSize();
        aofRewrites++;
        lastRewriteOk = true;
        aofRewriteFailures = 0;
    }

    private void closeAof() {
        if (aof != null) {
            engine.dispatcher().effects().setListener(null);
            try {
                aof.close();
            } catch (IOException e) {
                log.accept("Error closing the AOF file: " + e.getMessage());
            }
            aof = null;
        }
    }

    /** Logs every write's effects to {@code incr} from now on. */
    private void appendTo(FileChannel incr) throws IOException {
        aof = new AppendOnlyFile(incr, fsyncPolicy(), engine.dispatcher().latencyMonitor(), System::nanoTime);
        engine.dispatcher().effects().setListener(aof);
    }

    private AppendOnlyFile.Fsync fsyncPolicy() {
        return AppendOnlyFile.Fsync.of(config.get("appendfsync"));
    }

    @Override
    public void configChanged() {
        if (!started) {
            return;
        }
        if (aof != null) {
            aof.setFsync(fsyncPolicy());
        }
        if (files.appendOnly() && aof == null) {
            manifest = null;
            if (job == null) {
                try {
                    startRewrite();
                } catch (IOException e) {
                    throw new ErrorReply("ERR Failed to turn on the append only file: " + e.getMessage());
                }
            } else {
                rewriteScheduled = true;
            }
        } else if (!files.appendOnly() && aof != null) {
            if (job != null && job.rewrite) {
                abandonJob();
            }
            closeAof();
            manifest = null;
        }
    }

    // ------------------------------------------------------------------ background jobs

    /** One background snapshot writer: a BGSAVE or the base of a rewrite. */
    private final class Job implements Runnable {
        final Snapshot snapshot;
        final Path temp;
        final boolean rewrite;
        final IoConsumer<Boolean> onDone;
        final long startMillis = System.currentTimeMillis();
        volatile boolean abandoned;
        private Thread thread;

        Job(Snapshot snapshot, Path temp, boolean rewrite, IoConsumer<Boolean> onDone) {
            this.snapshot = snapshot;
            this.temp = temp;
            this.rewrite = rewrite;
            this.onDone = onDone;
        }

        @Override
        public void run() {
            boolean ok = false;
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                boolean[] done = {false};
                byte[][] chunk = new byte[1][];
                long delayMicros = config.getLong("rdb-key-save-delay");
                while (!done[0] && !abandoned) {
                    long before = snapshot.written();
                    engine.withLock(() -> {
                        if (!abandoned) {
                            done[0] = snapshot.step(delayMicros > 0 ? 1 : STEP_BUDGET);
                            chunk[0] = snapshot.takeOutput();
                        }
                    });
                    ByteBuffer b = ByteBuffer.wrap(chunk[0] == null ? new byte[0] : chunk[0]);
                    while (b.hasRemaining()) {
                        out.write(b);
                    }
                    if (delayMicros > 0) {
                        Thread.sleep((snapshot.written() - before) * delayMicros / 1000);
                    }
                }
                out.force(true);
                ok = done[0] && !abandoned;
            } catch (IOException | RuntimeException e) {
                log.accept((rewrite ? "Background AOF rewrite" : "Background saving") + " failed: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            boolean success = ok;
            engine.withLock(() -> finished(this, success));
        }

        void start() {
            thread = new Thread(this, rewrite ? "ordo-aof-rewrite" : "ordo-bgsave");
            thread.setDaemon(true);
            thread.start();
        }

        void awaitEnd() {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @FunctionalInterface
    private interface IoConsumer<T> {
        void accept(T value) throws IOException;
    }

    private void startJob(Job j) {
        job = j;
        engine.dispatcher().setWriteBarrier(j.snapshot);
        j.start();
    }

    private void finished(Job j, boolean ok) {
        if (job != j) {
            DataFiles.deleteQuietly(j.temp);
            return;
        }
        job = null;
        engine.dispatcher().setWriteBarrier(null);
        long seconds = (System.currentTimeMillis() - j.startMillis) / 1000;
        if (j.rewrite) {
            lastRewriteSeconds = seconds;
        } else {
            lastBgsaveSeconds = seconds;
        }
        try {
            j.onDone.accept(ok && !j.abandoned);
        } catch (IOException e) {
            log.accept("Could not install " + j.temp + ": " + e.getMessage());
            if (j.rewrite) {
                lastRewriteOk = false;
            } else {
                lastBgsaveOk = false;
            }
        }
        DataFiles.deleteQuietly(j.temp);
    }

    private void abandonJob() {
        if (job != null) {
            job.abandoned = true;
            engine.dispatcher().setWriteBarrier(null);
            job = null;
        }
    }

    @Override
    public boolean beforeShutdown(boolean save, boolean noSave) {
        abandonJob();
        if (save || (started && !noSave && hasSaveRules())) {
            try {
                save();
            } catch (ErrorReply e) {
                return false;
            }
        }
        closeAof();
        started = false;
        return true;
    }

    // ------------------------------------------------------------------ INFO

    @Override
    public void info(Map<String, String> f) {
        boolean bgsave = job != null && !job.rewrite;
        boolean rewrite = job != null && job.rewrite;
        long nowMillis = System.currentTimeMillis();
        f.put("loading", "0");
        f.put("async_loading", "0");
        f.put("current_cow_peak", "0");
        f.put("current_cow_size", "0");
        f.put("current_cow_size_age", "0");
        f.put("current_fork_perc", "0.00");
        f.put("current_save_keys_processed", job == null ? "0" : String.valueOf(job.snapshot.written()));
        f.put("current_save_keys_total", job == null ? "0" : String.valueOf(job.snapshot.keys()));
        f.put("rdb_changes_since_last_save", String.valueOf(keyspace.dirty() - dirtyAtLastSave));
        f.put("rdb_bgsave_in_progress", bgsave ? "1" : "0");
        f.put("rdb_last_save_time", String.valueOf(lastSaveSeconds));
        f.put("rdb_last_bgsave_status", lastBgsaveOk ? "ok" : "err");
        f.put("rdb_last_bgsave_time_sec", String.valueOf(lastBgsaveSeconds));
        f.put("rdb_current_bgsave_time_sec", bgsave ? String.valueOf((nowMillis - job.startMillis) / 1000) : "-1");
        f.put("rdb_saves", String.valueOf(rdbSaves));
        f.put("rdb_last_cow_size", "0");
        f.put("rdb_last_load_keys_expired", String.valueOf(loader.expiredKeys()));
        f.put("rdb_last_load_keys_loaded", String.valueOf(loader.loadedKeys()));
        f.put("aof_enabled", aof != null ? "1" : "0");
        f.put("aof_rewrite_in_progress", rewrite ? "1" : "0");
        f.put("aof_rewrite_scheduled", rewriteScheduled ? "1" : "0");
        f.put("aof_last_rewrite_time_sec", String.valueOf(lastRewriteSeconds));
        f.put("aof_current_rewrite_time_sec", rewrite ? String.valueOf((nowMillis - job.startMillis) / 1000) : "-1");
        f.put("aof_last_bgrewrite_status", lastRewriteOk ? "ok" : "err");
        f.put("aof_rewrites", String.valueOf(aofRewrites));
        f.put("aof_rewrites_consecutive_failures", String.valueOf(aofRewriteFailures));
        f.put("aof_last_write_status", aof != null && aof.lastError() != null ? "err" : "ok");
        f.put("aof_last_cow_size", "0");
        f.put("module_fork_in_progress", "0");
        f.put("module_fork_last_cow_size", "0");
        if (aof != null) {
            f.put("aof_current_size", String.valueOf(aofSize()));
            f.put("aof_base_size", String.valueOf(aofBaseSize));
            f.put("aof_pending_rewrite", rewriteScheduled ? "1" : "0");
            f.put("aof_buffer_length", String.valueOf(aof.bufferLength()));
            f.put("aof_pending_bio_fsync", "0");
            f.put("aof_delayed_fsync", "0");
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    private void locked(IoAction action) throws IOException {
        IOException[] failure = new IOException[1];
        engine.withLock(() -> {
            try {
                action.run();
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }
}
