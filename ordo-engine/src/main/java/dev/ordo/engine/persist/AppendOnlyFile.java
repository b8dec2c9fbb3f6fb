package dev.ordo.engine.persist;

import dev.ordo.engine.command.EffectLog;
import dev.ordo.engine.command.LatencyMonitor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The writing end of the append-only file: each unit of effects ({@link EffectLog}) is encoded
 * as RESP commands (SELECT where the database changes, MULTI/EXEC around a unit of several) into
 * a buffer under the engine lock; {@link #flush} moves the buffer to the current incremental file
 * and, per {@code appendfsync}, makes it durable.
 *
 * <p>Durability, as Redis's {@code appendfsync}:
 * <ul>
 *   <li>{@code always}: transports call {@link #awaitDurable} before sending replies, which
 *       writes and fsyncs everything appended so far. Concurrent callers share one fsync (group
 *       commit): a caller whose bytes another caller's fsync already covered returns at once.</li>
 *   <li>{@code everysec}: replies do not wait; a background writer hands the buffer to the
 *       operating system every 100 ms (a killed process loses at most that) and fsyncs once a
 *       second ({@link #fsyncWritten}, without blocking appends: a machine crash loses at most
 *       about a second).</li>
 *   <li>{@code no}: the background writer hands the buffer to the operating system; the kernel
 *       decides when it reaches disk.</li>
 * </ul>
 *
 * <p>A failed write or fsync is kept ({@link #lastError}): the engine then refuses writes with
 * Redis's MISCONF error and transports close the connections whose replies it would have
 * acknowledged, until a rewrite has rebuilt the file from memory.
 *
 * <p>Locks: {@code buffer} guards the pending bytes and the appended count; {@code file} guards
 * the channel, so an fsync never holds up appending.
 */
final class AppendOnlyFile implements EffectLog.Listener {
    enum Fsync {
        ALWAYS, EVERYSEC, NO;

        static Fsync of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    private static final byte[][] MULTI = {"MULTI".getBytes(StandardCharsets.US_ASCII)};
    private static final byte[][] EXEC = {"EXEC".getBytes(StandardCharsets.US_ASCII)};
    private static final byte[] SELECT = "SELECT".getBytes(StandardCharsets.US_ASCII);

    private final Object buffer = new Object();
    private final Object file = new Object();
    private volatile Fsync fsync;
    private byte[] pending = new byte[1 << 16];
    private int pendingLength;
    /** The other half of the double buffer: the flusher writes one while commands fill the other. */
    private byte[] spare = new byte[1 << 16];
    private long appended;
    private volatile long written;
    private volatile long synced;
    private FileChannel channel;
    private volatile long channelSize;
    private int lastDb = -1;
    private volatile IOException lastError;
    private final LatencyMonitor latency;
    private final LongSupplier nanoTime;

    /** Appends to {@code incr}, reporting no latency. */
    AppendOnlyFile(FileChannel incr, Fsync fsync) throws IOException {
        this(incr, fsync, new LatencyMonitor(() -> 0, () -> 0), System::nanoTime);
    }

    /**
     * Appends to {@code incr}, reporting slow writes ({@code aof-write}) and, under {@code always},
     * slow fsyncs ({@code aof-fsync-always}) to {@code latency}, as timed by {@code nanoTime}.
     */
    AppendOnlyFile(FileChannel incr, Fsync fsync, LatencyMonitor latency, LongSupplier nanoTime) throws IOException {
        this.channel = incr;
        this.channelSize = incr.size();
        this.fsync = fsync;
        this.latency = latency;
        this.nanoTime = nanoTime;
    }

    void setFsync(Fsync fsync) {
        this.fsync = fsync;
    }

    Fsync fsync() {
        return fsync;
    }

    @Override
    public void unit(List<EffectLog.Effect> effects) {
        synchronized (buffer) {
            boolean transaction = effects.size() > 1;
            if (transaction) {
                encode(MULTI);
            }
            for (EffectLog.Effect e : effects) {
                if (e.db() != lastDb) {
                    encode(new byte[][] {SELECT, Integer.toString(e.db()).getBytes(StandardCharsets.US_ASCII)});
                    lastDb = e.db();
                }
                encode(e.args());
            }
            if (transaction) {
                encode(EXEC);
            }
        }
    }

    private void encode(byte[][] args) {
        int size = 16;
        for (byte[] a : args) {
            size += a.length + 16;
        }
        ensure(size);
        int start = pendingLength;
        header('*', args.length);
        for (byte[] a : args) {
            header('$', a.length);
            System.arraycopy(a, 0, pending, pendingLength, a.length);
            pendingLength += a.length;
            pending[pendingLength++] = '\r';
            pending[pendingLength++] = '\n';
        }
        appended += pendingLength - start;
    }

    /** Writes {@code type}, the decimal {@code n} and CRLF; room was ensured. */
    private void header(char type, int n) {
        pending[pendingLength++] = (byte) type;
        if (n < 10) {
            pending[pendingLength++] = (byte) ('0' + n);
        } else {
            byte[] digits = Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(digits, 0, pending, pendingLength, digits.length);
            pendingLength += digits.length;
        }
        pending[pendingLength++] = '\r';
        pending[pendingLength++] = '\n';
    }

    private void ensure(int room) {
        if (pendingLength + room > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + room));
        }
    }

    /**
     * Makes what has been appended so far as durable as the policy promises before a reply is
     * sent: written and fsynced for {@code always}, written to the operating system otherwise.
     */
    void awaitDurable() throws IOException {
        long target;
        synchronized (buffer) {
            target = appended;
        }
        boolean sync = fsync == Fsync.ALWAYS;
        if (sync ? synced >= target : written >= target) {
            return;
        }
        flush(sync);
    }

    /** Writes the buffer to the current file and, when {@code sync}, fsyncs it. */
    void flush(boolean sync) throws IOException {
        synchronized (file) {
            byte[] bytes;
            int length;
            long upTo;
            synchronized (buffer) {
                bytes = pending;
                length = pendingLength;
                upTo = appended;
                pending = spare;
                pendingLength = 0;
            }
            try {
                ByteBuffer b = ByteBuffer.wrap(bytes, 0, length);
                long start = nanoTime.getAsLong();
                while (b.hasRemaining()) {
                    channelSize += channel.write(b);
                }
                long wrote = nanoTime.getAsLong();
                if (length > 0) {
                    latency.sample("aof-write", (wrote - start) / 1_000_000);
                }
                written = upTo;
                if (sync) {
                    channel.force(false);
                    synced = upTo;
                    if (fsync == Fsync.ALWAYS) {
                        latency.sample("aof-fsync-always", (nanoTime.getAsLong() - wrote) / 1_000_000);
                    }
                }
            } catch (IOException e) {
                lastError = e;
                throw e;
            } finally {
                // Only the holder of the file lock swaps buffers, so the drained one is free again
                // (a burst's oversized buffer is dropped rather than kept).
                spare = bytes.length > 1 << 22 ? new byte[1 << 16] : bytes;
            }
        }
    }

    /**
     * The everysec fsync: writes what is pending, then fsyncs what has been written without
     * holding the file lock, so the event loop's writes never wait behind a slow fsync.
     */
    void fsyncWritten() throws IOException {
        flush(false);
        FileChannel ch;
        long upTo;
        synchronized (file) {
            ch = channel;
            upTo = written;
        }
        if (synced < upTo) {
            ch.force(false);
            synchronized (file) {
                synced = Math.max(synced, upTo);
            }
        }
    }

    /**
     * Makes everything appended so far durable, then continues in {@code next} (a rewrite opened
     * a new incremental file); returns the previous channel, closed. Called under the engine lock.
     */
    void switchTo(FileChannel next) throws IOException {
        synchronized (file) {
            flush(true);
            channel.close();
            channel = next;
            channelSize = next.size();
            synchronized (buffer) {
                lastDb = -1;
            }
        }
    }

    /** Size of the current incremental file, including bytes not yet written. */
    long size() {
        synchronized (buffer) {
            return channelSize + pendingLength;
        }
    }

    /** Bytes appended but not yet written to the file (INFO aof_buffer_length). */
    int bufferLength() {
        synchronized (buffer) {
            return pendingLength;
        }
    }

    /**
     * The first write or fsync failure, or null. It stays until a rewrite rebuilds the file from
     * memory ({@link #clearError}): the bytes of a failed write are not in the file, so until then
     * the file is behind the data and writes are refused.
     */
    IOException lastError() {
        return lastError;
    }

    void clearError() {
        lastError = null;
    }

    /** Flushes, fsyncs and closes the file. */
    void close() throws IOException {
        synchronized (file) {
            flush(true);
            channel.close();
        }
    }
}
