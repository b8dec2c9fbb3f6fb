package dev.ordo.spring.boot.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.util.List;
import java.util.Locale;

/**
 * Rate limiting of web requests, under {@code ordo.web.rate-limit.*}: {@link RateLimited}
 * handlers and URL filters, each using a limiter declared under {@code ordo.rate-limits}.
 *
 * @param enabled Whether @RateLimited handlers and the filters limit requests.
 * @param filters Filters that limit the requests whose path matches, before any handler is chosen, each a servlet filter or
 *                WebFilter of its own; an entry has limiter (a name under ordo.rate-limits), patterns (such as /api/**),
 *                methods (all when not set), key (SpEL, default #request.remoteAddr) and order (default -99).
 */
@ConfigurationProperties("ordo.web.rate-limit")
public record WebRateLimitProperties(@DefaultValue("true") boolean enabled, List<Filter> filters) {
    /**
     * Replaces absent filters with none.
     *
     * @param enabled whether the web rate limiting is on
     * @param filters the URL filters, or null for none
     */
    public WebRateLimitProperties {
        filters = filters == null ? List.of() : List.copyOf(filters);
    }

    /**
     * A URL filter.
     *
     * @param limiter  Name of the limiter, an entry under ordo.rate-limits.
     * @param patterns Path patterns of the requests to limit, as Spring's PathPatternParser reads them, such as /api/**.
     * @param methods  HTTP methods to limit, such as GET,POST; all when empty.
     * @param key      SpEL expression for the key each client is counted under, evaluated against #request (remoteAddr, header('name'), parameter('name'), path, method, principalName).
     * @param order    Order of the filter among the application's filters; the default runs it just after Spring Security's, so the principal is known.
     */
    public record Filter(String limiter, List<String> patterns, List<String> methods,
                         @DefaultValue("#request.remoteAddr") String key, @DefaultValue("-99") int order) {
        /**
         * Checks the filter: a limiter, at least one pattern, methods as HTTP method names.
         *
         * @param limiter  the limiter's name under {@code ordo.rate-limits}
         * @param patterns the path patterns, at least one
         * @param methods  the HTTP methods, or null or empty for all; upper-cased
         * @param key      the key expression
         * @param order    the filter's order
         */
        public Filter {
            if (limiter == null || limiter.isBlank()) {
                throw new IllegalArgumentException("limiter is not set: name an entry of ordo.rate-limits");
            }
            if (patterns == null || patterns.isEmpty()) {
                throw new IllegalArgumentException("patterns is empty: give at least one path pattern, such as /api/**");
            }
            patterns = List.copyOf(patterns);
            methods = methods == null ? List.of() : methods.stream().map(m -> m.trim().toUpperCase(Locale.ROOT)).toList();
            for (String method : methods) {
                if (!method.matches("[A-Z]+")) {
                    throw new IllegalArgumentException("methods has '" + method + "', which is not an HTTP method such as GET");
                }
            }
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("key is empty: give a SpEL expression such as #request.remoteAddr");
            }
        }
    }
}
