package dev.ordo.spring.boot.web;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PatternParseException;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code ordo.web.rate-limit.filters}, ready to match: its patterns parsed once by
 * {@link PathPatternParser} (as Spring MVC and WebFlux match handlers), its methods, and its
 * limit. Immutable; the servlet filter and the WebFilter share it.
 */
final class UrlRateLimit {
    private final List<PathPattern> patterns;
    private final List<String> methods;
    private final WebRateLimit limit;
    private final int order;

    private UrlRateLimit(List<PathPattern> patterns, List<String> methods, WebRateLimit limit, int order) {
        this.patterns = patterns;
        this.methods = methods;
        this.limit = limit;
        this.order = order;
    }

    /** Entry {@code index}, {@code filter}; an unknown limiter, bad pattern or bad key fails, naming the entry. */
    static UrlRateLimit of(int index, WebRateLimitProperties.Filter filter, WebRateLimits limits) {
        String where = "ordo.web.rate-limit.filters[" + index + "]";
        List<PathPattern> patterns = new ArrayList<>();
        for (String pattern : filter.patterns()) {
            try {
                patterns.add(PathPatternParser.defaultInstance.parse(pattern));
            } catch (PatternParseException e) {
                throw new IllegalStateException(where + ".patterns has '" + pattern + "', which is not a path pattern: " + e.getMessage(), e);
            }
        }
        return new UrlRateLimit(List.copyOf(patterns), filter.methods(), limits.create(filter.limiter(), filter.key(), where), filter.order());
    }

    /**
     * Whether a request of {@code method} to {@code path} (within the application) is limited
     * here. HEAD counts as GET when GET is listed: Spring serves HEAD with the GET handler, which
     * runs in full.
     */
    boolean matches(String method, PathContainer path) {
        if (!methods.isEmpty() && !methods.contains(method) && !("HEAD".equals(method) && methods.contains("GET"))) {
            return false;
        }
        for (PathPattern pattern : patterns) {
            if (pattern.matches(path)) {
                return true;
            }
        }
        return false;
    }

    /** The limit the matching requests take a permit from. */
    WebRateLimit limit() {
        return limit;
    }

    /** The filter's order. */
    int order() {
        return order;
    }
}
