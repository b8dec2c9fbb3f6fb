package dev.ordo.patterns.store;

import dev.ordo.patterns.Backend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The patterns' Lua scripts, read from ordo-patterns' classpath resources as the patterns read
 * them ({@link Script#fromResource}), each compile under Lua 5.1: Ordo's checker (SCRIPT LOAD on
 * the embedded engine) and a real redis-server's Lua both accept every one.
 */
class ScriptResourcesTest {
    /** Every {@code .lua} resource of ordo-patterns, as (package, file name), in a stable order. */
    static List<String[]> resources() throws IOException, URISyntaxException {
        URI location = Script.class.getProtectionDomain().getCodeSource().getLocation().toURI();
        Path root = Path.of(location);
        if (Files.isDirectory(root)) {
            return walk(root);
        }
        try (FileSystem jar = FileSystems.newFileSystem(root, Map.of())) {
            return walk(jar.getPath("/"));
        }
    }

    private static List<String[]> walk(Path root) throws IOException {
        List<String[]> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".lua")).sorted().toList()) {
                String pkg = root.relativize(file.getParent()).toString().replace('/', '.');
                found.add(new String[] {pkg, file.getFileName().toString()});
            }
        }
        return found;
    }

    /** Every script as {@link Script#fromResource} builds it (a prelude alone, as a chunk, too). */
    static List<Script> scripts() throws Exception {
        List<Script> scripts = new ArrayList<>();
        for (String[] r : resources()) {
            Class<?> anchor = anchor(r[0]);
            scripts.add(Script.fromResource(anchor, r[1]));
        }
        return scripts;
    }

    /** A class of ordo-patterns in package {@code pkg}, to resolve resources beside. */
    private static Class<?> anchor(String pkg) throws ClassNotFoundException {
        return switch (pkg) {
            case "dev.ordo.patterns.leaderboard" -> Class.forName(pkg + ".Leaderboard");
            case "dev.ordo.patterns.queue" -> Class.forName(pkg + ".DelayedJobQueue");
            case "dev.ordo.patterns.ratelimit" -> Class.forName(pkg + ".RateLimiter");
            default -> throw new AssertionError("a Lua resource in an unexpected package: " + pkg);
        };
    }

    @Test
    void resources_everyFamily_isFoundWithItsPrelude() throws Exception {
        List<String> names = resources().stream().map(r -> r[1]).toList();
        assertThat(names).contains("board_prelude.lua", "board_write.lua", "shard_view.lua", "delayed_prelude.lua", "delayed_claim.lua",
                "priority_offer.lua", "limiter_prelude.lua", "limiter_token_bucket.lua").hasSizeGreaterThanOrEqualTo(24);
        Script write = Script.fromResource(Class.forName("dev.ordo.patterns.leaderboard.Leaderboard"), "board_write.lua");
        assertThat(write.source()).startsWith("local desc = ARGV[1] == 'desc'").contains("local mode, id, value = ARGV[3], ARGV[4], ARGV[5]");
    }

    @Test
    void fromResource_missing_namesTheResource() {
        assertThatThrownBy(() -> Script.fromResource(Script.class, "board_nothing.lua"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("missing Lua script resource dev/ordo/patterns/store/board_nothing.lua");
    }

    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"EMBEDDED", "REDIS"})
    void scriptLoad_everyResource_compilesAndKeepsItsSha1(Backend backend) throws Exception {
        List<Script> scripts = scripts();
        for (Script script : scripts) {
            String sha1 = backend.store().call(StoreCommand.of("SCRIPT").arg("LOAD").arg(script.source())).asString();
            assertThat(sha1).as(script.source()).isEqualTo(script.sha1());
        }
    }
}
