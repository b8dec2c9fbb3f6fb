package dev.ordo.spring.boot;

import dev.ordo.patterns.registry.PatternRegistry;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the application records its declared patterns, under {@code ordo.registry.*}.
 *
 * @param enabled Record the declared leaderboards, queues and rate limiters in the database at startup, so the Ordo Console finds them.
 * @param key     The registry's key (a hash). Give each application sharing one database its own, or give an ACL user's prefix.
 */
@ConfigurationProperties("ordo.registry")
public record OrdoRegistryProperties(@DefaultValue("true") boolean enabled, @DefaultValue(PatternRegistry.KEY) String key) {
}
