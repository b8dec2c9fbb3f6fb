package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.RateLimiter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.server.MockServerWebExchange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

/** Fail-open when the limiter's store fails, in both stacks, and keys: a request the expression finds nothing in, a bean the expression calls. */
class WebRateLimitTest {
    /** Answers from a script of outcomes: a decision, or null to fail as a store does; records the keys. */
    static final class ScriptedLimiter implements RateLimiter {
        final List<String> keys = new ArrayList<>();
        private final List<Decision> outcomes;

        ScriptedLimiter(Decision... outcomes) {
            this.outcomes = new ArrayList<>(Arrays.asList(outcomes));
        }

        private Decision next(String key) {
            keys.add(key);
            Decision outcome = outcomes.remove(0);
            if (outcome == null) {
                throw new IllegalStateException("connection refused");
            }
            return outcome;
        }

        @Override
        public Decision tryAcquire(String key, long permits) {
            return next(key);
        }

        @Override
        public CompletionStage<Decision> tryAcquireAsync(String key, long permits) {
            try {
                return CompletableFuture.completedFuture(next(key));
            } catch (IllegalStateException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }

    private static final Decision REFUSED = new Decision(false, 0, Duration.ofSeconds(4));

    private static WebRateLimit limit(RateLimiter limiter, String key) {
        return new WebRateLimit("api", limiter, new SpelExpressionParser().parseExpression(key), null,
                RateLimitFields.of("api", List.of(new Limit(2, Duration.ofSeconds(10)))));
    }

    @Test
    void servlet_storeFails_requestGoesOnWithoutFieldsThenIsLimitedAgain() {
        WebRateLimit limit = limit(new ScriptedLimiter(null, REFUSED), "#request.remoteAddr");

        MockHttpServletResponse failed = new MockHttpServletResponse();
        assertThat(ServletRateLimiting.limit(limit, new MockHttpServletRequest("GET", "/x"), failed, Map.of())).isTrue();
        assertThat(failed.getStatus()).isEqualTo(200);
        assertThat(failed.getHeaderNames()).isEmpty();

        MockHttpServletResponse refused = new MockHttpServletResponse();
        assertThat(ServletRateLimiting.limit(limit, new MockHttpServletRequest("GET", "/x"), refused, Map.of())).isFalse();
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).isEqualTo("4");
    }

    @Test
    void reactive_storeFails_requestGoesOnWithoutFieldsThenIsLimitedAgain() {
        WebRateLimit limit = limit(new ScriptedLimiter(null, REFUSED), "#request.remoteAddr");

        MockServerWebExchange failed = MockServerWebExchange.from(MockServerHttpRequest.get("/x"));
        assertThat(ReactiveRateLimiting.limit(limit, failed, Map.of()).block()).isTrue();
        assertThat(failed.getResponse().getStatusCode()).isNull();
        assertThat(failed.getResponse().getHeaders().isEmpty()).isTrue();

        MockServerWebExchange refused = MockServerWebExchange.from(MockServerHttpRequest.get("/x"));
        assertThat(ReactiveRateLimiting.limit(limit, refused, Map.of()).block()).isFalse();
        assertThat(refused.getResponse().getStatusCode().value()).isEqualTo(429);
        assertThat(refused.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("4");
    }

    @Test
    void keyOf_expressionFindsNothing_sharedEmptyKey() {
        ScriptedLimiter limiter = new ScriptedLimiter(new Decision(true, 1, Duration.ZERO), new Decision(true, 0, Duration.ZERO));
        WebRateLimit limit = limit(limiter, "#request.header('X-Api-Key')");

        MockHttpServletRequest withKey = new MockHttpServletRequest("GET", "/x");
        withKey.addHeader("x-api-key", "k1");
        ServletRateLimiting.limit(limit, withKey, new MockHttpServletResponse(), Map.of());
        ServletRateLimiting.limit(limit, new MockHttpServletRequest("GET", "/x"), new MockHttpServletResponse(), Map.of());

        assertThat(limiter.keys).containsExactly("k1", "");
    }

    /** A bean a key expression calls. */
    public static final class Tenants {
        /**
         * The tenant of an API key.
         *
         * @param apiKey the key
         * @return the tenant
         */
        public String of(String apiKey) {
            return "tenant-of-" + apiKey;
        }
    }

    @Test
    void keyOf_beanReference_callsTheBean() {
        ScriptedLimiter limiter = new ScriptedLimiter(new Decision(true, 1, Duration.ZERO));
        StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("tenants", new Tenants()));
        WebRateLimit limit = new WebRateLimit("api", limiter, new SpelExpressionParser().parseExpression("@tenants.of(#request.header('X-Api-Key'))"),
                new BeanFactoryResolver(beans), RateLimitFields.of("api", List.of(new Limit(2, Duration.ofSeconds(10)))));

        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/x").header("X-Api-Key", "k7"));
        assertThat(ReactiveRateLimiting.limit(limit, exchange, Map.of()).block()).isTrue();

        assertThat(limiter.keys).containsExactly("tenant-of-k7");
    }
}
