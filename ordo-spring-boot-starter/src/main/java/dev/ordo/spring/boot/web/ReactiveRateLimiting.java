package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.net.InetSocketAddress;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * What the two WebFilters share: the request's view for key expressions, and the limiting
 * itself through the limiter's asynchronous call, so the event loop never waits for the store.
 * A decision taken at once (embedded mode) goes on on the same thread. One that arrives later
 * (redis mode) completes on Lettuce's event loop, which also reads every reply of the store's
 * shared connection: the chain moves to Reactor's parallel scheduler before the handler runs, so
 * a handler that calls the store and waits cannot wait on the very thread its reply needs.
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
                    CompletionStage<Decision> stage = limit.decideAsync(key);
                    Mono<Decision> decided = stage.toCompletableFuture().isDone() ? Mono.fromCompletionStage(stage)
                            : Mono.fromCompletionStage(stage).publishOn(Schedulers.parallel());
                    return decided.map(decision -> {
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
