package dev.ordo.spring.boot;

import dev.ordo.patterns.ratelimit.RateLimiter;

/**
 * Wraps each rate limiter declared under {@code ordo.rate-limits} as it is built, so what {@link
 * RateLimiters#get} and the bean of the entry's name hand out is the wrapped limiter (the
 * starter's metrics count and observe decisions this way). Beans of this type apply in their
 * {@code @Order}.
 */
@FunctionalInterface
public interface RateLimiterDecorator {
    /**
     * Wraps {@code limiter}.
     *
     * @param name    the entry's name under {@code ordo.rate-limits}
     * @param limiter the limiter as built so far
     * @return the limiter to hand out, deciding as {@code limiter} does
     */
    RateLimiter decorate(String name, RateLimiter limiter);
}
