package dev.ordo.engine.script;

import dev.ordo.engine.command.Call;
import dev.ordo.engine.memory.Footprint;
import dev.ordo.engine.command.CallContext;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.version.RedisVersion;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.script.lib.BitLib;
import dev.ordo.engine.script.lib.CjsonLib;
import dev.ordo.engine.script.lib.CmsgpackLib;
import dev.ordo.engine.script.lib.StructLib;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.ZeroArgFunction;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs Lua scripts for EVAL and FCALL: one sandboxed Lua world per engine ({@link LuaSandbox}),
 * the script cache by SHA1, the {@code redis} library, and the state of the running script that
 * other threads read for BUSY and SCRIPT KILL.
 *
 * <p>Threading: scripts run under the engine lock, one at a time, on the thread that called
 * {@link #run} (an event loop, or an embedded caller): the script's thread. Its coroutines run on
 * worker threads of {@link Coroutines}, one thread at a time, handing a baton back and forth; the
 * script's thread is the only one that calls the {@link BusyHandler}, also while a coroutine
 * runs, and no coroutine keeps a thread once the run that started it has ended. {@link
 * #running()} and {@link #kill} are safe from any thread: they are how a client that cannot get
 * the lock learns that a script has run past {@code busy-reply-threshold}, and how SCRIPT KILL
 * reaches it. A script notices a kill at its next check (every 1,024 Lua instructions, in its
 * main function, a coroutine, a pcall'd function or a callback of table.sort or gsub alike, and
 * every {@code redis.call}).
 *
 * <p>Errors leave a script as Redis words them: {@code <message> script: <name>, on
 * @user_script:<line>.}, with {@code ERR} in front of messages Lua raised as strings. Compile
 * errors are Lua 5.1's ({@link Lua51Syntax} checks a script before LuaJ compiles it).
 */
public final class Scripting {
    private static final Logger LOG = Logger.getLogger(Scripting.class.getName());
    /**
     * A cached script's bytes besides its body: the SHA1 text, the record and the cache entry. Its
     * compiled form is counted as large as its body (LuaJ's prototypes are not measured).
     */
    private static final long SCRIPT_ENTRY = 256;
    /**
     * Commands that run a script, refused from a script even under DEBUG SET-DISABLE-DENY-SCRIPTS
     * 1: a script is not re-entrant (Redis 7.0 lets them through and then crashes on an assertion).
     */
    private static final java.util.Set<String> RUNS_A_SCRIPT =
            java.util.Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";
    private static final LuaString KEYS = LuaValue.valueOf("KEYS");
    private static final LuaString ARGV = LuaValue.valueOf("ARGV");
    private static final Pattern WHERE = Pattern.compile("^@?([^\\s:]+):(\\d+):? (.*)$", Pattern.DOTALL);

    private final CallContext context;
    private final LuaSandbox sandbox = new LuaSandbox();
    private final Map<String, Script> cache = new LinkedHashMap<>();
    /** The bytes of the cached scripts' bodies and entries ({@link #memoryUsage}). */
    private long cacheBytes;
    private final LuaReplies.Capture capture = new LuaReplies.Capture();
    private final Lrand48 random = new Lrand48();
    private volatile Run running;
    private final Watchdog watchdog = new Watchdog();
    private volatile BusyHandler busyHandler;
    private final Functions functions;
    private final Coroutines coroutines = new Coroutines(new CoroutineHost());
    private final HeapGuard heapGuard;
    private Session scriptSession;

    /**
     * Serves other clients while a script is busy, from the script's own thread: a transport
     * whose thread runs scripts and also does its I/O (an event loop) installs one, as Redis
     * processes events from inside a busy script. {@link #poll} is called about every
     * millisecond once the script has run past {@code busy-reply-threshold}, always on the
     * script's thread ({@link Run#thread()}), also while a coroutine is busy; {@link #ended} once
     * after such a script, before its reply.
     */
    public interface BusyHandler {
        /**
         * Called about every millisecond on the script's thread while the script is busy; serves other clients.
         *
         * @param run the busy script
         */
        void poll(Run run);

        /**
         * Called once after a busy script ends, before its reply.
         *
         * @param run the script that ended
         */
        void ended(Run run);
    }

    /** A cached script. */
    public record Script(String sha, byte[] body, LuaValue function, ScriptFlags flags) {
    }

    /** The script being run: read by other threads for BUSY, SCRIPT KILL and FUNCTION KILL. */
    public static final class Run {
        final long startNanos = System.nanoTime();
        final String name;
        final boolean isFunction;
        final boolean readOnly;
        final Session caller;
        volatile boolean killed;
        volatile boolean wrote;
        /** Whether the script may start writing when memory was over maxmemory as its command began. */
        boolean allowOom;
        int resp = 2;
        long instructions;
        /** The allocation counter of {@link #allocationThread} at the last heap check (see {@link HeapGuard}). */
        long allocationMark = -1;
        Thread allocationThread;
        long lastPollNanos;
        BusyHandler polledBy;
        long deadlineNanos = Long.MAX_VALUE;
        int coroutines;
        final Thread thread = Thread.currentThread();

        byte[][] command = new byte[0][];

        Run(String name, boolean isFunction, boolean readOnly, Session caller) {
            this.name = name;
            this.isFunction = isFunction;
            this.readOnly = readOnly;
            this.caller = caller;
        }

        /**
         * The script's thread: the one it started on, which alone serves other clients while it is busy.
         *
         * @return the thread
         */
        public Thread thread() {
            return thread;
        }

        /** Records a write; false when a kill came first (the write must not happen). */
        synchronized boolean markWrote() {
            if (killed) {
                return false;
            }
            wrote = true;
            return true;
        }

        /** Requests a kill unless the script wrote: the UNKILLABLE text then, else null. */
        synchronized String requestKill() {
            String refusal = unkillable();
            if (refusal == null) {
                killed = true;
            }
            return refusal;
        }

        /** Why the script cannot be killed (it wrote), or null. */
        synchronized String unkillable() {
            return wrote ? "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the "
                    + "script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command." : null;
        }

        /**
         * The client that runs the script.
         *
         * @return the caller's session
         */
        public Session caller() {
            return caller;
        }

        /**
         * Milliseconds since the script started.
         *
         * @return the milliseconds
         */
        public long elapsedMillis() {
            return (System.nanoTime() - startNanos) / 1_000_000;
        }

        /**
         * Whether this is a function (FCALL) rather than a script (EVAL).
         *
         * @return whether it is a function
         */
        public boolean isFunction() {
            return isFunction;
        }

        /**
         * The script's or function's name (SHA1 for EVAL).
         *
         * @return the name
         */
        public String name() {
            return name;
        }

        /**
         * The command that started it (FUNCTION STATS).
         *
         * @return the command and its arguments
         */
        public byte[][] command() {
            return command;
        }

        /**
         * Whether the script has written yet: once it has, SCRIPT KILL can no longer stop it.
         *
         * @return whether it wrote
         */
        public boolean wrote() {
            return wrote;
        }
    }

    /**
     * Scripting for the engine behind {@code context}, with the JVM's heap guard.
     *
     * @param context the engine's hooks the scripts' calls go through
     */
    public Scripting(CallContext context) {
        this(context, HeapGuard.SYSTEM);
    }

    /** Scripting whose scripts are stopped when {@code heapGuard} finds the heap nearly exhausted. */
    Scripting(CallContext context, HeapGuard heapGuard) {
        this.context = context;
        this.heapGuard = heapGuard;
        LuaTable redis = redisLibrary();
        sandbox.define("redis", redis);
        sandbox.define("cjson", new CjsonLib().call(LuaValue.valueOf("cjson"), new LuaTable()));
        sandbox.define("cmsgpack", new CmsgpackLib().call(LuaValue.valueOf("cmsgpack"), new LuaTable()));
        sandbox.define("bit", new BitLib().call(LuaValue.valueOf("bit"), new LuaTable()));
        sandbox.define("struct", new StructLib().call(LuaValue.valueOf("struct"), new LuaTable()));
        replaceRandom();
        coroutines.install(sandbox);
        replaceErrorFunctions();
        functions = new Functions(sandbox, this);
        watchdog.install();
    }

    /** The sandbox scripts and function libraries run in. */
    LuaSandbox sandbox() {
        return sandbox;
    }

    /**
     * The function libraries (FUNCTION, FCALL).
     *
     * @return the libraries
     */
    public Functions functions() {
        return functions;
    }

    /**
     * Installs the transport's handler of other clients during a busy script (null: none).
     *
     * @param handler the handler, or null
     */
    public void setBusyHandler(BusyHandler handler) {
        this.busyHandler = handler;
    }

    /**
     * The running script, or null. Any thread.
     *
     * @return the running script, or null
     */
    public Run running() {
        return running;
    }

    /**
     * SCRIPT KILL / FUNCTION KILL from any thread: the error text to answer, or null when the
     * kill was requested (OK).
     *
     * @param function true for FUNCTION KILL, false for SCRIPT KILL
     * @return the error text, or null
     */
    public String kill(boolean function) {
        Run r = running;
        if (r == null) {
            return "NOTBUSY No scripts in execution right now.";
        }
        // As Redis: a script that wrote is unkillable first; then each KILL only stops its own kind.
        if (r.isFunction != function && r.unkillable() == null) {
            return Errors.busy(r.isFunction);
        }
        return r.requestKill();
    }

    /** Stops the running script whatever it did (shutdown): it ends at its next check. Any thread. */
    public void abort() {
        Run r = running;
        if (r != null) {
            r.killed = true;
        }
    }

    /** Ends the idle coroutine threads now, and the others as their coroutines end (the engine closes). Any thread. */
    public void close() {
        coroutines.close();
    }

    /** Coroutine threads running or waiting in a coroutine now (0 between scripts). Any thread. */
    int coroutineThreadsInUse() {
        return coroutines.threadsInUse();
    }

    // ---- script cache ----

    /**
     * Compiles and caches {@code body}; returns its SHA1. Throws the compile error reply.
     *
     * @param body the script's source
     * @return the cached script
     */
    public Script load(byte[] body) {
        String sha = sha1hex(body);
        Script s = cache.get(sha);
        if (s != null) {
            return s;
        }
        boolean shebang = hasShebang(body);
        ScriptFlags flags = shebang ? ScriptFlags.declared(shebangFlags(body)) : ScriptFlags.COMPAT;
        byte[] source = body;
        if (shebang) {
            source = body.clone();
            for (int i = 0; i < source.length && source[i] != '\n'; i++) {
                source[i] = ' ';
            }
        }
        String lua51Error = Lua51Syntax.firstError(source, "user_script");
        if (lua51Error != null) {
            throw new ErrorReply(Errors.scriptCompile(lua51Error));
        }
        LuaValue fn;
        try {
            fn = sandbox.compile(source, "@user_script");
        } catch (LuaError e) {
            throw new ErrorReply(Errors.scriptCompile(compileMessage(e)));
        }
        s = new Script(sha, body.clone(), fn, flags);
        cache.put(sha, s);
        cacheBytes += 2 * Footprint.array(body.length) + SCRIPT_ENTRY;
        return s;
    }

    private static final String BAD_REPLY_ARGUMENTS = "ERR wrong number or type of arguments";

    /** Whether {@code args} is exactly one string (a number is not one, as Lua's C API sees it). */
    private static boolean oneString(Varargs args) {
        return args.narg() == 1 && args.arg1().type() == LuaValue.TSTRING;
    }

    private static boolean hasShebang(byte[] body) {
        return body.length > 1 && body[0] == '#' && body[1] == '!';
    }

    /**
     * The flags of an EVAL script, cached or not, without compiling it: what Redis reads to decide
     * a call's command flags before running it. A shebang line that does not parse counts as none.
     *
     * @param body the script's source
     * @return its flags
     */
    public ScriptFlags flagsOf(byte[] body) {
        Script cached = cache.get(sha1hex(body));
        if (cached != null) {
            return cached.flags();
        }
        if (!hasShebang(body)) {
            return ScriptFlags.COMPAT;
        }
        try {
            return ScriptFlags.declared(shebangFlags(body));
        } catch (ErrorReply e) {
            return ScriptFlags.COMPAT;
        }
    }

    /** The flags of an EVAL script's {@code #!lua flags=...} line, with Redis's errors for anything else on it. */
    private static java.util.Set<String> shebangFlags(byte[] body) {
        int nl = 0;
        while (nl < body.length && body[nl] != '\n') {
            nl++;
        }
        if (nl == body.length) {
            throw new ErrorReply("ERR Invalid script shebang");
        }
        String[] parts = new String(body, 0, nl, StandardCharsets.UTF_8).trim().split("\\s+");
        if (!parts[0].equals("#!lua")) {
            throw new ErrorReply("ERR Unexpected engine in script shebang: " + parts[0]);
        }
        java.util.Set<String> flags = new java.util.HashSet<>();
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].startsWith("flags=")) {
                throw new ErrorReply("ERR Unknown lua shebang option: " + parts[i]);
            }
            for (String flag : parts[i].substring(6).split(",")) {
                if (!flag.isEmpty() && !Functions.FLAGS.contains(flag)) {
                    throw new ErrorReply("ERR Unexpected flag in script shebang: " + flag);
                }
                flags.add(flag);
            }
        }
        return flags;
    }

    /**
     * The cached script with this SHA1 (any case), or null.
     *
     * @param sha the SHA1, in hex
     * @return the script, or null
     */
    public Script cached(String sha) {
        Script s = cache.get(sha);
        return s != null ? s : cache.get(sha.toLowerCase(java.util.Locale.ROOT));
    }

    /** SCRIPT FLUSH: empties the script cache. */
    public void flush() {
        cache.clear();
        cacheBytes = 0;
    }

    /**
     * The bytes the script cache holds: each cached script's body, kept as scripts are cached and flushed.
     *
     * @return the bytes
     */
    public long memoryUsage() {
        return cacheBytes;
    }

    /**
     * Number of scripts in the cache (INFO's number_of_cached_scripts).
     *
     * @return the number of scripts
     */
    public int cachedScripts() {
        return cache.size();
    }

    static String compileMessage(LuaError e) {
        String m = e.getMessage();
        return m == null ? "" : m.replace("@user_script", "user_script");
    }

    // ---- running ----

    /**
     * Runs {@code function} for {@code c} with the given KEYS and ARGV (or, for FCALL, as a
     * function of (keys, args)), writing the result or the error to {@code c.reply()}.
     *
     * @param c the call running the script, which takes the reply
     * @param name the script's SHA1 or the function's name
     * @param function the compiled script or the function's callback
     * @param keys KEYS
     * @param args ARGV
     * @param readOnly whether the call may not write (EVAL_RO, FCALL_RO, a no-writes script)
     * @param isFunction whether this is FCALL rather than EVAL
     */
    public void run(Call c, String name, LuaValue function, byte[][] keys, byte[][] args, boolean readOnly, boolean isFunction) {
        run(c, name, function, keys, args, readOnly, isFunction, ScriptFlags.COMPAT);
    }

    /**
     * {@link #run(Call, String, LuaValue, byte[][], byte[][], boolean, boolean)} of a script with
     * {@code flags}: one without allow-oom may not start writing while memory was over maxmemory
     * when the command began.
     */
    void run(Call c, String name, LuaValue function, byte[][] keys, byte[][] args, boolean readOnly, boolean isFunction,
             ScriptFlags flags) {
        Run run = new Run(name, isFunction, readOnly, c.session());
        run.allowOom = flags.allowOom();
        run.command = c.args();
        LuaTable keyTable = table(keys);
        LuaTable argTable = table(args);
        Session session = scriptSession(c.session());
        Run previous = running;
        running = run;
        watchdog.reset();
        int coroutineMark = coroutines.holdingCount();
        ReplyWriter out = c.reply();
        try {
            LuaValue result;
            if (isFunction) {
                result = function.call(keyTable, argTable);
            } else {
                sandbox.setGlobal(KEYS, keyTable);
                sandbox.setGlobal(ARGV, argTable);
                result = function.call();
            }
            LuaReplies.write(result, out, run.resp, context.dispatcher());
        } catch (LuaError e) {
            if (LuaReplies.isCounted(e instanceof TableError t ? t.table() : e.getMessageObject())) {
                context.dispatcher().replyCountedError(out, errorReply(e, run));
            } else {
                context.dispatcher().replyError(out, errorReply(e, run));
            }
        } catch (Abort e) {
            context.dispatcher().replyError(out, e.getMessage());
        } catch (StackOverflowError e) {
            context.dispatcher().replyError(out, "ERR Error running script (call to " + functionName(run) + "): stack overflow");
        } catch (OutOfMemoryError e) {
            watchdog.forgetSite(); // it holds the failing function's registers, likely what filled the heap
            heapGuard.scriptStopped();
            context.dispatcher().replyError(out, "ERR Error running script (call to " + functionName(run) + "): not enough memory");
        } catch (RuntimeException e) {
            context.dispatcher().replyError(out, "ERR Error running script (call to " + functionName(run) + "): " + e);
        } finally {
            coroutines.closeSince(coroutineMark);
            watchdog.forgetSite();
            running = previous;
            session.selectDb(c.session().db());
            if (!isFunction) {
                sandbox.setGlobal(KEYS, LuaValue.NIL);
                sandbox.setGlobal(ARGV, LuaValue.NIL);
            }
            if (run.polledBy != null) {
                run.polledBy.ended(run);
            }
        }
    }

    private String suffix(Run run) {
        return " script: " + run.name + ", on @" + chunk(run) + ":" + watchdog.lastLine() + ".";
    }

    /**
     * Runs a function library's body under the watchdog, as Redis does: at most 500 ms, then it is
     * stopped. Returns the error text when it failed on a Java error (stack, memory), else null.
     */
    String runLibraryLoad(LuaValue chunk) {
        Run run = new Run("library", true, true, null);
        run.deadlineNanos = System.nanoTime() + 500_000_000L;
        Run previous = running;
        running = run;
        int coroutineMark = coroutines.holdingCount();
        try {
            chunk.call();
            return null;
        } catch (Abort e) {
            return e.getMessage();
        } catch (StackOverflowError e) {
            return "ERR Error registering functions: stack overflow";
        } catch (OutOfMemoryError e) {
            watchdog.forgetSite();
            heapGuard.scriptStopped();
            return "ERR Error registering functions: not enough memory";
        } finally {
            coroutines.closeSince(coroutineMark);
            running = previous;
        }
    }

    private static String chunk(Run run) {
        return run.isFunction ? "user_function" : "user_script";
    }

    private static String functionName(Run run) {
        return run.isFunction ? run.name : "f_" + run.name;
    }

    /** Drops what the watchdog keeps of the error just raised (the caller has worded it). */
    void forgetErrorSite() {
        watchdog.forgetSite();
    }

    /** A LuaJ error message for the error just raised, worded as Lua 5.1 words it (see {@link #message51}). */
    String runtimeMessage(String raw) {
        return message51(raw);
    }

    /**
     * A LuaJ runtime error's message as Lua 5.1 words it: the culprit named (from the site the
     * watchdog recorded), and the position as {@code user_script:3: } rather than LuaJ's {@code
     * @user_script:3 }. A type error raised inside a function the failing instruction called (a
     * Java function) gets no position, as Lua 5.1 gives none to errors raised in C.
     */
    private String message51(String raw) {
        RuntimeErrorNames.Site site = watchdog.errorSite();
        String text = LuaSandbox.as51Message(RuntimeErrorNames.rewrite(raw, site));
        Matcher m = WHERE.matcher(text);
        if (!m.matches()) {
            return text;
        }
        if (raisedInCalledFunction(raw)) {
            return m.group(3);
        }
        return text.startsWith("@") || text.matches("^[^\\s:]+:\\d+ .*") ? m.group(1) + ":" + m.group(2) + ": " + m.group(3) : text;
    }

    /** Whether the error just raised is one Lua 5.1's VM raises, raised inside a function the failing instruction called: no position. */
    private boolean raisedInCalledFunction(String raw) {
        return LuaSandbox.raisedByTheVm(raw) && RuntimeErrorNames.inCalledFunction(watchdog.errorSite());
    }

    /**
     * An error raised by the script's own {@code error(value [, level])}: its message object is
     * final when raised (a string or number carries the position of the function {@code level}
     * up the stack, as Lua 5.1's luaL_where gives it; other values are left as they are), so LuaJ
     * adds nothing to it on the way out.
     */
    static final class ScriptError extends LuaError {
        private static final long serialVersionUID = 1L;

        ScriptError(LuaValue value) {
            super(value);
            this.traceback = value.tojstring();
        }
    }

    /**
     * error, pcall and xpcall with Lua 5.1's messages: error() honours its level; what pcall and
     * xpcall catch is worded as Lua 5.1 words it (LuaJ's own messages differ); xpcall calls its
     * handler with that message (LuaJ consults the handler of another globals table than the
     * one scripts run in, so it never called it) and, as in 5.1, passes no arguments to the
     * function and says "error in error handling" when the handler fails.
     */
    private void replaceErrorFunctions() {
        sandbox.define("error", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue value = args.arg1();
                int level = args.arg(2).optint(1);
                if ((value.type() == LuaValue.TSTRING || value.type() == LuaValue.TNUMBER) && level > 0) {
                    value = LuaValue.valueOf(watchdog.where(level) + value.tojstring());
                }
                throw new ScriptError(value);
            }
        });
        sandbox.define("pcall", new ProtectedCall(false));
        sandbox.define("xpcall", new ProtectedCall(true));
    }

    /** pcall, or xpcall (with a handler): see {@link #replaceErrorFunctions}. */
    final class ProtectedCall extends VarArgFunction {
        private final boolean withHandler;

        ProtectedCall(boolean withHandler) {
            this.withHandler = withHandler;
        }

        @Override
        public Varargs invoke(Varargs args) {
            if (withHandler) {
                return protectedCall(this, args.arg1(), LuaValue.NONE, args.checkvalue(2));
            }
            Varargs result = protectedCall(this, args.checkvalue(1), args.subargs(2), null);
            // As Redis's pcall (not xpcall): an error reply table ({err=...}) is caught as its text.
            LuaValue caught = result.arg(2);
            if (!result.arg1().toboolean() && caught.istable() && caught.rawget("err").isstring()) {
                return LuaValue.varargsOf(LuaValue.FALSE, caught.rawget("err"));
            }
            return result;
        }
    }

    private Varargs protectedCall(LuaFunction self, LuaValue f, Varargs args, LuaValue handler) {
        watchdog.onCall(self);
        try {
            return LuaValue.varargsOf(LuaValue.TRUE, f.invoke(args));
        } catch (LuaError e) {
            LuaValue message = caught(e, f, args);
            if (handler != null) {
                try {
                    message = handler.call(message);
                } catch (LuaError inHandler) {
                    message = LuaValue.valueOf("error in error handling");
                }
            }
            return LuaValue.varargsOf(LuaValue.FALSE, message);
        } catch (RuntimeException e) {
            // A Java function called directly (inside Lua functions LuaJ turns these into LuaErrors).
            return LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf(String.valueOf(e.getMessage() != null ? e.getMessage() : e)));
        } finally {
            watchdog.onReturn();
        }
    }

    /**
     * What pcall returns for {@code e}, raised by {@code f} called with {@code args}: the value
     * error() raised, or LuaJ's message in Lua 5.1's words (for a Java function called directly,
     * its argument errors name no function, as from C).
     */
    private LuaValue caught(LuaError e, LuaValue f, Varargs args) {
        LuaValue m = e.getMessageObject();
        if (e instanceof ScriptError || e instanceof TableError || m == null || !m.isstring()) {
            return m == null ? LuaValue.NIL : m;
        }
        String text = message51(m.tojstring().strip());
        if (f instanceof LuaClosure) {
            return LuaValue.valueOf(text);
        }
        LuaValue[] values = new LuaValue[args.narg()];
        for (int k = 0; k < values.length; k++) {
            values[k] = args.arg(k + 1);
        }
        return LuaValue.valueOf(RuntimeErrorNames.rewriteCaught(text, values));
    }

    /** Redis's text for an error that ended a script. */
    private String errorReply(LuaError e, Run run) {
        LuaValue obj = e instanceof TableError t ? t.table() : e.getMessageObject();
        String where = "?";
        String message;
        if (obj != null && obj.istable()) {
            LuaValue err = obj.rawget(LuaReplies.ERR);
            message = err.isstring() ? err.tojstring() : "ERR unknown error";
            if (e instanceof TableError t) {
                where = t.line();
            }
        } else {
            String text;
            if (e instanceof ScriptError) {
                text = obj.tojstring();
            } else {
                String raw = (obj == null || obj.isnil() ? String.valueOf(e.getMessage()) : obj.tojstring()).strip();
                text = message51(raw);
                Matcher m = WHERE.matcher(text);
                if (m.matches()) {
                    where = m.group(2);
                } else if (!text.startsWith("Script killed by user") && !raisedInCalledFunction(raw)) {
                    where = watchdog.lastLine();
                    text = chunk(run) + ":" + where + ": " + text;
                }
            }
            if (!(e instanceof ScriptError) && (text.startsWith("ERR ") || text.startsWith("user_script:") && text.contains(": ERR "))) {
                message = text;
            } else {
                message = text.startsWith(KILLED.substring(4)) ? KILLED : "ERR " + text;
            }
            if (message.contains("Script killed by user with")) {
                message = run.isFunction ? "ERR Script killed by user with FUNCTION KILL..." : KILLED;
            }
        }
        if ("?".equals(where)) {
            where = watchdog.lastLine();
        }
        return LuaReplies.errorText(message) + " script: " + run.name + ", on @" + chunk(run) + ":" + where + ".";
    }

    private Session scriptSession(Session caller) {
        if (scriptSession == null) {
            scriptSession = Session.forScripts(context.keyspace().now());
        }
        scriptSession.selectDb(caller.db());
        scriptSession.setProtocol(2);
        return scriptSession;
    }

    private static LuaTable table(byte[][] values) {
        LuaTable t = new LuaTable(values.length, 0);
        for (int i = 0; i < values.length; i++) {
            t.rawset(i + 1, LuaString.valueUsing(values[i]));
        }
        return t;
    }

    /**
     * Checks the kill flag, and lets the busy handler serve other clients once the script is
     * past {@code busy-reply-threshold}; called from the instruction hook and before each command,
     * on the script's thread or a coroutine's, which hands the poll to the script's thread.
     */
    private void checkKilled() {
        Run r = running;
        BusyHandler h = busyHandler;
        if (r != null && h != null) {
            long now = System.nanoTime();
            if (now - r.lastPollNanos >= 1_000_000L && (now - r.startNanos) / 1_000_000L >= context.config().getLong("busy-reply-threshold")) {
                r.lastPollNanos = now;
                r.polledBy = h;
                if (Thread.currentThread() == r.thread) {
                    h.poll(r);
                } else {
                    coroutines.pollOnScriptThread(r.thread, () -> h.poll(r));
                }
            }
        }
        if (r == null) {
            return;
        }
        if (r.killed) {
            throw new Abort((r.isFunction ? "ERR Script killed by user with FUNCTION KILL..." : KILLED) + suffix(r));
        }
        if (System.nanoTime() > r.deadlineNanos) {
            r.killed = true;
            throw new Abort("ERR Error registering functions: FUNCTION LOAD timeout");
        }
        if (((r.instructions & 0xFFFF) == 0 && heapGuard.exhausted()) || (allocatedPastBudget(r) && heapGuard.exhaustedNow())) {
            r.killed = true;
            heapGuard.scriptStopped();
            throw new Abort("ERR script stopped: the server's memory is nearly exhausted" + suffix(r));
        }
    }

    /**
     * Whether the script has allocated {@link HeapGuard#ALLOCATION_BUDGET} bytes on this thread
     * since the last such check (a coroutine's thread counts from its first check); restarts the count.
     */
    private static boolean allocatedPastBudget(Run r) {
        long now = HeapGuard.allocatedByThisThread();
        if (now < 0) {
            return false;
        }
        if (r.allocationThread != Thread.currentThread()) {
            r.allocationThread = Thread.currentThread();
            r.allocationMark = now;
            return false;
        }
        if (now - r.allocationMark < HeapGuard.ALLOCATION_BUDGET) {
            return false;
        }
        r.allocationMark = now;
        return true;
    }

    // ---- the redis library ----

    private LuaTable redisLibrary() {
        LuaTable redis = new LuaTable();
        redis.rawset("call", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue r = command(args);
                if (capture.isError()) {
                    throw new TableError(r);
                }
                return r;
            }
        });
        redis.rawset("pcall", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                try {
                    return command(args);
                } catch (TableError e) {
                    return e.table();
                }
            }
        });
        // As Redis: a wrong argument makes the reply an error table, returned rather than raised.
        redis.rawset("error_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (!oneString(args)) {
                    return LuaReplies.errorTable(BAD_REPLY_ARGUMENTS);
                }
                return LuaReplies.errorReplyTable(args.arg1().tojstring());
            }
        });
        redis.rawset("status_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return oneString(args) ? LuaReplies.statusTable(args.arg1().tojstring()) : LuaReplies.errorTable(BAD_REPLY_ARGUMENTS);
            }
        });
        redis.rawset("sha1hex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw scriptError("ERR wrong number of arguments");
                }
                return LuaValue.valueOf(sha1hex(LuaSandbox.bytes(args.checkstring(1))));
            }
        });
        redis.rawset("log", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() < 2) {
                    throw scriptError("ERR redis.log() requires two arguments or more.");
                }
                int level = args.checkint(1);
                if (level < 0 || level > 3) {
                    throw scriptError("ERR Invalid debug level.");
                }
                StringBuilder sb = new StringBuilder();
                for (int i = 2; i <= args.narg(); i++) {
                    sb.append(i > 2 ? " " : "").append(args.arg(i).tojstring());
                }
                LOG.log(level == 3 ? Level.WARNING : level == 2 ? Level.INFO : Level.FINE, sb.toString());
                return LuaValue.NONE;
            }
        });
        redis.rawset("setresp", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw scriptError("ERR redis.setresp() requires one argument.");
                }
                int resp = args.arg1().checkint();
                if (resp != 2 && resp != 3) {
                    throw scriptError("ERR RESP version must be 2 or 3.");
                }
                Run r = running;
                if (r != null) {
                    r.resp = resp;
                }
                return LuaValue.NONE;
            }
        });
        redis.rawset("set_repl", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue v) {
                int flags = v.checkint();
                if ((flags & ~3) != 0) {
                    throw scriptError("ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
                }
                return LuaValue.NONE;
            }
        });
        redis.rawset("replicate_commands", new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                return LuaValue.TRUE;
            }
        });
        redis.rawset("breakpoint", new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                return LuaValue.FALSE;
            }
        });
        redis.rawset("debug", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.NONE;
            }
        });
        redis.rawset("acl_check_cmd", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() == 0) {
                    throw new LuaError("Please specify at least one argument for this redis lib call");
                }
                byte[][] argv = new byte[args.narg()][];
                for (int i = 0; i < argv.length; i++) {
                    argv[i] = LuaSandbox.bytes(args.checkstring(i + 1));
                }
                Command command = context.commands().lookup(argv[0]);
                if (command != null && !command.subcommands().isEmpty() && argv.length > 1) {
                    command = command.subcommand(argv[1]);
                }
                if (command == null) {
                    throw new LuaError("Invalid command passed to redis.acl_check_cmd()");
                }
                Run run = running;
                dev.ordo.engine.acl.Acl acl = context.acl();
                boolean allowed = run == null || acl == null || acl.check(run.caller.user(), command, argv) == null;
                return LuaValue.valueOf(allowed);
            }
        });
        redis.rawset("REDIS_VERSION", LuaValue.valueOf(RedisVersion.EMULATED));
        redis.rawset("REDIS_VERSION_NUM", LuaValue.valueOf(versionNumber(RedisVersion.EMULATED)));
        redis.rawset("LOG_DEBUG", 0);
        redis.rawset("LOG_VERBOSE", 1);
        redis.rawset("LOG_NOTICE", 2);
        redis.rawset("LOG_WARNING", 3);
        redis.rawset("REPL_NONE", 0);
        redis.rawset("REPL_AOF", 1);
        redis.rawset("REPL_SLAVE", 2);
        redis.rawset("REPL_REPLICA", 2);
        redis.rawset("REPL_ALL", 3);
        return redis;
    }

    private static int versionNumber(String version) {
        String[] p = version.split("\\.");
        int n = 0;
        for (int i = 0; i < 3; i++) {
            n = n * 256 + (i < p.length ? Integer.parseInt(p[i]) : 0);
        }
        return n;
    }

    /** redis.call / redis.pcall: checks as Redis does, runs the command, returns its reply as Lua. */
    private LuaValue command(Varargs args) {
        Run run = running;
        if (run == null) {
            throw scriptError("ERR redis.call is not available here");
        }
        checkKilled();
        int n = args.narg();
        if (n == 0) {
            throw scriptError("ERR Please specify at least one argument for this redis lib call");
        }
        byte[][] argv = new byte[n][];
        for (int i = 0; i < n; i++) {
            LuaValue a = args.arg(i + 1);
            if (a.type() == LuaValue.TSTRING) {
                argv[i] = LuaSandbox.bytes(a.checkstring());
            } else if (a.type() == LuaValue.TNUMBER) {
                double d = a.todouble();
                argv[i] = (d == (long) d && Math.abs(d) < 1e17 ? Long.toString((long) d) : CFormat.spec(d, 'g', 17, false))
                        .getBytes(StandardCharsets.US_ASCII);
            } else {
                throw scriptError("ERR Lua redis lib command arguments must be strings or integers");
            }
        }
        Command command = context.commands().lookup(argv[0]);
        if (command != null && !command.subcommands().isEmpty() && n > 1) {
            command = command.arityAccepts(n) ? command.subcommand(argv[1]) : command;
        }
        if (command == null) {
            throw refused(null, "ERR Unknown Redis command called from script");
        }
        if (!command.arityAccepts(n)) {
            throw refused(command, "ERR Wrong number of args calling Redis command from script");
        }
        if (command.is(Command.Flag.NOSCRIPT)
                && (!context.dispatcher().noscriptAllowedInScripts() || RUNS_A_SCRIPT.contains(command.name()))) {
            throw refused(command, "ERR This Redis command is not allowed from script");
        }
        String aclRefusal = context.dispatcher().checkScriptCommand(run.caller, command, argv);
        if (aclRefusal != null) {
            throw refused(command, aclRefusal);
        }
        // As Redis: commands that may reach replicas (PUBLISH) count as writes here.
        if (run.readOnly && (command.is(Command.Flag.WRITE) || command.is(Command.Flag.MAY_REPLICATE))) {
            throw refused(command, "ERR Write commands are not allowed from read-only scripts.");
        }
        // As Redis: a script may not start writing under OOM, but once it wrote it must finish.
        if (command.is(Command.Flag.DENYOOM) && !run.allowOom && !run.wrote && context.dispatcher().outOfMemoryAtStart()) {
            throw refused(command, Errors.OOM);
        }
        if (command.is(Command.Flag.WRITE)) {
            if (!run.markWrote()) {
                checkKilled();
            }
        }
        Session session = scriptSession;
        session.setProtocol(run.resp);
        capture.reset(run.resp);
        context.dispatcher().runNested(command, session, argv, capture);
        return capture.result();
    }

    private static LuaError scriptError(String text) {
        return new TableError(LuaReplies.errorTable(text));
    }

    /**
     * A command that redis.call or redis.pcall refuses before running it (unknown, arity, not
     * allowed in a script or in a read-only one): counted as an error and as the command's
     * rejected call, as Redis counts it, and marked so that passing it on does not count it again.
     */
    private LuaError refused(Command command, String text) {
        context.dispatcher().countRejected(command, text);
        return new TableError(LuaReplies.countedErrorTable(text));
    }

    /**
     * Ends a script for good (SCRIPT KILL, shutdown, heap exhaustion, a library load that runs too
     * long): an {@link Error}, so neither Lua's pcall nor redis.pcall can catch it, raised again at
     * every instruction once the cause is set. Carries the whole error reply.
     */
    static final class Abort extends Error {
        private static final long serialVersionUID = 1L;

        Abort(String reply) {
            super(reply, null, false, false);
        }
    }

    /**
     * An error raised as a table, as Redis's C functions raise theirs ({@code {err=...}}): no
     * position in the message; the line it was raised on is read from LuaJ's record of it.
     */
    static final class TableError extends LuaError {
        private static final long serialVersionUID = 1L;

        private final LuaValue table;

        TableError(LuaValue table) {
            super(table);
            this.table = table;
        }

        /** What Lua's pcall sees: the error text, as in Redis 7. */
        @Override
        public LuaValue getMessageObject() {
            LuaValue err = table.rawget(LuaReplies.ERR);
            return err.type() == LuaValue.TSTRING ? err : table;
        }

        LuaValue table() {
            return table;
        }

        /** The script line the error passed through first, or "?". */
        String line() {
            String f = fileline;
            int colon = f == null ? -1 : f.lastIndexOf(':');
            return colon < 0 ? "?" : f.substring(colon + 1);
        }
    }

    /**
     * The SHA1 of {@code body} in lowercase hex, as EVALSHA names a script.
     *
     * @param body the script's source
     * @return 40 hex digits
     */
    public static String sha1hex(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What {@link Coroutines} asks of the scripting layer: the per-script limit, error values and positions. */
    private final class CoroutineHost implements Coroutines.Host {
        @Override
        public void created() {
            Run r = running;
            if (r != null && ++r.coroutines > Coroutines.MAX_PER_SCRIPT) {
                throw new LuaError("too many coroutines in one script (at most " + Coroutines.MAX_PER_SCRIPT + ")");
            }
        }

        /** As Lua 5.1's resume returns it: the value raised (an error reply as its table), or the message as pcall words it. */
        @Override
        public LuaValue errorValue(LuaError e, LuaValue body, Varargs args) {
            return e instanceof TableError t ? t.table() : caught(e, body, args);
        }

        @Override
        public String where(int level) {
            return watchdog.where(level);
        }
    }

    /** Redis's math.random: the rand48 generator, one stream for the server, as redisLrand48. */
    private void replaceRandom() {
        sandbox.defineIn("math", "random", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                double r = (random.next() % Lrand48.MAX) / (double) Lrand48.MAX;
                switch (args.narg()) {
                    case 0:
                        return LuaValue.valueOf(r);
                    case 1: {
                        int u = args.checkint(1);
                        if (u < 1) {
                            throw new LuaError("bad argument #1 to 'random' (interval is empty)");
                        }
                        return LuaValue.valueOf(Math.floor(r * u) + 1);
                    }
                    case 2: {
                        int l = args.checkint(1);
                        int u = args.checkint(2);
                        if (l > u) {
                            throw new LuaError("bad argument #2 to 'random' (interval is empty)");
                        }
                        return LuaValue.valueOf(Math.floor(r * (u - l + 1)) + l);
                    }
                    default:
                        throw new LuaError("wrong number of arguments");
                }
            }
        });
        sandbox.defineIn("math", "randomseed", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue seed) {
                random.seed(seed.checkint());
                return LuaValue.NONE;
            }
        });
    }

    /** The 48-bit linear congruential generator of rand48, returning 31-bit values. */
    static final class Lrand48 {
        static final long MAX = Integer.MAX_VALUE;
        private long x = 0x1234ABCD330EL;

        void seed(int s) {
            x = ((long) s << 16) | 0x330EL;
            x &= 0xFFFF_FFFF_FFFFL;
        }

        long next() {
            x = (x * 0x5DEECE66DL + 0xBL) & 0xFFFF_FFFF_FFFFL;
            return x >>> 17;
        }
    }

    /**
     * The instruction hook: checks for SCRIPT KILL every 1,024 instructions; remembers the
     * instruction last run, so an error that LuaJ reports without a position (a failing {@code
     * return redis.call(...)}, a tail call) still names its line; and remembers where a runtime
     * error was raised ({@link #errorSite}), so that {@link RuntimeErrorNames} can name its culprit.
     *
     * <p>LuaJ reports the calls and returns of Lua functions (and of pcall and xpcall); each
     * coroutine has a stack of its own, so the active functions are kept per coroutine (those of
     * one being closed are ignored: it unwinds without running). A Lua
     * function that ends other than by its RETURN instruction (an error passing through it, or a
     * tail call, which LuaJ completes after the function is gone) is where the error was raised,
     * unless LuaJ reported the error earlier ({@link #traceback}) or another function ended so
     * since the last instruction ran.
     */
    private final class Watchdog extends DebugLib {
        private final Frames scriptFrames = new Frames();
        private Prototype lastProto;
        private int lastPc;
        private long ticks;
        private RuntimeErrorNames.Site site;
        private long siteTicks = -1;

        void install() {
            sandbox.setHook(this);
        }

        /** Called on the thread that runs the script, before it runs. */
        void reset() {
            scriptFrames.clear();
            lastProto = null;
            site = null;
        }

        /** The line of the instruction last run, or "?". */
        String lastLine() {
            Prototype p = lastProto;
            return p == null || p.lineinfo == null || lastPc < 0 || lastPc >= p.lineinfo.length ? "?" : String.valueOf(p.lineinfo[lastPc]);
        }

        /**
         * Lua 5.1's luaL_where: "user_script:3: " for the function {@code level} up the stack (1:
         * the Lua function calling error), or "" when that is not a Lua function with a line.
         */
        String where(int level) {
            Frames f = frames();
            int i = f.depth - level;
            LuaClosure c = i >= 0 && i < f.depth ? f.closures[i] : null;
            if (c == null || c.p.lineinfo == null || f.pcs[i] < 0 || f.pcs[i] >= c.p.lineinfo.length) {
                return "";
            }
            String source = c.p.source == null ? "?" : c.p.source.tojstring();
            return (source.startsWith("@") ? source.substring(1) : source) + ":" + c.p.lineinfo[f.pcs[i]] + ": ";
        }

        /** Drops the recorded error site: it holds the failing function's registers, which may hold much. */
        void forgetSite() {
            site = null;
        }

        /** Where the error now being handled was raised, or null when unknown (an instruction ran since). */
        RuntimeErrorNames.Site errorSite() {
            return siteTicks == ticks ? site : null;
        }

        /**
         * Called by LuaJ where an error is raised, in the Lua function it is raised in: records
         * that function as the error's site, with a copy of its registers (LuaJ clears those that
         * closures captured before the function returns). No traceback: Redis's error texts carry
         * only the line.
         */
        @Override
        public String traceback(int level) {
            Frames f = frames();
            if (f.depth > 0) {
                recordSite(f, f.depth - 1, true);
            }
            return "";
        }

        /** pcall and xpcall: a frame without code, so that their returns pair with their calls. */
        @Override
        public void onCall(LuaFunction f) {
            frames().push(null, null);
        }

        @Override
        public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
            frames().push(c, stack);
        }

        @Override
        public void onReturn() {
            Coroutines.Coroutine co = coroutines.current();
            Frames f = co == null ? scriptFrames : co.frames;
            if (f.depth == 0 || co != null && co.closing()) {
                return;
            }
            int top = --f.depth;
            LuaClosure c = f.closures[top];
            int pc = f.pcs[top];
            if (c != null && pc < c.p.code.length && Lua.GET_OPCODE(c.p.code[pc]) != Lua.OP_RETURN) {
                recordSite(f, top, false);
            }
            f.closures[top] = null;
            f.registers[top] = null;
        }

        /** Makes frame {@code i} the error's site, unless a site was recorded since the last instruction. */
        private void recordSite(Frames f, int i, boolean copy) {
            LuaClosure c = f.closures[i];
            if (c != null && siteTicks != ticks) {
                site = new RuntimeErrorNames.Site(c, f.pcs[i], copy ? f.registers[i].clone() : f.registers[i]);
                siteTicks = ticks;
            }
        }

        @Override
        public void onInstruction(int pc, Varargs v, int top) {
            Frames f = frames();
            ticks++;
            lastPc = pc;
            LuaClosure c = f.depth > 0 ? f.closures[f.depth - 1] : null;
            lastProto = c == null ? null : c.p;
            if (c != null) {
                f.pcs[f.depth - 1] = pc;
                if (pc >= 0 && pc < c.p.code.length) {
                    LargeAllocations.beforeInstruction(c.p.code[pc], f.registers[f.depth - 1]);
                }
            }
            Run r = running;
            if (r != null && (r.killed || (++r.instructions & 1023) == 0)) {
                checkKilled();
            }
        }

        private Frames frames() {
            Coroutines.Coroutine co = coroutines.current();
            return co == null ? scriptFrames : co.frames;
        }
    }

    /** The functions active on one Lua stack: the closure (null for pcall and xpcall), its registers, its current instruction. */
    static final class Frames {
        LuaClosure[] closures = new LuaClosure[16];
        LuaValue[][] registers = new LuaValue[16][];
        int[] pcs = new int[16];
        int depth;

        void push(LuaClosure c, LuaValue[] stack) {
            if (depth == closures.length) {
                closures = Arrays.copyOf(closures, depth * 2);
                registers = Arrays.copyOf(registers, depth * 2);
                pcs = Arrays.copyOf(pcs, depth * 2);
            }
            closures[depth] = c;
            registers[depth] = stack;
            pcs[depth++] = 0;
        }

        void clear() {
            Arrays.fill(closures, 0, depth, null);
            Arrays.fill(registers, 0, depth, null);
            depth = 0;
        }
    }

}
