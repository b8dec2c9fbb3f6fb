package dev.ordo.patterns.queue;

import java.time.Instant;

/**
 * A job a worker has claimed; it stays claimed until acked, nacked, released, or its visibility
 * timeout passes. The claim token fences stale workers: ack, nack and release count only for the
 * latest claim (tokens only grow, whatever happens to the job: reclaims, replacement, retries of
 * dead letters).
 *
 * @param id        the job's id
 * @param payload   what was scheduled, decoded by the queue's codec
 * @param priority  0 (most urgent) to {@link PriorityJobQueue#MAX_PRIORITY}
 * @param attempt   1 on the first claim, then one more per claim
 * @param dueAt     when the job fell due
 * @param claimedAt  when it was claimed, on the server's clock
 * @param claimToken this claim's token
 * @param <T>        the payload's type
 */
public record ClaimedJob<T>(String id, T payload, int priority, int attempt, Instant dueAt, Instant claimedAt, long claimToken) {
}
