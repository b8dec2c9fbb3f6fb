package dev.ordo.engine.script;

import dev.ordo.engine.command.Command;

import java.util.EnumSet;
import java.util.Set;

/**
 * The flags a script declares: a function's {@code flags={...}}, or an EVAL script's
 * {@code #!lua flags=...} line. A script without a shebang declares none ("compat mode") and keeps
 * EVAL's own command flags; a script that declares flags, even an empty list, gets command flags
 * made from them, as Redis 7 computes them for each call.
 *
 * @param declared whether the script has a shebang or is a function
 * @param names    the flags, among {@link Functions#FLAGS}
 */
public record ScriptFlags(boolean declared, Set<String> names) {
    /** A script without a shebang. */
    public static final ScriptFlags COMPAT = new ScriptFlags(false, Set.of());

    /** Flags declared by a shebang or a function. */
    static ScriptFlags declared(Set<String> names) {
        return new ScriptFlags(true, Set.copyOf(names));
    }

    /**
     * Whether the script declared it never writes.
     *
     * @return whether it is no-writes
     */
    public boolean noWrites() {
        return names.contains("no-writes");
    }

    /**
     * Whether the script may run, and write, when memory is over maxmemory (no-writes implies it).
     *
     * @return whether it is allow-oom
     */
    public boolean allowOom() {
        return noWrites() || names.contains("allow-oom");
    }

    /**
     * The command flags of a call running this script, given the command's own: for a declared
     * script, write unless no-writes, denyoom unless allow-oom, stale when allow-stale; the
     * command's own write, denyoom, stale and may-replicate flags are dropped.
     */
    Set<Command.Flag> commandFlags(Set<Command.Flag> own) {
        if (!declared) {
            return own;
        }
        EnumSet<Command.Flag> flags = own.isEmpty() ? EnumSet.noneOf(Command.Flag.class) : EnumSet.copyOf(own);
        flags.removeAll(EnumSet.of(Command.Flag.WRITE, Command.Flag.DENYOOM, Command.Flag.STALE, Command.Flag.MAY_REPLICATE));
        if (!noWrites()) {
            flags.add(Command.Flag.WRITE);
        }
        if (!allowOom()) {
            flags.add(Command.Flag.DENYOOM);
        }
        if (names.contains("allow-stale")) {
            flags.add(Command.Flag.STALE);
        }
        return flags;
    }
}
