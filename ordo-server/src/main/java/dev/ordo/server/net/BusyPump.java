package dev.ordo.server.net;

import dev.ordo.engine.script.Scripting;

/**
 * Serves the other clients of an io_uring event loop while a script runs on it past {@code
 * busy-reply-threshold}: about every millisecond the script's instruction hook sends the
 * replies of the turn so far and runs one round of the loop's I/O ({@link Transport#runIoNow}).
 * What arrives goes through each channel's pipeline as usual, and {@link Connection} answers it
 * as Redis does beside a busy script ({@code Engine.answerWhileBusy}); the script's own client
 * queues its input until the script ends. New clients are accepted and served the same way.
 *
 * <p>Only on the loop's own thread: a script busy inside a coroutine (LuaJ runs each on a thread
 * of its own) holds the loop's other clients until it returns to its main function. With
 * {@code io-transport nio}, {@link BusyTakeover} serves them from any thread.
 */
final class BusyPump implements Scripting.BusyHandler {
    private final RespServer server;
    private final Transport transport;

    BusyPump(RespServer server, Transport transport) {
        this.server = server;
        this.transport = transport;
    }

    @Override
    public void poll(Scripting.Run run) {
        if (Thread.currentThread() != run.thread() || !server.isEventLoop(run.thread())) {
            return;
        }
        server.flushTurn();
        transport.runIoNow();
        // The replies to what that round read leave with the next one (a millisecond later at most).
        server.flushTurn();
        transport.runIoNow();
    }

    @Override
    public void ended(Scripting.Run run) {
        // Nothing was taken from Netty: the loop goes on as before.
    }
}
