package dev.ordo.spring.boot;

import dev.ordo.patterns.queue.Backoff;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.store.Store;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The job queues declared under {@code ordo.queues.<name>}, built at startup, with string
 * payloads. Each one is also a bean named after its entry, for
 * {@code @Qualifier("reminders") DelayedJobQueue<String> queue}. The two kinds share no type, so
 * each has its own getter.
 */
public final class JobQueues {
    private final Map<String, DelayedJobQueue<String>> delayed;
    private final Map<String, PriorityJobQueue<String>> priority;

    private JobQueues(Map<String, DelayedJobQueue<String>> delayed, Map<String, PriorityJobQueue<String>> priority) {
        this.delayed = delayed;
        this.priority = priority;
    }

    /** Builds every declared queue on {@code store}. */
    static JobQueues build(Store store, Map<String, OrdoProperties.QueueSpec> specs) {
        Map<String, DelayedJobQueue<String>> delayed = new TreeMap<>();
        Map<String, PriorityJobQueue<String>> priority = new TreeMap<>();
        specs.forEach((name, spec) -> {
            if (spec.type() == OrdoProperties.QueueType.PRIORITY) {
                priority.put(name, PriorityJobQueue.create(store, name));
            } else {
                DelayedJobQueue.Options options = DelayedJobQueue.Options.defaults()
                        .withVisibilityTimeout(spec.visibilityTimeout()).withMaxAttempts(spec.maxAttempts())
                        .withBackoff(backoff(spec.backoff()));
                delayed.put(name, DelayedJobQueue.create(store, name, options));
            }
        });
        return new JobQueues(delayed, priority);
    }

    private static Backoff backoff(OrdoProperties.BackoffSpec spec) {
        return spec.kind() == OrdoProperties.BackoffKind.FIXED ? Backoff.fixed(spec.delay())
                : Backoff.exponential(spec.delay(), spec.max(), spec.jitter());
    }

    /**
     * The delayed queue declared as {@code name} ({@code type: delayed}, the default).
     *
     * @param name the entry's name under {@code ordo.queues}
     * @return the queue
     * @throws IllegalArgumentException when no delayed queue of that name is declared
     */
    public DelayedJobQueue<String> delayed(String name) {
        return Registries.lookUp(delayed, name, "ordo.queues");
    }

    /**
     * The priority queue declared as {@code name} ({@code type: priority}).
     *
     * @param name the entry's name under {@code ordo.queues}
     * @return the queue
     * @throws IllegalArgumentException when no priority queue of that name is declared
     */
    public PriorityJobQueue<String> priority(String name) {
        return Registries.lookUp(priority, name, "ordo.queues");
    }

    /**
     * The names of the declared queues, of both kinds.
     *
     * @return the names, sorted
     */
    public Set<String> names() {
        Set<String> names = new TreeSet<>(delayed.keySet());
        names.addAll(priority.keySet());
        return names;
    }
}
