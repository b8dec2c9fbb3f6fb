package dev.ordo.patterns.metrics;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** A convention for the patterns' observations: implement it (or extend {@link DefaultOrdoObservationConvention}) to rename one or change its keys. */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public interface OrdoObservationConvention extends ObservationConvention<OrdoObservationContext> {
    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof OrdoObservationContext;
    }
}
