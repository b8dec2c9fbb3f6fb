package dev.ordo.spring.boot.jobs;

import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.OrdoProperties;
import dev.ordo.spring.boot.metrics.JobObserver;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;

/**
 * Every queue's workers, started and stopped with the application context, as Spring Kafka's
 * listener registry. Its phase, {@code Integer.MAX_VALUE - 100}, makes it start last and stop
 * first: before the web server's graceful shutdown and long before the Store and the embedded
 * Ordo are destroyed (after every lifecycle has stopped), so the acks of jobs finishing during the
 * stop still reach the store. At most one worker per queue: two would only split its jobs at random.
 */
final class JobWorkerRegistry implements SmartLifecycle {
    /** Stops before Boot's web server ({@code DEFAULT_PHASE - 1024}) and everything of a lower phase. */
    static final int PHASE = Integer.MAX_VALUE - 100;

    private final JobQueues queues;
    private final Map<String, OrdoProperties.QueueSpec> specs;
    private final ThreadFactory threads;
    private final JobObserver observer;
    /** Guarded by this. */
    private final Map<String, QueueWorkers> byQueue = new TreeMap<>();
    private volatile boolean running;

    JobWorkerRegistry(JobQueues queues, Map<String, OrdoProperties.QueueSpec> specs, ThreadFactory threads, JobObserver observer) {
        this.observer = observer;
        this.queues = queues;
        this.specs = specs;
        this.threads = threads;
    }

    /** Checks {@code worker} against its queue's declaration and runs it (now, or when the context starts). */
    synchronized void add(JobWorker worker) {
        String name = worker.queue();
        OrdoProperties.QueueSpec spec = specs.get(name);
        if (spec == null) {
            throw new IllegalStateException(worker.source() + " handles the queue '" + name + "', which is not declared: declare it under ordo.queues."
                    + name + " (ordo.queues." + name + ".concurrency=1 will do) or fix the name. Declared queues: " + specs.keySet());
        }
        if (spec.type() == OrdoProperties.QueueType.PRIORITY) {
            throw new IllegalStateException(worker.source() + " handles ordo.queues." + name + ", a priority queue. Its jobs are taken once, with"
                    + " no ack, so a job whose handler failed or was running at shutdown would be lost. Handlers run on delayed queues"
                    + " (ordo.queues." + name + ".type=delayed, the default), which retry and keep dead letters; take a priority queue's"
                    + " jobs with its worker().take(timeout) instead.");
        }
        QueueWorkers existing = byQueue.get(name);
        if (existing != null) {
            throw new IllegalStateException("ordo.queues." + name + " has two handlers, " + existing.worker().source() + " and " + worker.source()
                    + "; a queue has one (raise ordo.queues." + name + ".concurrency for more threads)");
        }
        check(name, spec);
        QueueWorkers workers = new QueueWorkers(name, queues.delayed(name), spec, worker, threads, observer);
        byQueue.put(name, workers);
        if (running) {
            workers.start();
        }
    }

    private static void check(String name, OrdoProperties.QueueSpec spec) {
        String at = "ordo.queues." + name + ".";
        if (spec.concurrency() < 1) {
            throw new IllegalStateException(at + "concurrency must be at least 1, not " + spec.concurrency());
        }
        if (spec.batch() < 1 || spec.batch() > DelayedJobQueue.MAX_BATCH) {
            throw new IllegalStateException(at + "batch must be 1 to " + DelayedJobQueue.MAX_BATCH + ", not " + spec.batch());
        }
        if (spec.pollWait().toMillis() < 1) {
            throw new IllegalStateException(at + "poll-wait must be at least 1ms, not " + spec.pollWait());
        }
        if (spec.shutdownTimeout().isNegative()) {
            throw new IllegalStateException(at + "shutdown-timeout must not be negative, not " + spec.shutdownTimeout());
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        byQueue.values().forEach(QueueWorkers::start);
    }

    /**
     * Stops every queue's claims at once, then waits for each queue's running handlers up to its
     * {@code shutdown-timeout}, counted from the start of the stop.
     */
    @Override
    public void stop() {
        List<QueueWorkers> all;
        long start = System.nanoTime();
        synchronized (this) {
            all = new ArrayList<>(byQueue.values());
            all.forEach(QueueWorkers::stopClaiming);
            running = false;
        }
        for (QueueWorkers workers : all) {
            Duration timeout = workers.spec().shutdownTimeout();
            workers.awaitStop(start + timeout.toNanos());
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
