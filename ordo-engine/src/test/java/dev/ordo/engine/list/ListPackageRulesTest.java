package dev.ordo.engine.list;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The list stays low in the engine's layers while it is being de-cycled: {@code list} imports
 * nothing from {@code persist}, {@code command} or the engine's root package, and
 * {@code encoding} imports nothing from the engine at all.
 */
class ListPackageRulesTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/ordo/engine");

    @Test
    void listAndEncoding_importOnlyWhatTheirLayerAllows() throws IOException {
        assertThat(violations("list", Pattern.compile("import dev\\.ordo\\.engine\\.(persist|command)\\.|import dev\\.ordo\\.engine\\.[A-Z]")))
                .isEmpty();
        assertThat(violations("encoding", Pattern.compile("import dev\\.ordo\\."))).isEmpty();
    }

    private static List<String> violations(String pkg, Pattern forbidden) throws IOException {
        Path dir = SOURCES.resolve(pkg);
        assertThat(dir).isDirectory();
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (forbidden.matcher(line).find()) {
                        out.add(f.getFileName() + ": " + line.trim());
                    }
                }
            }
        }
        return out;
    }
}
