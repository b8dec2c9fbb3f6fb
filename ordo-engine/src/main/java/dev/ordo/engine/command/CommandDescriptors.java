package dev.ordo.engine.command;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Redis's own description of each command (its ACL categories and key specs), read once from
 * {@code redis-commands.txt}, which was taken from COMMAND INFO on redis-server 7.0.15. A command
 * Redis does not describe (one newer than 7.0) keeps what {@link CommandIntrospection} derives
 * from its flags.
 */
final class CommandDescriptors {
    private record Descriptor(List<String> categories, KeySpec[] specs) {
    }

    private static final Map<String, Descriptor> BY_NAME = load();

    private CommandDescriptors() {
    }

    /** Gives {@code cmd} Redis's categories and key specs, if Redis describes it. */
    static void describe(Command cmd) {
        Descriptor d = BY_NAME.get(cmd.fullName());
        if (d != null) {
            cmd.describeAsRedis(d.categories, d.specs);
        }
    }

    private static Map<String, Descriptor> load() {
        Map<String, Descriptor> out = new HashMap<>();
        try (InputStream in = CommandDescriptors.class.getResourceAsStream("redis-commands.txt")) {
            if (in == null) {
                throw new IllegalStateException("redis-commands.txt is missing from the engine's resources");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split("\t", -1);
                List<String> cats = fields[1].isEmpty() ? List.of() : List.of(fields[1].split(","));
                KeySpec[] specs = Arrays.stream(fields, 2, fields.length).map(KeySpec::parse).toArray(KeySpec[]::new);
                out.put(fields[0], new Descriptor(new ArrayList<>(cats), specs));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
