package dev.ordo.engine.command;

import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Key;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Turns arguments into a handler call with Redis's checks, in Redis's order: unknown command,
 * arity, authentication, unknown subcommand, subcommand arity, then (after MULTI's no-multi check)
 * the user's ACL permissions, logging a refusal in ACL LOG; then runs the handler and turns a
 * thrown {@link ErrorReply} into an error reply. Keeps INFO commandstats, the slow log and the
 * latency monitor's {@code command} and {@code fast-command} events. Called under the engine lock.
 *
 * <p>MONITOR: every command that runs, nested ones included, is shown to the {@link CommandObserver}s
 * right after it ran ({@link #run} is Redis's call()), unless flagged admin or skip_monitor; the
 * script runners (skip_monitor) show themselves before their script runs ({@link #feedMonitors}),
 * and an EXEC refused before running is shown where it is refused. The observer list is empty
 * unless some client monitors, so the command path pays one emptiness check.
 */
public final class Dispatcher {
    /** A start time not taken yet: {@link #run} reads the clock itself (nanoTime may be any long, but is not this one in practice). */
    private static final long NOT_STARTED = Long.MIN_VALUE;
    /** The clock reading that ended the last command run to completion since the last dispatch began, or NOT_STARTED. */
    private long endNanos = NOT_STARTED;
    private final CallContext context;
    private final Map<String, CommandStats> stats = new LinkedHashMap<>();
    private final SlowLog slowLog = new SlowLog();
    private final LatencyMonitor latencyMonitor;
    private final EffectLog effects = new EffectLog();
    private final InstantaneousMetrics instantaneous = new InstantaneousMetrics();
    private WriteBarrier barrier;
    private long totalCommands;
    private final ErrorStats errors = new ErrorStats();
    private final List<CommandObserver> observers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.function.BooleanSupplier latencyTracking;
    private final java.util.function.LongSupplier slowThreshold;
    private final java.util.function.LongSupplier slowMaxLen;
    /** The error count when the last command (nested or not) began or ended; errors past it are the running command's. */
    private long errorsBefore;
    /** Errors the running command passed on that were counted where they arose (a script returning redis.call's error). */
    private int passedOnErrors;
    /** Whether memory was over the limit before the running top-level command ({@link #outOfMemoryAtStart}). */
    private boolean oomAtStart;
    /** Whether a command is being dispatched beside a busy script, where no eviction runs. */
    private boolean besideScript;
    /** DEBUG SET-DISABLE-DENY-SCRIPTS: whether scripts may call commands flagged noscript. */
    private boolean noscriptAllowedInScripts;

    /** INFO commandstats counters and the latencystats distribution for one command. */
    public static final class CommandStats {
        /** Calls that ran. */
        public long calls;
        /** Time spent in those calls, in microseconds. */
        public long micros;
        /** Calls refused before they ran (arity, ACL, OOM ...). */
        public long rejectedCalls;
        /** Calls that ran and answered an error. */
        public long failedCalls;
        /** Created at the first call recorded with {@code latency-tracking yes}. */
        CommandLatency latency;
    }

    /**
     * Told before every write command runs, with its arguments (a background snapshot saves what
     * the command may change first). Called under the engine lock.
     */
    @FunctionalInterface
    public interface WriteBarrier {
        /**
         * Called before the write command {@code args} runs on database {@code db}.
         *
         * @param db the database's number
         * @param args the command and its arguments
         */
        void beforeWrite(int db, byte[][] args);
    }

    /**
     * A dispatcher reading its live settings (latency tracking, slow log, latency monitor) from {@code context}'s configuration.
     *
     * @param context the engine the commands run in
     */
    public Dispatcher(CallContext context) {
        this.context = context;
        this.latencyTracking = context.config().liveFlag("latency-tracking");
        this.slowThreshold = context.config().liveNumber("slowlog-log-slower-than");
        this.slowMaxLen = context.config().liveNumber("slowlog-max-len");
        this.latencyMonitor = new LatencyMonitor(context.config().liveNumber("latency-monitor-threshold"),
                () -> context.keyspace().clock().millis());
    }

    /**
     * Runs the command; returns the handler's block request when it asked to block (and
     * {@code blockingAllowed}), else null with the reply written.
     *
     * @param session the client
     * @param args the command and its arguments
     * @param out where the reply goes
     * @param blockingAllowed whether the command may block
     * @return the block request, or null
     */
    public Call.BlockRequest dispatch(Session session, byte[][] args, ReplyWriter out, boolean blockingAllowed) {
        return dispatch(session, args, out, blockingAllowed, NOT_STARTED);
    }

    /**
     * {@link #dispatch} of a client's command right after {@link dev.ordo.engine.keyspace.Keyspace#beginCommand}:
     * its duration (commandstats, the slow log, latency) counts from that method's clock reading,
     * so a command reads the clock twice, as Redis's do, rather than three times (once when it
     * begins at the end reading of the command before it, {@link #endNanos}).
     *
     * @param session the client
     * @param args the command and its arguments
     * @param out where the reply goes
     * @return the block request, or null
     */
    public Call.BlockRequest dispatchBegun(Session session, byte[][] args, ReplyWriter out) {
        return dispatch(session, args, out, true, context.keyspace().commandNanos());
    }

    /**
     * Whether the last dispatch ran its command to the end (it was not refused and did not block),
     * so that {@link #endNanos} holds the clock reading that ended it.
     *
     * @return whether there is an end reading
     */
    public boolean ranToEnd() {
        return endNanos != NOT_STARTED;
    }

    /**
     * The clock reading that ended the last command run to the end ({@link #ranToEnd}): where a
     * command that follows it at once may begin ({@link dev.ordo.engine.keyspace.Keyspace#beginCommandAt}).
     *
     * @return the {@link System#nanoTime()} reading
     */
    public long endNanos() {
        return endNanos;
    }

    private Call.BlockRequest dispatch(Session session, byte[][] args, ReplyWriter out, boolean blockingAllowed, long startNanos) {
        endNanos = NOT_STARTED;
        Command command = context.commands().lookup(args[0]);
        if (command == null) {
            flagTransaction(session);
            replyError(out, Errors.unknownCommand(text(args[0]), quotedArgs(args)));
            return null;
        }
        if (!command.arityAccepts(args.length)) {
            reject(command, session, args, out, Errors.wrongArity(command.fullName()));
            return null;
        }
        if (command.is(Command.Flag.PROTECTED) && !session.allowedBy(context.config().get("enable-debug-command"))) {
            reject(command, session, args, out, Errors.DEBUG_NOT_ALLOWED);
            return null;
        }
        if (!session.authenticated() && authRequired() && !command.is(Command.Flag.NO_AUTH)) {
            reject(command, session, args, out, Errors.NOAUTH);
            return null;
        }
        if (!command.subcommands().isEmpty() && args.length > 1) {
            Command sub = command.subcommand(args[1]);
            if (sub == null) {
                // No command was found, so none counts a rejected call (Redis's c->cmd is NULL here).
                refuse(command, session, args, out, Errors.unknownSubcommand(text(args[1]), command.name()));
                return null;
            }
            if (!sub.arityAccepts(args.length)) {
                reject(sub, session, args, out, Errors.wrongArity(sub.fullName()));
                return null;
            }
            command = sub;
        }
        session.touch(context.keyspace().now(), command.fullName());
        Transactions.Multi multi = session.multi();
        boolean queues = multi != null && !Transactions.runsInsideMulti(command);
        if (queues && command.is(Command.Flag.NO_MULTI)) {
            reject(command, session, args, out, "ERR Command not allowed inside a transaction");
            return null;
        }
        if (refusedByAcl(command, session, args, out, multi != null ? "multi" : "toplevel")) {
            return null;
        }
        Set<Command.Flag> flags = command.flagsOf(args);
        if (outOfMemory(command, flags, multi)) {
            reject(command, session, args, out, Errors.OOM);
            return null;
        }
        // While writes are refused (MISCONF) Redis refuses PING too, and a write before queueing it.
        if (command.is(Command.Flag.WRITE) ? multi != null : command.fullName().equals("ping")) {
            String refusal = context.persistence().writeRefusal();
            if (refusal != null) {
                reject(command, session, args, out, refusal);
                return null;
            }
        }
        if (session.protocol() == 2 && session.subscribed() && !PubSubCommands.allowedWhileSubscribed(command)) {
            reject(command, session, args, out, Errors.pubsubContext(command.fullName()));
            return null;
        }
        if (queues) {
            multi.queue(command, args, flags.contains(Command.Flag.DENYOOM));
            out.simpleString("QUEUED");
            return null;
        }
        return run(command, session, args, out, blockingAllowed, null, startNanos);
    }

    /** Refuses {@code command} with NOPERM, logged in ACL LOG as happening {@code where}, when its user may not run it. */
    private boolean refusedByAcl(Command command, Session session, byte[][] args, ReplyWriter out, String where) {
        Acl acl = context.acl();
        Acl.Denial denial = acl == null ? null : acl.check(session.user(), command, args);
        if (denial == null) {
            return false;
        }
        logAclDenial(session, session, denial, command, args, where);
        reject(command, session, args, out, nopermText(session, denial, command));
        return true;
    }

    /** Whether a session that has not authenticated must: the default user has a password or is off. */
    private boolean authRequired() {
        Acl acl = context.acl();
        return acl == null || acl.authRequired();
    }

    /** The NOPERM error a client gets for {@code denial}, as Redis 7.2 words it (no key or channel named). */
    private static String nopermText(Session session, Acl.Denial denial, Command command) {
        return switch (denial.reason()) {
            case KEY -> Errors.NOPERM_KEY;
            case CHANNEL -> Errors.NOPERM_CHANNEL;
            default -> Errors.noPermCommand(session.userName(), command.fullName());
        };
    }

    /**
     * Checks a command a script runs ({@code redis.call}) against the permissions of the user
     * running the script ({@code caller}'s): null when allowed, else the error for the script,
     * having logged the refusal in ACL LOG with context {@code lua}.
     *
     * @param caller the client running the script
     * @param command the command the script calls
     * @param args its arguments, name included
     * @return null when allowed, else the error
     */
    public String checkScriptCommand(Session caller, Command command, byte[][] args) {
        Acl acl = context.acl();
        if (acl == null) {
            return null;
        }
        Acl.Denial denial = acl.check(caller.user(), command, args);
        if (denial == null) {
            return null;
        }
        logAclDenial(caller, caller, denial, command, args, "lua");
        String why = switch (denial.reason()) {
            case KEY -> Errors.NOPERM_KEY.substring("NOPERM ".length());
            case CHANNEL -> Errors.NOPERM_CHANNEL.substring("NOPERM ".length());
            default -> Errors.aclCommandDenied(caller.userName(), command.fullName());
        };
        return Errors.aclScriptFailure(why);
    }

    /**
     * Checks a command EXEC is about to run, queued under rules that may have changed since:
     * null when still allowed, else Redis's error, the refusal logged with context {@code multi}.
     */
    String checkQueuedCommand(Session session, Command command, byte[][] args) {
        Acl acl = context.acl();
        Acl.Denial denial = acl == null ? null : acl.check(session.user(), command, args);
        if (denial == null) {
            return null;
        }
        logAclDenial(session, session, denial, command, args, "multi");
        return Errors.aclChangedSinceQueued(switch (denial.reason()) {
            case KEY -> Errors.ACL_QUEUED_NO_KEY;
            case CHANNEL -> Errors.ACL_QUEUED_NO_CHANNEL;
            default -> Errors.ACL_QUEUED_NO_COMMAND;
        });
    }

    /**
     * Records a refusal in ACL LOG: the reason, where it happened, what was refused (the command,
     * or the key or channel argument), the user, and {@code client} as CLIENT LIST shows it.
     *
     * @param client the client refused
     * @param user the session whose user was refused
     * @param denial why, and which argument
     * @param command the command refused
     * @param args its arguments, name included
     * @param where {@code toplevel}, {@code multi} or {@code lua}
     */
    public void logAclDenial(Session client, Session user, Acl.Denial denial, Command command, byte[][] args, String where) {
        String object = denial.reason() == Acl.Reason.COMMAND ? command.fullName() : text(args[denial.position()]);
        logAcl(client, denial.reason().logName(), where, object, user.userName());
    }

    /**
     * Records a failed AUTH (or HELLO AUTH) of {@code username} in ACL LOG; the object is the command as sent.
     *
     * @param client the client
     * @param commandName the command's name as sent
     * @param username the user named
     */
    public void logFailedAuth(Session client, byte[] commandName, String username) {
        logAcl(client, Acl.Reason.AUTH.logName(), client.inMulti() ? "multi" : "toplevel", text(commandName), username);
    }

    private void logAcl(Session client, String reason, String where, String object, String username) {
        Acl acl = context.acl();
        if (acl == null) {
            return;
        }
        long now = context.keyspace().now();
        acl.log().add(reason, where, object, username, ConnectionCommands.clientLine(client, now), now,
                context.config().getLong("acllog-max-len"));
    }

    /**
     * Redis's check before each command: evicts as {@code maxmemory-policy} says, and when memory
     * stays over the limit with nothing left to evict, answers whether this call must be refused:
     * a denyoom call, EXEC of a transaction holding one, or inside MULTI anything but EXEC,
     * DISCARD, QUIT and RESET (Redis 7.2's rule). Not made beside a busy script or while loading.
     * The answer before a top-level command is what its scripts see ({@link #outOfMemoryAtStart}).
     */
    private boolean outOfMemory(Command command, Set<Command.Flag> flags, Transactions.Multi multi) {
        MaxMemory memory = context.maxMemory();
        if (memory == null || besideScript || context.keyspace().loading()) {
            return false;
        }
        oomAtStart = memory.beforeCommand();
        if (!oomAtStart) {
            return false;
        }
        String name = command.fullName();
        if (flags.contains(Command.Flag.DENYOOM)) {
            return true;
        }
        if (name.equals("exec")) {
            return multi != null && multi.denyOom;
        }
        return multi != null && !name.equals("discard") && !name.equals("quit") && !name.equals("reset");
    }

    /**
     * Whether memory was over the limit, with nothing left to evict, when the running top-level
     * command began: a script without allow-oom may not start writing then (Redis's
     * pre_command_oom_state).
     *
     * @return whether memory was over the limit
     */
    public boolean outOfMemoryAtStart() {
        return oomAtStart;
    }

    private static void flagTransaction(Session session) {
        session.failTransaction();
    }

    /**
     * Runs a blocked client's command again now that {@code readyKey}, one of the keys it waits
     * for, holds a value of the type it waits for: it is served from that key only.
     *
     * @param session the blocked client
     * @param args its command and arguments
     * @param out where the reply goes
     * @param readyKey the key that received a value
     * @return a new block request, or null once answered
     */
    public Call.BlockRequest retryBlocked(Session session, byte[][] args, ReplyWriter out, Key readyKey) {
        Command command = context.commands().lookup(args[0]);
        // The user's rules may have changed while it waited: checked again, as Redis reprocesses it.
        if (refusedByAcl(command, session, args, out, "toplevel")) {
            return null;
        }
        return run(command, session, args, out, true, readyKey, NOT_STARTED);
    }

    /**
     * Runs a command inside another one (a script's redis.call, a transaction's command at EXEC;
     * the caller made Redis's checks): counted in the statistics and shown to MONITOR, never
     * blocking. A handler's unexpected failure becomes an error reply.
     *
     * @param command the command
     * @param session the client running it
     * @param args its arguments, name included
     * @param out where the reply goes
     */
    public void runNested(Command command, Session session, byte[][] args, ReplyWriter out) {
        try {
            run(command, session, args, out, false, null, NOT_STARTED);
        } catch (RuntimeException e) {
            replyError(out, "ERR internal error while running '" + command.fullName() + "': " + e);
        }
    }

    /**
     * Runs {@code body}, whose commands' writes then reach the effect log as one unit, as a
     * script's or a transaction's do (the append-only file wraps them in MULTI/EXEC).
     *
     * @param <T> the body's result type
     * @param body the commands to run as one unit
     * @return the body's result
     */
    public <T> T asOneUnit(Supplier<T> body) {
        effects.begin();
        try {
            return body.get();
        } finally {
            effects.end();
        }
    }

    /**
     * Runs another client's allow-busy command (MULTI, WATCH, AUTH, HELLO ...) on the thread of a
     * busy script, between two of its instructions: never blocking, and leaving the script's
     * out-of-memory state as it was.
     *
     * @param session the other client
     * @param args its command and arguments
     * @param out where the reply goes
     */
    public void dispatchBesideScript(Session session, byte[][] args, ReplyWriter out) {
        boolean oom = oomAtStart;
        besideScript = true;
        try {
            dispatch(session, args, out, false);
        } finally {
            besideScript = false;
            oomAtStart = oom;
        }
    }

    private Call.BlockRequest run(Command command, Session session, byte[][] args, ReplyWriter out, boolean blockingAllowed,
            Key readyKey, long startNanos) {
        boolean write = command.is(Command.Flag.WRITE);
        if (write) {
            String refusal = context.persistence().writeRefusal();
            if (refusal != null) {
                reject(command, session, args, out, refusal);
                return null;
            }
        }
        if (write && barrier != null) {
            barrier.beforeWrite(session.db(), args);
        }
        long start = startNanos != NOT_STARTED ? startNanos : System.nanoTime();
        long dirtyBefore = context.keyspace().dirty();
        Call call = new Call(context, session, args, out, command, blockingAllowed, effects, readyKey);
        boolean failed = false;
        errorsBefore = errors.total();
        passedOnErrors = 0;
        context.keyspace().setTouching(!session.noTouch() || command.fullName().equals("touch"));
        effects.begin();
        try {
            try {
                command.handler().execute(call);
                Tracking tracking = context.tracking();
                if (tracking.active()) {
                    Session reader = tracking.current();
                    tracking.remember(reader != null ? reader : session, command, args);
                }
            } catch (ErrorReply e) {
                failed = true;
                replyError(out, e.getMessage());
            } catch (OutOfMemoryError e) {
                // A write that ran out part way may be half applied: nothing may run after it. A read changed nothing.
                if (write || context.keyspace().dirty() != dirtyBefore) {
                    context.failStop("out of memory while running '" + command.fullName() + "': " + e.getMessage());
                }
                throw e;
            }
            if (write && effects.enabled()) {
                logEffect(command, session, call, failed, dirtyBefore);
            }
        } finally {
            effects.end();
        }
        if (!observers.isEmpty() && readyKey == null && !command.is(Command.Flag.SKIP_MONITOR) && !command.is(Command.Flag.ADMIN)) {
            feedMonitors(session, args);
        }
        // As Redis: failed once when an error was counted after the last nested command (a
        // transaction's or a script's commands count their own), and once more per error passed on.
        // Looked up after the command ran: CONFIG RESETSTAT counts itself in the new figures, as in Redis.
        CommandStats s = statsOf(command);
        long errorsNow = errors.total();
        s.failedCalls += (errorsNow != errorsBefore ? 1 : 0) + passedOnErrors;
        errorsBefore = errorsNow;
        passedOnErrors = 0;
        // As Redis's stat_numcommands: every command that ran, nested ones included, counted once it
        // has run (so INFO leaves itself out and CONFIG RESETSTAT counts itself); a blocked client
        // served later is not counted again, and refused or queued commands never ran.
        if (readyKey == null) {
            totalCommands++;
        }
        Call.BlockRequest block = call.blockRequest();
        if (block == null) {
            endNanos = System.nanoTime();
            long micros = (endNanos - start) / 1000;
            s.calls++;
            s.micros += micros;
            if (latencyTracking.getAsBoolean()) {
                if (s.latency == null) {
                    s.latency = new CommandLatency();
                }
                s.latency.record(micros);
            }
            logIfSlow(command, session, args, micros);
            latencyMonitor.sample(command.is(Command.Flag.FAST) ? "fast-command" : "command", micros / 1000);
        }
        return block;
    }

    /** Logs what a write did: the effects its handler declared, else its arguments if it changed anything. */
    private void logEffect(Command command, Session session, Call call, boolean failed, long dirtyBefore) {
        List<byte[][]> declared = call.propagated();
        if (declared != null) {
            declared.forEach(e -> effects.add(session.db(), e));
        } else if (!failed && (context.keyspace().dirty() != dirtyBefore || command.firstKey() == 0)) {
            effects.add(session.db(), call.args());
        }
    }

    /**
     * The log of write effects (the append-only file listens to it).
     *
     * @return the effect log
     */
    public EffectLog effects() {
        return effects;
    }

    /**
     * Installs (or removes, with null) the barrier told before each write command.
     *
     * @param barrier the barrier, or null
     */
    public void setWriteBarrier(WriteBarrier barrier) {
        this.barrier = barrier;
    }

    /**
     * As Redis after each call: records it in the slow log when it took at least
     * {@code slowlog-log-slower-than} microseconds, and keeps the log within slowlog-max-len. A
     * negative threshold turns the log off and leaves it as it is; skip_slowlog commands are never logged.
     */
    private void logIfSlow(Command command, Session session, byte[][] args, long micros) {
        long threshold = slowThreshold.getAsLong();
        if (command.is(Command.Flag.SKIP_SLOWLOG) || threshold < 0) {
            return;
        }
        int maxLen = (int) Math.min(Integer.MAX_VALUE, slowMaxLen.getAsLong());
        if (micros >= threshold && maxLen > 0) {
            slowLog.add(command, session, args, context.keyspace().now(), micros, maxLen);
        } else {
            slowLog.trim(maxLen);
        }
    }

    /**
     * The latency monitor this dispatcher records commands into, and the engine its cycles (LATENCY).
     *
     * @return the latency monitor
     */
    public LatencyMonitor latencyMonitor() {
        return latencyMonitor;
    }

    /**
     * Whether scripts may call commands flagged noscript (DEBUG SET-DISABLE-DENY-SCRIPTS 1, a test hook).
     *
     * @return whether they may
     */
    public boolean noscriptAllowedInScripts() {
        return noscriptAllowedInScripts;
    }

    /**
     * DEBUG SET-DISABLE-DENY-SCRIPTS: lets scripts call commands flagged noscript, or stops them again.
     *
     * @param allowed whether scripts may call them
     */
    public void setNoscriptAllowedInScripts(boolean allowed) {
        noscriptAllowedInScripts = allowed;
    }

    /**
     * The slow log this dispatcher records into (SLOWLOG).
     *
     * @return the slow log
     */
    public SlowLog slowLog() {
        return slowLog;
    }

    private void reject(Command command, Session session, byte[][] args, ReplyWriter out, String error) {
        statsOf(command).rejectedCalls++;
        refuse(command, session, args, out, error);
    }

    /**
     * Writes an error reply and counts it (INFO errorstats; the running command's failed_calls).
     *
     * @param out where the reply goes
     * @param text the error, with its code
     */
    public void replyError(ReplyWriter out, String text) {
        errors.count(text);
        out.error(text);
    }

    /**
     * Writes an error reply counted already where it arose (a script passing on the error of a
     * command it ran): not counted again, but it adds a failed call to the running command.
     *
     * @param out where the reply goes
     * @param text the error, with its code
     */
    public void replyCountedError(ReplyWriter out, String text) {
        passedOnErrors++;
        out.error(text);
    }

    /**
     * Counts a command that a script's redis.call refused before running it (unknown, wrong
     * arity, not allowed): an error, and the command's rejected call. As Redis, the script is not
     * blamed for it unless it passes the error on.
     *
     * @param command the command refused
     * @param text the error, with its code
     */
    public void countRejected(Command command, String text) {
        if (command != null) {
            statsOf(command).rejectedCalls++;
        }
        errors.count(text);
        errorsBefore = errors.total();
    }

    private CommandStats statsOf(Command command) {
        return stats.computeIfAbsent(command.fullName(), k -> new CommandStats());
    }

    /**
     * INFO's error figures.
     *
     * @return the error figures
     */
    public ErrorStats errorStats() {
        return errors;
    }

    /**
     * Refuses a command before it runs, as Redis does: EXEC discards the transaction and its
     * watches and answers EXECABORT naming why; any other command fails an open transaction and
     * gets {@code error}; MONITOR is shown such an EXEC. Touches engine state: only the thread
     * running commands may call it.
     *
     * @param command the command refused
     * @param session the client
     * @param args its arguments, name included
     * @param out where the reply goes
     * @param error the error, with its code
     */
    public void refuse(Command command, Session session, byte[][] args, ReplyWriter out, String error) {
        if (command.fullName().equals("exec")) {
            session.endMulti();
            context.transactions().unwatchAll(session);
            replyError(out, Errors.execAbort(error));
            // As Redis's execCommandAbort: MONITOR sees an EXEC refused before it ran.
            feedMonitors(session, args);
        } else {
            flagTransaction(session);
            replyError(out, error);
        }
    }

    /**
     * Shows {@code args}, which {@code session} runs, to every {@link CommandObserver} now; EVAL,
     * EVALSHA and FCALL (skip_monitor) call it before running their script, as Redis's do, so
     * that the script's commands follow them.
     *
     * @param session the client running the command
     * @param args the command and its arguments
     */
    public void feedMonitors(Session session, byte[][] args) {
        if (observers.isEmpty()) {
            return;
        }
        for (CommandObserver o : observers) {
            o.executed(session, args);
        }
    }

    /**
     * Adds an observer of every command that runs (see the class comment for which and when).
     *
     * @param observer the observer
     */
    public void addObserver(CommandObserver observer) {
        observers.add(observer);
    }

    /**
     * Removes an observer added with {@link #addObserver}.
     *
     * @param observer the observer
     */
    public void removeObserver(CommandObserver observer) {
        observers.remove(observer);
    }

    /**
     * Counters per command name, for INFO commandstats.
     *
     * @return the counters, by command name
     */
    public Map<String, CommandStats> stats() {
        return stats;
    }

    /**
     * Commands processed since the start or CONFIG RESETSTAT (INFO's total_commands_processed).
     *
     * @return the count
     */
    public long totalCommands() {
        return totalCommands;
    }

    /** Clears the counters (CONFIG RESETSTAT). */
    public void resetStats() {
        stats.clear();
        errors.reset();
        errorsBefore = 0;
        totalCommands = 0;
        if (context.acl() != null) {
            context.acl().log().resetCounts();
        }
        instantaneous.reset(context.keyspace().clock().millis());
    }

    /**
     * The instantaneous figures of INFO stats, sampled by the engine.
     *
     * @return the figures
     */
    public InstantaneousMetrics instantaneous() {
        return instantaneous;
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static List<String> quotedArgs(byte[][] args) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i < args.length && i <= 64; i++) {
            out.add(text(args[i]));
        }
        return out;
    }
}
