package dev.ordo.patterns.metrics;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The default convention of one {@link OrdoObservation}: its {@linkplain
 * OrdoObservation#defaultName() default name} and its documented low-cardinality keys, each
 * with a value once the context has one (an outcome only on stop). Extend it and override
 * {@link #getName()} to rename an observation while keeping its keys.
 */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public class DefaultOrdoObservationConvention implements OrdoObservationConvention {
    private final OrdoObservation observation;

    /**
     * The convention of {@code observation}.
     *
     * @param observation the observation this convention names
     */
    public DefaultOrdoObservationConvention(OrdoObservation observation) {
        this.observation = Objects.requireNonNull(observation, "observation");
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof OrdoObservationContext c && c.observation() == observation;
    }

    @Override
    public String getName() {
        return observation.defaultName();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(OrdoObservationContext context) {
        List<KeyValue> values = new ArrayList<>(3);
        for (KeyName key : observation.getLowCardinalityKeyNames()) {
            String value = switch ((OrdoObservation.Key) key) {
                case LIMITER, BOARD, QUEUE -> context.target();
                case ALGORITHM -> context.algorithm();
                case OPERATION -> context.operation();
                case RESULT, OUTCOME -> context.outcome();
            };
            if (value != null) {
                values.add(KeyValue.of(key.asString(), value));
            }
        }
        return KeyValues.of(values);
    }
}
