package dev.ordo.patterns.queue;

/**
 * A job as a queue hands it out.
 *
 * @param id       the queue's own id for it, from a server-side sequence (increasing in offer order)
 * @param priority 0 (most urgent) to {@link PriorityJobQueue#MAX_PRIORITY}
 * @param payload  what the producer offered, decoded by the queue's codec
 * @param <T>      the payload's type
 */
public record Job<T>(long id, int priority, T payload) {
}
