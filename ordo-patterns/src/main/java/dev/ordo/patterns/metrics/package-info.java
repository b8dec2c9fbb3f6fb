/**
 * Micrometer meters and observations for the patterns, for applications that opt in (Micrometer
 * is an optional dependency of ordo-patterns, and nothing outside this package refers to it).
 * {@link dev.ordo.patterns.metrics.OrdoMetrics} is the entry point: it decorates rate limiters
 * and boards, binds cached gauges for queues and boards, and times the handling of jobs.
 *
 * <p>Meters: {@code ordo.ratelimiter.requests} (counter: {@code limiter}, {@code algorithm},
 * {@code result}), {@code ordo.queue.jobs} (gauges: {@code queue}, {@code state}),
 * {@code ordo.leaderboard.size} (gauge: {@code board}); observations, each also a timer of the same
 * name where a meter handler listens: see {@link dev.ordo.patterns.metrics.OrdoObservation}.
 * Tags and key values are names the application chose (a limiter's, a board's, a queue's) and
 * fixed words; never a member, a key given to a limiter, a job id or a payload.
 */
package dev.ordo.patterns.metrics;
