package dev.ordo.patterns.metrics;

import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Micrometer is an optional dependency: only this package may refer to it, so an application
 * without Micrometer loads every other class of the patterns. Reads the compiled classes: a
 * reference to a Micrometer type is a constant {@code io/micrometer/...} in the class file.
 */
class MicrometerIsOptionalTest {
    private static final byte[] MICROMETER = "io/micrometer/".getBytes(StandardCharsets.US_ASCII);

    @Test
    void classesOutsideMetrics_referToNoMicrometerType() throws IOException {
        List<Path> outside = classes().stream().filter(c -> !inMetrics(c)).toList();

        assertThat(outside).hasSizeGreaterThan(20);
        assertThat(outside).noneMatch(MicrometerIsOptionalTest::refersToMicrometer);
    }

    @Test
    void metricsPackage_refersToMicrometer_soTheScanSeesReferences() throws IOException {
        assertThat(classes()).filteredOn(MicrometerIsOptionalTest::inMetrics).anyMatch(MicrometerIsOptionalTest::refersToMicrometer);
    }

    private static boolean inMetrics(Path classFile) {
        return root().relativize(classFile).startsWith(Path.of("dev", "ordo", "patterns", "metrics"));
    }

    private static List<Path> classes() throws IOException {
        try (Stream<Path> files = Files.walk(root())) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.getFileName().toString().equals("module-info.class")).toList();
        }
    }

    private static Path root() {
        try {
            return Path.of(Store.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean refersToMicrometer(Path classFile) {
        try {
            byte[] bytes = Files.readAllBytes(classFile);
            outer:
            for (int i = 0; i + MICROMETER.length <= bytes.length; i++) {
                for (int j = 0; j < MICROMETER.length; j++) {
                    if (bytes[i + j] != MICROMETER[j]) {
                        continue outer;
                    }
                }
                return true;
            }
            return false;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
