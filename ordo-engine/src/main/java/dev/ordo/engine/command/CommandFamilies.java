package dev.ordo.engine.command;

/** Assembles the command table from each family of commands. */
public final class CommandFamilies {
    private CommandFamilies() {
    }

    /**
     * A table with every command the engine implements.
     *
     * @return the table
     */
    public static CommandTable all() {
        CommandTable table = new CommandTable();
        ConnectionCommands.register(table);
        ServerCommands.register(table);
        LatencyCommands.register(table);
        KeyCommands.register(table);
        MemoryCommands.register(table);
        StringCommands.register(table);
        HashCommands.register(table);
        ListCommands.register(table);
        SetCommands.register(table);
        SortCommands.register(table);
        ZSetCommands.register(table);
        Transactions.register(table);
        PubSubCommands.register(table);
        AclCommands.register(table);
        return table;
    }
}
