package dev.ordo.server.net;

import java.io.PrintStream;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Where the server reports its life: startup, shutdown, clients closed for breaking a limit.
 * Lines look like Redis's log: {@code pid:M 12 Jan 2026 10:00:00.123 * message}, with {@code *}
 * for notices and {@code #} for warnings.
 */
public interface ServerLog {
    /** A log that says nothing (the embedded default). */
    ServerLog SILENT = (level, message) -> {
    };

    /** Severity marks, as Redis prints them. */
    char NOTICE = '*';
    char WARNING = '#';

    /** Writes one line. */
    void log(char level, String message);

    default void notice(String message) {
        log(NOTICE, message);
    }

    default void warning(String message) {
        log(WARNING, message);
    }

    /** A log printing Redis-style lines to {@code out}. */
    static ServerLog to(PrintStream out) {
        DateTimeFormatter time = DateTimeFormatter.ofPattern("dd MMM yyyy HH:mm:ss.SSS", Locale.ROOT);
        long pid = ProcessHandle.current().pid();
        return (level, message) -> {
            synchronized (out) {
                out.println(pid + ":M " + time.format(LocalDateTime.now()) + " " + level + " " + message);
                out.flush();
            }
        };
    }
}
