package dev.ordo.spring.boot.jobs;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that handles the jobs of a delayed queue declared under
 * {@code ordo.queues.<name>}, as {@code @KafkaListener} marks a listener. The method takes one
 * parameter: the payload ({@code String}) or the whole {@code ClaimedJob<String>} (id, attempt,
 * due time). Returning acks the job; throwing nacks it with the exception's class name and
 * message as the reason, so it is retried after the queue's backoff and becomes a dead letter
 * once its attempts run out. Delivery is at least once: a handler may see a job again (after a
 * crash, or when it ran past the visibility timeout), so it should be idempotent.
 *
 * <p>Threads, batch size and shutdown come from {@code ordo.queues.<name>.concurrency},
 * {@code batch}, {@code poll-wait} and {@code shutdown-timeout}. The application fails to start
 * when the queue is not declared, is a priority queue (taken once, with nothing to retry a
 * failure), already has a handler, or the method takes other parameters. Usable as a
 * meta-annotation.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface JobHandler {
    /**
     * The queue's name under {@code ordo.queues}; {@code ${...}} placeholders are resolved.
     *
     * @return the queue's name
     */
    String value();
}
