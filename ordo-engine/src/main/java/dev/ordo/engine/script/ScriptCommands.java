package dev.ordo.engine.script;

import dev.ordo.engine.command.Call;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.util.Arrays;
import java.util.List;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO, SCRIPT, FCALL, FCALL_RO and FUNCTION, with Redis 7.2's
 * syntax, replies and errors.
 * The Lua side lives in {@link Scripting}.
 */
public final class ScriptCommands {
    static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";
    private static final List<String> SCRIPT_HELP = List.of(
            "SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "DEBUG (YES|SYNC|NO)",
            "    Set the debug mode for subsequent scripts executed.",
            "EXISTS <sha1> [<sha1> ...]",
            "    Return information about the existence of the scripts in the script cache.",
            "FLUSH [ASYNC|SYNC]",
            "    Flush the Lua scripts cache. Very dangerous on replicas.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the scripts cache.",
            "    * SYNC: Synchronously flush the scripts cache.",
            "KILL",
            "    Kill the currently executing Lua script.",
            "LOAD <script>",
            "    Load a script into the scripts cache without executing it.",
            "HELP",
            "    Prints this help.");

    private static final List<String> FUNCTION_HELP = List.of(
            "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "LOAD [REPLACE] <FUNCTION CODE>",
            "    Create a new library with the given library name and code.",
            "DELETE <LIBRARY NAME>",
            "    Delete the given library.",
            "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
            "    Return general information on all the libraries:",
            "    * Library name",
            "    * The engine used to run the Library",
            "    * Library description",
            "    * Functions list",
            "    * Library code (if WITHCODE is given)",
            "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
            "STATS",
            "    Return information about the current function running:",
            "    * Function name",
            "    * Command used to run the function",
            "    * Duration in MS that the function is running",
            "    If no function is running, return nil",
            "    In addition, returns a list of available engines.",
            "KILL",
            "    Kill the current running function.",
            "FLUSH [ASYNC|SYNC]",
            "    Delete all the libraries.",
            "    When called without the optional mode argument, the behavior is determined by the",
            "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
            "    * ASYNC: Asynchronously flush the libraries.",
            "    * SYNC: Synchronously flush the libraries.",
            "DUMP",
            "    Return a serialized payload representing the current libraries, can be restored using FUNCTION RESTORE command",
            "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
            "    Restore the libraries represented by the given payload, it is possible to give a restore policy to",
            "    control how to handle existing libraries (default APPEND):",
            "    * FLUSH: delete all existing libraries.",
            "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
            "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the old",
            "      libraries with the new libraries (notice that even on this option there is a chance of failure",
            "      in case of functions name collision with another library).",
            "HELP",
            "    Prints this help."
);

    private ScriptCommands() {
    }

