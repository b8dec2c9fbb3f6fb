package dev.ordo.engine.command;

import dev.ordo.engine.acl.GuardedCommand;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A command's description, as COMMAND INFO reports it, and its handler. Arity follows Redis: a
 * positive arity is the exact argument count including the name, a negative one the minimum.
 * Key positions are 1-based; {@code lastKey} -1 means "to the last argument".
 */
public final class Command implements GuardedCommand {
    /** Command flags, named as COMMAND INFO reports them. */
    public enum Flag {
        /** May change the data. */
        WRITE,
        /** Reads data and never changes it. */
        READONLY,
        /** May grow memory use: refused while memory is over the limit. */
        DENYOOM,
        /** An administrative command. */
        ADMIN,
        /** A Pub/Sub command. */
        PUBSUB,
        /** Refused inside scripts. */
        NOSCRIPT,
        /** May block the client. */
        BLOCKING,
        /** Allowed while the data is being loaded. */
        LOADING,
        /** Allowed on a replica whose data is stale. */
        STALE,
        /** Not shown to MONITOR. */
        SKIP_MONITOR,
        /** Not recorded in the slow log. */
        SKIP_SLOWLOG,
        /** Runs in constant or logarithmic time. */
        FAST,
        /** Runs before the client authenticates. */
        NO_AUTH,
        /** May produce effects to replicate, though not a write. */
        MAY_REPLICATE,
        /** May run without any key, though it takes keys. */
        NO_MANDATORY_KEYS,
        /** Refused while data is loaded asynchronously. */
        NO_ASYNC_LOADING,
        /** Refused inside MULTI. */
        NO_MULTI,
        /** Its key positions depend on its arguments. */
        MOVABLE_KEYS,
        /** Allowed while a script is busy. */
        ALLOW_BUSY,
        /** Refused unless an enable-*-command setting allows the client. */
        PROTECTED;

        /**
         * The lowercase name Redis uses ({@code no_auth} is {@code no_auth}, {@code denyoom} ...).
         *
         * @return the name
         */
        public String redisName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String name;
    private final CommandHandler handler;
    /** Whether arity, flags, keys, group and docs are set: at once for {@link #custom}, on registration for {@link #of}. */
    private boolean described;
    private int arity;
    private Set<Flag> flags = Set.of();
    /** The same flags as a plain EnumSet: {@link #is} runs for every command, and a bit test is all it needs. */
    private EnumSet<Flag> flagSet = EnumSet.noneOf(Flag.class);
    private int firstKey;
    private int lastKey;
    private int keyStep;
    private String group = "";
    private String since = "";
    private String summary = "";
    private final Map<String, Command> subcommands = new LinkedHashMap<>();
    private final Map<String, Command> subcommandsView = Collections.unmodifiableMap(subcommands);
    private Command parent;
    private java.util.function.Function<byte[][], Set<Flag>> callFlags;
    /** This command's index in its table ({@link CommandTable#register}), for per-user permission bitmaps; -1 until registered. */
    private int id = -1;
    /** Redis's key specifications of this command; derived from (first, last, step) for a custom command. */
    private KeySpec[] keySpecs;
    /** The ACL categories; derived from the flags for a custom command ({@link CommandIntrospection#derivedCategories}). */
    private List<String> categories;

    private Command(String name, CommandHandler handler) {
        this.name = name.toLowerCase(Locale.ROOT);
        this.handler = handler;
    }

    /**
     * A command of the table: everything but its handler comes from its line in
     * {@code commands.txt} ({@link CommandDescriptors}) when the table registers it.
     *
     * @param name the command's name, lowercase
     * @param handler what runs it
     * @return the command
     */
    public static Command of(String name, CommandHandler handler) {
        return new Command(name, handler);
    }

    /**
     * A command described here rather than in {@code commands.txt} (a test's or an embedder's
     * own): {@code flags} is a space-separated list of {@link Flag} names in any case ("write
     * denyoom fast"); its ACL categories and key spec are derived from the flags and keys.
     *
     * @param name the command's name, lowercase
     * @param arity the exact argument count, name included, or minus the minimum
     * @param flags {@link Flag} names, space-separated
     * @param firstKey the first key's position, 0 for none
     * @param lastKey the last key's position, -1 for the last argument
     * @param keyStep the distance between keys
     * @param group the command's group, as COMMAND DOCS names it
     * @param handler what runs it
     * @return the command
     */
    public static Command custom(String name, int arity, String flags, int firstKey, int lastKey, int keyStep, String group,
                                 CommandHandler handler) {
        Command c = new Command(name, handler);
        c.describe(arity, parseFlags(flags), firstKey, lastKey, keyStep, group, "", "", null, null);
        return c;
    }

    static Set<Flag> parseFlags(String flags) {
        EnumSet<Flag> set = EnumSet.noneOf(Flag.class);
        if (!flags.isBlank()) {
            Arrays.stream(flags.trim().split("\\s+")).map(f -> Flag.valueOf(f.toUpperCase(Locale.ROOT).replace('-', '_'))).forEach(set::add);
        }
        return Collections.unmodifiableSet(set);
    }

