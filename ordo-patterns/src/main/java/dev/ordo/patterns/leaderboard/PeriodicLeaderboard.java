package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * A family of boards for one game: one per current period (daily, weekly, monthly or custom) and
 * optionally an all-time board, all written by the same atomic script, so they never disagree.
 * A period's keys expire {@code retention} after the period ends; past periods stay readable
 * until then.
 *
 * <p>All keys share the family's hash tag ({@code {name}:day:2026-11-30}, {@code {name}:all},
 * {@code {name}:meta}), so on a cluster the family lives in one slot. The period an instant
 * belongs to is decided by this client's clock (injectable); clocks that disagree only matter
 * in the moments around a boundary.
 *
 * <p>As a {@link Board}, the family answers through its primary board: the current board of the
 * first period given to the builder, or the all-time board when there is no period. A write
 * through {@link Board}'s methods still writes every current board and answers with the
 * placement on the primary one; the {@code ...All} forms answer with every board's.
 */
public final class PeriodicLeaderboard implements Board<String> {
    private final Store store;
    private final String tag;
    private final List<Period> periods;
    private final boolean allTime;
    private final ZoneId zone;
    private final Duration retention;
    private final BoardOptions options;
    private final InstantSource clock;
    /** Told of each public call; {@link BoardObserver#NONE} unless {@link #withObserver} gave another. */
    private final BoardObserver observer;
    /** This family without an observer, which runs the calls {@link #observer} is told of: this family when it has none. */
    private final PeriodicLeaderboard unobserved;

    private PeriodicLeaderboard(Builder b) {
        this.store = b.store;
        this.tag = BoardKeys.tagged(b.name);
        this.periods = List.copyOf(b.periods);
        this.allTime = b.allTime;
        this.zone = b.zone;
        this.retention = b.retention;
        this.options = b.options;
        this.clock = b.clock;
        this.observer = BoardObserver.NONE;
        this.unobserved = this;
        if (periods.isEmpty() && !allTime) {
            throw new IllegalArgumentException("a periodic board needs at least one period or the all-time board");
        }
    }

    /** {@code family}'s boards, each public call told to {@code observer}. */
    private PeriodicLeaderboard(PeriodicLeaderboard family, BoardObserver observer) {
        this.store = family.store;
        this.tag = family.tag;
        this.periods = family.periods;
        this.allTime = family.allTime;
        this.zone = family.zone;
        this.retention = family.retention;
        this.options = family.options;
        this.clock = family.clock;
        this.observer = Objects.requireNonNull(observer, "observer");
        this.unobserved = family.unobserved;
    }

    /**
     * Starts a family called {@code name} on {@code store}.
     *
     * @param store where the family's boards live
     * @param name the family's name, prefixing its boards' keys
     * @return a builder to declare the periods on
     */
    public static Builder builder(Store store, String name) {
        return new Builder(store, name);
    }

    /**
     * This family, on the same keys, telling {@code observer} of each public call that reads or
     * writes it (besides any observer this one has, which is told first), and the boards it hands out ({@link
     * #primary}, {@link #current}, {@link #at}, {@link #allTime}) telling it of theirs;
     * {@link BoardObserver#NONE} gives the family without any. This family is unchanged.
     *
     * @param observer told of each call
     * @return the family with that observer
     */
    public PeriodicLeaderboard withObserver(BoardObserver observer) {
        return observer == BoardObserver.NONE ? unobserved : new PeriodicLeaderboard(this, BoardObserver.both(this.observer, observer));
    }

