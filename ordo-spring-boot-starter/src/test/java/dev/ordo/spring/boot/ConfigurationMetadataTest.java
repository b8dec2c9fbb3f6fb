package dev.ordo.spring.boot;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.config.Directive;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata IDEs read: every ordo.* property described as Boot's own are, and
 * the hinted server settings are real directives, described as the engine describes them.
 */
class ConfigurationMetadataTest {
    private static DocumentContext metadata() throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the processor's output").isNotNull();
            return JsonPath.parse(in);
        }
    }

    @Test
    void everyProperty_isListedWithAPlainDescription() throws IOException {
        List<Map<String, Object>> properties = metadata().read("$.properties[*]");
        Map<String, Map<String, Object>> byName = properties.stream()
                .collect(Collectors.toMap(p -> (String) p.get("name"), Function.identity()));
        assertThat(byName).containsKeys("ordo.mode", "ordo.embedded.port", "ordo.embedded.data-dir", "ordo.embedded.config",
                "ordo.leaderboards", "ordo.queues", "ordo.rate-limits");
        assertThat(byName.get("ordo.embedded.port")).containsEntry("defaultValue", 0);
        for (Map<String, Object> property : properties) {
            assertThat((String) property.get("description")).as("%s's description", property.get("name"))
                    .isNotBlank().doesNotContain("{@").endsWith(".");
        }
    }

    @Test
    void serverSettingHints_areEngineDirectivesWithTheirOwnDescriptions() throws IOException {
        List<Map<String, Object>> hints = metadata().read("$.hints[?(@.name == 'ordo.embedded.config.keys')].values[*]");
        Map<String, String> directives = new Config().directives().stream()
                .collect(Collectors.toMap(Directive::name, Directive::description));
        assertThat(hints).hasSizeGreaterThan(5);
        for (Map<String, Object> hint : hints) {
            assertThat(directives).containsEntry((String) hint.get("value"), (String) hint.get("description"));
        }
    }
}
