package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.RateLimiter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.expression.MethodResolver;
import org.springframework.expression.PropertyAccessor;
import org.springframework.expression.spel.support.ReflectiveMethodResolver;
import org.springframework.expression.spel.support.ReflectivePropertyAccessor;
import org.springframework.expression.spel.support.StandardEvaluationContext;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * One use of a declared limiter by web requests (a {@code @RateLimited} handler or a URL filter):
 * the limiter, the parsed key expression, and the header fields it answers with. Immutable but
 * for the failure flag, and shared by every request thread.
 *
 * <p><b>Fail-open.</b> When the limiter's store fails (an exception, or a failed stage), the
 * request goes on as if allowed, with no RateLimit fields: a store outage must not become an
 * outage of every limited endpoint, and a limiter protects capacity, which a short unlimited spell
 * rarely exhausts. The first failure after a success is logged at WARN with its cause, the
 * following ones at DEBUG, and the recovery at INFO, so an outage does not flood the log. A key
 * expression that fails is not a store failure: it is the application's bug and fails the request.
 */
final class WebRateLimit {
    private static final Log log = LogFactory.getLog(WebRateLimit.class);

    /**
     * The accessors every evaluation shares. A new evaluation context would otherwise make its
     * own, whose caches start empty, so each request looked its getters up by reflection again
     * (about 17 us a key). SpEL does not compile every expression: an Elvis whose right side has
     * never run (the usual {@code #request.principalName ?: #request.header('X-User')} when users
     * sign in) stays interpreted. Both are thread-safe, with concurrent caches.
     */
    private static final List<PropertyAccessor> PROPERTY_ACCESSORS = List.of(new ReflectivePropertyAccessor());
    private static final List<MethodResolver> METHOD_RESOLVERS = List.of(new ReflectiveMethodResolver());

    /** The status of a refusal, Too Many Requests. */
    static final int TOO_MANY_REQUESTS = 429;

    private final String name;
    private final RateLimiter limiter;
    private final Expression key;
    private final BeanResolver beans;
    private final RateLimitFields fields;
    private volatile boolean failing;

    WebRateLimit(String name, RateLimiter limiter, Expression key, BeanResolver beans, RateLimitFields fields) {
        this.name = name;
        this.limiter = limiter;
        this.key = key;
        this.beans = beans;
        this.fields = fields;
    }

    /** The limiter's name under {@code ordo.rate-limits}. */
    String name() {
        return name;
    }

    /** The key {@code request} is counted under: the expression's value as text, "" for null. */
    String keyOf(RateLimitRequest request) {
        StandardEvaluationContext context = new StandardEvaluationContext(request);
        context.setVariable("request", request);
        context.setBeanResolver(beans);
        context.setPropertyAccessors(PROPERTY_ACCESSORS);
        context.setMethodResolvers(METHOD_RESOLVERS);
        Object value = key.getValue(context);
        return value == null ? "" : value.toString();
    }

    /** Takes a permit for {@code key}, blocking; null when the store failed (fail-open). */
    Decision decide(String key) {
        try {
            return succeeded(limiter.tryAcquire(key));
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /** Takes a permit for {@code key} without blocking; the stage completes with null when the store failed (fail-open). */
    CompletionStage<Decision> decideAsync(String key) {
        CompletionStage<Decision> stage;
        try {
            stage = limiter.tryAcquireAsync(key);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(e));
        }
        return stage.handle((decision, error) -> error == null ? succeeded(decision) : failed(error));
    }

    /**
     * Writes the header fields of {@code decision} through {@code header}: the policy and the
     * current state always, Retry-After on a refusal; nothing for null (the store failed).
     */
    void writeFields(Decision decision, BiConsumer<String, String> header) {
        if (decision == null) {
            return;
        }
        header.accept(RateLimitFields.POLICY, fields.policy());
        header.accept(RateLimitFields.RATE_LIMIT, fields.rateLimit(decision));
        if (!decision.allowed()) {
            header.accept(RateLimitFields.RETRY_AFTER, Long.toString(RateLimitFields.retryAfterSeconds(decision)));
        }
    }

    private Decision succeeded(Decision decision) {
        if (failing) {
            failing = false;
            log.info("Rate limiter '" + name + "' answers again; requests are limited again");
        }
        return decision;
    }

    private Decision failed(Throwable error) {
        if (!failing) {
            failing = true;
            log.warn("Rate limiter '" + name + "' failed; requests go on unlimited until it answers again (fail-open)", error);
        } else if (log.isDebugEnabled()) {
            log.debug("Rate limiter '" + name + "' failed again; request not limited", error);
        }
        return null;
    }
}