    /**
     * Adds points on every current board; returns the placements, periods in declaration order, then all-time.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return one placement per board
     */
    public List<Placement<String>> addPointsAll(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "addPointsAll", () -> unobserved.addPointsAll(member, points));
        }
        return write("add", member, points);
    }

    /**
     * Sets the score on every current board; returns the placements, periods in declaration order, then all-time.
     *
     * @param member the member whose score is set
     * @param score the new score
     * @return one placement per board
     */
    public List<Placement<String>> setScoreAll(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "setScoreAll", () -> unobserved.setScoreAll(member, score));
        }
        return write("set", member, score);
    }

    /**
     * Keeps the better score on every current board; returns the placements, periods in declaration order, then all-time.
     *
     * @param member the member whose score may improve
     * @param score the score just achieved
     * @return one placement per board
     */
    public List<Placement<String>> keepBestAll(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "keepBestAll", () -> unobserved.keepBestAll(member, score));
        }
        return write("best", member, score);
    }

    /** Adds points on every current board; returns the placement on the primary board. */
    @Override
    public Placement<String> addPoints(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPoints(member, points));
        }
        return addPointsAll(member, points).get(0);
    }

    /**
     * {@link #addPointsAll}, without blocking.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return a stage completing with one placement per board
     */
    public CompletionStage<List<Placement<String>>> addPointsAllAsync(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "addPointsAll", () -> unobserved.addPointsAllAsync(member, points));
        }
        Instant now = clock.instant();
        return Leaderboard.writeAsync(store, metaKey(), currentBoards(now), expireAt(now), options, "add", member, points);
    }

    /** Adds points on every current board, without blocking; completes with the placement on the primary board. */
    @Override
    public CompletionStage<Placement<String>> addPointsAsync(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPointsAsync(member, points));
        }
        return addPointsAllAsync(member, points).thenApply(all -> all.get(0));
    }

    /** Sets the score on every current board; returns the placement on the primary board. */
    @Override
    public Placement<String> setScore(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "setScore", () -> unobserved.setScore(member, score));
        }
        return setScoreAll(member, score).get(0);
    }

    /** Keeps the better score on every current board; returns the placement on the primary board. */
    @Override
    public Placement<String> keepBest(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "keepBest", () -> unobserved.keepBest(member, score));
        }
        return keepBestAll(member, score).get(0);
    }

    /**
     * The primary board as it is now: the first period's current board, or the all-time board.
     *
     * @return the board reads go to by default
     */
    public Leaderboard primary() {
        return periods.isEmpty() ? allTime() : current(periods.get(0));
    }

    /** The member's score on the primary board. */
    @Override
    public OptionalDouble score(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "score", () -> unobserved.score(member));
        }
        return primary().score(member);
    }

    /** The member's rank on the primary board. */
    @Override
    public OptionalLong rank(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "rank", () -> unobserved.rank(member));
        }
        return primary().rank(member);
    }

    /** The primary board's first {@code n} entries. */
    @Override
    public List<Entry<String>> top(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "top", () -> unobserved.top(n));
        }
        return primary().top(n);
    }

    /** The window around the member on the primary board. */
    @Override
    public List<Entry<String>> around(String member, int size) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "around", () -> unobserved.around(member, size));
        }
        return primary().around(member, size);
    }

    /** How many members the primary board holds. */
    @Override
    public long count() {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "count", () -> unobserved.count());
        }
        return primary().count();
    }

    /** {@link #score}, without blocking. */
    @Override
    public CompletionStage<OptionalDouble> scoreAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "score", () -> unobserved.scoreAsync(member));
        }
        return primary().scoreAsync(member);
    }

    /** {@link #rank}, without blocking. */
    @Override
    public CompletionStage<OptionalLong> rankAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "rank", () -> unobserved.rankAsync(member));
        }
        return primary().rankAsync(member);
    }

    /** {@link #top}, without blocking. */
    @Override
    public CompletionStage<List<Entry<String>>> topAsync(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "top", () -> unobserved.topAsync(n));
        }
        return primary().topAsync(n);
    }

    /**
     * The board of the current {@code period}.
     *
     * @param period one of the family's periods
     * @return its board for now
     */
    public Leaderboard current(Period period) {
        return at(period, clock.instant());
    }

    /**
     * The board of the {@code period} that held {@code at} (empty once its retention has passed).
     * Writes through it keep the family's expiry; its {@code remove} keeps the family's metadata.
     *
     * @param period one of the family's periods
     * @param at an instant in the period wanted, e.g. last week
     * @return that period's board
     */
    public Leaderboard at(Period period, Instant at) {
        return board(periodKey(period, at), period.end(at, zone).plus(retention).toEpochMilli());
    }

    /**
     * The all-time board.
     *
     * @return the board that never rolls over
     */
    public Leaderboard allTime() {
        if (!allTime) {
            throw new IllegalStateException("this family keeps no all-time board");
        }
        return board(allTimeKey(), 0);
    }

    /** Removes the member from every current board and the all-time board, and drops its metadata; true if it was on any. */
    @Override
    public boolean remove(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "remove", () -> unobserved.remove(member));
        }
        return Leaderboard.remove(store, metaKey(), currentBoards(clock.instant()), options, member, true);
    }

    /**
     * Stores the member's metadata, shared by every board of the family.
     *
     * @param member the member the metadata describes
     * @param metadata its fields, e.g. a display name
     */
    public void setMetadata(String member, java.util.Map<String, String> metadata) {
        if (observer != BoardObserver.NONE) {
            observer.observe(BoardObserver.Access.WRITE, "setMetadata", () -> {
                unobserved.setMetadata(member, metadata);
                return null;
            });
            return;
        }
        board(allTimeKey(), 0).setMetadata(member, metadata);
    }

    private Leaderboard board(String key, long expireAtMillis) {
        return new Leaderboard(store, BoardKeys.of(key), metaKey(), options, false, expireAtMillis, observer);
    }

    private List<Placement<String>> write(String mode, String member, double value) {
        Instant now = clock.instant();
        return Leaderboard.write(store, metaKey(), currentBoards(now), expireAt(now), options, mode, member, value);
    }

    /** The PEXPIREAT of each board a write at {@code now} touches (0: none), in {@link #currentBoards} order. */
    private List<Long> expireAt(Instant now) {
        List<Long> expireAt = new ArrayList<>(periods.size() + 1);
        for (Period p : periods) {
            expireAt.add(p.end(now, zone).plus(retention).toEpochMilli());
        }
        if (allTime) {
            expireAt.add(0L);
        }
        return expireAt;
    }

    /** The boards a write at {@code now} touches: each period's current board, then the all-time board. */
    private List<BoardKeys> currentBoards(Instant now) {
        List<BoardKeys> boards = new ArrayList<>(periods.size() + 1);
        for (Period p : periods) {
            boards.add(BoardKeys.of(periodKey(p, now)));
        }
        if (allTime) {
            boards.add(BoardKeys.of(allTimeKey()));
        }
        return boards;
    }

    private String periodKey(Period period, Instant at) {
        return tag + ":" + period.id(at, zone);
    }

    private String allTimeKey() {
        return tag + ":all";
    }

    private String metaKey() {
        return tag + ":meta";
    }

    /** Configures a {@link PeriodicLeaderboard}. */
    public static final class Builder {
        private final Store store;
        private final String name;
        private final List<Period> periods = new ArrayList<>();
        private boolean allTime;
        private ZoneId zone = ZoneId.of("UTC");
        private Duration retention = Duration.ofDays(7);
        private BoardOptions options = BoardOptions.highestFirst();
        private InstantSource clock = InstantSource.system();

        private Builder(Store store, String name) {
            this.store = Objects.requireNonNull(store, "store");
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * Keeps a board per {@code period}; a period already declared is refused (it would be written twice).
         *
         * @param period the period to keep boards for
         * @return this builder
         */
        public Builder period(Period period) {
            if (periods.contains(Objects.requireNonNull(period, "period"))) {
                throw new IllegalArgumentException("period " + period + " is already part of this family");
            }
            periods.add(period);
            return this;
        }

        /**
         * Also keeps an all-time board, updated with the period boards.
         *
         * @return this builder
         */
        public Builder allTime() {
            allTime = true;
            return this;
        }

        /**
         * The zone calendar periods follow (UTC by default).
         *
         * @param zone the zone days, weeks and months begin and end in
         * @return this builder
         */
        public Builder zone(ZoneId zone) {
            this.zone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /**
         * How long a period's board stays readable after the period ends (7 days by default).
         *
         * @param retention how long an ended period's board stays readable
         * @return this builder
         */
        public Builder retention(Duration retention) {
            if (retention.isNegative()) {
                throw new IllegalArgumentException("retention cannot be negative");
            }
            this.retention = retention;
            return this;
        }

        /**
         * Sort order, tie rule and metadata for every board of the family.
         *
         * @param options the options every board shares
         * @return this builder
         */
        public Builder options(BoardOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * The clock that decides the current period (the system clock by default).
         *
         * @param clock the clock deciding which period is current
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The family as configured; refuses one with neither a period nor the all-time board.
         *
         * @return the family
         */
        public PeriodicLeaderboard build() {
            return new PeriodicLeaderboard(this);
        }
    }
}
