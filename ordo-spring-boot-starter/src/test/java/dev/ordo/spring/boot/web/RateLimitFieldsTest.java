package dev.ordo.spring.boot.web;

import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The header fields' syntax for the cases the endpoint tests do not reach. */
class RateLimitFieldsTest {
    @Test
    void of_severalLimits_oneMemberEachNamedByItsWindow() {
        RateLimitFields fields = RateLimitFields.of("api", List.of(new Limit(10, Duration.ofSeconds(1)),
                new Limit(1000, Duration.ofHours(1)), new Limit(5, Duration.ofMillis(500)), new Limit(50, Duration.ofMinutes(10))));

        assertThat(fields.policy()).isEqualTo("\"api-1s\";q=10;w=1, \"api-1h\";q=1000;w=3600, \"api-500ms\";q=5, \"api-10m\";q=50;w=600");
        assertThat(fields.rateLimit(new Decision(true, 3, Duration.ZERO))).as("no limit named: the policy with the fewest permits")
                .isEqualTo("\"api-500ms\";r=3");
        assertThat(fields.rateLimit(new Decision(true, 7, Duration.ZERO, 1))).as("the limit the decision names").isEqualTo("\"api-1h\";r=7");
        assertThat(fields.rateLimit(new Decision(false, 0, Duration.ofSeconds(3000), 1))).as("refused by the hourly limit")
                .isEqualTo("\"api-1h\";r=0;t=3000");
    }

    @Test
    void of_windowWrittenTwice_laterLimitNamedByIndex() {
        RateLimitFields fields = RateLimitFields.of("api", List.of(new Limit(10, Duration.ofSeconds(1)), new Limit(5, Duration.ofSeconds(1))));

        assertThat(fields.policy()).isEqualTo("\"api-1s\";q=10;w=1, \"api-1\";q=5;w=1");
        assertThat(fields.rateLimit(new Decision(true, 0, Duration.ZERO))).isEqualTo("\"api-1\";r=0");
    }

    @Test
    void rateLimit_refusal_tIsRetryAfterRoundedUpToWholeSecondsAtLeastOne() {
        RateLimitFields fields = RateLimitFields.of("api", List.of(new Limit(2, Duration.ofSeconds(10))));

        assertThat(fields.rateLimit(new Decision(false, 0, Duration.ofMillis(1001)))).isEqualTo("\"api-10s\";r=0;t=2");
        assertThat(RateLimitFields.retryAfterSeconds(new Decision(false, 0, Duration.ofSeconds(3)))).isEqualTo(3);
        assertThat(RateLimitFields.retryAfterSeconds(new Decision(false, 0, Duration.ofNanos(1000)))).isEqualTo(1);
        assertThat(RateLimitFields.retryAfterSeconds(new Decision(false, 0, Duration.ZERO))).isEqualTo(1);
    }

    @Test
    void of_nameOutsideTheStringSyntax_escapedOrReplaced() {
        RateLimitFields fields = RateLimitFields.of("a\"b\\c\u00e9", List.of(new Limit(2, Duration.ofSeconds(10))));

        assertThat(fields.policy()).isEqualTo("\"a\\\"b\\\\c_-10s\";q=2;w=10");
    }
}
