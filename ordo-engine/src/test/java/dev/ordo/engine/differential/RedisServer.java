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

    /**
     * Starts a server with persistence off and the given extra arguments, or skips / fails as above.
     * Later arguments win, so {@code "--dir", d, "--dbfilename", f} makes it load {@code d/f} at
     * startup (and SAVE there).
     */
    public static RedisServer start(String... extraArgs) throws IOException, InterruptedException {
        String binary = requireTool("redis-server");
        Path dir = Files.createTempDirectory("ordo-redis");
        return launch(new ArrayList<>(List.of(binary)), dir, List.of("--save", "", "--appendonly", "no"), extraArgs);
    }

    /**
     * Starts a Redis Sentinel ({@code redis-server <conf> --sentinel}), or skips / fails as
     * {@link #start} does: a Sentinel needs a configuration file it can rewrite, an empty
     * {@code sentinel.conf} in its directory. What it watches comes in the arguments, one
     * configuration line each, e.g. {@code "--sentinel", "monitor", name, "127.0.0.1", port, "1"}
     * (or later by {@code SENTINEL MONITOR}); {@code "--requirepass", p} makes clients authenticate.
     */
    public static RedisServer sentinel(String... extraArgs) throws IOException, InterruptedException {
        String binary = requireTool("redis-server");
        Path dir = Files.createTempDirectory("ordo-sentinel");
        Path conf = Files.createFile(dir.resolve("sentinel.conf"));
        return launch(new ArrayList<>(List.of(binary, conf.toString(), "--sentinel")), dir, List.of(), extraArgs);
    }

    private static RedisServer launch(List<String> cmd, Path dir, List<String> defaults, String... extraArgs)
            throws IOException, InterruptedException {
        int port = freePort();
        cmd.addAll(List.of("--port", String.valueOf(port), "--bind", "127.0.0.1", "--dir", dir.toString()));
        cmd.addAll(defaults);
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
        throw new IOException(cmd + " did not start on port " + port + ": " + Files.readString(dir.resolve("redis.log")));
    }

    public int port() {
        return port;
    }

    /** The temporary directory the server was started in (its working directory unless {@code --dir} moved it). */
    public Path dir() {
        return dir;
    }

    /**
     * The path of a Redis tool on the PATH ({@code redis-server}, {@code redis-check-rdb} ...), or
     * skips the calling test when it is missing (fails under {@code CI=true}), as {@link #start} does.
     */
    public static String requireTool(String name) {
        String binary = find(name);
        if (binary == null) {
            if ("true".equals(System.getenv("CI"))) {
                throw new IllegalStateException(name + " is not installed, and CI=true forbids skipping the comparison");
            }
            Assumptions.abort(name + " is not installed: comparison with Redis skipped (install redis-server to run it)");
        }
        return binary;
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

    /** Stops the server and deletes its directory; a second call does nothing (a test may stop a server early). */
    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!Files.exists(dir)) {
            return;
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
