package dev.ordo.engine.command;

import dev.ordo.engine.acl.CommandCatalog;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Every command the engine knows, looked up by name case-insensitively. Lookups by the bytes a
 * client sent (every command, every {@code redis.call}) allocate nothing: an open-addressing
 * table hashed on the ASCII-lowercased bytes, compared without copying.
 */
public final class CommandTable implements CommandCatalog {
    private final Map<String, Command> commands = new LinkedHashMap<>();
    private Command[] slots = new Command[512];
    private byte[][] slotNames = new byte[512][];
    private int ids;

    /**
     * Adds a command with its subcommands (added to it before), numbering each ({@link Command#id})
     * and giving each Redis's categories and key specs where Redis describes it; a second
     * command with the same name is a programming error.
     *
     * @param command the command
     * @return this table
     */
    public CommandTable register(Command command) {
        if (commands.putIfAbsent(command.name(), command) != null) {
            throw new IllegalStateException("duplicate command " + command.name());
        }
        command.assignId(ids++);
        CommandDescriptors.describe(command);
        for (Command sub : command.subcommands().values()) {
            sub.assignId(ids++);
            CommandDescriptors.describe(sub);
        }
        if (commands.size() * 2 > slots.length) {
            Command[] old = slots;
            slots = new Command[old.length * 2];
            slotNames = new byte[slots.length][];
            for (Command c : old) {
                if (c != null) {
                    place(c);
                }
            }
        }
        place(command);
        return this;
    }

    private void place(Command command) {
        byte[] name = command.name().getBytes(StandardCharsets.ISO_8859_1);
        int mask = slots.length - 1;
        int i = hash(name) & mask;
        while (slots[i] != null) {
            i = (i + 1) & mask;
        }
        slots[i] = command;
        slotNames[i] = name;
    }

    private static int hash(byte[] name) {
        int h = 0;
        for (byte b : name) {
            h = 31 * h + lower(b);
        }
        return h ^ (h >>> 16);
    }

    private static int lower(byte b) {
        return b >= 'A' && b <= 'Z' ? b + 32 : b;
    }

    /**
     * The command named {@code name} (any case), or null.
     *
     * @param name the name as sent
     * @return the command, or null
     */
    public Command lookup(byte[] name) {
        if (name.length > 32) {
            return null;
        }
        int mask = slots.length - 1;
        for (int i = hash(name) & mask; slots[i] != null; i = (i + 1) & mask) {
            if (sameIgnoringCase(slotNames[i], name)) {
                return slots[i];
            }
        }
        return null;
    }

    /**
     * Whether {@code name} is {@code lowerName} (lower-case ASCII) in any case, without allocating.
     *
     * @param lowerName the name in lowercase
     * @param name the name as sent
     * @return whether they match
     */
    public static boolean sameIgnoringCase(byte[] lowerName, byte[] name) {
        if (lowerName.length != name.length) {
            return false;
        }
        for (int j = 0; j < name.length; j++) {
            if (lowerName[j] != lower(name[j])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Command lookup(String name) {
        return commands.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public Collection<Command> all() {
        return Collections.unmodifiableCollection(commands.values());
    }

    /** One more than the highest {@link Command#id} of a command or subcommand in this table. */
    @Override
    public int idCount() {
        return ids;
    }

    /**
     * The number of top-level commands.
     *
     * @return the number of commands
     */
    public int size() {
        return commands.size();
    }
}
