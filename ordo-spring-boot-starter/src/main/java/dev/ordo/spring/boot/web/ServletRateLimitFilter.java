package dev.ordo.spring.boot.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Map;

/**
 * One entry of {@code ordo.web.rate-limit.filters} as a servlet filter: a request whose method
 * and path match takes a permit before the rest of the chain runs; a refused one ends here with
 * 429. Once per request: forwards, includes, async and error dispatches are not charged again.
 */
final class ServletRateLimitFilter extends OncePerRequestFilter {
    private final UrlRateLimit url;

    ServletRateLimitFilter(UrlRateLimit url) {
        this.url = url;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!url.matches(request.getMethod(), ServletRateLimiting.path(request).pathWithinApplication())
                || ServletRateLimiting.limit(url.limit(), request, response, Map.of())) {
            chain.doFilter(request, response);
        }
    }
}
