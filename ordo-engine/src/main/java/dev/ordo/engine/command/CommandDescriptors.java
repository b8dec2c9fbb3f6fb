package dev.ordo.engine.command;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one description of every command, read once from {@code commands.txt}: arity, flags, key
 * positions, group, version, ACL categories, summary and Redis 7 key specs, by full name
 * ({@code config|get}). The table gives each command it registers its line ({@link #describe});
 * COMMAND INFO, COMMAND DOCS, COMMAND GETKEYS, the ACL and the dispatcher then read the command.
 * The file's own header says the layout. Lines were generated once from Redis 7.0.15's COMMAND
 * INFO and Ordo's registrations, and are kept by hand since.
 */
final class CommandDescriptors {
    private record Descriptor(int arity, Set<Command.Flag> flags, int firstKey, int lastKey, int keyStep, String group,
                              String since, List<String> categories, String summary, KeySpec[] specs) {
    }

    private static final Map<String, Descriptor> BY_NAME = load();

    private CommandDescriptors() {
    }

    /** Gives {@code cmd} (made by {@link Command#of}) its line; a command without one is a programming error. */
    static void describe(Command cmd) {
        if (cmd.described()) {
            return;
        }
        Descriptor d = BY_NAME.get(cmd.fullName());
        if (d == null) {
            throw new IllegalStateException(cmd.fullName() + " has no line in commands.txt");
        }
        cmd.describe(d.arity, d.flags, d.firstKey, d.lastKey, d.keyStep, d.group, d.since, d.summary, d.categories, d.specs);
    }

    /** Every full name the file describes, in file order. */
    static Set<String> names() {
        return BY_NAME.keySet();
    }

    private static Map<String, Descriptor> load() {
        Map<String, Descriptor> out = new LinkedHashMap<>();
        try (InputStream in = CommandDescriptors.class.getResourceAsStream("commands.txt")) {
            if (in == null) {
                throw new IllegalStateException("commands.txt is missing from the engine's resources");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                String[] keys = f[3].split(" ");
                List<String> categories = f[6].isEmpty() ? List.of() : List.of(f[6].split(","));
                KeySpec[] specs = Arrays.stream(f, 8, f.length).map(KeySpec::parse).toArray(KeySpec[]::new);
                out.put(f[0], new Descriptor(Integer.parseInt(f[1]), Command.parseFlags(f[2]), Integer.parseInt(keys[0]),
                        Integer.parseInt(keys[1]), Integer.parseInt(keys[2]), f[4], f[5], categories, f[7], specs));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
