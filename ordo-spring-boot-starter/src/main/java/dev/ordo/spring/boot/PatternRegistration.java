package dev.ordo.spring.boot;

import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes every declared leaderboard, queue and rate limiter to the {@link PatternRegistry} once the
 * application's beans are built, so the Ordo Console (mounted here, standalone or in the Ordo
 * server) finds them and opens them with the same settings. One HSET; every instance of the
 * application writes the same fields. A database that refuses it (an ACL user without the
 * registry's key) costs a warning, never the application's startup.
 */
public final class PatternRegistration implements SmartInitializingSingleton {
    private static final Logger LOG = LoggerFactory.getLogger(PatternRegistration.class);

    private final Store store;
    private final String key;
    private final OrdoProperties properties;

    PatternRegistration(Store store, String key, OrdoProperties properties) {
        this.store = store;
        this.key = key;
        this.properties = properties;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<PatternInfo> patterns = infos(properties);
        try {
            PatternRegistry.on(store, key).register(patterns);
        } catch (RuntimeException e) {
            LOG.warn("Ordo could not record its {} declared patterns in {} (the console will not list them): {}", patterns.size(), key, e.getMessage());
        }
    }

    /**
     * The registry's view of every declared pattern, settings under the properties' own names and values.
     *
     * @param properties {@code ordo.*}
     * @return the declared patterns
     */
    public static List<PatternInfo> infos(OrdoProperties properties) {
        List<PatternInfo> out = new ArrayList<>();
        properties.leaderboards().forEach((name, spec) -> {
            Map<String, String> s = new LinkedHashMap<>();
            s.put("order", id(spec.order()));
            s.put("tie-rule", id(spec.tieRule()));
            s.put("metadata", Boolean.toString(spec.metadata()));
            if (!spec.period().isEmpty()) {
                s.put("period", spec.period().stream().map(PatternRegistration::id).collect(Collectors.joining(",")));
                s.put("zone", spec.zone().getId());
                s.put("retention", spec.retention().toString());
            }
            s.put("shards", Integer.toString(spec.shards()));
            out.add(new PatternInfo(PatternInfo.Kind.LEADERBOARD, name, s));
        });
        properties.queues().forEach((name, spec) -> {
            if (spec.type() == OrdoProperties.QueueType.PRIORITY) {
                out.add(new PatternInfo(PatternInfo.Kind.PRIORITY_QUEUE, name, Map.of()));
            } else {
                out.add(new PatternInfo(PatternInfo.Kind.DELAYED_QUEUE, name, Map.of(
                        "visibility-timeout", spec.visibilityTimeout().toString(), "max-attempts", Integer.toString(spec.maxAttempts()))));
            }
        });
        properties.rateLimits().forEach((name, spec) -> {
            List<String> limits = new ArrayList<>();
            for (String text : spec.limits()) {
                Limit limit = Registries.parseLimit(text, "ordo.rate-limits." + name + ".limits");
                limits.add(limit.permits() + "/" + limit.window());
            }
            out.add(new PatternInfo(PatternInfo.Kind.RATE_LIMITER, name, Map.of("algorithm", id(spec.algorithm()), "limits", String.join(",", limits))));
        });
        return out;
    }

    /** An enum constant as the properties spell it: {@code MEMBER_ORDER} is {@code member-order}. */
    private static String id(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
