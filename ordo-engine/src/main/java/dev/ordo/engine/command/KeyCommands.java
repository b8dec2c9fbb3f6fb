package dev.ordo.engine.command;

/** The key commands. */
final class KeyCommands {
    private KeyCommands() {
    }

    static void register(CommandTable table) {
    }
}
