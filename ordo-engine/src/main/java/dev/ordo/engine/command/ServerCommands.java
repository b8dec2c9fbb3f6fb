package dev.ordo.engine.command;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.version.RedisVersion;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Server commands: COMMAND, CONFIG, INFO, TIME, SHUTDOWN, SLOWLOG, MONITOR (streamed by the
 * {@link ServerControl}; DEBUG is {@link DebugCommands}), and the persistence
 * commands SAVE, BGSAVE, BGREWRITEAOF and LASTSAVE (carried out by {@link PersistenceControl}). They read and change
 * server-wide state: the command table, the configuration, the dispatcher's statistics and slow
 * log, and the keyspace's counters. CONFIG SET is atomic: every name is checked, then every value
 * applied, and a value that fails restores the ones already applied.
 */
final class ServerCommands {
    /** The Redis version Ordo reports (HELLO, INFO). */
    static final String REDIS_VERSION = RedisVersion.EMULATED;

    private static final int DEFAULT_SLOWLOG_COUNT = 10;

    private ServerCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("command", ServerCommands::writeAllInfo)
                .with(Command.of("count", c -> c.reply().integer(c.context().commands().size())))
                .with(Command.of("info", ServerCommands::commandInfo))
                .with(Command.of("docs", ServerCommands::commandDocs))
                .with(Command.of("list", ServerCommands::commandList))
                .with(Command.of("getkeys", ServerCommands::commandGetKeys))
                .with(Command.of("help", ServerCommands::commandHelp)));
        table.register(Command.of("config", c -> { })
                .with(Command.of("get", ServerCommands::configGet))
                .with(Command.of("set", ServerCommands::configSet))
                .with(Command.of("resetstat", ServerCommands::configResetStat))
                .with(Command.of("help", ServerCommands::configHelp)));
        table.register(Command.of("info", ServerCommands::info));
        table.register(Command.of("time", ServerCommands::time));
        table.register(Command.of("shutdown", ServerCommands::shutdown));
        table.register(Command.of("slowlog", c -> { })
                .with(Command.of("get", ServerCommands::slowlogGet))
                .with(Command.of("len", c -> c.reply().integer(c.context().dispatcher().slowLog().size())))
                .with(Command.of("reset", ServerCommands::slowlogReset))
                .with(Command.of("help", ServerCommands::slowlogHelp)));
        DebugCommands.register(table);
        table.register(Command.of("monitor", ServerCommands::monitor));
        table.register(Command.of("save", c -> {
            c.context().persistence().save();
            c.reply().simpleString("OK");
        }));
        table.register(Command.of("bgsave", ServerCommands::bgsave));
        table.register(Command.of("bgrewriteaof", c -> c.reply().simpleString(c.context().persistence().bgrewriteaof())));
        table.register(Command.of("lastsave", c -> c.reply().integer(c.context().persistence().lastSave())));
    }

    /**
     * MONITOR: OK, then the client's connection is sent every command that runs; nothing more
     * when it already monitors. Refused where the client must get one reply per command (inside
     * EXEC, as Redis refuses a DENY BLOCKING client), and to embedded clients.
     */
    private static void monitor(Call c) {
        if (!c.blockingAllowed()) {
            throw new ErrorReply(Errors.MONITOR_DENY_BLOCKING);
        }
        if (c.context().server().monitor(c.session())) {
            c.reply().simpleString("OK");
        }
    }

    /** BGSAVE [SCHEDULE]. */
    private static void bgsave(Call c) {
        boolean schedule = c.argc() == 2 && c.argIs(1, "SCHEDULE");
        if (c.argc() > 2 || (c.argc() == 2 && !schedule)) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        c.reply().simpleString(c.context().persistence().bgsave(schedule));
    }

    /** Writes a HELP reply: the usage line, {@code lines}, then the HELP entry, each a status string. */
    static void help(Call c, String command, String... lines) {
        ReplyWriter r = c.reply();
        r.arrayHeader(lines.length + 3);
        r.simpleString(command + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (String line : lines) {
            r.simpleString(line);
        }
        r.simpleString("HELP");
        r.simpleString("    Print this help.");
    }

    /** COMMAND (and COMMAND INFO without names): every command's description. */
    private static void writeAllInfo(Call c) {
        CommandTable table = c.context().commands();
        c.reply().arrayHeader(table.size());
        table.all().forEach(cmd -> CommandIntrospection.writeInfo(c.reply(), cmd));
    }

    /** COMMAND INFO [name ...]: a description per name (null for unknown names), or all without names. */
    private static void commandInfo(Call c) {
        if (c.argc() == 2) {
            writeAllInfo(c);
            return;
        }
        c.reply().arrayHeader(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            Command cmd = lookupFullName(c.context().commands(), c.argString(i));
            if (cmd == null) {
                c.reply().nullBulk();
            } else {
                CommandIntrospection.writeInfo(c.reply(), cmd);
            }
        }
    }

    /** COMMAND DOCS [name ...]: a map from name to documentation; unknown names are left out. */
    private static void commandDocs(Call c) {
        List<Command> documented = new ArrayList<>();
        if (c.argc() == 2) {
            documented.addAll(c.context().commands().all());
        }
        for (int i = 2; i < c.argc(); i++) {
            Command cmd = lookupFullName(c.context().commands(), c.argString(i));
            if (cmd != null) {
                documented.add(cmd);
            }
        }
        c.reply().mapHeader(documented.size());
        for (Command cmd : documented) {
            c.reply().bulk(cmd.fullName().getBytes(StandardCharsets.UTF_8));
            CommandIntrospection.writeDocs(c.reply(), cmd);
        }
    }

    /** The command or subcommand named {@code name} ({@code get}, {@code config|get}, any case), or null. */
    static Command lookupFullName(CommandTable table, String name) {
        String[] parts = name.split("\\|", -1);
        if (parts.length > 2) {
            return null;
        }
        Command cmd = table.lookup(parts[0]);
        if (cmd == null || parts.length == 1) {
            return cmd;
        }
        return cmd.subcommand(parts[1].getBytes(StandardCharsets.UTF_8));
    }

    /** COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern]: command and subcommand names. */
    private static void commandList(Call c) {
        String filterType = null;
        String filterValue = null;
        if (c.argc() == 5 && c.argIs(2, "FILTERBY")
                && (c.argIs(3, "MODULE") || c.argIs(3, "ACLCAT") || c.argIs(3, "PATTERN"))) {
            filterType = c.argString(3).toLowerCase(Locale.ROOT);
            filterValue = c.argString(4);
        } else if (c.argc() != 2) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        List<String> names = CommandIntrospection.listNames(c.context().commands(), filterType, filterValue);
        c.reply().arrayHeader(names.size());
        names.forEach(n -> c.reply().bulk(n.getBytes(StandardCharsets.UTF_8)));
    }

    private static void commandHelp(Call c) {
        help(c, "COMMAND",
                "(no subcommand)",
                "    Describe every command.",
                "COUNT",
                "    Reply with the number of commands.",
                "DOCS [<command-name> ...]",
                "    Document the named commands, or every command.",
                "INFO [<command-name> ...]",
                "    Describe the named commands, or every command.",
                "LIST [FILTERBY (MODULE <module-name>|ACLCAT <category>|PATTERN <pattern>)]",
                "    List command names, optionally only those matching the filter.",
                "GETKEYS <full-command>",
                "    Reply with the key arguments of the command line.");
    }

    /**
     * COMMAND GETKEYS command [arg ...]: the key arguments of that command line ({@link
     * CommandKeys}); none for a command whose keys are optional (EVAL with 0 keys).
     */
    private static void commandGetKeys(Call c) {
        byte[][] line = Arrays.copyOfRange(c.args(), 2, c.argc());
        Command cmd = c.context().commands().lookup(line[0]);
        if (cmd != null && !cmd.subcommands().isEmpty() && line.length > 1) {
            cmd = cmd.subcommand(line[1]);
        }
        if (cmd == null) {
            throw new ErrorReply(Errors.GETKEYS_UNKNOWN_COMMAND);
        }
        if (!CommandKeys.hasKeys(cmd)) {
            throw new ErrorReply(Errors.GETKEYS_NO_KEYS);
        }
        if (!cmd.arityAccepts(line.length)) {
            throw new ErrorReply(Errors.GETKEYS_BAD_ARITY);
        }
        List<Integer> keys = CommandKeys.positions(cmd, line);
        if (keys.isEmpty() && !cmd.is(Command.Flag.NO_MANDATORY_KEYS)) {
            throw new ErrorReply(Errors.GETKEYS_BAD_ARGUMENTS);
        }
        c.reply().arrayHeader(keys.size());
        for (int position : keys) {
            c.reply().bulk(line[position]);
        }
    }

    /** CONFIG GET pattern [pattern ...]: a map of matching parameters; an exact name is echoed as given. */
    private static void configGet(Call c) {
        Config config = c.context().config();
        Map<String, String> found = new LinkedHashMap<>();
        for (int i = 2; i < c.argc(); i++) {
            String pattern = c.argString(i);
            if (isGlob(pattern)) {
                config.matching(pattern).forEach(found::putIfAbsent);
            } else if (config.has(pattern)) {
                found.putIfAbsent(pattern, config.get(pattern));
            }
        }
        c.reply().mapHeader(found.size());
        found.forEach((name, value) -> {
            c.reply().bulk(name.getBytes(StandardCharsets.UTF_8));
            c.reply().bulk(value.getBytes(StandardCharsets.UTF_8));
        });
    }

    private static boolean isGlob(String pattern) {
        return pattern.indexOf('*') >= 0 || pattern.indexOf('?') >= 0 || pattern.indexOf('[') >= 0;
    }

    /**
     * CONFIG SET name value [name value ...], all or nothing, with Redis's error precedence: an
     * unknown name first, then an immutable or repeated one, then the first invalid value.
     */
    private static void configSet(Call c) {
        if (c.argc() % 2 != 0) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        Config config = c.context().config();
        List<String> names = new ArrayList<>();
        for (int i = 2; i < c.argc(); i += 2) {
            names.add(c.argString(i));
        }
        requireKnown(config, names);
        requireMutableAndDistinct(config, c.session(), names);
        applyAll(c, config, names);
        c.context().persistence().configChanged();
        c.reply().simpleString("OK");
    }

    /** Throws CONFIG SET's unknown-option error for the first name the configuration does not know. */
    private static void requireKnown(Config config, List<String> names) {
        for (String name : names) {
            if (!config.has(name)) {
                // Config owns the text of this error and raises it for any unknown name.
                config.set(name, "", false);
            }
        }
    }

    /**
     * Throws for the first name that is immutable, protected (a path the server writes to, unless
     * {@code enable-protected-configs} allows this client) or that repeats an earlier one (any case).
     */
    private static void requireMutableAndDistinct(Config config, Session session, List<String> names) {
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            config.requireMutable(name);
            if (config.isProtected(name) && !session.allowedBy(config.get("enable-protected-configs"))) {
                throw new ErrorReply(Errors.configProtected(name));
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new ErrorReply(Errors.configDuplicate(name));
            }
        }
    }

    /**
     * Sets every pair, then calls each {@link Config.Applier} of the names once, in the order of
     * the names, as Redis calls its apply functions. On the first invalid value or refusing
     * applier, restores every earlier value, calls again the appliers that had accepted, and
     * throws: the refusal names the first parameter of that applier.
     */
    private static void applyAll(Call c, Config config, List<String> names) {
        List<String> previous = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            String name = names.get(k);
            previous.add(config.get(name));
            try {
                config.set(name, c.argString(3 + 2 * k), false);
            } catch (ErrorReply e) {
                restore(config, names, previous, k);
                throw e;
            }
        }
        List<Config.Applier> applied = new ArrayList<>();
        for (String name : names) {
            Config.Applier applier = config.applierOf(name);
            if (applier == null || applied.contains(applier)) {
                continue;
            }
            String refusal = applier.apply();
            if (refusal != null) {
                restore(config, names, previous, names.size());
                applied.forEach(Config.Applier::apply);
                throw new ErrorReply(Errors.configSetFailed(name, refusal));
            }
            applied.add(applier);
        }
    }

    /** Puts back the values the first {@code count} names had. */
    private static void restore(Config config, List<String> names, List<String> previous, int count) {
        for (int j = count - 1; j >= 0; j--) {
            config.set(names.get(j), previous.get(j), true);
        }
    }

    /** CONFIG RESETSTAT: clears command statistics and the keyspace counters. */
    private static void configResetStat(Call c) {
        c.context().dispatcher().resetStats();
        c.context().server().resetStats();
        Keyspace.Stats stats = c.keyspace().stats();
        stats.expiredKeys = 0;
        stats.evictedKeys = 0;
        if (c.context().maxMemory() != null) {
            c.context().maxMemory().resetStats();
        }
        stats.keyspaceHits = 0;
        stats.keyspaceMisses = 0;
        stats.expireCycleMicros = 0;
        c.reply().simpleString("OK");
    }

    private static void configHelp(Call c) {
        help(c, "CONFIG",
                "GET <pattern> [<pattern> ...]",
                "    Reply with the parameters whose names match the glob-style patterns, and their values.",
                "SET <parameter> <value> [<parameter> <value> ...]",
                "    Change parameters, all of them or none.",
                "RESETSTAT",
                "    Clear the statistics INFO reports.");
    }

    /** INFO [section ...]: the report as verbatim text. */
    private static void info(Call c) {
        c.reply().verbatim("txt", InfoReport.forArguments(c).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * TIME: unix seconds and the microseconds within that second, as bulk strings. Read from the
     * clock at the call, not the command's frozen time, so a script looping on TIME sees it move.
     */
    private static void time(Call c) {
        long micros = c.keyspace().clock().micros();
        c.reply().arrayHeader(2);
        c.reply().bulk(String.valueOf(Math.floorDiv(micros, 1_000_000L)).getBytes(StandardCharsets.US_ASCII));
        c.reply().bulk(String.valueOf(Math.floorMod(micros, 1_000_000L)).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]: validates the options, then asks the server to
     * stop. No reply follows a shutdown that goes ahead; the connection closes.
     */
    private static void shutdown(Call c) {
        boolean save = false;
        boolean noSave = false;
        boolean other = false;
        boolean abort = false;
        for (int i = 1; i < c.argc(); i++) {
            if (c.argIs(i, "NOSAVE")) {
                noSave = true;
            } else if (c.argIs(i, "SAVE")) {
                save = true;
            } else if (c.argIs(i, "NOW") || c.argIs(i, "FORCE")) {
                other = true;
            } else if (c.argIs(i, "ABORT")) {
                abort = true;
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        if ((save && noSave) || (abort && (save || noSave || other))) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        if (abort) {
            throw new ErrorReply(Errors.NO_SHUTDOWN_IN_PROGRESS);
        }
        if (!c.context().persistence().beforeShutdown(save, noSave)) {
            throw new ErrorReply("ERR Errors trying to SHUTDOWN. Check logs.");
        }
        c.context().server().shutdown();
        c.session().markClosing();
    }

    /** SLOWLOG GET [count]: the newest entries (10 by default, all for -1). */
    private static void slowlogGet(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "slowlog"));
        }
        long count = DEFAULT_SLOWLOG_COUNT;
        if (c.argc() == 3) {
            count = Call.parseLong(c.arg(2), Errors.SLOWLOG_COUNT);
            if (count < -1) {
                throw new ErrorReply(Errors.SLOWLOG_COUNT);
            }
        }
        List<SlowLog.Entry> entries = c.context().dispatcher().slowLog().newest(count);
        ReplyWriter r = c.reply();
        r.arrayHeader(entries.size());
        for (SlowLog.Entry e : entries) {
            r.arrayHeader(6);
            r.integer(e.id());
            r.integer(e.timestampSeconds());
            r.integer(e.durationMicros());
            r.arrayHeader(e.args().size());
            e.args().forEach(r::bulk);
            r.bulk(e.clientAddress().getBytes(StandardCharsets.UTF_8));
            r.bulk(e.clientName().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void slowlogReset(Call c) {
        c.context().dispatcher().slowLog().reset();
        c.reply().simpleString("OK");
    }

    private static void slowlogHelp(Call c) {
        help(c, "SLOWLOG",
                "GET [<count>]",
                "    Reply with the newest <count> entries (default 10, -1 for all). Each entry holds:",
                "    id, unix time, duration in microseconds, arguments, client address, client name.",
                "LEN",
                "    Reply with the number of entries.",
                "RESET",
                "    Remove every entry.");
    }
}
