package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Scores;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

/**
 * A leaderboard on one sorted set: writes that answer with the member's new score and rank in
 * the same round trip, and reads of rank, top, pages and the window around a member, ranked by
 * the board's {@link TieRule}. Works unchanged on every {@link Store}.
 *
 * <p>Every operation is one command or one script, so it is atomic: concurrent writers never
 * lose an increment and a read never sees half a write. All keys share the board's hash tag
 * ({@code {name}} unless the name holds one), so the board lives in one cluster slot. Reads
 * that Redis answers with one command are sent as that command: count, and on
 * {@link TieRule#MEMBER_ORDER} boards score, rank, and top and pages without metadata (score also
 * on competition and dense boards); the rest run as scripts (see {@link BoardScripts}).
 *
 * <p>Observed boards ({@link #withObserver}): each public method starts by handing the call, made
 * on {@code unobserved} (this board without an observer), to the observer when there is one, so
 * a call is reported once however the method is built; a new public method must do the same, and
 * work on the board from inside a method goes through {@code unobserved} or private methods, never
 * through this board's own observed methods. {@link PeriodicLeaderboard} and
 * {@link ShardedLeaderboard} follow the same rule. (A public shell delegating to a package-private
 * core would make the rule structural instead of written; not done yet.)
 *
 * <p>Thread-safe: the state lives on the server.
 */
public final class Leaderboard implements Board<String> {
    /** The most entries one read may return. */
    public static final int MAX_WINDOW = 10_000;

    /** Length of the {@code <13-digit time>:} prefix of member names on first-reached boards. */
    private static final int ARRIVAL_PREFIX = 14;

    private final Store store;
    private final BoardKeys keys;
    private final String metaKey;
    private final BoardOptions options;
    private final List<String> scriptKeys;
    private final boolean ownsMetadata;
    private final long expireAtMillis;
    /** Told of each public call; {@link BoardObserver#NONE} unless {@link #withObserver} gave another. */
    private final BoardObserver observer;
    /** This board without an observer, which runs the calls {@link #observer} is told of: this board when it has none. */
    private final Leaderboard unobserved;

    /**
     * A board on {@code keys}; {@code ownsMetadata} false when the metadata hash is shared with
     * other boards (a periodic family), {@code expireAtMillis} the PEXPIREAT every write sets (0: none).
     */
    Leaderboard(Store store, BoardKeys keys, String metaKey, BoardOptions options, boolean ownsMetadata, long expireAtMillis) {
        this(store, keys, metaKey, options, ownsMetadata, expireAtMillis, BoardObserver.NONE);
    }

    /** As above, each public call told to {@code observer}. */
    Leaderboard(Store store, BoardKeys keys, String metaKey, BoardOptions options, boolean ownsMetadata, long expireAtMillis,
                BoardObserver observer) {
        this.store = Objects.requireNonNull(store, "store");
        this.keys = keys;
        this.metaKey = metaKey;
        this.options = Objects.requireNonNull(options, "options");
        this.ownsMetadata = ownsMetadata;
        this.expireAtMillis = expireAtMillis;
        this.scriptKeys = List.copyOf(scriptKeys(metaKey, List.of(keys)));
        this.observer = Objects.requireNonNull(observer, "observer");
        this.unobserved = observer == BoardObserver.NONE ? this
                : new Leaderboard(store, keys, metaKey, options, ownsMetadata, expireAtMillis, BoardObserver.NONE);
    }

    /**
     * The board called {@code name} (its sorted set is {@code {name}}, or {@code name} if it has a hash tag).
     *
     * @param store where the board lives
     * @param name the board's name, also its hash tag unless it holds one
     * @param options how the board sorts and ranks; keep them the same for the life of its keys
     * @return the board
     */
    public static Leaderboard create(Store store, String name, BoardOptions options) {
        String key = BoardKeys.tagged(name);
        return new Leaderboard(store, BoardKeys.of(key), key + ":meta", options, true, 0);
    }

