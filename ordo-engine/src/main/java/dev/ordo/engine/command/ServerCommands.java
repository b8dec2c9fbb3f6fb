package dev.ordo.engine.command;

/** The server commands. */
final class ServerCommands {
    private ServerCommands() {
    }

    static void register(CommandTable table) {
    }
}
