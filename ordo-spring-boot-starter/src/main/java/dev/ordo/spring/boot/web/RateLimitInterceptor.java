package dev.ordo.spring.boot.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

import java.util.Map;

/**
 * Limits the Spring MVC handler methods that carry {@link RateLimited} (or whose class does) in
 * {@code preHandle}: after the handler is chosen, before its arguments are bound or the body
 * read, so a refused request costs no parsing and sees 429 before any 400. An async or error
 * dispatch of an already limited request is not charged again.
 */
final class RateLimitInterceptor implements HandlerInterceptor {
    private final WebRateLimits limits;

    RateLimitInterceptor(WebRateLimits limits) {
        this.limits = limits;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method) || request.getDispatcherType() == DispatcherType.ASYNC
                || request.getDispatcherType() == DispatcherType.ERROR) {
            return true;
        }
        return limits.forHandler(method)
                .map(limit -> ServletRateLimiting.limit(limit, request, response, pathVariables(request)))
                .orElse(true);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> pathVariables(HttpServletRequest request) {
        // Spring MVC stores the decoded URI template variables of the match as a Map<String, String>.
        Object variables = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
    }
}
