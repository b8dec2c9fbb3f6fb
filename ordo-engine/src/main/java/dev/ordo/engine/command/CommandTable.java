package dev.ordo.engine.command;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Every command the engine knows, looked up by name case-insensitively. */
public final class CommandTable {
    private final Map<String, Command> commands = new LinkedHashMap<>();

    /** Adds a command; a second command with the same name is a programming error. */
    public CommandTable register(Command command) {
        if (commands.putIfAbsent(command.name(), command) != null) {
            throw new IllegalStateException("duplicate command " + command.name());
        }
        return this;
    }

    /** The command named {@code name} (any case), or null. */
    public Command lookup(byte[] name) {
        if (name.length > 32) {
            return null;
        }
        return commands.get(new String(name, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
    }

    public Command lookup(String name) {
        return commands.get(name.toLowerCase(Locale.ROOT));
    }

    public Collection<Command> all() {
        return Collections.unmodifiableCollection(commands.values());
    }

    public int size() {
        return commands.size();
    }
}
