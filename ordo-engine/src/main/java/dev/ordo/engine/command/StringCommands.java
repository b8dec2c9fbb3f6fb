package dev.ordo.engine.command;

/** The string commands. */
final class StringCommands {
    private StringCommands() {
    }

    static void register(CommandTable table) {
    }
}
