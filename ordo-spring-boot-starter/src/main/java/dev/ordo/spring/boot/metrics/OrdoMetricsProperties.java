package dev.ordo.spring.boot.metrics;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Ordo's metrics settings, under {@code ordo.metrics.*}.
 *
 * @param refresh How often the cached gauges (jobs per queue and state, board sizes, the
 *                in-process Ordo's figures) are read again; a scrape reads only the last figures.
 */
@ConfigurationProperties("ordo.metrics")
public record OrdoMetricsProperties(@DefaultValue("5s") Duration refresh) {
    /**
     * Checks the refresh period.
     *
     * @param refresh how often the gauges are read again; at least 1 ms
     */
    public OrdoMetricsProperties {
        if (refresh == null || refresh.toMillis() < 1) {
            throw new IllegalArgumentException("ordo.metrics.refresh must be at least 1ms, such as 5s, not " + refresh);
        }
    }
}
