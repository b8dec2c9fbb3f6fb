package dev.ordo.patterns.metrics;

import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.RateLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.observation.Observation;

import java.util.concurrent.CompletionStage;

/**
 * A rate limiter that counts its decisions ({@code ordo.ratelimiter.requests}, by result) and
 * observes each one ({@link OrdoObservation#RATE_LIMITER_ACQUIRE}), then answers exactly as the
 * limiter it wraps: same decisions, same exceptions, the async stage failing as the wrapped one
 * does. The key given to the limiter is never a tag.
 */
final class ObservedRateLimiter implements RateLimiter {
    private final RateLimiter limiter;
    private final OrdoMetrics metrics;
    private final String name;
    private final String algorithm;
    private final Counter allowed;
    private final Counter refused;

    ObservedRateLimiter(RateLimiter limiter, OrdoMetrics metrics, String name, String algorithm, Counter allowed, Counter refused) {
        this.limiter = limiter;
        this.metrics = metrics;
        this.name = name;
        this.algorithm = algorithm;
        this.allowed = allowed;
        this.refused = refused;
    }

    @Override
    public Decision tryAcquire(String key, long permits) {
        OrdoObservationContext context = new OrdoObservationContext(OrdoObservation.RATE_LIMITER_ACQUIRE, name, algorithm, null);
        Observation observation = metrics.observation(context).start();
        Observation.Scope scope = observation.openScope();
        try {
            Decision decision = limiter.tryAcquire(key, permits);
            count(decision, context);
            return decision;
        } catch (RuntimeException | Error e) {
            context.outcome("error");
            observation.error(e);
            throw e;
        } finally {
            scope.close();
            observation.stop();
        }
    }

    @Override
    public CompletionStage<Decision> tryAcquireAsync(String key, long permits) {
        OrdoObservationContext context = new OrdoObservationContext(OrdoObservation.RATE_LIMITER_ACQUIRE, name, algorithm, null);
        return OrdoMetrics.observeStage(metrics.observation(context), () -> limiter.tryAcquireAsync(key, permits), (decision, failure) -> {
            if (failure == null) {
                count(decision, context);
            } else {
                context.outcome("error");
            }
        });
    }

    private void count(Decision decision, OrdoObservationContext context) {
        (decision.allowed() ? allowed : refused).increment();
        context.outcome(decision.allowed() ? "allowed" : "refused");
    }

    @Override
    public String toString() {
        return "observed " + limiter;
    }
}
