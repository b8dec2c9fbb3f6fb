package dev.ordo.spring.boot.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

import java.net.InetSocketAddress;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;

/**
 * What the two WebFilters share: the request's view for key expressions, and the limiting
 * itself through the limiter's asynchronous call, so the event loop never waits for the store.
 * The chain goes on on the thread that completed the decision (the caller's in embedded mode,
 * Lettuce's event loop in redis mode), as with any reactive Redis call.
 */
final class ReactiveRateLimiting {
    private ReactiveRateLimiting() {
    }

    /**
     * Takes a permit of {@code limit} for the exchange's request and writes the header fields,
     * and on a refusal the status 429; emits whether the request goes on.
     */
    static Mono<Boolean> limit(WebRateLimit limit, ServerWebExchange exchange, Map<String, String> pathVariables) {
        return exchange.getPrincipal().map(Principal::getName).map(Optional::of).defaultIfEmpty(Optional.empty())
                .flatMap(principal -> {
                    String key = limit.keyOf(view(exchange.getRequest(), principal.orElse(null), pathVariables));
                    // A null decision (the store failed: fail-open) completes empty.
                    return Mono.fromCompletionStage(limit.decideAsync(key)).map(decision -> {
                        limit.writeFields(decision, exchange.getResponse().getHeaders()::set);
                        if (decision.allowed()) {
                            return true;
                        }
                        exchange.getResponse().setStatusCode(HttpStatus.TOO_MANY_REQUESTS);
                        return false;
                    });
                })
                .defaultIfEmpty(true);
    }

    private static RateLimitRequest view(ServerHttpRequest request, String principalName, Map<String, String> pathVariables) {
        InetSocketAddress remote = request.getRemoteAddress();
        String remoteAddr = remote == null ? null : remote.getAddress() != null ? remote.getAddress().getHostAddress() : remote.getHostString();
        return new RateLimitRequest(request.getMethod().name(), request.getPath().pathWithinApplication().value(), remoteAddr,
                principalName, request.getHeaders()::getFirst, request.getQueryParams()::getFirst, pathVariables);
    }
}
