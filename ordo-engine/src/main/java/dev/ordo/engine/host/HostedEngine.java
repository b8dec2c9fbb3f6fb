package dev.ordo.engine.host;

import dev.ordo.engine.command.CallContext;
import dev.ordo.engine.command.Command;
import dev.ordo.engine.command.CommandObserver;
import dev.ordo.engine.command.Dispatcher;
import dev.ordo.engine.command.ReplyWriter;
import dev.ordo.engine.command.ServerControl;
import dev.ordo.engine.command.Session;
import dev.ordo.engine.persist.Persistence;
import dev.ordo.engine.script.Functions;
import dev.ordo.engine.script.Scripting;
import dev.ordo.engine.time.Scheduler;

import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;

/**
 * What a network server hosting an engine may do beyond what an embedder may: run commands for
 * its own sessions, take over CLIENT and SHUTDOWN, watch every command (MONITOR), reach the
 * dispatcher, persistence and scripting. Not API: the package is exported to {@code
 * dev.ordo.server} only, so on the module path nothing else can call these.
 *
 * <p>{@link #of} finds the hosted face of a {@code dev.ordo.engine.Engine}; the engine registers
 * itself when it is made. The registry holds engines weakly, so it keeps none alive. (It takes
 * {@code Object} because this package sits below the engine's root package, which may not be
 * imported from here.)
 */
public interface HostedEngine extends CallContext {
    /** How a command ended for its caller. */
    enum Outcome {
        /** The reply has been written. */
        DONE,
        /** The client is blocked; its reply is written later, then {@link Resumer#resume()} is called. */
        BLOCKED
    }

    /** Told when a blocked client has been answered, so the transport can flush and go on. */
    @FunctionalInterface
    interface Resumer {
        /** Called under the engine lock: must not run commands synchronously. */
        void resume();
    }

    /**
     * The hosted face of {@code engine} (a {@code dev.ordo.engine.Engine}); throws if it is not one.
     *
     * @param engine a {@code dev.ordo.engine.Engine}
     * @return its hosted face
     */
    static HostedEngine of(Object engine) {
        HostedEngine hosted = Registry.ENGINES.get(engine);
        if (hosted == null) {
            throw new IllegalArgumentException("not an engine: " + engine);
        }
        return hosted;
    }

    /**
     * Called once by each engine as it is made; refuses a second registration of the same engine.
     *
     * @param engine the engine being made
     * @param hosted its hosted face
     */
    static void register(Object engine, HostedEngine hosted) {
        if (Registry.ENGINES.putIfAbsent(engine, hosted) != null) {
            throw new IllegalStateException("engine already registered");
        }
    }

    /** The command dispatcher: effects, the latency monitor, INFO's figures. */
    @Override
    Dispatcher dispatcher();

    /** Saving, loading and the append-only file. */
    @Override
    Persistence persistence();

    /**
     * The engine's timer.
     *
     * @return the scheduler
     */
    Scheduler scheduler();

    /**
     * The scripts' and functions' runner.
     *
     * @return the scripting runner
     */
    Scripting scripting();

    /**
     * The loaded function libraries.
     *
     * @return the function libraries
     */
    Functions functions();

    /**
     * Adds an observer of every command that runs (MONITOR).
     *
     * @param observer told of each command as it runs
     */
    void addObserver(CommandObserver observer);

    /**
     * Removes an observer added with {@link #addObserver}.
     *
     * @param observer the observer to remove
     */
    void removeObserver(CommandObserver observer);

    /**
     * Lets a network server take over CLIENT, SHUTDOWN and INFO's transport fields. The embedded
     * clients stay registered with the control it replaces, which it must list and kill through.
     *
     * @param server the server's control, taking over from the engine's own
     */
    void setServerControl(ServerControl server);

    /**
     * A new session, as the default user; authenticated from the start when that user is on and has no password.
     *
     * @return the session
     */
    Session newSession();

    /**
     * Runs one command for {@code session}, writing its reply to {@code out}. Returns
     * {@link Outcome#BLOCKED} when the command waits for a key; the reply then comes later.
     *
     * @param session the client running the command
     * @param args the command and its arguments
     * @param out where the reply goes
     * @param resumer told when a blocked command has been answered
     * @return whether the command completed or blocked
     */
    Outcome execute(Session session, byte[][] args, ReplyWriter out, Resumer resumer);

    /**
     * {@link #execute} of a command that follows the caller's previous one at once, on the same
     * thread with nothing in between (the next command of a pipeline read in one go): it may
     * begin at the clock reading that ended the command before it, rather than read the clock
     * again (a clock read is about 4% of a pipelined LPUSH's work on a virtual machine's clock).
     * A pause of the thread between the two (a garbage collection) then counts in this command's
     * duration, as a pause during a command always does.
     *
     * @param session the client running the command
     * @param args the command and its arguments
     * @param out where the reply goes
     * @param resumer told when a blocked command has been answered
     * @return whether the command completed or blocked
     */
    default Outcome executeNext(Session session, byte[][] args, ReplyWriter out, Resumer resumer) {
        return execute(session, args, out, resumer);
    }

    /**
     * What Redis answers while a script is busy, for a transport serving its clients from inside the script's thread.
     *
     * @param session the client sending the command
     * @param args the command and its arguments
     * @param out where the answer goes
     * @param run the script that is running
     */
    void answerWhileBusy(Session session, byte[][] args, ReplyWriter out, Scripting.Run run);

    /**
     * Forgets a closed connection: it is no longer waiting for any key nor watching any.
     *
     * @param session the closed connection's session
     */
    void disconnect(Session session);

    /**
     * The command {@code name} names, or null (for transports that need its flags).
     *
     * @param name the command's name as sent
     * @return the command, or null
     */
    Command lookup(byte[] name);

    /**
     * Runs {@code action} under the engine lock.
     *
     * @param action what to run
     */
    void withLock(Runnable action);

    /**
     * Runs {@code action} under the lock if it is free now; returns whether it ran.
     *
     * @param action what to run
     * @return whether it ran
     */
    boolean tryWithLock(Runnable action);

    /**
     * Whether the calling thread holds the engine lock.
     *
     * @return whether this thread holds it
     */
    boolean holdsLock();

    /**
     * Whether DEBUG PAUSE-CRON stopped the periodic work.
     *
     * @return whether the periodic work is paused
     */
    boolean cronPaused();

    /**
     * Number of clients waiting in a blocking command.
     *
     * @return the number of blocked clients
     */
    int blockedClients();

    /**
     * What a fail-stop does besides refusing every later command (the server exits).
     *
     * @param action called with the reason of the fail-stop
     */
    void onFailStop(Consumer<String> action);

    /**
     * Loads the data kept in {@code dir} and keeps it there from then on (see {@code Engine.startPersistence}).
     *
     * @throws IOException when the data cannot be read or is corrupt
     */
    void startPersistence() throws IOException;

    /** With {@code appendfsync always}, returns once the writes replies acknowledge are on disk. */
    void awaitDurable();

    /** The engines made so far, weakly. */
    final class Registry {
        private static final Map<Object, HostedEngine> ENGINES = Collections.synchronizedMap(new WeakHashMap<>());

        private Registry() {
        }
    }
}
