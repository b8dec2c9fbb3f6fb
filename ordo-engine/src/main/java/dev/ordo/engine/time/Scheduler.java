package dev.ordo.engine.time;

/** Runs tasks later: blocked-client timeouts and the active expiry cycle. */
public interface Scheduler {
    /** A scheduled task that can be cancelled. */
    interface Task {
        /**
         * Cancels the task if it has not run yet; does nothing otherwise.
         */
        void cancel();
    }

    /**
     * Runs {@code task} once after {@code delayMillis}.
     *
     * @param task        what to run
     * @param delayMillis how long to wait first, in milliseconds
     * @return a handle that cancels it
     */
    Task schedule(Runnable task, long delayMillis);
}
