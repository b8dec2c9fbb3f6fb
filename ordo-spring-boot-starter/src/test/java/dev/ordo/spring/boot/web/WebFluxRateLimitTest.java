package dev.ordo.spring.boot.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The endpoint tests on Spring WebFlux: the WebFilters and the limiter's asynchronous call. */
@TestPropertySource(properties = "spring.main.web-application-type=reactive")
class WebFluxRateLimitTest extends RateLimitedEndpointsTest {
    @Override
    Class<?> contextType() {
        return ReactiveWebServerApplicationContext.class;
    }

    /** Reactor Netty answers a malformed URI with 400 itself, before any filter runs. */
    @Override
    @Test
    void parameterKey_malformedPercentEncoding_countedUnderTheRawTextNotAServerError() throws Exception {
        assertThat(rawGetStatus("/by-param?user=%zz")).isEqualTo(400);
    }
}
