package dev.ordo.spring.boot;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How the mode is chosen: ordo.mode when set, else redis exactly when spring.data.redis names a server. */
class ModeConditionTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "                                                    | EMBEDDED",
            "spring.data.redis.port=6380                         | EMBEDDED",
            "spring.data.redis.password=x                        | EMBEDDED",
            "spring.data.redis.host=cache.internal               | REDIS",
            "spring.data.redis.url=redis://cache.internal:6379   | REDIS",
            "spring.data.redis.cluster.nodes=n1:7000             | REDIS",
            "spring.data.redis.cluster.nodes[0]=n1:7000          | REDIS",
            "spring.data.redis.sentinel.master=mymaster          | REDIS",
            "spring.data.redis.sentinel.nodes=s1:26379           | REDIS",
            "ordo.mode=embedded,spring.data.redis.host=cache     | EMBEDDED",
            "ordo.mode=redis                                     | REDIS",
            "ordo.mode=EMBEDDED,spring.data.redis.url=redis://x  | EMBEDDED"})
    void activeMode_fromProperties(String properties, OrdoProperties.Mode expected) {
        StandardEnvironment environment = isolated();
        Map<String, Object> values = new HashMap<>();
        if (properties != null) {
            for (String pair : properties.split(",")) {
                values.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        }
        environment.getPropertySources().addFirst(new MapPropertySource("test", values));
        assertThat(ModeCondition.activeMode(environment)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"SPRING_DATA_REDIS_HOST, REDIS", "SPRING_DATA_REDIS_URL, REDIS", "SPRING_DATA_REDIS_PORT, EMBEDDED"})
    void activeMode_fromEnvironmentVariables(String variable, OrdoProperties.Mode expected) {
        StandardEnvironment environment = isolated();
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("env", Map.of(variable, "redis://cache:6379")));
        assertThat(ModeCondition.activeMode(environment)).isEqualTo(expected);
    }

    /** An environment without the machine's own variables and system properties. */
    private static StandardEnvironment isolated() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        return environment;
    }
}
