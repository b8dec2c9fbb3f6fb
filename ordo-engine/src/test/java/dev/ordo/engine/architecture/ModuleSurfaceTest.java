package dev.ordo.engine.architecture;

import dev.ordo.engine.Engine;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the engine module's exports what was decided: embedders get the engine, its clients, the
 * configuration, errors, in-process Pub/Sub, time and the emulated Redis version; the network
 * server alone also gets the packages it hooks into, by qualified exports. Reads the compiled
 * {@code module-info.class}, so a package exported by mistake (or a new one left unexported that
 * should be) fails here, whichever path the tests run on.
 */
class ModuleSurfaceTest {
    private static final Set<String> API = Set.of(
            "dev.ordo.engine",
            "dev.ordo.engine.config",
            "dev.ordo.engine.error",
            "dev.ordo.engine.pubsub",
            "dev.ordo.engine.time",
            "dev.ordo.engine.version");

    private static final Set<String> SERVER_ONLY = Set.of(
            "dev.ordo.engine.acl",
            "dev.ordo.engine.command",
            "dev.ordo.engine.error.text",
            "dev.ordo.engine.host",
            "dev.ordo.engine.keyspace",
            "dev.ordo.engine.memory",
            "dev.ordo.engine.number",
            "dev.ordo.engine.persist",
            "dev.ordo.engine.persist.aof",
            "dev.ordo.engine.script");

    @Test
    void descriptor_exportsTheApiToAllAndTheHooksToTheServerOnly() throws IOException, URISyntaxException {
        ModuleDescriptor module = descriptor();
        assertThat(module.name()).isEqualTo("dev.ordo.engine");
        Map<String, Set<String>> exports = new TreeMap<>();
        for (ModuleDescriptor.Exports e : module.exports()) {
            exports.put(e.source(), e.targets());
        }
        Map<String, Set<String>> expected = new TreeMap<>();
        API.forEach(p -> expected.put(p, Set.of()));
        SERVER_ONLY.forEach(p -> expected.put(p, Set.of("dev.ordo.server")));
        assertThat(exports).isEqualTo(expected);
        assertThat(module.opens()).isEmpty();
    }

    @Test
    void descriptor_leavesEveryOtherPackageConcealed() throws IOException, URISyntaxException {
        Set<String> packages = packagesWithClasses();
        assertThat(packages).containsAll(API).containsAll(SERVER_ONLY);
        Set<String> concealed = packages.stream().filter(p -> !API.contains(p) && !SERVER_ONLY.contains(p))
                .collect(Collectors.toSet());
        assertThat(concealed).contains("dev.ordo.engine.zset", "dev.ordo.engine.list", "dev.ordo.engine.encoding",
                "dev.ordo.engine.persist.rdb", "dev.ordo.engine.script.lib", "dev.ordo.engine.match");
        assertThat(descriptor().exports()).noneMatch(e -> concealed.contains(e.source()));
    }

    private static Path classes() throws URISyntaxException {
        return Path.of(Engine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static ModuleDescriptor descriptor() throws IOException, URISyntaxException {
        try (InputStream in = Files.newInputStream(classes().resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    private static Set<String> packagesWithClasses() throws IOException, URISyntaxException {
        Path root = classes();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().equals("module-info.class"))
                    .map(f -> root.relativize(f.getParent()).toString().replace(root.getFileSystem().getSeparator(), "."))
                    .collect(Collectors.toSet());
        }
    }
}
