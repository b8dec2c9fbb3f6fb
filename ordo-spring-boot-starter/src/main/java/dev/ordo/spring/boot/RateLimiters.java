package dev.ordo.spring.boot;

import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.store.Store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rate limiters declared under {@code ordo.rate-limits.<name>}, built at startup. Each one is
 * also a bean named after its entry, for {@code @Qualifier("api") RateLimiter limiter}.
 */
public final class RateLimiters {
    private final Map<String, RateLimiter> limiters;
    private final Map<String, List<Limit>> limits;

    private RateLimiters(Map<String, RateLimiter> limiters, Map<String, List<Limit>> limits) {
        this.limiters = limiters;
        this.limits = limits;
    }

    /** Builds every declared limiter on {@code store}; a missing or malformed limit fails startup, naming the property. */
    static RateLimiters build(Store store, Map<String, OrdoProperties.RateLimitSpec> specs) {
        return build(store, specs, List.of());
    }

    /** {@link #build(Store, Map)}, each limiter then wrapped by {@code decorators} in order. */
    static RateLimiters build(Store store, Map<String, OrdoProperties.RateLimitSpec> specs, List<RateLimiterDecorator> decorators) {
        Map<String, RateLimiter> limiters = new TreeMap<>();
        Map<String, List<Limit>> limitsByName = new TreeMap<>();
        specs.forEach((name, spec) -> {
            String property = "ordo.rate-limits." + name + ".limits";
            if (spec.limits().isEmpty()) {
                throw new IllegalArgumentException(property + " is empty: give at least one limit, such as 10/1s");
            }
            List<Limit> limits = new ArrayList<>();
            for (String text : spec.limits()) {
                limits.add(Registries.parseLimit(text, property));
            }
            Limit[] all = limits.toArray(Limit[]::new);
            limitsByName.put(name, List.copyOf(limits));
            limiters.put(name, switch (spec.algorithm()) {
                case SLIDING_WINDOW -> SlidingWindowLimiter.create(store, name, all);
                case SLIDING_LOG -> SlidingLogLimiter.create(store, name, all);
                case TOKEN_BUCKET -> TokenBucketLimiter.create(store, name,
                        limits.stream().map(TokenBucketLimiter.Bucket::of).toArray(TokenBucketLimiter.Bucket[]::new));
            });
        });
        for (RateLimiterDecorator decorator : decorators) {
            limiters.replaceAll(decorator::decorate);
        }
        return new RateLimiters(limiters, limitsByName);
    }

    /**
     * The limiter declared as {@code name}.
     *
     * @param name the entry's name under {@code ordo.rate-limits}
     * @return the limiter
     * @throws IllegalArgumentException when no limiter of that name is declared
     */
    public RateLimiter get(String name) {
        return Registries.lookUp(limiters, name, "ordo.rate-limits");
    }

    /**
     * The limits the limiter declared as {@code name} enforces, in the order they were written
     * (for the RateLimit-Policy header field, say).
     *
     * @param name the entry's name under {@code ordo.rate-limits}
     * @return the limits, at least one
     * @throws IllegalArgumentException when no limiter of that name is declared
     */
    public List<Limit> limits(String name) {
        return Registries.lookUp(limits, name, "ordo.rate-limits");
    }

    /**
     * The names of the declared limiters.
     *
     * @return the names, sorted
     */
    public Set<String> names() {
        return limiters.keySet();
    }
}
