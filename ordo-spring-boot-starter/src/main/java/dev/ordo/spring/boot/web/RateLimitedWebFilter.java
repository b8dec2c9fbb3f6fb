package dev.ordo.spring.boot.web;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.Ordered;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;

/**
 * Limits the WebFlux handler methods that carry {@link RateLimited} (or whose class does). A
 * WebFilter does not see the handler, so it asks the {@link RequestMappingHandlerMapping}s, in
 * their order, which handler method the request maps to (one lookup more per request; the
 * annotation is then read once per method and cached). A request no mapping answers, or that
 * one answers with an error (405, 415...), goes on unlimited, for the dispatcher to answer.
 * Runs last among the filters, where the MVC interceptor runs, so every filter sees a refusal.
 * At startup every mapped handler's annotation is checked, so an unknown limiter fails there;
 * when none is annotated, the filter passes every request on with no lookup (a handler method
 * registered later, through {@code registerMapping}, is then not limited).
 */
final class RateLimitedWebFilter implements WebFilter, Ordered, SmartInitializingSingleton {
    private final WebRateLimits limits;
    private final ObjectProvider<RequestMappingHandlerMapping> mappingProvider;
    private volatile List<RequestMappingHandlerMapping> mappings;
    private volatile boolean anyLimited = true;

    RateLimitedWebFilter(WebRateLimits limits, ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.limits = limits;
        this.mappingProvider = mappings;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!anyLimited) {
            return chain.filter(exchange);
        }
        return handlerMethod(exchange)
                .flatMap(handler -> Mono.justOrEmpty(limits.forHandler(handler)))
                .flatMap(limit -> ReactiveRateLimiting.limit(limit, exchange, pathVariables(exchange)))
                .defaultIfEmpty(true)
                .flatMap(goOn -> goOn ? chain.filter(exchange) : exchange.getResponse().setComplete());
    }

    private Mono<HandlerMethod> handlerMethod(ServerWebExchange exchange) {
        return Flux.fromIterable(mappings())
                .concatMap(mapping -> mapping.getHandler(exchange).onErrorResume(error -> Mono.empty()))
                .next()
                .ofType(HandlerMethod.class);
    }

    private List<RequestMappingHandlerMapping> mappings() {
        List<RequestMappingHandlerMapping> known = mappings;
        if (known == null) {
            known = mappingProvider.orderedStream().toList();
            mappings = known;
        }
        return known;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> pathVariables(ServerWebExchange exchange) {
        // The mapping stored the decoded URI template variables of its match as a Map<String, String>.
        Object variables = exchange.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        return variables instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
    }

    @Override
    public void afterSingletonsInstantiated() {
        anyLimited = limits.checkAll(mappings().stream().flatMap(mapping -> mapping.getHandlerMethods().values().stream()));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
