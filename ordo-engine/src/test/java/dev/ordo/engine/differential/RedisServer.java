package dev.ordo.engine.differential;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code redis-server} on a free loopback port, started by a test. When none is installed
 * the test is skipped with a visible reason, except under {@code CI=true}, where a missing server
 * is a failure: CI must never pass by skipping the comparison.
 */
public final class RedisServer implements AutoCloseable {
    private final Process process;
    private final Path dir;
    private final int port;

    private RedisServer(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    /** Starts a server with persistence off and the given extra arguments, or skips / fails as above. */
    public static RedisServer start(String... extraArgs) throws IOException, InterruptedException {
        String binary = requireBinary("redis-server");
        int port = freePort();
        Path dir = Files.createTempDirectory("ordo-redis");
        List<String> cmd = new ArrayList<>(List.of(binary, "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()));
        cmd.addAll(List.of(extraArgs));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (accepts(port)) {
                return new RedisServer(p, dir, port);
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(20);
        }
        p.destroyForcibly();
        throw new IOException("redis-server did not start on port " + port + ": " + Files.readString(dir.resolve("redis.log")));
    }

    /**
     * The path of one of Redis's programs (redis-server, redis-check-aof, ...) on the PATH; when it is
     * missing the test is skipped with a visible reason, or fails under {@code CI=true}.
     */
    public static String requireBinary(String name) {
        String binary = find(name);
        if (binary == null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(name + " is not installed, and CI=true forbids skipping the comparison");
            }
            Assumptions.abort(name + " is not installed: comparison with Redis skipped (install redis-server to run it)");
        }
        return binary;
    }

    /** The server's working directory ({@code dir}): where its RDB and AOF files go. Deleted on {@link #close()}. */
    public Path dir() {
        return dir;
    }

    public int port() {
        return port;
    }

    /** The version the server reports, e.g. 7.0.15. */
    public String version() throws IOException {
        try (RespSocket s = new RespSocket(port)) {
            String info = s.call("INFO".getBytes(), "server".getBytes()).textString();
            for (String line : info.split("\r\n")) {
                if (line.startsWith("redis_version:")) {
                    return line.substring("redis_version:".length());
                }
            }
        }
        return "unknown";
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

    static String find(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        return null;
    }

    private static boolean accepts(int port) {
        try {
            new Socket("127.0.0.1", port).close();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
