package dev.ordo.engine.acl;

import java.util.Collection;

/** The commands rules can name ({@code +get}, {@code -config|set}, {@code +@read}): the command table. */
public interface CommandCatalog {
    /** The command named {@code name} in any case, or null. */
    GuardedCommand lookup(String name);

    /** Every top-level command. */
    Collection<? extends GuardedCommand> all();

    /** One more than the highest {@link GuardedCommand#id} of a command or subcommand. */
    int idCount();
}
