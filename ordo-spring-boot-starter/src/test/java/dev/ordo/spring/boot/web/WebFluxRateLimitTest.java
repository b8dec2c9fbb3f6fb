package dev.ordo.spring.boot.web;

import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.TestPropertySource;

/** The endpoint tests on Spring WebFlux: the WebFilters and the limiter's asynchronous call. */
@TestPropertySource(properties = "spring.main.web-application-type=reactive")
class WebFluxRateLimitTest extends RateLimitedEndpointsTest {
    @Override
    Class<?> contextType() {
        return ReactiveWebServerApplicationContext.class;
    }
}
