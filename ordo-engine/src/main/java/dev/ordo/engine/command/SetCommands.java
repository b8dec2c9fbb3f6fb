package dev.ordo.engine.command;

/** The set commands. */
final class SetCommands {
    private SetCommands() {
    }

    static void register(CommandTable table) {
    }
}
