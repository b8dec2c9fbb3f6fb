package dev.ordo.engine.persist.rdb;

import dev.ordo.engine.encoding.Crc64;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The {@link dev.ordo.engine.encoding.Crc64} of a file's first bytes, computed on a thread of its own while the file is
 * parsed, so that loading a snapshot does not pay for its checksum on the parsing thread (about a
 * tenth of a load). The file is read a second time, from the page cache the parser just filled.
 */
final class FileChecksum {
    private static final int CHUNK = 1 << 20;

    private final Path file;
    private final long length;
    private final CompletableFuture<Long> result = new CompletableFuture<>();
    private volatile boolean cancelled;

    private FileChecksum(Path file, long length) {
        this.file = file;
        this.length = length;
    }

    /** Starts computing the CRC of {@code file}'s first {@code length} bytes. */
    static FileChecksum start(Path file, long length) {
        FileChecksum c = new FileChecksum(file, length);
        Thread t = new Thread(c::compute, "ordo-rdb-checksum");
        t.setDaemon(true);
        t.start();
        return c;
    }

    private void compute() {
        try {
            long crc = of(file, length, this);
            result.complete(crc);
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    /** The CRC of {@code file}'s first {@code length} bytes, computed on the calling thread. */
    static long of(Path file, long length) throws IOException {
        return of(file, length, null);
    }

    private static long of(Path file, long length, FileChecksum owner) throws IOException {
        long crc = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(CHUNK);
            long done = 0;
            while (done < length && (owner == null || !owner.cancelled)) {
                b.clear().limit((int) Math.min(CHUNK, length - done));
                int n = ch.read(b, done);
                if (n < 0) {
                    throw new IOException("the file shrank while it was read");
                }
                crc = Crc64.update(crc, b.array(), 0, n);
                done += n;
            }
        }
        return crc;
    }

    /** The CRC, once computed; throws what computing it threw. */
    long await() throws IOException {
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the checksum", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new UncheckedIOException(new IOException(e.getCause()));
        }
    }

    /** Stops the computation early (the load failed or needs no checksum). */
    void cancel() {
        cancelled = true;
    }
}
