package dev.ordo.engine.persist;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.persist.aof.AofLayout;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where the data files are, read from the configuration each time (CONFIG SET dir and friends
 * take effect at once), and the two file moves every writer uses.
 */
final class DataFiles {
    private final Config config;

    DataFiles(Config config) {
        this.config = config;
    }

    boolean appendOnly() {
        return config.get("appendonly").equals("yes");
    }

    Path dir() {
        return Path.of(config.get("dir"));
    }

    Path rdbFile() {
        return dir().resolve(config.get("dbfilename"));
    }

    Path aofDir() {
        return layout().dir();
    }

    AofLayout layout() {
        return new AofLayout(dir(), config.get("appenddirname"), config.get("appendfilename"));
    }

    /** Fsyncs a written temporary file, then moves it over {@code target} ({@link AofLayout#moveIntoPlace}). */
    static void install(Path temp, Path target) throws IOException {
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        AofLayout.moveIntoPlace(temp, target);
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover temporary file is harmless: the next job overwrites it
        }
    }
}
