package dev.ordo.engine.command;

/** The hash commands. */
final class HashCommands {
    private HashCommands() {
    }

    static void register(CommandTable table) {
    }
}
