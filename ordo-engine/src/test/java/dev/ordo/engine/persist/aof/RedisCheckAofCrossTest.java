package dev.ordo.engine.persist.aof;

import dev.ordo.engine.differential.RedisServer;
import dev.ordo.engine.differential.RespSocket;
import dev.ordo.engine.persist.aof.AofLayout.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Verdicts of {@link AofCheck} and {@link AofReader} beside those of the real {@code redis-check-aof}
 * (7.0), which takes a single command file ("Old-Style AOF") or a manifest, exits 0 for a valid AOF
 * and 1 otherwise, prints {@code ok_up_to=<offset>}, and with {@code --fix} asks for a "y" on
 * standard input before truncating there.
 *
 * <p>Where the two differ, on purpose, the difference is asserted here as such:
 * <ul>
 * <li>A file ending inside an annotation line ({@code #TS:17} without its line end): redis-check-aof
 *     skips the partial line and calls the file valid; Ordo calls it torn at the line's start,
 *     because the next append would otherwise land on the annotation's line and be swallowed by
 *     it.</li>
 * <li>Damage before the tail: both say invalid with the same valid prefix, but redis-check-aof
 *     {@code --fix} cuts everything after it, where Ordo refuses (see {@link AofCheck}).</li>
 * </ul>
 */
class RedisCheckAofCrossTest {
    private static final Pattern OK_UP_TO = Pattern.compile("ok_up_to=(\\d+)");

    @TempDir
    Path tmp;

    /** What redis-check-aof said: its exit code and the offset it found the file valid up to. */
    record Verdict(int exit, long okUpTo, String output) {
    }

    static Verdict redisCheck(Path file, boolean fix) throws IOException, InterruptedException {
        String binary = RedisServer.requireTool("redis-check-aof");
        List<String> cmd = new ArrayList<>(List.of(binary));
        if (fix) {
            cmd.add("--fix");
        }
        cmd.add(file.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write("y\n".getBytes(StandardCharsets.US_ASCII)); // the answer --fix asks for
        } catch (IOException ignored) {
            // Without --fix it may exit before reading its input.
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        Matcher m = OK_UP_TO.matcher(out);
        long okUpTo = -1;
        while (m.find()) {
            okUpTo = Long.parseLong(m.group(1)); // the last file analysed, for a manifest
        }
        if (okUpTo < 0 && out.contains("is empty")) {
            okUpTo = 0;
        }
        return new Verdict(exit, okUpTo, out);
    }

    private static int ordoCheck(Path file, boolean fix) {
        try (PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            return AofCheck.run(file, fix, out);
        }
    }

    @Test
    void everyCutOfASingleFileGetsTheSameVerdict() throws Exception {
        AofBytes f = new AofBytes().command("SELECT", "0").command("SET", "k", "v\r\nw").annotation("TS:1700000000")
                .command("ZADD", "z", "1", "a", "2", "b").transaction(List.of(List.of("INCR", "n"), List.of("SET", "x", "")))
                .command("DEL", "k");
        long noteStart = f.boundaries().get(2);
        long noteEnd = f.boundaries().get(3);
        byte[] all = f.bytes();
        Path file = tmp.resolve("appendonly.aof");
        int agreed = 0;
        for (int cut = 0; cut <= all.length; cut++) {
            Files.write(file, Arrays.copyOf(all, cut));
            AofReader.Result ours = AofReader.read(file, (args, offset) -> {
            });
            Verdict redis = redisCheck(file, false);
            if (cut > noteStart && cut < noteEnd) {
                // The documented difference: a torn annotation.
                assertThat(redis.exit()).as("redis at cut %d: %s", cut, redis.output()).isZero();
                assertThat(redis.okUpTo()).isEqualTo(cut);
                assertThat(ours).isEqualTo(new AofReader.Result(noteStart, true, 2));
                continue;
            }
            assertThat(redis.okUpTo()).as("cut %d: %s", cut, redis.output()).isEqualTo(ours.validUpTo());
            assertThat(redis.exit()).as("cut %d: %s", cut, redis.output()).isEqualTo(ours.torn() ? 1 : 0);
            assertThat(ordoCheck(file, false)).isEqualTo(redis.exit());
            agreed++;
        }
        assertThat(agreed).isGreaterThan(all.length - 20);
    }

    @Test
    void fixCutsATornTailToTheSameLength() throws Exception {
        AofBytes f = new AofBytes().command("SET", "a", "1").command("SET", "b", "2")
                .transaction(List.of(List.of("INCR", "a")));
        byte[] all = f.bytes();
        for (int cut : new int[] {all.length - 1, all.length - 20, (int) (long) f.boundaries().get(1) + 3}) {
            Path theirs = Files.write(tmp.resolve("theirs.aof"), Arrays.copyOf(all, cut));
            Path ours = Files.write(tmp.resolve("ours.aof"), Arrays.copyOf(all, cut));
            Verdict redis = redisCheck(theirs, true);
            assertThat(redis.exit()).as(redis.output()).isZero();
            assertThat(ordoCheck(ours, true)).isZero();
            assertThat(Files.readAllBytes(ours)).isEqualTo(Files.readAllBytes(theirs));
            assertThat(redisCheck(ours, false).exit()).isZero();
        }
    }

    @Test
    void damageInTheMiddleBothInvalidOnlyRedisCutsIt() throws Exception {
        AofBytes f = new AofBytes();
        for (int i = 0; i < 300; i++) {
            f.command("SET", "key" + i, "value" + i);
        }
        byte[] bad = f.bytes();
        long damagedRecord = f.boundaries().get(5);
        bad[(int) damagedRecord + 1] = 'x'; // "*x" where "*3" was
        Path theirs = Files.write(tmp.resolve("theirs.aof"), bad);
        Path ours = Files.write(tmp.resolve("ours.aof"), bad);

        Verdict redis = redisCheck(theirs, false);
        assertThat(redis.exit()).isEqualTo(1);
        assertThat(redis.okUpTo()).isEqualTo(damagedRecord);
        assertThat(ordoCheck(ours, false)).isEqualTo(1);
        try {
            AofReader.read(ours, (args, offset) -> {
            });
            throw new AssertionError("damage not detected");
        } catch (AofFormatException e) {
            assertThat(e.validUpTo()).isEqualTo(damagedRecord);
        }

        assertThat(redisCheck(theirs, true).exit()).isZero();
        assertThat(Files.size(theirs)).isEqualTo(damagedRecord);
        assertThat(ordoCheck(ours, true)).isEqualTo(1);
        assertThat(Files.readAllBytes(ours)).isEqualTo(bad);
    }

    @Test
    void aTornRedisWrittenMultiPartAofGetsTheSameVerdictAndRepair() throws Exception {
        Path theirs = tmp.resolve("theirs");
        Path ours = tmp.resolve("ours");
        try (RedisServer redis = RedisServer.start("--appendonly", "yes");
             RespSocket s = new RespSocket(redis.port())) {
            for (int i = 0; i < 20; i++) {
                RedisAofInteropTest.call(s, "ZADD", "board", Integer.toString(i), "player-" + i);
            }
            RedisAofInteropTest.rewrite(s, AofLayout.defaults(redis.dir()).manifestPath(), 1);
            for (int i = 0; i < 20; i++) {
                RedisAofInteropTest.call(s, "ZINCRBY", "board", "1.5", "player-" + i);
            }
            copyTree(AofLayout.defaults(redis.dir()).dir(), theirs);
            copyTree(AofLayout.defaults(redis.dir()).dir(), ours);
        }
        Manifest m = AofLayout.read(theirs.resolve("appendonly.aof.manifest"));
        assertThat(redisCheck(theirs.resolve("appendonly.aof.manifest"), false).exit()).isZero();
        assertThat(ordoCheck(ours.resolve("appendonly.aof.manifest"), false)).isZero();

        Path lastTheirs = theirs.resolve(m.lastIncr().name());
        Path lastOurs = ours.resolve(m.lastIncr().name());
        long size = Files.size(lastTheirs);
        for (Path p : List.of(lastTheirs, lastOurs)) {
            Files.write(p, Arrays.copyOf(Files.readAllBytes(p), (int) size - 7));
        }
        Verdict redis = redisCheck(theirs.resolve("appendonly.aof.manifest"), false);
        AofReader.Result r = AofReader.read(lastOurs, (args, offset) -> {
        });
        assertThat(redis.exit()).isEqualTo(1);
        assertThat(r.torn()).isTrue();
        assertThat(redis.okUpTo()).as(redis.output()).isEqualTo(r.validUpTo());
        assertThat(ordoCheck(ours.resolve("appendonly.aof.manifest"), false)).isEqualTo(1);

        assertThat(redisCheck(theirs.resolve("appendonly.aof.manifest"), true).exit()).isZero();
        assertThat(ordoCheck(ours.resolve("appendonly.aof.manifest"), true)).isZero();
        assertThat(Files.readAllBytes(lastOurs)).isEqualTo(Files.readAllBytes(lastTheirs));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, to.resolve(f.getFileName().toString()));
            }
        }
    }
}