    /** Sets everything but the name and handler (categories and specs null: derived); once. */
    void describe(int arity, Set<Flag> flags, int firstKey, int lastKey, int keyStep, String group, String since, String summary,
                  List<String> categories, KeySpec[] keySpecs) {
        if (described) {
            throw new IllegalStateException(fullName() + " is described twice");
        }
        described = true;
        this.arity = arity;
        this.flags = flags;
        this.flagSet = flags.isEmpty() ? EnumSet.noneOf(Flag.class) : EnumSet.copyOf(flags);
        this.firstKey = firstKey;
        this.lastKey = lastKey;
        this.keyStep = keyStep;
        this.group = group;
        this.since = since;
        this.summary = summary;
        this.categories = categories;
        this.keySpecs = keySpecs;
    }

    /** Whether this command's description is set. */
    boolean described() {
        return described;
    }

    /** The version of Redis that introduced this command (COMMAND DOCS), or "". */
    String since() {
        return since;
    }

    /** One line saying what this command does (COMMAND DOCS), or "". */
    String summary() {
        return summary;
    }

    /**
     * Adds a subcommand (CONFIG GET, OBJECT ENCODING ...); returns this command.
     *
     * @param sub the subcommand
     * @return this command
     */
    public Command with(Command sub) {
        sub.parent = this;
        subcommands.put(sub.name, sub);
        return this;
    }

    /**
     * The command's own name, lowercase: {@code get}, or {@code get} for {@code config|get}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /** The name in error texts and COMMAND INFO: {@code config|get} for a subcommand. */
    @Override
    public String fullName() {
        return parent == null ? name : parent.name + "|" + name;
    }

    /**
     * The arity: the exact argument count, name included, or its minimum negated.
     *
     * @return the arity
     */
    public int arity() {
        return arity;
    }

    /**
     * The static flags.
     *
     * @return the flags
     */
    public Set<Flag> flags() {
        return flags;
    }

    @Override
    public boolean runsWithoutAuth() {
        return is(Flag.NO_AUTH);
    }

    /**
     * Whether the command has {@code flag} among its static flags.
     *
     * @param flag the flag
     * @return whether it has it
     */
    public boolean is(Flag flag) {
        return flagSet.contains(flag);
    }

    /**
     * The flags one call has, for the checks made before it runs: the static flags, except for
     * commands whose flags depend on their arguments (EVAL and FCALL take their script's flags,
     * as Redis's getCommandFlags does).
     *
     * @param args the whole call, name included
     * @return the call's flags
     */
    public Set<Flag> flagsOf(byte[][] args) {
        return callFlags == null ? flags : callFlags.apply(args);
    }

    /**
     * Makes the flags of each call depend on its arguments ({@link #flagsOf}); returns this command.
     *
     * @param callFlags computes a call's flags from its arguments
     * @return this command
     */
    public Command withCallFlags(java.util.function.Function<byte[][], Set<Flag>> callFlags) {
        this.callFlags = callFlags;
        return this;
    }

    /** This command's index in its table, dense from 0 ({@link CommandTable#idCount}). */
    @Override
    public int id() {
        return id;
    }

    void assignId(int id) {
        this.id = id;
    }

    /**
     * The parent of a subcommand ({@code config} for {@code config|get}), or null.
     *
     * @return the parent, or null
     */
    public Command parent() {
        return parent;
    }

    KeySpec[] keySpecs() {
        if (keySpecs == null) {
            keySpecs = KeySpec.derived(this);
        }
        return keySpecs;
    }

    /** This command's ACL categories without '@' ({@code read}, {@code fast} ...), in Redis's order. */
    @Override
    public List<String> aclCategories() {
        if (categories == null) {
            categories = List.copyOf(CommandIntrospection.derivedCategories(this));
        }
        return categories;
    }

    /**
     * Visits every key argument of {@code args} (a whole call of this command, its arity met) as
     * Redis's key specs find them, in spec order, with each spec's access flags; SET's key is
     * only read when the call has GET, as Redis refines its variable flags.
     */
    @Override
    public void forEachKey(byte[][] args, KeyVisitor visitor) {
        for (KeySpec spec : keySpecs()) {
            if (!spec.visit(this, args, visitor)) {
                return;
            }
        }
        if (name.equals("sort") && parent == null) {
            // No key spec can find SORT's STORE destination; Redis asks its getkeys procedure, as here.
            int store = CommandKeys.sortStore(args);
            if (store > 0) {
                visitor.visit(store, false, true);
            }
        }
    }

    /**
     * The first key's position, 0 when the command takes no keys.
     *
     * @return the position
     */
    public int firstKey() {
        return firstKey;
    }

    /**
     * The last key's position; -1 for the last argument, -2 for the one before, and so on.
     *
     * @return the position
     */
    public int lastKey() {
        return lastKey;
    }

    /**
     * The distance between key positions.
     *
     * @return the step
     */
    public int keyStep() {
        return keyStep;
    }

    /**
     * The group COMMAND DOCS reports ({@code string}, {@code server} ...).
     *
     * @return the group
     */
    public String group() {
        return group;
    }

    /**
     * What runs the command.
     *
     * @return the handler
     */
    public CommandHandler handler() {
        return handler;
    }

    @Override
    public Map<String, Command> subcommands() {
        return subcommandsView;
    }

    /** The subcommand named by {@code arg} (case-insensitive), or null. */
    @Override
    public Command subcommand(byte[] arg) {
        return subcommands.get(new String(arg, java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
    }

    /**
     * Whether {@code argc} arguments (the name included) satisfy the arity.
     *
     * @param argc the number of arguments, name included
     * @return whether the arity allows it
     */
    public boolean arityAccepts(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    @Override
    public String toString() {
        return fullName();
    }
}
