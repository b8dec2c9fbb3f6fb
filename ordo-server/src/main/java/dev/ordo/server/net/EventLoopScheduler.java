package dev.ordo.server.net;

import dev.ordo.engine.time.Scheduler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The engine's timers (blocking timeouts, active expiry) on a Netty event loop: with one I/O
 * thread they run on the thread that also runs every command. Tasks scheduled after the loop
 * has shut down are dropped.
 */
public final class EventLoopScheduler implements Scheduler {
    private static final Task NOTHING = () -> {
    };

    private final EventLoop loop;

    public EventLoopScheduler(EventLoop loop) {
        this.loop = loop;
    }

    @Override
    public Task schedule(Runnable task, long delayMillis) {
        if (loop.isShuttingDown()) {
            return NOTHING;
        }
        try {
            ScheduledFuture<?> future = loop.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
            return () -> future.cancel(false);
        } catch (RejectedExecutionException e) {
            return NOTHING;
        }
    }
}
