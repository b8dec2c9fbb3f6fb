package dev.ordo.engine.acl;

import java.util.Collection;

/** The commands rules can name ({@code +get}, {@code -config|set}, {@code +@read}): the command table. */
public interface CommandCatalog {
    /**
     * The command named {@code name} in any case, or null.
     *
     * @param name the command's name
     * @return the command, or null
     */
    GuardedCommand lookup(String name);

    /**
     * Every top-level command.
     *
     * @return the commands
     */
    Collection<? extends GuardedCommand> all();

    /**
     * One more than the highest {@link GuardedCommand#id} of a command or subcommand.
     *
     * @return the size an array indexed by command id needs
     */
    int idCount();
}
