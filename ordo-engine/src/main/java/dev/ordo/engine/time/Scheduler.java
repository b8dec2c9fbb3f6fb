package dev.ordo.engine.time;

/** Runs tasks later: blocked-client timeouts and the active expiry cycle. */
public interface Scheduler {
    /** A scheduled task that can be cancelled. */
    interface Task {
        void cancel();
    }

    /** Runs {@code task} once after {@code delayMillis}. */
    Task schedule(Runnable task, long delayMillis);
}
