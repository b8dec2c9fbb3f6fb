package dev.ordo.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A throwaway {@code redis-server} on a free loopback port, with persistence off, for anchors
 * measured in the same run. Absent when no {@code redis-server} is on the PATH.
 */
final class RedisProcess implements AutoCloseable {
    private final Process process;
    private final Path dir;
    final int port;

    private RedisProcess(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /**
     * Keeps the benchmark's Lettuce clients on Lettuce's default NIO transport, the one an
     * application that adds no native transport gets: the server jar on this class path carries
     * Netty's io_uring for Ordo's server, which Lettuce would otherwise pick up. Call before any
     * Lettuce class loads.
     */
    static void keepLettuceOnNio() {
        System.setProperty("io.lettuce.core.iouring", "false");
    }

    /** Starts a server, or returns empty when {@code redis-server} is not installed. */
    static Optional<RedisProcess> start() throws IOException, InterruptedException {
        Optional<String> binary = onPath("redis-server");
        if (binary.isEmpty()) {
            return Optional.empty();
        }
        int port = freePort();
        Path dir = Files.createTempDirectory("ordo-bench-redis");
        Process p = new ProcessBuilder(List.of(binary.get(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (accepts(port)) {
                return Optional.of(new RedisProcess(p, dir, port));
            }
            Thread.sleep(20);
        }
        p.destroyForcibly();
        throw new IOException("redis-server did not start on port " + port);
    }

    /** The pid, for reading its resident memory. */
    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted((a, b) -> b.compareTo(a)).map(Path::toFile).forEach(File::delete);
        }
    }

    private static Optional<String> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.canExecute()) {
                return Optional.of(f.getAbsolutePath());
            }
        }
        return Optional.empty();
    }

    private static boolean accepts(int port) {
        try {
            new Socket("127.0.0.1", port).close();
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
