package dev.ordo.engine.persist;

import dev.ordo.engine.command.EffectLog;
import dev.ordo.engine.command.LatencyMonitor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The append-only file's encoding of effect units, and how a failed write is kept. */
class AppendOnlyFileTest {
    @TempDir
    Path dir;

    private static EffectLog.Effect effect(int db, String... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return new EffectLog.Effect(db, raw);
    }

    @Test
    void unitsBecomeRespCommandsWithSelectAndTransactions() throws IOException {
        Path file = dir.resolve("a.aof");
        AppendOnlyFile aof = new AppendOnlyFile(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                AppendOnlyFile.Fsync.ALWAYS);
        aof.unit(List.of(effect(0, "ZADD", "k", "1", "a")));
        aof.unit(List.of(effect(0, "DEL", "x")));
        aof.unit(List.of(effect(3, "ZINCRBY", "k", "2", "a"), effect(3, "PEXPIREAT", "k", "1700000000000")));
        assertThat(Files.size(file)).isZero();
        aof.awaitDurable();
        assertThat(Files.readString(file)).isEqualTo("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n"
                + "*4\r\n$4\r\nZADD\r\n$1\r\nk\r\n$1\r\n1\r\n$1\r\na\r\n"
                + "*2\r\n$3\r\nDEL\r\n$1\r\nx\r\n"
                + "*1\r\n$5\r\nMULTI\r\n*2\r\n$6\r\nSELECT\r\n$1\r\n3\r\n"
                + "*4\r\n$7\r\nZINCRBY\r\n$1\r\nk\r\n$1\r\n2\r\n$1\r\na\r\n"
                + "*3\r\n$9\r\nPEXPIREAT\r\n$1\r\nk\r\n$13\r\n1700000000000\r\n*1\r\n$4\r\nEXEC\r\n");
        assertThat(aof.size()).isEqualTo(Files.size(file));
        aof.close();
    }

    @Test
    void slowWritesAndAlwaysFsyncsReachTheLatencyMonitor() throws IOException {
        // Every reading of the fake clock is 3 ms after the last, so each write and fsync takes 3 ms.
        AtomicLong nanos = new AtomicLong();
        LatencyMonitor latency = new LatencyMonitor(() -> 1, () -> 1_700_000_000_000L);
        Path file = dir.resolve("l.aof");
        AppendOnlyFile aof = new AppendOnlyFile(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                AppendOnlyFile.Fsync.EVERYSEC, latency, () -> nanos.addAndGet(3_000_000));
        aof.unit(List.of(effect(0, "SET", "k", "v")));
        aof.fsyncWritten();
        assertThat(latency.events()).containsExactly("aof-write");
        aof.setFsync(AppendOnlyFile.Fsync.ALWAYS);
        aof.unit(List.of(effect(0, "SET", "k", "w")));
        aof.awaitDurable();
        assertThat(latency.events()).containsExactly("aof-write", "aof-fsync-always");
        aof.close();
    }

    @Test
    void aFailedWriteIsKeptUntilCleared() throws IOException {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is needed to make a write fail");
        AppendOnlyFile aof = new AppendOnlyFile(FileChannel.open(full, StandardOpenOption.WRITE), AppendOnlyFile.Fsync.EVERYSEC);
        aof.unit(List.of(effect(0, "SET", "k", "v")));
        assertThatThrownBy(aof::awaitDurable).isInstanceOf(IOException.class);
        assertThat(aof.lastError()).isNotNull();
        aof.unit(List.of(effect(0, "SET", "k", "w")));
        assertThatThrownBy(aof::awaitDurable).isInstanceOf(IOException.class);
        assertThat(aof.lastError()).isNotNull();
        aof.clearError();
        assertThat(aof.lastError()).isNull();
    }
}
