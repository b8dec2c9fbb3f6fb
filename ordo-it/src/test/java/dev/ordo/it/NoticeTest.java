package dev.ordo.it;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * NOTICE names every third-party library a published module needs at run time, at the version
 * the build uses: a new dependency, or a new version of one, fails here until NOTICE says so (and
 * its licence has been checked). The list is this module's run-time dependencies, written by
 * dependency:list in generate-test-resources; this module depends on every published module.
 */
class NoticeTest {
    /** A line of dependency:list: {@code groupId:artifactId:type[:classifier]:version:scope}. */
    private static final Pattern LIBRARY =
            Pattern.compile("^\\s*([\\w.\\-]+):([\\w.\\-]+):jar(?::[\\w.\\-]+)?:([\\w.\\-]+):(compile|runtime)\\b.*");

    @Test
    void notice_namesEveryRunTimeLibraryWithItsVersion() throws IOException {
        String notice = Files.readString(Path.of(System.getProperty("ordo.notice")));
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("ordo.runTimeLibraries")));
        int libraries = 0;
        for (String line : lines) {
            Matcher library = LIBRARY.matcher(line);
            if (!library.matches()) {
                continue;
            }
            libraries++;
            String groupId = library.group(1);
            String artifactId = library.group(2);
            String version = library.group(3);
            assertThat(notice).as("NOTICE names %s:%s", groupId, artifactId)
                    .containsPattern(Pattern.quote(groupId) + ":[^)]*" + Pattern.quote(artifactId.substring(artifactId.lastIndexOf('-') + 1)));
            assertThat(notice).as("NOTICE gives %s:%s's version", groupId, artifactId).contains(version);
        }
        assertThat(libraries).as("libraries read from %s", System.getProperty("ordo.runTimeLibraries")).isGreaterThan(10);
    }
}
