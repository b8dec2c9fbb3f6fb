package dev.ordo.patterns.metrics;

import io.micrometer.observation.Observation;

/**
 * What one pattern operation's observation knows: which observation it is, the name of the
 * limiter, board or queue, and what the operation turned out to be. The outcome is set just
 * before the observation stops, so conventions see it on stop only.
 */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public final class OrdoObservationContext extends Observation.Context {
    private final OrdoObservation observation;
    private final String target;
    private final String algorithm;
    private final String operation;
    private volatile String outcome;

    OrdoObservationContext(OrdoObservation observation, String target, String algorithm, String operation) {
        this.observation = observation;
        this.target = target;
        this.algorithm = algorithm;
        this.operation = operation;
    }

    /**
     * Which documented observation this is.
     *
     * @return the observation
     */
    public OrdoObservation observation() {
        return observation;
    }

    /**
     * The name of the rate limiter, board or queue observed.
     *
     * @return the name the application gave it
     */
    public String target() {
        return target;
    }

    /**
     * A rate limiter's algorithm ({@code sliding-window}, {@code sliding-log}, {@code token-bucket}, {@code custom}).
     *
     * @return the algorithm, or null for other observations
     */
    public String algorithm() {
        return algorithm;
    }

    /**
     * The board method called ({@code addPoints}, {@code top} ...).
     *
     * @return the operation, or null for other observations
     */
    public String operation() {
        return operation;
    }

    /**
     * How it ended: the limiter's result or the queue operation's outcome ({@link OrdoObservation} lists the words).
     *
     * @return the outcome, or null while running and for board observations
     */
    public String outcome() {
        return outcome;
    }

    void outcome(String outcome) {
        this.outcome = outcome;
    }
}
