package dev.ordo.server.config;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.config.Directive;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample {@code config/ordo.conf}, {@code --help} and the lists of ignored and refused
 * directives all come from the config table; these tests fail when a directive is added to the
 * table without a description, or the checked-in file falls behind it.
 */
class ConfigReferenceTest {
    /** The sample file, relative to the module's directory (where the tests run). */
    private static final Path SAMPLE = Path.of("config", "ordo.conf");

    @Test
    void sampleFile_isWhatTheConfigTableDescribes() throws IOException {
        if (Boolean.getBoolean("ordo.sampleConfig.write")) {
            Files.writeString(SAMPLE, ConfigReference.sampleFile(), StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(SAMPLE, StandardCharsets.UTF_8))
                .as("config/ordo.conf is out of date; rewrite it with: ./mvnw -pl ordo-server test "
                        + "-Dtest=ConfigReferenceTest -Dordo.sampleConfig.write=true")
                .isEqualTo(ConfigReference.sampleFile());
    }

    @Test
    void sampleFile_setsExactlyTheTablesDirectives_eachUnderAComment() throws IOException {
        List<String> lines = Files.readAllLines(SAMPLE, StandardCharsets.UTF_8);
        List<String> directives = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            directives.add(line.substring(0, line.indexOf(' ')));
            assertThat(lines.get(i - 1)).as("the line above %s", line).startsWith("# ");
        }
        assertThat(directives).isEqualTo(new Config().names());
    }

    @Test
    void sampleFile_loadsToTheDefaults() throws ConfigException, IOException {
        Config loaded = new ConfigLoader(InputStream.nullInputStream()).load(List.of(SAMPLE.toString())).config();
        Config defaults = new Config();
        for (String name : defaults.names()) {
            assertThat(loaded.get(name)).as(name).isEqualTo(defaults.get(name));
        }
    }

    @Test
    void usage_listsEveryDirectiveWithItsDefaultAndMeaning() {
        String usage = ConfigReference.usage();
        for (Directive d : new Config().directives()) {
            assertThat(usage).contains("\n  --" + d.name() + " " + ConfigReference.shownValue(d));
            assertThat(usage).contains("\n      " + d.description());
        }
        assertThat(usage).contains("--zset-max-listpack-entries 128   (also --zset-max-ziplist-entries)",
                "--save 3600 1 300 100 60 10000", "--requirepass \"\"",
                "Run in the background. Accepted, no effect: Ordo runs in the foreground");
    }

    @Test
    void ignored_areTheDirectivesTheTableMarks() {
        assertThat(ConfigReference.ignored()).contains(
                "daemonize: Ordo runs in the foreground; start it from a service manager",
                "cluster-enabled: Ordo has no cluster mode",
                "lazyfree-lazy-user-del: memory is given back by the JVM's garbage collector, not freed by a thread");
        assertThat(ConfigReference.ignored()).noneMatch(line -> line.startsWith("port:") || line.startsWith("maxmemory:"));
    }

    @Test
    void refused_areRedisDirectivesOrdoDoesNotKnow() {
        List<String> refused = ConfigReference.refused();
        assertThat(refused).contains("replicaof", "slaveof", "cluster-config-file", "unixsocket", "include", "rename-command",
                "loadmodule", "locale-collate", "pidfile");
        assertThat(refused).doesNotContain("port", "save", "zset-max-ziplist-entries", "slave-read-only", "min-slaves-to-write", "user")
                .isSorted();
    }

    @Test
    void redisList_namesEveryDirectiveOrdoTakesFromRedis() {
        // io-transport and the console-* directives are Ordo's own; every other directive (and alias) must be one of Redis's, so a
        // typo in the table or in the list shows here.
        Set<String> ordoOnly = Set.of("io-transport", "console-port", "console-bind", "console-writable");
        List<String> redis = ConfigReference.redisDirectives();
        for (Directive d : new Config().directives()) {
            if (!ordoOnly.contains(d.name())) {
                assertThat(redis).as(d.name()).contains(d.name());
                assertThat(redis).containsAll(d.aliases());
            }
        }
    }
}