    /**
     * The sorted set holding this board.
     *
     * @return the sorted set's key
     */
    public String key() {
        return keys.scores();
    }

    /**
     * How this board sorts and ranks.
     *
     * @return the board's options
     */
    public BoardOptions options() {
        return options;
    }

    /**
     * This board, on the same keys, telling {@code observer} of each public call that reads or
     * writes it (besides any observer this one has, which is told first); {@link BoardObserver#NONE} gives the board
     * without any. This board is unchanged.
     *
     * @param observer told of each call
     * @return the board with that observer
     */
    public Leaderboard withObserver(BoardObserver observer) {
        return observer == BoardObserver.NONE ? unobserved
                : new Leaderboard(store, keys, metaKey, options, ownsMetadata, expireAtMillis, BoardObserver.both(this.observer, observer));
    }

    /** Adds {@code points} (finite, may be negative) to the member's score, creating it at {@code points}. */
    @Override
    public Placement<String> addPoints(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPoints(member, points));
        }
        return writeOne("add", member, points);
    }

    /** {@link #addPoints}, without blocking. */
    @Override
    public CompletionStage<Placement<String>> addPointsAsync(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPointsAsync(member, points));
        }
        return writeOneAsync("add", member, points);
    }

    /**
     * Adds {@code points} (finite, may be negative) and returns only the new score: one ZINCRBY
     * where the board keeps nothing beside its sorted set (member-order and competition boards
     * without expiry), else the same script as {@link #addPoints}.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return the member's new score
     */
    public double incrementScore(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "incrementScore", () -> unobserved.incrementScore(member, points));
        }
        if ((options.tieRule() == TieRule.MEMBER_ORDER || options.tieRule() == TieRule.COMPETITION) && expireAtMillis == 0) {
            if (!Double.isFinite(points)) {
                throw new IllegalArgumentException("points to add must be finite, got " + points);
            }
            return store.call(StoreCommand.of("ZINCRBY").key(keys.scores()).arg(points).arg(member(member))).asDouble();
        }
        return addPoints(member, points).score();
    }

    /** Sets the member's score. */
    @Override
    public Placement<String> setScore(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "setScore", () -> unobserved.setScore(member, score));
        }
        return writeOne("set", member, score);
    }

    /**
     * {@link #setScore}, without blocking.
     *
     * @param member the member whose score is set
     * @param score the new score
     * @return a stage completing with where the member stands afterwards
     */
    public CompletionStage<Placement<String>> setScoreAsync(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "setScore", () -> unobserved.setScoreAsync(member, score));
        }
        return writeOneAsync("set", member, score);
    }

    /** Keeps the better of the member's score and {@code score}: higher on descending boards, lower on ascending. */
    @Override
    public Placement<String> keepBest(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "keepBest", () -> unobserved.keepBest(member, score));
        }
        return writeOne("best", member, score);
    }

    /**
     * {@link #keepBest}, without blocking.
     *
     * @param member the member whose score may improve
     * @param score the score just achieved
     * @return a stage completing with where the member stands afterwards
     */
    public CompletionStage<Placement<String>> keepBestAsync(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "keepBest", () -> unobserved.keepBestAsync(member, score));
        }
        return writeOneAsync("best", member, score);
    }

    /**
     * Removes the member, and its metadata unless the board shares it with a family (see
     * {@link PeriodicLeaderboard#remove}); true if it was on the board.
     */
    @Override
    public boolean remove(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "remove", () -> unobserved.remove(member));
        }
        return remove(store, metaKey, List.of(keys), options, member, ownsMetadata);
    }

    /** The member's score, empty when it is not on the board. */
    @Override
    public OptionalDouble score(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "score", () -> unobserved.score(member));
        }
        if (options.tieRule() == TieRule.FIRST_REACHED) {
            return placement(member).map(p -> OptionalDouble.of(p.score())).orElse(OptionalDouble.empty());
        }
        return score(store.call(scoreCommand(member)));
    }

    /** {@link #score}, without blocking. */
    @Override
    public CompletionStage<OptionalDouble> scoreAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "score", () -> unobserved.scoreAsync(member));
        }
        if (options.tieRule() == TieRule.FIRST_REACHED) {
            return placementAsync(member).thenApply(p -> p.map(x -> OptionalDouble.of(x.score())).orElse(OptionalDouble.empty()));
        }
        return store.callAsync(scoreCommand(member)).thenApply(Leaderboard::score);
    }

    private StoreCommand scoreCommand(String member) {
        return StoreCommand.of("ZSCORE").key(keys.scores()).arg(member(member));
    }

    private static OptionalDouble score(Reply reply) {
        return reply.isNil() ? OptionalDouble.empty() : OptionalDouble.of(reply.asDouble());
    }

    /** The member's 1-based rank under the tie rule, empty when it is not on the board. */
    @Override
    public OptionalLong rank(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "rank", () -> unobserved.rank(member));
        }
        if (options.tieRule() == TieRule.MEMBER_ORDER) {
            return rank(store.call(rankCommand(member)));
        }
        return placement(member).map(p -> OptionalLong.of(p.rank())).orElse(OptionalLong.empty());
    }

    /** {@link #rank}, without blocking. */
    @Override
    public CompletionStage<OptionalLong> rankAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "rank", () -> unobserved.rankAsync(member));
        }
        if (options.tieRule() == TieRule.MEMBER_ORDER) {
            return store.callAsync(rankCommand(member)).thenApply(Leaderboard::rank);
        }
        return placementAsync(member).thenApply(p -> p.map(x -> OptionalLong.of(x.rank())).orElse(OptionalLong.empty()));
    }

    private StoreCommand rankCommand(String member) {
        return StoreCommand.of(options.descending() ? "ZREVRANK" : "ZRANK").key(keys.scores()).arg(member(member));
    }

    private static OptionalLong rank(Reply reply) {
        return reply.isNil() ? OptionalLong.empty() : OptionalLong.of(reply.asLong() + 1);
    }

    /**
     * The member's score and rank, read together; empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its score and rank, or empty
     */
    public Optional<Placement<String>> placement(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "placement", () -> unobserved.placement(member));
        }
        return placement(member, eval(BoardScripts.PLACEMENT, member(member)));
    }

    /**
     * {@link #placement}, without blocking.
     *
     * @param member the member to look up
     * @return a stage completing with its score and rank, or empty
     */
    public CompletionStage<Optional<Placement<String>>> placementAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "placement", () -> unobserved.placementAsync(member));
        }
        return store.evalAsync(BoardScripts.PLACEMENT, scriptKeys, scriptArgs(member(member))).thenApply(r -> placement(member, r));
    }

    private static Optional<Placement<String>> placement(String member, Reply reply) {
        List<Reply> r = reply.asList();
        return r == null ? Optional.empty() : Optional.of(new Placement<>(member, r.get(0).asDouble(), r.get(1).asLong()));
    }

    /** The first {@code n} entries. */
    @Override
    public List<Entry<String>> top(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "top", () -> unobserved.top(n));
        }
        checkWindow("n", n);
        return range(0, n);
    }

    /** {@link #top}, without blocking. */
    @Override
    public CompletionStage<List<Entry<String>>> topAsync(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "top", () -> unobserved.topAsync(n));
        }
        checkWindow("n", n);
        return rangeAsync(0, n);
    }

    /**
     * Page {@code page} (1-based) of {@code size} entries.
     *
     * @param page which page, from 1
     * @param size how many entries a page holds (0 to {@link #MAX_WINDOW})
     * @return the page's entries in rank order
     */
    public List<Entry<String>> page(int page, int size) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "page", () -> unobserved.page(page, size));
        }
        if (page < 1) {
            throw new IllegalArgumentException("page must be 1 or more, got " + page);
        }
        checkWindow("size", size);
        long start = (long) (page - 1) * size;
        return range(start, size);
    }

    /**
     * A window of {@code size} entries holding the member, which sits as central as the board's
     * edges allow: near the top the window extends further down, so it is full whenever the board
     * has {@code size} entries. Empty when the member is not on the board.
     */
    @Override
    public List<Entry<String>> around(String member, int size) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "around", () -> unobserved.around(member, size));
        }
        checkWindow("size", size);
        if (size == 0) {
            return List.of();
        }
        List<Reply> r = eval(BoardScripts.AROUND, member(member), Integer.toString(size), options.metadata() ? "1" : "0").asList();
        return r == null ? List.of() : entries(r);
    }

    /** How many members the board holds. */
    @Override
    public long count() {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "count", () -> unobserved.count());
        }
        return store.call(StoreCommand.of("ZCARD").key(keys.scores())).asLong();
    }

    /**
     * {@link #count}, without blocking.
     *
     * @return a stage completing with the number of members
     */
    public CompletionStage<Long> countAsync() {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "count", () -> unobserved.countAsync());
        }
        return store.callAsync(StoreCommand.of("ZCARD").key(keys.scores())).thenApply(r -> r.asLong());
    }

    /**
     * The member's percentile rank: the share of the board it beats, counting members level with
     * it as half, as {@code 100 * (behind + level / 2) / count}. Empty when it is not on the board.
     *
     * @param member the member to look up
     * @return its percentile, 0 to 100, or empty
     */
    public OptionalDouble percentile(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "percentile", () -> unobserved.percentile(member));
        }
        List<Reply> r = eval(BoardScripts.STANDING, member(member)).asList();
        if (r == null) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(100.0 * (r.get(0).asLong() + r.get(1).asLong() / 2.0) / r.get(2).asLong());
    }

    /**
     * Stores the member's metadata (display name, avatar URL, any small map), replacing what was there.
     *
     * @param member the member the metadata describes
     * @param metadata its fields, e.g. a display name, replacing any stored
     */
    public void setMetadata(String member, Map<String, String> metadata) {
        if (observer != BoardObserver.NONE) {
            observer.observe(BoardObserver.Access.WRITE, "setMetadata", () -> {
                unobserved.setMetadata(member, metadata);
                return null;
            });
            return;
        }
        store.call(StoreCommand.of("HSET").key(metaKey).arg(member(member)).arg(Metadata.encode(metadata)));
    }

    /**
     * The member's metadata, empty when none is stored.
     *
     * @param member the member to look up
     * @return its metadata, or an empty map
     */
    public Map<String, String> metadata(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "metadata", () -> unobserved.metadata(member));
        }
        return Metadata.decode(store.call(StoreCommand.of("HGET").key(metaKey).arg(member(member))));
    }

    /**
     * Replaces ({@code add} false) or adds to ({@code add} true) one dimension of a packed score,
     * keeping the others, in one server-side step. A member not yet on the board starts from 0.
     */
    Placement<String> writeDimension(String member, ScoreCodec.Dimension dimension, long storedValueOrDelta, boolean add) {
        String value = Scores.format(dimension.multiplier()) + " " + Scores.format(dimension.modulus()) + " " + storedValueOrDelta;
        return write(store, metaKey, List.of(keys), List.of(expireAtMillis), options, add ? "dimadd" : "dim", member, value).get(0);
    }

    private Placement<String> writeOne(String mode, String member, double value) {
        return write(store, metaKey, List.of(keys), List.of(expireAtMillis), options, mode, member, value).get(0);
    }

    private CompletionStage<Placement<String>> writeOneAsync(String mode, String member, double value) {
        checkValue(mode, value);
        List<String> argv = writeArgs(options, List.of(expireAtMillis), mode, member, Scores.format(value));
        return store.evalAsync(BoardScripts.WRITE, scriptKeys, argv).thenApply(r -> placements(member, r).get(0));
    }

    private List<Entry<String>> range(long start, int count) {
        if (count == 0) {
            return List.of();
        }
        long stop = start + count - 1;
        if (plainRange()) {
            return plainEntries(start, store.call(plainRangeCommand(start, stop)));
        }
        return entries(store.eval(BoardScripts.RANGE, scriptKeys, rangeArgs(start, stop)).asList());
    }

    private CompletionStage<List<Entry<String>>> rangeAsync(long start, int count) {
        if (count == 0) {
            return java.util.concurrent.CompletableFuture.completedFuture(List.of());
        }
        long stop = start + count - 1;
        if (plainRange()) {
            return store.callAsync(plainRangeCommand(start, stop)).thenApply(r -> plainEntries(start, r));
        }
        return store.evalAsync(BoardScripts.RANGE, scriptKeys, rangeArgs(start, stop)).thenApply(r -> entries(r.asList()));
    }

    /** True when a range is one ZRANGE: ranks are positions and there is no metadata to join. */
    private boolean plainRange() {
        return options.tieRule() == TieRule.MEMBER_ORDER && !options.metadata();
    }

    private StoreCommand plainRangeCommand(long start, long stop) {
        return StoreCommand.of(options.descending() ? "ZREVRANGE" : "ZRANGE").key(keys.scores()).arg(start).arg(stop).arg("WITHSCORES");
    }

    private static List<Entry<String>> plainEntries(long start, Reply reply) {
        List<Reply> r = reply.asList();
        List<Entry<String>> out = new ArrayList<>(r.size() / 2);
        for (int i = 0; i < r.size(); i += 2) {
            out.add(new Entry<>(r.get(i).asString(), r.get(i + 1).asDouble(), start + i / 2 + 1, Map.of()));
        }
        return out;
    }

    private Reply eval(Script script, String... args) {
        return store.eval(script, scriptKeys, scriptArgs(args));
    }

    /** The keys every board script of this board takes. */
    List<String> scriptKeys() {
        return scriptKeys;
    }

    /** The arguments a board script of this board takes: order, tie rule, then {@code args}. */
    List<String> scriptArgs(String... args) {
        List<String> argv = new ArrayList<>(2 + args.length);
        argv.add(options.order());
        argv.add(options.tieRule().wire);
        argv.addAll(List.of(args));
        return argv;
    }

    /** The script arguments that read entries at 0-based positions start..stop (see {@link BoardScripts#RANGE}). */
    List<String> rangeArgs(long start, long stop) {
        return scriptArgs(Long.toString(start), Long.toString(stop), options.metadata() ? "1" : "0");
    }

    /** Decodes the reply of {@link BoardScripts#RANGE} and {@link BoardScripts#AROUND}. */
    List<Entry<String>> entries(List<Reply> reply) {
        long start = reply.get(0).asLong();
        List<Reply> range = reply.get(1).asList();
        List<Reply> ranks = reply.get(2).asList();
        List<Reply> metas = reply.get(3).asList();
        boolean timed = options.tieRule() == TieRule.FIRST_REACHED;
        List<Entry<String>> out = new ArrayList<>(range.size() / 2);
        for (int i = 0; i < range.size(); i += 2) {
            String name = range.get(i).asString();
            int k = i / 2;
            out.add(new Entry<>(timed ? name.substring(ARRIVAL_PREFIX) : name, range.get(i + 1).asDouble(),
                    ranks.isEmpty() ? start + k + 1 : ranks.get(k).asLong(), metas.isEmpty() ? Map.of() : Metadata.decode(metas.get(k))));
        }
        return out;
    }

    /** One write applied to several boards in one script; returns the placement on each. */
    static List<Placement<String>> write(Store store, String metaKey, List<BoardKeys> boards, List<Long> expireAtMillis,
                                 BoardOptions options, String mode, String member, double value) {
        checkValue(mode, value);
        return write(store, metaKey, boards, expireAtMillis, options, mode, member, Scores.format(value));
    }

    /** {@link #write}, without blocking; bad arguments are thrown at once. */
    static CompletionStage<List<Placement<String>>> writeAsync(Store store, String metaKey, List<BoardKeys> boards, List<Long> expireAtMillis,
                                                       BoardOptions options, String mode, String member, double value) {
        checkValue(mode, value);
        List<String> argv = writeArgs(options, expireAtMillis, mode, member, Scores.format(value));
        return store.evalAsync(BoardScripts.WRITE, scriptKeys(metaKey, boards), argv).thenApply(r -> placements(member, r));
    }

    /** Refuses NaN, and infinite points to add. */
    private static void checkValue(String mode, double value) {
        if (Double.isNaN(value)) {
            throw new IllegalArgumentException("a score must be a number, got NaN");
        }
        if (mode.equals("add") && Double.isInfinite(value)) {
            throw new IllegalArgumentException("points to add must be finite, got " + value);
        }
    }

    /** As above, with the value as the script takes it. */
    static List<Placement<String>> write(Store store, String metaKey, List<BoardKeys> boards, List<Long> expireAtMillis,
                                 BoardOptions options, String mode, String member, String value) {
        List<String> argv = writeArgs(options, expireAtMillis, mode, member, value);
        return placements(member, store.eval(BoardScripts.WRITE, scriptKeys(metaKey, boards), argv));
    }

    /** ARGV of {@link BoardScripts#WRITE}. */
    private static List<String> writeArgs(BoardOptions options, List<Long> expireAtMillis, String mode, String member, String value) {
        member(member);
        List<String> argv = new ArrayList<>(6 + expireAtMillis.size());
        argv.add(options.order());
        argv.add(options.tieRule().wire);
        argv.add(mode);
        argv.add(member);
        argv.add(value);
        argv.add(options.arrivalClock() == null ? "" : Long.toString(options.arrivalClock().millis()));
        expireAtMillis.forEach(at -> argv.add(Long.toString(at)));
        return argv;
    }

    /** The reply of {@link BoardScripts#WRITE}: a placement per board. */
    private static List<Placement<String>> placements(String member, Reply reply) {
        List<Reply> r = reply.asList();
        List<Placement<String>> out = new ArrayList<>(r.size() / 2);
        for (int i = 0; i < r.size(); i += 2) {
            out.add(new Placement<>(member, r.get(i).asDouble(), r.get(i + 1).asLong()));
        }
        return out;
    }

    /** Removes a member from several boards in one script. */
    static boolean remove(Store store, String metaKey, List<BoardKeys> boards, BoardOptions options, String member, boolean dropMetadata) {
        List<String> argv = List.of(options.order(), options.tieRule().wire, member(member), dropMetadata ? "1" : "0");
        return store.eval(BoardScripts.REMOVE, scriptKeys(metaKey, boards), argv).asLong() == 1L;
    }

    /** KEYS as every board script takes them: the metadata hash, then each board's keys (see {@link BoardScripts}). */
    private static List<String> scriptKeys(String metaKey, List<BoardKeys> boards) {
        List<String> keys = new ArrayList<>(1 + 3 * boards.size());
        keys.add(metaKey);
        boards.forEach(b -> keys.addAll(b.all()));
        return keys;
    }

    private static String member(String member) {
        return Objects.requireNonNull(member, "member");
    }

    /** Refuses a window outside 0..{@link #MAX_WINDOW}, naming the argument {@code what}. */
    static void checkWindow(String what, int n) {
        if (n < 0 || n > MAX_WINDOW) {
            throw new IllegalArgumentException(what + " must be between 0 and " + MAX_WINDOW + ", got " + n);
        }
    }
}
