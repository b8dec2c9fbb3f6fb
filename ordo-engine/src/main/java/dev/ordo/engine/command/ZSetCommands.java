package dev.ordo.engine.command;

/** The zset commands. */
final class ZSetCommands {
    private ZSetCommands() {
    }

    static void register(CommandTable table) {
    }
}
