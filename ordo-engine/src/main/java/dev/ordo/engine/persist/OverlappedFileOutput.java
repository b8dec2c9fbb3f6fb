package dev.ordo.engine.persist;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A file written by a thread of its own while the caller produces the bytes, so that walking the
 * data (memory-bound) and writing it out (disk-bound) overlap instead of adding up: a snapshot of
 * a 50M-member set spends seconds in each.
 *
 * <p>The caller's bytes are copied into 1 MiB blocks; full blocks go to the writer through a
 * queue of at most {@value #QUEUED} (so at most that many MiB wait in memory, and a slow disk
 * slows the caller down rather than filling the heap). With incremental fsync (Redis's
 * {@code rdb-save-incremental-fsync}) the writer forces the file to disk every
 * {@value #SYNC_EVERY_MIB} MiB, so the dirty pages never pile up for one long flush at the end.
 * {@link #close} writes the last block and forces everything. A failure on the writer's side is
 * thrown by the next write or by close. One producer thread only.
 */
final class OverlappedFileOutput extends OutputStream {
    private static final int BLOCK = 1 << 20;
    private static final int QUEUED = 32;
    private static final int SYNC_EVERY_MIB = 8;
    private static final ByteBuffer END = ByteBuffer.allocate(0);

    private final FileChannel channel;
    private final boolean incrementalSync;
    private final BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(QUEUED);
    private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(QUEUED + 2);
    private final Thread writer;
    private volatile IOException failure;
    private ByteBuffer current;
    private boolean closed;

    /** Creates (or truncates) {@code file} and starts its writer. */
    OverlappedFileOutput(Path file, boolean incrementalSync) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        this.incrementalSync = incrementalSync;
        this.current = ByteBuffer.allocate(BLOCK);
        this.writer = new Thread(this::writeBlocks, "ordo-snapshot-writer");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = Math.min(len, current.remaining());
            current.put(b, off, n);
            off += n;
            len -= n;
            if (!current.hasRemaining()) {
                handOver();
            }
        }
    }

    private void handOver() throws IOException {
        throwIfFailed();
        current.flip();
        put(current);
        ByteBuffer next = free.poll();
        current = next != null ? next.clear() : ByteBuffer.allocate(BLOCK);
    }

    private void put(ByteBuffer block) throws IOException {
        try {
            full.put(block);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing a snapshot");
        }
    }

    private void throwIfFailed() throws IOException {
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
    }

    /** The writer thread: writes each block, forcing the file every few dozen MiB, until the end marker. */
    private void writeBlocks() {
        long sinceSync = 0;
        try {
            while (true) {
                ByteBuffer block = full.take();
                if (block == END) {
                    return;
                }
                if (failure == null) {
                    sinceSync += block.remaining();
                    while (block.hasRemaining()) {
                        channel.write(block);
                    }
                    if (incrementalSync && sinceSync >= (long) SYNC_EVERY_MIB << 20) {
                        channel.force(false);
                        sinceSync = 0;
                    }
                }
                free.offer(block);
            }
        } catch (IOException e) {
            failure = e;
            drainAfterFailure();
        } catch (InterruptedException e) {
            failure = new InterruptedIOException("snapshot writer interrupted");
        }
    }

    /** Keeps taking blocks after a failure, so the producer never blocks on a full queue. */
    private void drainAfterFailure() {
        try {
            while (full.take() != END) {
                // dropped: the write has failed and will be reported
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes what is left, waits for the writer, forces the file to disk and closes it. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (current.position() > 0) {
                current.flip();
                put(current);
            }
            put(END);
            writer.join();
            throwIfFailed();
            channel.force(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while finishing a snapshot");
        } finally {
            channel.close();
        }
    }
}
