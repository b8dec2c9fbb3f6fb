package dev.ordo.spring.boot.web;

import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.util.Map;

/**
 * One entry of {@code ordo.web.rate-limit.filters} as a WebFilter: a request whose method and
 * path match takes a permit, without blocking, before the rest of the chain runs; a refused one
 * ends here with 429.
 */
final class UrlRateLimitWebFilter implements WebFilter, Ordered {
    private final UrlRateLimit url;

    UrlRateLimitWebFilter(UrlRateLimit url) {
        this.url = url;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        if (!url.matches(request.getMethod().name(), request.getPath().pathWithinApplication())) {
            return chain.filter(exchange);
        }
        return ReactiveRateLimiting.limit(url.limit(), exchange, Map.of())
                .flatMap(goOn -> goOn ? chain.filter(exchange) : exchange.getResponse().setComplete());
    }

    @Override
    public int getOrder() {
        return url.order();
    }
}