    /**
     * Registers EVAL, EVALSHA, SCRIPT, FUNCTION, FCALL and their read-only forms in {@code t}, run by {@code scripting}.
     *
     * @param t the command table
     * @param scripting the engine's scripting
     */
    public static void register(CommandTable t, Scripting scripting) {
        t.register(withScriptFlags(Command.of("eval", c -> eval(c, scripting, false, false)),
                args -> scripting.flagsOf(args[1])));
        t.register(withScriptFlags(Command.of("evalsha", c -> eval(c, scripting, true, false)),
                args -> cachedFlags(scripting, args[1])));
        t.register(withScriptFlags(Command.of("eval_ro", c -> eval(c, scripting, false, true)), args -> scripting.flagsOf(args[1])));
        t.register(withScriptFlags(Command.of("evalsha_ro", c -> eval(c, scripting, true, true)), args -> cachedFlags(scripting, args[1])));
        t.register(Command.of("script", c -> { })
                .with(Command.of("load", c -> c.reply().bulk(scripting.load(c.arg(2)).sha().getBytes(java.nio.charset.StandardCharsets.US_ASCII))))
                .with(Command.of("exists", c -> exists(c, scripting)))
                .with(Command.of("flush", c -> flush(c, scripting)))
                .with(Command.of("kill", c -> kill(c, scripting, false)))
                .with(Command.of("debug", ScriptCommands::debug))
                .with(Command.of("help", c -> c.replyLines(SCRIPT_HELP))));
        t.register(withScriptFlags(Command.of("fcall", c -> fcall(c, scripting, false)),
                args -> functionFlags(scripting, args[1])));
        t.register(withScriptFlags(Command.of("fcall_ro", c -> fcall(c, scripting, true)), args -> functionFlags(scripting, args[1])));
        Functions f = scripting.functions();
        t.register(Command.of("function", c -> { })
                .with(Command.of("load", c -> functionLoad(c, f)))
                .with(Command.of("list", c -> functionList(c, f)))
                .with(Command.of("delete", c -> {
                    if (!f.delete(c.argString(2))) {
                        throw new ErrorReply("ERR Library not found");
                    }
                    c.reply().simpleString("OK");
                }))
                .with(Command.of("flush", c -> {
                    if (c.argc() > 3 || c.argc() == 3 && !c.argIs(2, "sync") && !c.argIs(2, "async")) {
                        throw new ErrorReply("ERR FUNCTION FLUSH only supports SYNC|ASYNC option");
                    }
                    f.flush();
                    c.reply().simpleString("OK");
                }))
                .with(Command.of("dump", c -> c.reply().bulk(FunctionDump.dump(
                        f.libraries().stream().map(l -> l.code().getBytes(java.nio.charset.StandardCharsets.UTF_8)).toList()))))
                .with(Command.of("restore", c -> functionRestore(c, f)))
                .with(Command.of("stats", c -> functionStats(c, scripting)))
                .with(Command.of("kill", c -> kill(c, scripting, true)))
                .with(Command.of("help", c -> c.replyLines(FUNCTION_HELP))));
    }

    /** Gives {@code command} the flags of the script each call runs, as Redis's evalGetCommandFlags does. */
    private static Command withScriptFlags(Command command, java.util.function.Function<byte[][], ScriptFlags> flags) {
        return command.withCallFlags(args -> flags.apply(args).commandFlags(command.flags()));
    }

    /** The flags of the cached script an EVALSHA names; none (compat) when it is not cached. */
    private static ScriptFlags cachedFlags(Scripting scripting, byte[] sha) {
        Scripting.Script script = sha.length == 40 ? scripting.cached(new String(sha, java.nio.charset.StandardCharsets.ISO_8859_1)) : null;
        return script == null ? ScriptFlags.COMPAT : script.flags();
    }

    /** The flags of the function an FCALL names; none when there is no such function. */
    private static ScriptFlags functionFlags(Scripting scripting, byte[] name) {
        Functions.Function fn = scripting.functions().function(new String(name, java.nio.charset.StandardCharsets.UTF_8));
        return fn == null ? ScriptFlags.COMPAT : ScriptFlags.declared(fn.flags());
    }

    /**
     * The check Redis makes as a flagged script starts, for calls whose flags were not known when
     * they were dispatched (an EVALSHA queued before its SCRIPT LOAD ran): no running without
     * allow-oom while memory was over maxmemory.
     */
    private static void checkOom(Call c, ScriptFlags flags) {
        if (flags.declared() && !flags.allowOom() && c.context().dispatcher().outOfMemoryAtStart()) {
            throw new ErrorReply(Errors.OOM_SCRIPT_NOT_ALLOWED);
        }
    }

