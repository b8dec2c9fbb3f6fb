package dev.ordo.engine.script;

import dev.ordo.engine.command.Call;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.Errors;

import java.util.Arrays;
import java.util.List;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT, with Redis 7.2's syntax, replies and errors.
 * The Lua side lives in {@link Scripting}.
 */
public final class ScriptCommands {
    static final String NOSCRIPT = "NOSCRIPT No matching script. Please use EVAL.";
    private static final String EVAL_FLAGS = "noscript stale skip_monitor no_mandatory_keys movable_keys";
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

    private ScriptCommands() {
    }

    public static void register(CommandTable t, Scripting scripting) {
        t.register(Command.of("eval", -3, EVAL_FLAGS, 0, 0, 0, "scripting", c -> eval(c, scripting, false, false)));
        t.register(Command.of("evalsha", -3, EVAL_FLAGS, 0, 0, 0, "scripting", c -> eval(c, scripting, true, false)));
        t.register(Command.of("eval_ro", -3, "readonly " + EVAL_FLAGS, 0, 0, 0, "scripting", c -> eval(c, scripting, false, true)));
        t.register(Command.of("evalsha_ro", -3, "readonly " + EVAL_FLAGS, 0, 0, 0, "scripting", c -> eval(c, scripting, true, true)));
        t.register(Command.of("script", -2, "", 0, 0, 0, "scripting", c -> { })
                .with(Command.of("load", 3, "noscript stale", 0, 0, 0, "scripting",
                        c -> c.reply().bulk(scripting.load(c.arg(2)).sha().getBytes(java.nio.charset.StandardCharsets.US_ASCII))))
                .with(Command.of("exists", -3, "noscript", 0, 0, 0, "scripting", c -> exists(c, scripting)))
                .with(Command.of("flush", -2, "noscript", 0, 0, 0, "scripting", c -> flush(c, scripting)))
                .with(Command.of("kill", 2, "noscript allow_busy", 0, 0, 0, "scripting", c -> kill(c, scripting, false)))
                .with(Command.of("debug", 3, "noscript", 0, 0, 0, "scripting", ScriptCommands::debug))
                .with(Command.of("help", 2, "loading stale", 0, 0, 0, "scripting", c -> c.replyLines(SCRIPT_HELP))));
    }

    /** EVAL script numkeys key... arg... (and the SHA and read-only variants). */
    private static void eval(Call c, Scripting scripting, boolean bySha, boolean readOnly) {
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
        byte[][] keys = Arrays.copyOfRange(c.args(), 3, 3 + numKeys);
        byte[][] args = Arrays.copyOfRange(c.args(), 3 + numKeys, c.argc());
        scripting.run(c, script.sha(), script.function(), keys, args, readOnly, false);
    }

    /** The numkeys argument at {@code i}, checked against the arguments that follow it. */
    static int numKeys(Call c, int i) {
        long n = c.longArg(i);
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
