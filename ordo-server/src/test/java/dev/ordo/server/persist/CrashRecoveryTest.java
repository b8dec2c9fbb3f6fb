package dev.ordo.server.persist;

import dev.ordo.engine.persist.aof.AofCheck;
import dev.ordo.server.RawClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kills an Ordo server process with SIGKILL at random moments while a client writes steadily
 * (ZADD, ZINCRBY, EXPIRE, a script writing two keys), sometimes right after starting a background
 * AOF rewrite or a background save, then restarts it on the same directory and checks what
 * survived against the client's record of acknowledged writes:
 * <ul>
 *   <li>{@code appendfsync always}: every acknowledged write is there; the one write in flight
 *       at the kill may or may not be.</li>
 *   <li>{@code appendfsync everysec}: every write acknowledged more than the policy's second
 *       (plus scheduling slack) before the kill is there.</li>
 * </ul>
 * After every restart the data must be consistent (the script's two keys always agree) and the
 * append-only file must pass the check tool.
 */
class CrashRecoveryTest {
    private static final int KILLS_ALWAYS = 20;
    private static final int KILLS_EVERYSEC = 5;

    @TempDir
    Path dir;

    private int interruptedJobs;

    /** The client's record: what each acknowledged write left, and the write in flight. */
    private static final class Model {
        final Map<String, Long> scores = new HashMap<>();
        final Map<String, Long> ackedAt = new HashMap<>();
        final Map<String, String> strings = new HashMap<>();
        long pairs;
        long pairsAckedAt;
        String inFlightMember;
        long inFlightScore;
        boolean inFlightPair;
        long killedAt;
    }

    @Test
    void alwaysLosesNoAcknowledgedWrite() throws Exception {
        crashLoop("always", KILLS_ALWAYS, 0);
    }

    @Test
    void everysecLosesAtMostTheLastSecond() throws Exception {
        crashLoop("everysec", KILLS_EVERYSEC, 1500);
    }

    private void crashLoop(String fsync, int kills, long allowedLossMillis) throws Exception {
        SplittableRandom random = new SplittableRandom(42 + fsync.hashCode());
        Model model = new Model();
        long sequence = 0;
        for (int round = 0; round < kills; round++) {
            int port = freePort();
            Process server = start(port, fsync);
            try (RawClient client = new RawClient(port)) {
                verify(client, model, allowedLossMillis, round);
                if (round == 0) {
                    preload(client);
                }
                long killAt = System.currentTimeMillis() + 150 + random.nextInt(500);
                int background = random.nextInt(3);
                boolean triggered = false;
                while (true) {
                    long now = System.currentTimeMillis();
                    if (!triggered && now > killAt - 60) {
                        triggered = true;
                        if (background == 1) {
                            assertThat(client.call("BGREWRITEAOF")).startsWith("+Background append only file rewriting");
                        } else if (background == 2) {
                            assertThat(client.call("BGSAVE", "SCHEDULE")).startsWith("+Background saving");
                        }
                    }
                    if (now >= killAt) {
                        if (background != 0) {
                            // rdb-key-save-delay makes the job outlast the 60 ms to the kill: it dies mid-way.
                            String info = client.call("INFO", "persistence");
                            assertThat(info).contains(background == 1 ? "aof_rewrite_in_progress:1" : "rdb_bgsave_in_progress:1");
                            interruptedJobs++;
                        }
                        break;
                    }
                    sequence++;
                    write(client, model, sequence, random);
                }
            } finally {
                model.killedAt = System.currentTimeMillis();
                server.destroyForcibly().waitFor();
            }
        }
        int port = freePort();
        Process server = start(port, fsync);
        try (RawClient client = new RawClient(port)) {
            verify(client, model, allowedLossMillis, kills);
            assertThat(model.scores).hasSizeGreaterThan(100);
            assertThat(interruptedJobs).as("kills during a rewrite or a background save").isGreaterThan(0);
        } finally {
            server.destroyForcibly().waitFor();
        }
    }

    /** A large sorted set, so that rewrites and saves take long enough to be interrupted. */
    private static void preload(RawClient client) throws IOException {
        StringBuilder script = new StringBuilder("for i = 1, 200000 do redis.call('ZADD', 'bulk', i, 'member:' .. i) end return 1");
        assertThat(client.call("EVAL", script.toString(), "0")).isEqualTo(":1\r\n");
    }

    private static void write(RawClient client, Model model, long seq, SplittableRandom random) throws IOException {
        int op = random.nextInt(4);
        if (op == 3) {
            model.inFlightPair = true;
            String reply = client.call("EVAL", "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1]) redis.call('ZADD', KEYS[2], ARGV[1], ARGV[1])"
                    + " return redis.call('ZCARD', KEYS[1])", "2", "pair:a", "pair:b", String.valueOf(seq));
            assertThat(reply).startsWith(":");
            model.pairs = Long.parseLong(reply.substring(1).trim());
            model.inFlightPair = false;
            model.pairsAckedAt = System.currentTimeMillis();
            return;
        }
        String member = op == 0 ? "m" + seq : "hot" + random.nextInt(50);
        long score;
        String reply;
        if (op == 0) {
            score = seq;
            model.inFlightMember = member;
            model.inFlightScore = score;
            reply = client.call("ZADD", "board", String.valueOf(score), member);
            assertThat(reply).isEqualTo(":1\r\n");
        } else if (op == 1) {
            score = model.scores.getOrDefault(member, 0L) + 1;
            model.inFlightMember = member;
            model.inFlightScore = score;
            reply = client.call("ZINCRBY", "board", "1", member);
            assertThat(reply).isEqualTo("$" + String.valueOf(score).length() + "\r\n" + score + "\r\n");
        } else {
            String key = "ttl:" + (seq % 10);
            model.strings.remove(key);
            assertThat(client.call("SET", key, String.valueOf(seq))).isEqualTo("+OK\r\n");
            assertThat(client.call("EXPIRE", key, "100000")).isEqualTo(":1\r\n");
            model.strings.put(key, String.valueOf(seq));
            model.ackedAt.put(key, System.currentTimeMillis());
            return;
        }
        model.scores.put(member, score);
        model.inFlightMember = null;
        model.ackedAt.put(member, System.currentTimeMillis());
    }

    /**
     * Checks the restarted server against the record, then adopts what it holds as the new
     * record. A write must have survived when it was acknowledged before {@code killedAt -
     * allowedLossMillis} (all of them for {@code always}); the write in flight may or may not have.
     */
    private void verify(RawClient client, Model model, long allowedLossMillis, int round) throws IOException {
        String check = checkAof();
        assertThat(check).as("round %d: check tool on the AOF", round).doesNotContain("(not valid)");
        long pairA = card(client, "pair:a");
        assertThat(pairA).as("round %d: the script's two keys agree", round).isEqualTo(card(client, "pair:b"));
        long mustHaveBefore = model.killedAt - allowedLossMillis;
        Map<String, Long> held = new HashMap<>();
        for (Map.Entry<String, Long> e : model.scores.entrySet()) {
            String reply = client.call("ZSCORE", "board", e.getKey());
            Long score = reply.startsWith("$-1") ? null : Long.parseLong(reply.split("\r\n")[1]);
            boolean inFlight = e.getKey().equals(model.inFlightMember) && score != null && score == model.inFlightScore;
            if (allowedLossMillis == 0 || model.ackedAt.get(e.getKey()) < mustHaveBefore) {
                assertThat(inFlight || e.getValue().equals(score))
                        .as("round %d: %s acknowledged as %s, found %s", round, e.getKey(), e.getValue(), score).isTrue();
            }
            if (score != null) {
                held.put(e.getKey(), score);
            }
        }
        if (model.inFlightMember != null && !model.scores.containsKey(model.inFlightMember)) {
            String reply = client.call("ZSCORE", "board", model.inFlightMember);
            if (!reply.startsWith("$-1")) {
                held.put(model.inFlightMember, model.inFlightScore);
            }
        }
        Map<String, String> strings = new HashMap<>();
        for (Map.Entry<String, String> e : model.strings.entrySet()) {
            String reply = client.call("GET", e.getKey());
            if (allowedLossMillis == 0 || model.ackedAt.get(e.getKey()) < mustHaveBefore) {
                assertThat(reply).as("round %d: %s", round, e.getKey())
                        .isEqualTo("$" + e.getValue().length() + "\r\n" + e.getValue() + "\r\n");
                assertThat(Long.parseLong(client.call("TTL", e.getKey()).substring(1).trim()))
                        .as("round %d: TTL of %s", round, e.getKey()).isGreaterThan(90_000);
            }
            if (!reply.startsWith("$-1")) {
                strings.put(e.getKey(), reply.split("\r\n")[1]);
            }
        }
        if (allowedLossMillis == 0 || model.pairsAckedAt < mustHaveBefore) {
            assertThat(pairA).as("round %d: acknowledged script runs", round)
                    .isBetween(model.pairs, model.pairs + (model.inFlightPair ? 1 : 0));
        }
        model.scores.clear();
        model.scores.putAll(held);
        model.strings.clear();
        model.strings.putAll(strings);
        model.pairs = pairA;
        model.inFlightMember = null;
        model.inFlightPair = false;
    }

    private static long card(RawClient client, String key) throws IOException {
        return Long.parseLong(client.call("ZCARD", key).substring(1).trim());
    }

    private String checkAof() {
        Path manifest = dir.resolve("appendonlydir").resolve("appendonly.aof.manifest");
        if (!Files.exists(manifest)) {
            return "no manifest yet";
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        int code = AofCheck.run(manifest, false, new PrintStream(text, true, StandardCharsets.UTF_8));
        return text.toString(StandardCharsets.UTF_8) + (code == 0 ? "" : " (not valid)");
    }

    private Process start(int port, String fsync) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve("server.log");
        Process p = new ProcessBuilder(java, "-Xmx2g", "-cp", System.getProperty("java.class.path"), "dev.ordo.server.Main",
                "--port", String.valueOf(port), "--dir", dir.toString(), "--appendonly", "yes", "--appendfsync", fsync,
                "--save", "", "--rdb-key-save-delay", "20000")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (RawClient probe = new RawClient(port)) {
                if (probe.call("PING").equals("+PONG\r\n")) {
                    return p;
                }
            } catch (IOException e) {
                if (!p.isAlive()) {
                    throw new AssertionError("the server did not restart: " + Files.readString(log));
                }
                Thread.sleep(20);
            }
        }
        p.destroyForcibly();
        throw new AssertionError("the server did not start within 60 s: " + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
