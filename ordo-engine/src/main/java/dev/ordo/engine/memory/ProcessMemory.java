package dev.ordo.engine.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the operating system says of this process's memory: its resident set size. */
public final class ProcessMemory {
    private static final Path STATM = Path.of("/proc/self/statm");
    private static final long PAGE = 4096;

    private ProcessMemory() {
    }

    /**
     * The process's resident set size in bytes (Linux's /proc/self/statm), or the JVM's committed
     * heap where that cannot be read.
     *
     * @return the bytes
     */
    public static long residentBytes() {
        try {
            String[] fields = Files.readString(STATM).trim().split(" ");
            return Long.parseLong(fields[1]) * PAGE;
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().totalMemory();
        }
    }
}
