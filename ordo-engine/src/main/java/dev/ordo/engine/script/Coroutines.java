package dev.ordo.engine.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaThread;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Lua's coroutine library for scripts ({@code create resume yield status running wrap}), in place
 * of LuaJ's, which gave each coroutine a Java thread of its own that nothing could reach: a
 * script busy inside one could be neither served beside nor stopped on the event loop, and
 * every suspended coroutine kept its thread until a collection found it.
 *
 * <p>Threads. LuaJ runs Lua on the Java stack, so a coroutine still needs a stack of its own: a
 * started coroutine runs on a worker thread of this engine's pool. Exactly one thread runs Lua
 * at any moment, the one holding the baton ({@link #holder}): resume hands the baton to the
 * coroutine's worker and waits for it back; yield, return and error hand it back to the
 * resumer. So a script sees Lua's single thread, and the engine's state is touched by one
 * thread at a time although a script's code runs on several; the volatile hand-over orders what
 * each wrote before it. {@link #current} (the coroutine running, null for the script's main
 * function) is written only by the baton's holder.
 *
 * <p>Busy scripts. The script's own thread (the one its run started on: an event loop, or an
 * embedded caller) is the only one that serves other clients ({@link Scripting.BusyHandler}).
 * A coroutine's instruction hook that finds a poll due hands the baton to that thread with the
 * poll ({@link #pollOnScriptThread}); the script's thread, waiting in resume at the bottom of
 * the chain, runs it and hands the baton back. A kill is raised ({@code Abort}) on whichever
 * thread runs Lua; resume raises again in the resumer whatever Java error ended the coroutine,
 * so a kill unwinds every coroutine down to the script's main function.
 *
 * <p>Release and bounds. When a script or a library load ends ({@link #closeSince}), every
 * coroutine it started that still holds a worker (suspended in yield) is closed: its thread
 * unwinds the coroutine's stack with {@link Unwind}, an Error that no Lua code can catch, and
 * the worker returns to the pool, all before the script's reply. A coroutine thus does not
 * outlive the run that started it: resuming it later finds it dead (Redis would keep it, which
 * only a function library's upvalue can notice). One never resumed holds no thread. A script
 * may create at most {@link #MAX_PER_SCRIPT} coroutines, and at most that many workers exist per
 * engine; idle workers end after {@link #KEEP_ALIVE_NANOS}. Platform threads rather than
 * virtual ones: Java 17 has none, the pool's bound already keeps them few, and a coroutine's
 * stack then has the JVM's usual depth (-Xss), so deep recursion in one ends as a stack overflow
 * error, as in the main function.
 *
 * <p>Known differences from Lua 5.1: a coroutine may yield across pcall, table.sort, gsub and
 * metamethods (Lua 5.1 refuses "across metamethod/C-call boundary").
 */
final class Coroutines {
    /** Coroutines one script may create, and worker threads one engine may have. */
    static final int MAX_PER_SCRIPT = 64;
    /** How long an idle worker waits for another coroutine before its thread ends. */
    static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The name of every worker thread starts with this. */
    static final String THREAD_PREFIX = "ordo-lua-coroutine-";
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final String[] STATUS = {"suspended", "running", "normal", "dead"};
    private static final int SUSPENDED = 0;
    private static final int RUNNING = 1;
    private static final int NORMAL = 2;
    private static final int DEAD = 3;

    /** What the scripting layer decides for its coroutines. */
    interface Host {
        /** Counts a new coroutine against the running script; throws the error past its limit. */
        void created();

        /** The value resume returns for an error raised in {@code body} called with {@code args}, as Lua 5.1 words it. */
        LuaValue errorValue(LuaError e, LuaValue body, Varargs args);

        /** Lua 5.1's luaL_where for the function {@code level} up the running stack ("" when none). */
        String where(int level);
    }

    private final Host host;
    private final Pool pool = new Pool();
    private volatile Thread holder;
    private Coroutine current;
    /** Started coroutines that still hold a worker, oldest first. */
    private final List<Coroutine> holding = new ArrayList<>();
    /** A poll the script's thread is to run for {@link #pollFrom}, set before the baton is handed to it. */
    private Runnable pollRequest;
    private Thread pollFrom;

    Coroutines(Host host) {
        this.host = host;
    }

    /** Replaces the sandbox's coroutine library with this one. */
    void install(LuaSandbox sandbox) {
        sandbox.defineIn("coroutine", "create", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue f) {
                return create(f, "create");
            }
        });
        sandbox.defineIn("coroutine", "wrap", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue f) {
                Coroutine co = create(f, "wrap");
                return new VarArgFunction() {
                    @Override
                    public Varargs invoke(Varargs args) {
                        return resumeWrapped(co, args);
                    }
                };
            }
        });
        sandbox.defineIn("coroutine", "resume", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return resume(coroutine(args.arg1(), "resume"), args.subargs(2));
            }
        });
        sandbox.defineIn("coroutine", "yield", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return suspend(args);
            }
        });
        sandbox.defineIn("coroutine", "status", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue co) {
                return LuaValue.valueOf(STATUS[coroutine(co, "status").status]);
            }
        });
        sandbox.defineIn("coroutine", "running", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                Coroutine c = current;
                return c == null ? LuaValue.NIL : c;
            }
        });
    }

    /** The coroutine running now, or null for the script's main function. Only on the thread that runs Lua. */
    Coroutine current() {
        return current;
    }

    /** How many coroutines hold a worker now (a mark for {@link #closeSince}). Only on the thread that runs Lua. */
    int holdingCount() {
        return holding.size();
    }

    /** Worker threads running or waiting in a coroutine now (idle ones excluded). Any thread. */
    int threadsInUse() {
        return pool.inUse();
    }

    /** Ends the idle workers now and every other one when its coroutine ends. Any thread. */
    void close() {
        pool.close();
    }

    private Coroutine create(LuaValue f, String name) {
        if (!f.isfunction()) {
            throw new LuaError("bad argument #1 to '" + name + "' (Lua function expected)");
        }
        host.created();
        return new Coroutine(f);
    }

    private static Coroutine coroutine(LuaValue v, String name) {
        if (v instanceof Coroutine c) {
            return c;
        }
        throw new LuaError("bad argument #1 to '" + name + "' (coroutine expected)");
    }

    /** coroutine.wrap's function: resume, raising the error (a string with the caller's position, as luaL_where gives it). */
    private Varargs resumeWrapped(Coroutine co, Varargs args) {
        Varargs r = resume(co, args);
        if (r.arg1().toboolean()) {
            return r.subargs(2);
        }
        LuaValue error = r.arg(2);
        if (error.istable() && error.rawget(LuaReplies.ERR).isstring()) {
            throw new Scripting.TableError(error);
        }
        if (error.type() == LuaValue.TSTRING || error.type() == LuaValue.TNUMBER) {
            error = LuaValue.valueOf(host.where(1) + error.tojstring());
        }
        throw new Scripting.ScriptError(error);
    }

    private Varargs resume(Coroutine co, Varargs args) {
        if (co.status != SUSPENDED) {
            return LuaValue.varargsOf(LuaValue.FALSE, LuaValue.valueOf("cannot resume " + STATUS[co.status] + " coroutine"));
        }
        Thread me = Thread.currentThread();
        if (co.worker == null) {
            Worker w = pool.take(co);
            if (w == null) {
                throw new LuaError("too many coroutines in one script (at most " + MAX_PER_SCRIPT + ")");
            }
            co.worker = w;
            holding.add(co);
        }
        Coroutine previous = current;
        if (previous != null) {
            previous.status = NORMAL;
        }
        co.status = RUNNING;
        co.resumer = me;
        co.transfer = args;
        current = co;
        boolean unwound = false;
        try {
            handTo(co.worker.thread);
            awaitTurn(me);
        } catch (Unwind e) {
            // This coroutine is being closed: whoever closes it keeps track of the running one.
            unwound = true;
            throw e;
        } finally {
            if (!unwound) {
                current = previous;
                if (previous != null) {
                    previous.status = RUNNING;
                }
            }
        }
        Varargs out = co.transfer;
        co.transfer = LuaValue.NONE;
        if (co.status != DEAD) {
            return LuaValue.varargsOf(LuaValue.TRUE, out);
        }
        Throwable thrown = co.thrown;
        if (thrown != null) {
            co.thrown = null;
            rethrow(thrown);
        }
        return co.failed ? LuaValue.varargsOf(LuaValue.FALSE, out.arg1()) : LuaValue.varargsOf(LuaValue.TRUE, out);
    }

    private Varargs suspend(Varargs values) {
        Coroutine co = current;
        if (co == null) {
            // As Redis: its scripts run in a protected call, which the main function cannot yield across.
            throw new Scripting.ScriptError(LuaValue.valueOf("attempt to yield across metamethod/C-call boundary"));
        }
        co.transfer = values;
        co.status = SUSPENDED;
        Thread me = Thread.currentThread();
        handTo(co.resumer);
        awaitTurn(me);
        Varargs in = co.transfer;
        co.transfer = LuaValue.NONE;
        return in;
    }

    /**
     * Runs {@code poll} on {@code scriptThread}, which waits in resume for the coroutine now
     * running; called on that coroutine's thread, which waits meanwhile.
     */
    void pollOnScriptThread(Thread scriptThread, Runnable poll) {
        Thread me = Thread.currentThread();
        pollRequest = poll;
        pollFrom = me;
        handTo(scriptThread);
        awaitTurn(me);
    }

    /**
     * Closes the coroutines that started since {@code mark} ({@link #holdingCount}) and still hold
     * a worker: each unwinds on its thread and its worker returns to the pool. Called by the
     * script's thread when the run ends, holding the baton.
     */
    void closeSince(int mark) {
        Thread me = Thread.currentThread();
        while (holding.size() > mark) {
            Coroutine co = holding.get(holding.size() - 1);
            co.worker.closing = true;
            co.resumer = me;
            Coroutine previous = current;
            current = co;
            try {
                handTo(co.worker.thread);
                awaitTurn(me);
            } finally {
                current = previous;
            }
            co.thrown = null;
            co.transfer = LuaValue.NONE;
        }
    }

    private void handTo(Thread next) {
        holder = next;
        LockSupport.unpark(next);
    }

    /**
     * Waits until {@code me} holds the baton. The script's thread runs the polls handed to it
     * meanwhile; a worker being closed unwinds instead ({@link Unwind}).
     */
    private void awaitTurn(Thread me) {
        boolean interrupted = false;
        try {
            while (true) {
                while (holder != me) {
                    LockSupport.park(this);
                    interrupted |= Thread.interrupted();
                }
                Runnable poll = pollRequest;
                if (poll != null && pollFrom != me) {
                    Thread from = pollFrom;
                    pollRequest = null;
                    pollFrom = null;
                    try {
                        poll.run();
                    } finally {
                        handTo(from);
                    }
                    continue;
                }
                if (me instanceof WorkerThread t && t.worker.closing) {
                    throw Unwind.INSTANCE;
                }
                return;
            }
        } finally {
            if (interrupted) {
                me.interrupt();
            }
        }
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    /** Runs {@code co}'s body on its worker's thread, from its first resume to its end. */
    private void runBody(Worker w, Coroutine co) {
        Varargs in = LuaValue.NONE;
        try {
            awaitTurn(w.thread);
            in = co.transfer;
            co.transfer = LuaValue.NONE;
            co.transfer = co.body.invoke(in);
        } catch (Unwind e) {
            co.transfer = LuaValue.NONE;
        } catch (LuaError e) {
            co.failed = true;
            co.transfer = host.errorValue(e, co.body, in);
        } catch (Throwable t) {
            co.thrown = t;
        } finally {
            co.status = DEAD;
            co.frames.clear();
            co.worker = null;
            holding.removeIf(c -> c == co);
            Thread resumer = co.resumer;
            co.resumer = null;
            pool.release(w);
            handTo(resumer);
        }
    }

    /** A coroutine: a Lua value of type thread. */
    static final class Coroutine extends LuaThread {
        final LuaValue body;
        /** The functions active on its stack, for the instruction hook. */
        final Scripting.Frames frames = new Scripting.Frames();
        int status = SUSPENDED;
        Worker worker;
        Thread resumer;
        /** Arguments in (resume), values out (yield, return), or the error value. */
        Varargs transfer = LuaValue.NONE;
        boolean failed;
        /** A Java error that ended the body (a kill, a stack overflow): raised again in the resumer. */
        Throwable thrown;

        Coroutine(LuaValue body) {
            super(null, body);
            this.body = body;
        }

        /** Whether its worker is unwinding it (the instruction hook ignores it then). */
        boolean closing() {
            Worker w = worker;
            return w != null && w.closing;
        }
    }

    /** Raised in a coroutine being closed, to unwind its stack: an Error, so no pcall catches it. */
    static final class Unwind extends Error {
        private static final long serialVersionUID = 1L;
        static final Unwind INSTANCE = new Unwind();

        private Unwind() {
            super("coroutine closed", null, false, false);
        }
    }

    /** A pooled thread and the coroutine it runs. */
    final class Worker {
        final WorkerThread thread;
        /** Guarded by the pool. */
        Coroutine task;
        volatile boolean closing;

        Worker() {
            thread = new WorkerThread(this);
        }

        void run() {
            Coroutine co;
            while ((co = pool.next(this)) != null) {
                runBody(this, co);
            }
        }
    }

    /** A worker's thread (a type of its own, so that a wait can tell whether it may be closed). */
    static final class WorkerThread extends Thread {
        final Worker worker;

        WorkerThread(Worker worker) {
            super(THREAD_PREFIX + THREAD_IDS.incrementAndGet());
            this.worker = worker;
            setDaemon(true);
        }

        @Override
        public void run() {
            worker.run();
        }
    }

    /**
     * The workers: at most {@link #MAX_PER_SCRIPT}, idle ones kept most recently used first (so
     * the others age out), each ending after {@link #KEEP_ALIVE_NANOS} without a coroutine.
     */
    private final class Pool {
        private final ArrayDeque<Worker> idle = new ArrayDeque<>();
        private int live;
        private boolean closed;

        /** A worker assigned {@code co}, or null when every worker allowed is in use. */
        Worker take(Coroutine co) {
            Worker w;
            boolean fresh = false;
            synchronized (this) {
                w = idle.pollFirst();
                if (w == null) {
                    if (live >= MAX_PER_SCRIPT) {
                        return null;
                    }
                    w = new Worker();
                    live++;
                    fresh = true;
                }
                w.task = co;
                w.closing = false;
            }
            if (fresh) {
                try {
                    w.thread.start();
                } catch (RuntimeException | Error e) {
                    synchronized (this) {
                        live--;
                    }
                    throw e;
                }
            } else {
                LockSupport.unpark(w.thread);
            }
            return w;
        }

        /** The worker's next coroutine; null once it has waited too long (its thread then ends). */
        Coroutine next(Worker w) {
            long deadline = System.nanoTime() + KEEP_ALIVE_NANOS;
            while (true) {
                synchronized (this) {
                    if (w.task != null) {
                        return w.task;
                    }
                    if (closed || System.nanoTime() - deadline >= 0) {
                        idle.remove(w);
                        live--;
                        return null;
                    }
                }
                LockSupport.parkNanos(this, deadline - System.nanoTime());
                Thread.interrupted();
            }
        }

        /** Called by a worker whose coroutine has ended, before it hands the baton back. */
        synchronized void release(Worker w) {
            w.task = null;
            idle.addFirst(w);
        }

        synchronized int inUse() {
            return live - idle.size();
        }

        void close() {
            List<Worker> waiting;
            synchronized (this) {
                closed = true;
                waiting = new ArrayList<>(idle);
            }
            waiting.forEach(w -> LockSupport.unpark(w.thread));
        }
    }
}
