package dev.ordo.spring.boot.web;

import dev.ordo.spring.boot.OrdoEmbeddedAutoConfiguration;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/** Mistakes in the declarations fail startup with a message that names them; the switch turns it all off. */
class RateLimitStartupTest {
    private static final String[] LIMITS = {"ordo.rate-limits.api.limits=2/10s"};

    private final WebApplicationContextRunner mvc = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, WebMvcAutoConfiguration.class, OrdoWebMvcRateLimitAutoConfiguration.class))
            .withPropertyValues(LIMITS);

    private final ReactiveWebApplicationContextRunner webFlux = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class, WebFluxAutoConfiguration.class, OrdoWebFluxRateLimitAutoConfiguration.class))
            .withPropertyValues(LIMITS);

    @RestController
    static class UnknownLimiter {
        @GetMapping("/x")
        @RateLimited("nope")
        String x() {
            return "x";
        }
    }

    private static final String UNKNOWN = "@RateLimited on " + UnknownLimiter.class.getName()
            + ".x names the rate limiter 'nope', but no ordo.rate-limits.nope.limits is declared; declared: [api]";

    /** The exception at the bottom of the chain: the one the starter threw. */
    private static Throwable cause(Throwable failure) {
        return NestedExceptionUtils.getMostSpecificCause(failure);
    }

    @Test
    void mvc_unknownLimiter_failsStartupNamingTheMethod() {
        mvc.withUserConfiguration(UnknownLimiter.class).run(context ->
                assertThat(cause(context.getStartupFailure())).hasMessage(UNKNOWN));
    }

    @Test
    void webFlux_unknownLimiter_failsStartupNamingTheMethod() {
        webFlux.withUserConfiguration(UnknownLimiter.class).run(context ->
                assertThat(cause(context.getStartupFailure())).hasMessage(UNKNOWN));
    }

    @Test
    void urlFilter_unknownLimiter_failsStartupNamingTheEntry() {
        mvc.withPropertyValues("ordo.web.rate-limit.filters[0].limiter=api", "ordo.web.rate-limit.filters[0].patterns=/a/**",
                        "ordo.web.rate-limit.filters[1].limiter=nope", "ordo.web.rate-limit.filters[1].patterns=/b/**")
                .run(context -> assertThat(cause(context.getStartupFailure())).hasMessageStartingWith(
                        "ordo.web.rate-limit.filters[1] names the rate limiter 'nope'"));
    }

    @Test
    void enabledFalse_noRateLimiting() {
        mvc.withUserConfiguration(UnknownLimiter.class).withPropertyValues("ordo.web.rate-limit.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(WebRateLimits.class));
    }
}
