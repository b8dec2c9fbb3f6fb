package example;

import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Placement;
import dev.ordo.patterns.lettuce.LettuceStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A leaderboard on a real redis-server, through the published patterns and their Lettuce adapter. */
class LeaderboardOnRedisTest {
    private static Process redis;
    private static int port;

    @BeforeAll
    static void startRedis() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        // As Ordo's own tests: no redis-server skips visibly, except under CI, where it fails
        boolean installed = Stream.of(System.getenv("PATH").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "redis-server")));
        if (!"true".equals(System.getenv("CI"))) {
            assumeTrue(installed, "no redis-server on the PATH");
        }
        Path dir = Files.createTempDirectory("patterns-on-redis");
        redis = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                if (!redis.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis-server did not start on port " + port, notYet);
                }
                Thread.sleep(20);
            }
        }
    }

    @AfterAll
    static void stopRedis() throws InterruptedException {
        if (redis != null) {
            redis.destroy();
            redis.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void leaderboard_onRedis_ranksHighestFirst() {
        try (LettuceStore store = LettuceStore.connect("redis://127.0.0.1:" + port)) {
            Leaderboard board = Leaderboard.create(store, "board", BoardOptions.highestFirst());
            board.addPoints("alice", 120);
            board.addPoints("bob", 95);
            board.addPoints("carol", 150);
            Placement<String> bob = board.addPointsAsync("bob", 60).toCompletableFuture().join();
            assertEquals(new Placement<>("bob", 155.0, 1), bob);

            List<Entry<String>> top = board.top(3);
            assertEquals(List.of("bob", "carol", "alice"), top.stream().map(Entry::member).toList());
            assertEquals(155.0, top.get(0).score());
        }
    }
}
