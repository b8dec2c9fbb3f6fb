package dev.ordo.spring.boot.jobs;

import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.spring.boot.OrdoProperties;
import dev.ordo.spring.boot.metrics.JobObserver;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * One queue's worker threads ({@code concurrency} of them, named {@code ordo-job-<queue>-<n>}),
 * each with its own {@link DelayedJobQueue.Worker} connection, looping: claim up to {@code batch}
 * jobs (waiting up to {@code poll-wait}), then run the handler on each in turn and ack it, or nack
 * it with the exception as the reason.
 *
 * <p>Stopping never loses a job. Claims stop first; a job whose handler is running finishes and is
 * acked or nacked as usual; the jobs of the batch not yet started are released (ready at once, no
 * attempt charged). A handler still running when {@code shutdown-timeout} has passed is
 * interrupted, and its claim is neither acked nor nacked unless the handler returns: it is left to
 * time out and the job runs again.
 */
final class QueueWorkers {
    private static final Log log = LogFactory.getLog(QueueWorkers.class);

    private final String name;
    private final DelayedJobQueue<String> queue;
    private final OrdoProperties.QueueSpec spec;
    private final JobWorker worker;
    private final ThreadFactory factory;
    /** Told of each claim and each job's handling (Ordo's metrics), or {@link JobObserver#NONE}. */
    private final JobObserver observer;
    /** The threads of the last start; guarded by this. A thread only ever reads the run it was started for. */
    private Run current;

    /**
     * One start's threads and flags. A thread left running by an earlier stop (a handler past the
     * shutdown timeout that ignored its interrupt) keeps reading its own run, which never claims
     * again, so a later start cannot revive it beside the new threads.
     */
    private static final class Run {
        final List<Thread> threads = new ArrayList<>();
        volatile boolean claiming = true;
        /** Set when the shutdown timeout passed: failures are then our interrupt's doing, not the job's, so they are not nacked. */
        volatile boolean abandoned;
    }

    QueueWorkers(String name, DelayedJobQueue<String> queue, OrdoProperties.QueueSpec spec, JobWorker worker, ThreadFactory factory,
                 JobObserver observer) {
        this.observer = observer;
        this.name = name;
        this.queue = queue;
        this.spec = spec;
        this.worker = worker;
        this.factory = factory;
    }

    JobWorker worker() {
        return worker;
    }

    OrdoProperties.QueueSpec spec() {
        return spec;
    }

    synchronized void start() {
        if (current != null && current.claiming) {
            return;
        }
        Run run = new Run();
        for (int n = 1; n <= spec.concurrency(); n++) {
            Thread thread = factory.newThread(() -> run(run));
            thread.setName("ordo-job-" + name + "-" + n);
            run.threads.add(thread);
        }
        current = run;
        run.threads.forEach(Thread::start);
    }

    /** No claim starts after this; a claim already waiting returns within {@code poll-wait}. */
    synchronized void stopClaiming() {
        if (current != null) {
            current.claiming = false;
        }
    }

    /** Waits until {@code deadline} (System.nanoTime) for the threads to end, then interrupts those left. */
    void awaitStop(long deadline) {
        Run run;
        synchronized (this) {
            run = current;
        }
        if (run == null) {
            return;
        }
        List<Thread> running = List.copyOf(run.threads);
        List<Thread> left = new ArrayList<>();
        for (Thread thread : running) {
            try {
                long millis = Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
                if (millis > 0) {
                    thread.join(millis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                left.add(thread);
            }
        }
        if (!left.isEmpty()) {
            run.abandoned = true;
            log.warn(left.size() + " handler(s) of ordo.queues." + name + " still running after shutdown-timeout " + spec.shutdownTimeout()
                    + "; interrupting them. Their jobs are left to time out and will run again.");
            left.forEach(Thread::interrupt);
        }
    }

    private void run(Run run) {
        while (run.claiming) {
            try (DelayedJobQueue<String>.Worker claims = queue.worker()) {
                while (run.claiming) {
                    List<ClaimedJob<String>> jobs = observer.claim(name, () -> claims.claim(spec.batch(), spec.pollWait()));
                    for (int i = 0; i < jobs.size(); i++) {
                        if (!run.claiming) {
                            release(jobs.subList(i, jobs.size()));
                            break;
                        }
                        handle(jobs.get(i), run);
                    }
                }
            } catch (RuntimeException e) {
                if (!run.claiming) {
                    return;
                }
                log.warn("Claiming from ordo.queues." + name + " failed; trying again in " + spec.pollWait(), e);
                try {
                    Thread.sleep(spec.pollWait().toMillis());
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void handle(ClaimedJob<String> job, Run run) {
        JobObserver.Handling handling = observer.start(name);
        Throwable failure = null;
        try {
            handling.call(() -> {
                worker.handler().handle(job);
                return null;
            });
        } catch (Exception | Error e) {
            failure = e;
        }
        try {
            if (failure == null) {
                if (!handling.ack(() -> queue.ack(job))) {
                    log.warn("Job " + job.id() + " of ordo.queues." + name + " finished after its claim ended (its visibility timeout, "
                            + spec.visibilityTimeout() + ", passed); it may run again");
                }
            } else if (run.abandoned) {
                handling.abandon();
                log.warn("Job " + job.id() + " of ordo.queues." + name + " failed after shutdown-timeout; left to time out", failure);
            } else {
                String reason = reason(failure);
                DelayedJobQueue.NackOutcome outcome = handling.nack(() -> queue.nack(job, reason), failure);
                log.warn("Job " + job.id() + " of ordo.queues." + name + " failed on attempt " + job.attempt() + " of " + spec.maxAttempts()
                        + switch (outcome) {
                            case RETRY_SCHEDULED -> "; it will be retried";
                            case DEAD -> "; it is now a dead letter";
                            case NOT_CLAIMED -> "; its claim had already ended (visibility timeout " + spec.visibilityTimeout() + ")";
                        }, failure);
            }
        } catch (RuntimeException e) {
            log.warn("Could not report job " + job.id() + " of ordo.queues." + name + " done or failed; its claim is left to time out", e);
        }
    }

    private void release(List<ClaimedJob<String>> unstarted) {
        try {
            queue.releaseAll(unstarted);
        } catch (RuntimeException e) {
            log.warn("Could not release " + unstarted.size() + " claimed job(s) of ordo.queues." + name + " at shutdown; they are left to time out", e);
        }
    }

    /** The exception's class and message; the queue cuts it to {@link DelayedJobQueue#MAX_REASON}. */
    static String reason(Throwable failure) {
        return failure.getMessage() == null ? failure.getClass().getName() : failure.getClass().getName() + ": " + failure.getMessage();
    }
}
