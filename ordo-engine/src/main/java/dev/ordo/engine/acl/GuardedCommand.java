package dev.ordo.engine.acl;

import java.util.List;
import java.util.Map;

/**
 * A command as permissions see it: its number in the table (a bit in each user's allowed set),
 * its name and categories, its subcommands, and where its keys are. The command table's
 * commands implement it, so this package depends on no command code and the dispatcher may
 * depend on this one.
 */
public interface GuardedCommand {
    /** Told of each key argument of a call, with what the call does to it (a key spec's access flags). */
    @FunctionalInterface
    interface KeyVisitor {
        /**
         * Visits the key at argument {@code position}; {@code reads} when the call reads its value
         * (ACCESS), {@code writes} when it inserts, deletes or updates it. Returns false to stop.
         *
         * @param position the key's index in the call's arguments
         * @param reads whether the call reads the key's value
         * @param writes whether the call changes the key
         * @return whether to go on to the next key
         */
        boolean visit(int position, boolean reads, boolean writes);
    }

    /**
     * Its number, unique among the commands and subcommands of one table.
     *
     * @return the number
     */
    int id();

    /**
     * "get", or "config|get" for a subcommand.
     *
     * @return the lowercase full name
     */
    String fullName();

    /**
     * Its ACL categories, without the {@code @}.
     *
     * @return the categories
     */
    List<String> aclCategories();

    /**
     * Whether it runs before authentication (AUTH, HELLO ...): no user rule can refuse it.
     *
     * @return whether it runs unauthenticated
     */
    boolean runsWithoutAuth();

    /**
     * Its subcommands by lower-case name; empty for most commands.
     *
     * @return the subcommands
     */
    Map<String, ? extends GuardedCommand> subcommands();

    /**
     * The subcommand named {@code arg} in any case, or null.
     *
     * @param arg the subcommand's name as sent
     * @return the subcommand, or null
     */
    GuardedCommand subcommand(byte[] arg);

    /**
     * Visits the key arguments of {@code args}, a whole call of this command.
     *
     * @param args the whole call, name included
     * @param visitor called for each key, until it returns false
     */
    void forEachKey(byte[][] args, KeyVisitor visitor);
}
