package dev.ordo.patterns.metrics;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardObserver;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Meters and observations for the patterns, on a {@link MeterRegistry} and an {@link
 * ObservationRegistry} the application gives. Three kinds of instrument:
 * <ul>
 *   <li>decorators, {@link #instrument(String, RateLimiter)} and {@link #instrument(String, Board)}:
 *       the same interface, counting and observing every call; a plain, periodic or sharded board
 *       keeps its own type ({@link #instrument(String, Leaderboard)} ...), observing itself;</li>
 *   <li>cached gauges, {@code gauge(...)}: {@code ordo.queue.jobs} and {@code ordo.leaderboard.size}
 *       read the store on this object's refresh thread every {@code refresh} (and on {@link
 *       #refresh()}), never when a registry is scraped; NaN until the first read and after a read
 *       that failed; figures of the application's own kept for meters share that thread through
 *       {@link #addRefreshTask(Runnable)};</li>
 *   <li>job handling, {@link #claim} and {@link #startJob}, for the code that runs a queue's jobs.</li>
 * </ul>
 *
 * <p>Timers are made from observations, never beside them: where a meter handler listens on the
 * observation registry, each observation is a timer of its name. {@link #create(MeterRegistry)}
 * makes such a registry; an application with its own (Spring Boot's has the handler when metrics
 * are on) passes it to {@link #create(MeterRegistry, ObservationRegistry, Duration)}.
 *
 * <p>Tags are names the application chose and fixed words, never members, limiter keys or job
 * ids. Thread-safe. {@link #close()} stops the refresh thread and removes the gauges.
 */
@SuppressWarnings("exports") // Micrometer's types, which callers require themselves (module-info)
public final class OrdoMetrics implements AutoCloseable {
    /** How often cached gauges are read from the store unless told otherwise. */
    public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(5);

    /** The name of the refresh thread. */
    private static final String REFRESH_THREAD = "ordo-metrics-refresh";

    private static final String[] QUEUE_STATES = {"delayed", "ready", "in-flight", "dead"};

    private final MeterRegistry meters;
    private final ObservationRegistry observations;
    private final Duration refresh;
    private final Map<OrdoObservation, DefaultOrdoObservationConvention> conventions = new EnumMap<>(OrdoObservation.class);
    private final List<CachedReading> readings = new CopyOnWriteArrayList<>();
    private final List<Meter> gauges = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<Runnable> refreshTasks = new CopyOnWriteArrayList<>();
    private ScheduledExecutorService refresher;
    private boolean closed;

    private OrdoMetrics(MeterRegistry meters, ObservationRegistry observations, Duration refresh) {
        this.meters = Objects.requireNonNull(meters, "meters");
        this.observations = Objects.requireNonNull(observations, "observations");
        this.refresh = Objects.requireNonNull(refresh, "refresh");
        if (refresh.isNegative()) {
            throw new IllegalArgumentException("refresh must be zero or positive, got " + refresh);
        }
        for (OrdoObservation o : OrdoObservation.values()) {
            conventions.put(o, new DefaultOrdoObservationConvention(o));
        }
    }

    /**
     * Meters on {@code meters}, observations recorded only as timers there (a registry of its own
     * with a {@link DefaultMeterObservationHandler}), gauges refreshed every {@link #DEFAULT_REFRESH}.
     *
     * @param meters where the meters go
     * @return the metrics
     */
    public static OrdoMetrics create(MeterRegistry meters) {
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        return new OrdoMetrics(meters, observations, DEFAULT_REFRESH);
    }

    /**
     * Meters on {@code meters}, observations on {@code observations} (timers appear only where a
     * meter handler listens on it; {@link ObservationRegistry#NOOP} makes none).
     *
     * @param meters       where the counters and gauges go
     * @param observations where the observations go
     * @param refresh      how often cached gauges read the store; zero: only on {@link #refresh()}
     * @return the metrics
     */
    public static OrdoMetrics create(MeterRegistry meters, ObservationRegistry observations, Duration refresh) {
        return new OrdoMetrics(meters, observations, refresh);
    }

    /**
     * {@code limiter}, counting its decisions in {@code ordo.ratelimiter.requests} (tags
     * {@code limiter}, {@code algorithm}, {@code result} = allowed|refused) and observing each as
     * {@link OrdoObservation#RATE_LIMITER_ACQUIRE}. The algorithm is read from the limiter's type
     * ({@code sliding-window}, {@code sliding-log}, {@code token-bucket}; {@code custom} otherwise).
     *
     * @param name    the limiter's name, a tag
     * @param limiter the limiter to wrap
     * @return a limiter that decides as {@code limiter} does
     */
    public RateLimiter instrument(String name, RateLimiter limiter) {
        checkName(name);
        Objects.requireNonNull(limiter, "limiter");
        String algorithm = limiter instanceof SlidingWindowLimiter ? "sliding-window"
                : limiter instanceof SlidingLogLimiter ? "sliding-log"
                : limiter instanceof TokenBucketLimiter ? "token-bucket" : "custom";
        return new ObservedRateLimiter(limiter, this, name, algorithm, requests(name, algorithm, "allowed"),
                requests(name, algorithm, "refused"));
    }

    private Counter requests(String limiter, String algorithm, String result) {
        return Counter.builder("ordo.ratelimiter.requests").description("Rate-limit decisions")
                .tags("limiter", limiter, "algorithm", algorithm, "result", result).register(meters);
    }

    /**
     * {@code board}, observing each write as {@link OrdoObservation#LEADERBOARD_WRITE} and each
     * read as {@link OrdoObservation#LEADERBOARD_READ} (keys {@code board}, {@code operation}).
     * Plain, periodic and sharded boards have overloads that keep their type; this one wraps
     * whatever board it is given (a typed view, say), observing the methods of {@link Board}.
     *
     * @param name  the board's name, a key value
     * @param board the board to wrap
     * @param <M>   the type of the members
     * @return a board that answers as {@code board} does
     */
    public <M> Board<M> instrument(String name, Board<M> board) {
        return new ObservedBoard<>(Objects.requireNonNull(board, "board"), observer(name));
    }

    /**
     * {@code board} observing itself ({@link Leaderboard#withObserver}): each call of its class
     * that writes as {@link OrdoObservation#LEADERBOARD_WRITE}, each that reads as {@link
     * OrdoObservation#LEADERBOARD_READ}, keyed {@code board} = {@code name} and {@code operation}
     * = the method ({@code addPoints}, {@code placement}, {@code page}, ...).
     *
     * @param name  the board's name, a key value
     * @param board the board to observe
     * @return the same board, on the same keys, observed
     */
    public Leaderboard instrument(String name, Leaderboard board) {
        return Objects.requireNonNull(board, "board").withObserver(observer(name));
    }

    /**
     * {@code family} observing itself ({@link PeriodicLeaderboard#withObserver}), as {@link
     * #instrument(String, Leaderboard)} does, and the period boards it hands out ({@code current},
     * {@code primary} ...) with it, under the family's {@code name}.
     *
     * @param name   the family's name, a key value
     * @param family the family to observe
     * @return the same family, on the same keys, observed
     */
    public PeriodicLeaderboard instrument(String name, PeriodicLeaderboard family) {
        return Objects.requireNonNull(family, "family").withObserver(observer(name));
    }

    /**
     * {@code board} observing itself ({@link ShardedLeaderboard#withObserver}), as {@link
     * #instrument(String, Leaderboard)} does: one observation per call, however many shards it
     * reads; the shard boards it hands out report under the same {@code name}.
     *
     * @param name  the board's name, a key value
     * @param board the board to observe
     * @return the same board, on the same shards, observed
     */
    public ShardedLeaderboard instrument(String name, ShardedLeaderboard board) {
        return Objects.requireNonNull(board, "board").withObserver(observer(name));
    }

    private BoardObserver observer(String name) {
        checkName(name);
        return new MeteredBoardObserver(this, name);
    }

    /**
     * Binds {@code ordo.leaderboard.size} (tag {@code board}): the board's member count, cached.
     * The count is read without the board's observations (an observed board's refreshes are no
     * calls of the application's).
     *
     * @param name  the board's name, a tag
     * @param board the board to count
     */
    public void gauge(String name, Board<?> board) {
        checkName(name);
        Board<?> counted = unobserved(Objects.requireNonNull(board, "board"));
        CachedReading reading = new CachedReading(1, () -> new double[] {counted.count()});
        bind(reading, Gauge.builder("ordo.leaderboard.size", reading, r -> r.value(0))
                .description("Members on the board, as last read").tag("board", name));
    }

    /**
     * Binds {@code ordo.queue.jobs} (tags {@code queue}, {@code state} = delayed, ready,
     * in-flight, dead): the queue's {@link DelayedJobQueue#counts()}, cached.
     *
     * @param name  the queue's name, a tag
     * @param queue the queue to count
     */
    public void gauge(String name, DelayedJobQueue<?> queue) {
        checkName(name);
        Objects.requireNonNull(queue, "queue");
        CachedReading reading = new CachedReading(QUEUE_STATES.length, () -> {
            DelayedJobQueue.Counts c = queue.counts();
            return new double[] {c.delayed(), c.ready(), c.inFlight(), c.dead()};
        });
        for (int i = 0; i < QUEUE_STATES.length; i++) {
            int state = i;
            bind(reading, Gauge.builder("ordo.queue.jobs", reading, r -> r.value(state))
                    .description("Jobs in the queue by state, as last read").tag("queue", name).tag("state", QUEUE_STATES[i]));
        }
    }

    /**
     * Binds {@code ordo.queue.jobs} (tags {@code queue}, {@code state} = ready): the priority
     * queue's {@link PriorityJobQueue#size()}, cached; its jobs are never delayed, claimed or dead.
     *
     * @param name  the queue's name, a tag
     * @param queue the queue to count
     */
    public void gauge(String name, PriorityJobQueue<?> queue) {
        checkName(name);
        Objects.requireNonNull(queue, "queue");
        CachedReading reading = new CachedReading(1, () -> new double[] {queue.size()});
        bind(reading, Gauge.builder("ordo.queue.jobs", reading, r -> r.value(0))
                .description("Jobs in the queue by state, as last read").tag("queue", name).tag("state", "ready"));
    }

    /**
     * Runs {@code claim} (a queue's or a worker's claim) as an {@link OrdoObservation#QUEUE_CLAIM} observation.
     *
     * @param queue the queue's name, a key value
     * @param claim the claim to run
     * @param <T>   the payloads' type
     * @return what {@code claim} returned
     */
    public <T> List<ClaimedJob<T>> claim(String queue, Supplier<List<ClaimedJob<T>>> claim) {
        checkName(queue);
        return observation(new OrdoObservationContext(OrdoObservation.QUEUE_CLAIM, queue, null, null)).observe(claim);
    }

    /**
     * Starts timing the handling of one job ({@link OrdoObservation#QUEUE_JOB}, the timer {@code
     * ordo.queue.job.duration}); call it as the job is claimed, and end it with the ack or nack.
     *
     * @param queue the queue's name, a key value
     * @return the running observation of the job
     */
    public JobObservation startJob(String queue) {
        checkName(queue);
        OrdoObservationContext context = new OrdoObservationContext(OrdoObservation.QUEUE_JOB, queue, null, null);
        return new JobObservation(this, queue, context, observation(context).start());
    }

    /**
     * Runs {@code task} wherever the cached gauges are read: on this object's refresh thread every
     * {@code refresh} (started now if none runs yet), after the gauges, and on each {@link
     * #refresh()}. For figures an application keeps for meters of its own (the Spring Boot
     * starter's in-process engine figures, say), so that one thread reads them all on one period
     * instead of a thread each. A task that throws is skipped for that round only; it should
     * return quickly, as every other reading waits for it. Adding a task already added does nothing.
     *
     * @param task what to run on each refresh
     * @throws IllegalStateException when these metrics are closed
     */
    public void addRefreshTask(Runnable task) {
        Objects.requireNonNull(task, "task");
        synchronized (this) {
            checkOpen();
            refreshTasks.addIfAbsent(task);
            startRefresher();
        }
    }

    /**
     * Stops running {@code task}, added by {@link #addRefreshTask(Runnable)}, from the next refresh
     * on (a refresh already running may still run it once); does nothing for a task not added.
     *
     * @param task the task to stop running
     */
    public void removeRefreshTask(Runnable task) {
        refreshTasks.remove(task);
    }

    /** Reads every cached gauge's figures from the store now, then runs the refresh tasks, on the calling thread. */
    public void refresh() {
        for (CachedReading reading : readings) {
            reading.refresh();
        }
        for (Runnable task : refreshTasks) {
            try {
                task.run();
            } catch (RuntimeException e) {
                // skipped this round; a throw here would end the scheduled refreshes for good
            }
        }
    }

    /** Stops the refresh thread and removes the gauges from the registry; decorated objects stay usable. */
    @Override
    public void close() {
        ScheduledExecutorService stopping;
        synchronized (this) {
            closed = true;
            stopping = refresher;
            refresher = null;
        }
        if (stopping != null) {
            stopping.shutdownNow();
        }
        for (Meter gauge : gauges) {
            meters.remove(gauge);
        }
        gauges.clear();
        readings.clear();
        refreshTasks.clear();
    }

    /** A not yet started observation of {@code context}, named by the registry's convention for it or the default one. */
    Observation observation(OrdoObservationContext context) {
        return context.observation().observation(null, conventions.get(context.observation()), () -> context, observations);
    }

    /**
     * Starts {@code observation} around the non-blocking {@code call} and stops it when the call's
     * stage completes (or when the call throws), recording what it failed with; {@code settled}
     * hears the value or the failure first, before the observation stops. The stage returned
     * completes as the call's does, with the same value or failure.
     */
    static <R> CompletionStage<R> observeStage(Observation observation, Supplier<CompletionStage<R>> call, BiConsumer<R, Throwable> settled) {
        observation.start();
        CompletionStage<R> stage;
        try {
            stage = call.get();
        } catch (RuntimeException | Error e) {
            settled.accept(null, e);
            observation.error(e);
            observation.stop();
            throw e;
        }
        CompletableFuture<R> out = new CompletableFuture<>();
        stage.whenComplete((value, failure) -> {
            settled.accept(value, failure);
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
            if (failure == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(failure);
            }
        });
        return out;
    }

    private void bind(CachedReading reading, Gauge.Builder<CachedReading> gauge) {
        synchronized (this) {
            checkOpen();
            if (!readings.contains(reading)) {
                readings.add(reading);
            }
            startRefresher();
        }
        gauges.add(gauge.strongReference(true).register(meters));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("these metrics are closed");
        }
    }

    /** Starts the one refresh thread, unless it runs or {@code refresh} is zero; call holding this object's lock. */
    private void startRefresher() {
        if (refresher == null && !refresh.isZero()) {
            refresher = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, REFRESH_THREAD);
                thread.setDaemon(true);
                return thread;
            });
            refresher.scheduleWithFixedDelay(this::refresh, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** {@code board} telling no observer of its calls: the same board without its own, or the one an {@link ObservedBoard} wraps. */
    private static Board<?> unobserved(Board<?> board) {
        if (board instanceof Leaderboard plain) {
            return plain.withObserver(BoardObserver.NONE);
        } else if (board instanceof PeriodicLeaderboard family) {
            return family.withObserver(BoardObserver.NONE);
        } else if (board instanceof ShardedLeaderboard sharded) {
            return sharded.withObserver(BoardObserver.NONE);
        } else if (board instanceof ObservedBoard<?> observed) {
            return unobserved(observed.board());
        }
        return board;
    }

    private static void checkName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a name is required, got '" + name + "'");
        }
    }
}
