package dev.ordo.server.net;

import dev.ordo.engine.script.Scripting;

/**
 * Serves the other clients of an io_uring event loop while a script runs on it past {@code
 * busy-reply-threshold}, as Redis processes events from inside a busy script. About every
 * millisecond the script's instruction hook answers the commands that other clients had waiting
 * for their task of the loop ({@link Connection#runDeferred}), sends the replies of the turn so
 * far and runs a round of the loop's I/O ({@link Transport#runIoNow}). What arrives goes through
 * each channel's pipeline as usual, and {@link Connection} answers it as Redis does beside a busy
 * script ({@code Engine.answerWhileBusy}). New clients are accepted and served the same way. The
 * script's own client is not read until the script ends: what it sends waits in its socket.
 *
 * <p>Only for a script that a client's deferred command runs, on the loop's own thread: that is
 * outside the loop's handling of completions, where running the loop's I/O again is safe. Not for
 * a library that FUNCTION LOAD runs (its caller is in the middle of a completion). A script busy
 * inside a coroutine is served the same: the coroutine's thread hands each poll to the loop's
 * thread, which waits for it in resume ({@code Coroutines}).
 */
final class BusyPump implements Scripting.BusyHandler {
    private final RespServer server;
    private final Transport transport;
    /** The client whose busy script stopped its reading, until the script ends. */
    private Connection paused;

    BusyPump(RespServer server, Transport transport) {
        this.server = server;
        this.transport = transport;
    }

    @Override
    public void poll(Scripting.Run run) {
        Connection caller = server.connection(run.caller());
        if (Thread.currentThread() != run.thread() || caller == null || !caller.runsScriptTask(run)) {
            return;
        }
        if (paused == null) {
            paused = caller;
            caller.readWhileBusy(false);
        }
        try {
            for (Connection c : server.connectionList()) {
                if (c != caller && c.hasDeferred() && c.onThisLoop()) {
                    c.runDeferred();
                }
            }
            server.flushTurn();
            transport.runIoNow();
            // The replies to what that round read leave with the next round.
            server.flushTurn();
            transport.runIoNow();
        } catch (RuntimeException e) {
            server.log().warning("Serving clients during a busy script failed: " + e);
        }
    }

    @Override
    public void ended(Scripting.Run run) {
        if (paused != null) {
            paused.readWhileBusy(true);
            paused = null;
        }
    }
}