    /** FCALL function numkeys key... arg...; MONITOR sees it before its function's commands. */
    private static void fcall(Call c, Scripting scripting, boolean readOnlyCommand) {
        c.context().dispatcher().feedMonitors(c.session(), c.args());
        Functions.Function fn = scripting.functions().function(c.argString(1));
        if (fn == null) {
            throw new ErrorReply("ERR Function not found");
        }
        int numKeys = numKeys(c, 2, "ERR Bad number of keys provided");
        ScriptFlags flags = ScriptFlags.declared(fn.flags());
        checkOom(c, flags);
        if (readOnlyCommand && !flags.noWrites()) {
            throw new ErrorReply("ERR Can not execute a script with write flag using *_ro command.");
        }
        byte[][] keys = Arrays.copyOfRange(c.args(), 3, 3 + numKeys);
        byte[][] args = Arrays.copyOfRange(c.args(), 3 + numKeys, c.argc());
        scripting.run(c, fn.name(), fn.callback(), keys, args, readOnlyCommand || flags.noWrites(), true, flags);
    }

    private static void functionLoad(Call c, Functions f) {
        boolean replace = false;
        int i = 2;
        if (c.argc() > 3) {
            if (!c.argIs(2, "replace") || c.argc() > 4) {
                throw new ErrorReply("ERR Unknown option given: " + c.argString(2));
            }
            replace = true;
            i = 3;
        }
        c.reply().bulk(f.load(c.arg(i), replace).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void functionList(Call c, Functions f) {
        String pattern = null;
        boolean withCode = false;
        for (int i = 2; i < c.argc(); i++) {
            if (c.argIs(i, "withcode") && !withCode) {
                withCode = true;
            } else if (c.argIs(i, "libraryname") && pattern == null) {
                if (i + 1 == c.argc()) {
                    throw new ErrorReply("ERR library name argument was not given");
                }
                pattern = c.argString(++i);
            } else {
                throw new ErrorReply("ERR Unknown argument " + c.argString(i));
            }
        }
        List<Functions.Library> shown = new java.util.ArrayList<>();
        for (Functions.Library l : f.libraries()) {
            // As Redis: a glob, without case.
            if (pattern == null || dev.ordo.engine.match.Glob.matches(pattern.getBytes(java.nio.charset.StandardCharsets.UTF_8), l.name().getBytes(java.nio.charset.StandardCharsets.UTF_8), true)) {
                shown.add(l);
            }
        }
        ReplyWriter r = c.reply();
        r.arrayHeader(shown.size());
        for (Functions.Library l : shown) {
            r.mapHeader(withCode ? 4 : 3);
            r.bulk("library_name");
            r.bulk(l.name());
            r.bulk("engine");
            r.bulk("LUA");
            r.bulk("functions");
            r.arrayHeader(l.functions().size());
            for (Functions.Function fn : l.functions()) {
                r.mapHeader(3);
                r.bulk("name");
                r.bulk(fn.name());
                r.bulk("description");
                if (fn.description() == null) {
                    r.nullBulk();
                } else {
                    r.bulk(fn.description());
                }
                r.bulk("flags");
                r.setHeader(fn.flags().size());
                fn.flags().forEach(r::simpleString);
            }
            if (withCode) {
                r.bulk("library_code");
                r.bulk(l.code());
            }
        }
    }

    private static void functionRestore(Call c, Functions f) {
        String policy = c.argc() > 3 ? c.argString(3).toUpperCase(java.util.Locale.ROOT) : "APPEND";
        if (c.argc() > 4 || !List.of("FLUSH", "APPEND", "REPLACE").contains(policy)) {
            throw new ErrorReply("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");
        }
        List<byte[]> codes = FunctionDump.restore(c.arg(2));
        if (codes == null) {
            throw new ErrorReply(Errors.DUMP_PAYLOAD);
        }
        f.restore(codes, policy);
        c.reply().simpleString("OK");
    }

    private static void functionStats(Call c, Scripting scripting) {
        ReplyWriter r = c.reply();
        r.mapHeader(2);
        r.bulk("running_script");
        Scripting.Run run = scripting.running();
        if (run == null || !run.isFunction()) {
            r.nullBulk();
        } else {
            r.mapHeader(3);
            r.bulk("name");
            r.bulk(run.name());
            r.bulk("command");
            r.arrayHeader(run.command().length);
            for (byte[] a : run.command()) {
                r.bulk(a);
            }
            r.bulk("duration_ms");
            r.integer(run.elapsedMillis());
        }
        r.bulk("engines");
        r.mapHeader(1);
        r.bulk("LUA");
        r.mapHeader(2);
        r.bulk("libraries_count");
        r.integer(scripting.functions().libraries().size());
        r.bulk("functions_count");
        r.integer(scripting.functions().functionCount());
    }

    /** EVAL script numkeys key... arg... (and the SHA and read-only variants); MONITOR sees it before its script's commands. */
    private static void eval(Call c, Scripting scripting, boolean bySha, boolean readOnly) {
        c.context().dispatcher().feedMonitors(c.session(), c.args());
        int numKeys = numKeys(c, 2);
        Scripting.Script script;
        if (bySha) {
            script = c.arg(1).length == 40 ? scripting.cached(new String(c.arg(1), java.nio.charset.StandardCharsets.ISO_8859_1)) : null;
            if (script == null) {
                throw new ErrorReply(NOSCRIPT);
            }
        } else {
            script = scripting.load(c.arg(1));
        }
        ScriptFlags flags = script.flags();
        checkOom(c, flags);
        if (readOnly && flags.declared() && !flags.noWrites()) {
            throw new ErrorReply("ERR Can not execute a script with write flag using *_ro command.");
        }
        byte[][] keys = Arrays.copyOfRange(c.args(), 3, 3 + numKeys);
        byte[][] args = Arrays.copyOfRange(c.args(), 3 + numKeys, c.argc());
        scripting.run(c, script.sha(), script.function(), keys, args, readOnly || flags.noWrites(), false, flags);
    }

    /** The numkeys argument at {@code i}, checked against the arguments that follow it. */
    static int numKeys(Call c, int i) {
        return numKeys(c, i, Errors.NOT_INTEGER);
    }

    /** {@link #numKeys(Call, int)}, with {@code notInteger} for a word that is not a number (FCALL has its own). */
    static int numKeys(Call c, int i, String notInteger) {
        long n = Call.parseLong(c.arg(i), notInteger);
        if (n < 0) {
            throw new ErrorReply("ERR Number of keys can't be negative");
        }
        if (n > c.argc() - i - 1) {
            throw new ErrorReply(Errors.NUMKEYS_GREATER_THAN_ARGS);
        }
        return (int) n;
    }

    private static void exists(Call c, Scripting scripting) {
        c.reply().arrayHeader(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            c.reply().integer(scripting.cached(c.argString(i)) != null ? 1 : 0);
        }
    }

    private static void flush(Call c, Scripting scripting) {
        if (c.argc() > 3 || c.argc() == 3 && !c.argIs(2, "sync") && !c.argIs(2, "async")) {
            throw new ErrorReply("ERR SCRIPT FLUSH only support SYNC|ASYNC option");
        }
        scripting.flush();
        c.reply().simpleString("OK");
    }

    /** SCRIPT KILL / FUNCTION KILL when no script is busy (a busy one is killed by the engine without the lock). */
    static void kill(Call c, Scripting scripting, boolean function) {
        String error = scripting.kill(function);
        if (error != null) {
            throw new ErrorReply(error);
        }
        c.reply().simpleString("OK");
    }

    private static void debug(Call c) {
        if (c.argIs(2, "no")) {
            c.reply().simpleString("OK");
        } else if (c.argIs(2, "yes") || c.argIs(2, "sync")) {
            throw new ErrorReply("ERR Ordo has no Lua debugger: SCRIPT DEBUG only accepts NO");
        } else {
            throw new ErrorReply("ERR Use SCRIPT DEBUG YES/SYNC/NO");
        }
    }
}
