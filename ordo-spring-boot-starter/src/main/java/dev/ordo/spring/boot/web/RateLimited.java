package dev.ordo.spring.boot.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits a Spring MVC or WebFlux handler method, or every handler method of a controller, with a
 * rate limiter declared under {@code ordo.rate-limits.<name>}:
 * {@code @RateLimited(value = "api", key = "#request.header('X-Api-Key') ?: #request.remoteAddr")}.
 *
 * <p>Each request takes one permit for its key before the handler runs (before its arguments
 * are bound or its body read). A refused request gets 429 Too Many Requests with Retry-After and
 * the RateLimit and RateLimit-Policy header fields, and the handler is not called. An annotation
 * on the method replaces one on its class. Every use of one limiter, here or in
 * {@code ordo.web.rate-limit.filters}, draws from the same budget per key; different limiters
 * never share one (a limiter's keys in the store start with its name).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RateLimited {
    /**
     * The name of the limiter, an entry under {@code ordo.rate-limits}; an unknown name fails startup.
     *
     * @return the limiter's name
     */
    String value();

    /**
     * A SpEL expression for the key each client is counted under, evaluated against the request
     * as {@code #request} (a {@link RateLimitRequest}, also the root object); {@code @name} reads
     * a bean. A null or empty result is the key {@code ""}, one budget shared by every such request.
     *
     * @return the key expression; the client's address by default
     */
    String key() default "#request.remoteAddr";
}
