package dev.ordo.engine;

import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandTable;
import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.command.Transactions;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.script.Scripting;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Admission to the engine lock while a script may be running. A caller that cannot take the lock
 * waits for it; once the running script is older than {@code busy-reply-threshold}, the command
 * is answered without the lock, as Redis answers while a script is busy: the usual
 * unknown-command, arity and NOAUTH errors; SCRIPT KILL, FUNCTION KILL and SHUTDOWN NOSAVE act;
 * the other commands Redis flags allow-busy (AUTH, HELLO, MULTI, DISCARD, WATCH, UNWATCH, RESET,
 * QUIT, FUNCTION STATS) run as usual, and inside MULTI every allow-busy command is queued as
 * usual (or refused, for SHUTDOWN); EXEC discards the transaction (EXECABORT naming BUSY);
 * everything else is BUSY. A transport serving its clients from inside the script's thread
 * ({@link Scripting.BusyHandler}) asks for these answers directly.
 */
final class BusyScriptGate {
    private final ReentrantLock lock;
    private final Config config;
    private final CommandTable commands;
    private final Acl acl;
    private final Scripting scripting;
    private final Dispatcher dispatcher;
    private final Supplier<ServerControl> server;
    /** Written under the lock, by the thread that took it. */
    private boolean waited;

    BusyScriptGate(ReentrantLock lock, Config config, CommandTable commands, Acl acl, Scripting scripting, Dispatcher dispatcher,
                   Supplier<ServerControl> server) {
        this.lock = lock;
        this.config = config;
        this.commands = commands;
        this.acl = acl;
        this.scripting = scripting;
        this.dispatcher = dispatcher;
        this.server = server;
    }

    /**
     * Whether the last {@link #acquire} that took the lock had to wait for it (another thread held
     * it). Read under the lock.
     *
     * @return whether it waited
     */
    boolean waited() {
        return waited;
    }

    /**
     * Takes the lock, or answers the command without it while a script is busy: returns whether
     * the lock is held.
     */
    boolean acquire(Session session, byte[][] args, ReplyWriter out) {
        if (lock.tryLock()) {
            waited = false;
            return true;
        }
        waited = true;
        while (true) {
            Scripting.Run run = scripting.running();
            if (run != null && run.elapsedMillis() >= config.getLong("busy-reply-threshold")) {
                if (answerWhileBusy(session, args, out, run, false)) {
                    return false;
                }
            }
            try {
                if (lock.tryLock(2, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                lock.lock();
                return true;
            }
        }
    }

    /**
     * Answers a command that arrives while a script is busy; returns false, having written
     * nothing, for an allow-busy command or EXEC when the caller is not on the script's thread:
     * only that thread may touch engine state beside the script, so such a caller waits for the
     * lock instead.
     */
    boolean answerWhileBusy(Session session, byte[][] args, ReplyWriter out, Scripting.Run run, boolean onScriptThread) {
        Command c = commands.lookup(args[0]);
        if (c == null) {
            session.failTransaction();
            dispatcher.replyError(out, Errors.unknownCommand(new String(args[0], StandardCharsets.UTF_8), List.of()));
            return true;
        }
        if (!c.arityAccepts(args.length)) {
            session.failTransaction();
            dispatcher.replyError(out, Errors.wrongArity(c.fullName()));
            return true;
        }
        if (!session.authenticated() && acl.authRequired() && !c.is(Command.Flag.NO_AUTH)) {
            session.failTransaction();
            dispatcher.replyError(out, Errors.NOAUTH);
            return true;
        }
        Command sub = args.length > 1 && !c.subcommands().isEmpty() ? c.subcommand(args[1]) : null;
        Command target = sub != null ? sub : c;
        String name = target.fullName();
        boolean queues = session.inMulti() && !Transactions.runsInsideMulti(target);
        boolean killOrShutdown = !queues && (name.equals("script|kill") || name.equals("function|kill") || name.equals("shutdown"));
        // As Redis, permissions come before the busy check: no user stops a script, or the
        // server, without the right to. Allow-busy commands are checked where they are dispatched.
        Acl.Denial denial = killOrShutdown ? acl.check(session.user(), target, args) : null;
        if (denial != null) {
            session.failTransaction();
            dispatcher.logAclDenial(session, session, denial, target, args, session.inMulti() ? "multi" : "toplevel");
            dispatcher.replyError(out, Errors.noPermCommand(session.userName(), name));
            return true;
        }
        if ((name.equals("script|kill") || name.equals("function|kill")) && args.length == 2 && !queues) {
            String error = scripting.kill(name.startsWith("function"));
            if (error == null) {
                out.simpleString("OK");
            } else {
                dispatcher.replyError(out, error);
            }
        } else if (name.equals("shutdown") && hasWord(args, "nosave") && !queues) {
            scripting.abort();
            server.get().shutdown();
            session.markClosing();
        } else if (target.is(Command.Flag.ALLOW_BUSY) && (queues || !name.equals("shutdown"))) {
            if (!onScriptThread) {
                return false;
            }
            dispatcher.dispatchBesideScript(session, args, out);
        } else if (name.equals("exec")) {
            if (!onScriptThread) {
                return false;
            }
            dispatcher.refuse(target, session, args, out, Errors.busy(run.isFunction()));
        } else {
            session.failTransaction();
            dispatcher.replyError(out, Errors.busy(run.isFunction()));
        }
        return true;
    }

    private static boolean hasWord(byte[][] args, String word) {
        for (int i = 1; i < args.length; i++) {
            if (new String(args[i], StandardCharsets.ISO_8859_1).equalsIgnoreCase(word)) {
                return true;
            }
        }
        return false;
    }
}
