package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.spring.boot.RateLimiters;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.AnnotatedElementKey;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.web.method.HandlerMethod;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Makes the {@link WebRateLimit}s of the declared limiters, and finds the one of a handler
 * method from its {@link RateLimited} (on the method, else on its class). Each key expression is
 * parsed once and each handler looked up once: both caches only grow, bounded by the
 * application's expressions and handler methods. The expressions are the developer's, never the
 * client's, so they are evaluated with full SpEL and may read beans ({@code @name}).
 */
final class WebRateLimits {
    private final RateLimiters limiters;
    private final BeanFactoryResolver beans;
    /** Compiles an expression to bytecode once it has run a few times (and interprets again if a compiled one fails): keys are evaluated on every request. */
    private final SpelExpressionParser parser = new SpelExpressionParser(
            new SpelParserConfiguration(SpelCompilerMode.MIXED, WebRateLimits.class.getClassLoader()));
    private final Map<String, Expression> expressions = new ConcurrentHashMap<>();
    private final Map<AnnotatedElementKey, Optional<WebRateLimit>> handlers = new ConcurrentHashMap<>();

    WebRateLimits(RateLimiters limiters, BeanFactory beanFactory) {
        this.limiters = limiters;
        this.beans = new BeanFactoryResolver(beanFactory);
    }

    /**
     * The use of limiter {@code name} with key expression {@code key}; {@code where} names the
     * declaration in the error when the limiter is not declared or the expression does not parse.
     */
    WebRateLimit create(String name, String key, String where) {
        if (name == null || name.isBlank()) {
            throw new IllegalStateException(where + " names no limiter");
        }
        if (!limiters.names().contains(name)) {
            throw new IllegalStateException(where + " names the rate limiter '" + name + "', but no ordo.rate-limits." + name
                    + ".limits is declared; declared: " + limiters.names());
        }
        Expression expression;
        try {
            expression = expressions.computeIfAbsent(key, parser::parseExpression);
        } catch (ParseException e) {
            throw new IllegalStateException(where + " has the key expression '" + key + "', which is not SpEL: " + e.getMessage(), e);
        }
        RateLimiter limiter = limiters.get(name);
        return new WebRateLimit(name, limiter, expression, beans, RateLimitFields.of(name, limiters.limits(name)));
    }

    /** The limit of {@code handler}: its method's {@link RateLimited}, else its class's; empty when neither has one. */
    Optional<WebRateLimit> forHandler(HandlerMethod handler) {
        // A declaration that fails throws out of computeIfAbsent, which then caches nothing.
        return handlers.computeIfAbsent(new AnnotatedElementKey(handler.getMethod(), handler.getBeanType()), id -> find(handler));
    }

    /** Looks up every handler's limit now, so an unknown limiter or bad expression fails startup; returns whether any is limited. */
    boolean checkAll(Stream<HandlerMethod> handlerMethods) {
        return handlerMethods.map(this::forHandler).filter(Optional::isPresent).count() > 0;
    }

    private Optional<WebRateLimit> find(HandlerMethod handler) {
        RateLimited annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RateLimited.class);
        if (annotation == null) {
            annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RateLimited.class);
        }
        if (annotation == null) {
            return Optional.empty();
        }
        String where = "@RateLimited on " + handler.getBeanType().getName() + "." + handler.getMethod().getName();
        return Optional.of(create(annotation.value(), annotation.key(), where));
    }
}
