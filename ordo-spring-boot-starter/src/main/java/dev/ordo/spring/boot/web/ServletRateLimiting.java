package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.server.RequestPath;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Map;
import java.util.function.Function;

/**
 * What the servlet filter and the MVC interceptor share: the request's view for key expressions,
 * and the limiting itself, which blocks the request thread for one store round trip (none in
 * embedded mode) and writes its answer before the handler or the next filter runs.
 */
final class ServletRateLimiting {
    private ServletRateLimiting() {
    }

    /**
     * Takes a permit of {@code limit} for {@code request}, writes the header fields, and on a
     * refusal the status 429 with no body; returns whether the request goes on.
     */
    static boolean limit(WebRateLimit limit, HttpServletRequest request, HttpServletResponse response, Map<String, String> pathVariables) {
        Decision decision = limit.decide(limit.keyOf(view(request, pathVariables)));
        limit.writeFields(decision, response::setHeader);
        if (decision != null && !decision.allowed()) {
            response.setStatus(WebRateLimit.TOO_MANY_REQUESTS);
            return false;
        }
        return true;
    }

    /** The path of {@code request} within the application. */
    static RequestPath path(HttpServletRequest request) {
        return RequestPath.parse(request.getRequestURI(), request.getContextPath());
    }

    private static RateLimitRequest view(HttpServletRequest request, Map<String, String> pathVariables) {
        Principal principal = request.getUserPrincipal();
        return new RateLimitRequest(request.getMethod(), path(request).pathWithinApplication().value(), request.getRemoteAddr(),
                principal == null ? null : principal.getName(), request::getHeader, queryParameter(request.getQueryString()),
                pathVariables);
    }

    /**
     * The query string's parameters, decoded as WebFlux decodes them; never
     * {@code getParameter}, which would read a form body.
     */
    private static Function<String, String> queryParameter(String query) {
        return name -> {
            if (query == null) {
                return null;
            }
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String key = decoded(eq < 0 ? pair : pair.substring(0, eq));
                if (key.equals(name)) {
                    return eq < 0 ? "" : decoded(pair.substring(eq + 1));
                }
            }
            return null;
        };
    }

    /** {@code text} URL-decoded, or as it is when it is not well formed ({@code %zz}): a client's typo is no server error. */
    private static String decoded(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }
}
