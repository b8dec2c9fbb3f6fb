package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Scores;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * One board split over N shard boards ({@code {name#0}} .. {@code {name#N-1}}), each under its own
 * hash tag so a cluster spreads them over its nodes. A member lives on one shard, picked by a
 * CRC-32 of its name, so a write touches one shard and one node.
 *
 * <p>Reads stay exact. The global order is the single-board order (score, then member bytes),
 * so: top N merges the shards' top N; a member's global rank is one plus, summed over shards, the
 * entries ranked before it (strictly better scores, plus level scores with members ordered
 * before it under {@link TieRule#MEMBER_ORDER}); the window around a member merges each shard's
 * entries within a window's reach of the member's position there. The shards are read together
 * (pipelined, and in parallel across a cluster's nodes). A read across shards is not one atomic
 * snapshot: writes landing during it may or may not be seen, as with any multi-key read on a
 * cluster (around() reads again when the member itself moved meanwhile).
 *
 * <p>Tie rules: {@link TieRule#MEMBER_ORDER} and {@link TieRule#COMPETITION}. (First-reached and
 * dense ranks need state shared by all members, which a sharded board exists to avoid.)
 */
public final class ShardedLeaderboard implements Board<String> {
    /** The most shards one board may have. */
    public static final int MAX_SHARDS = 1024;

    /** How often around() reads again when the member moves while the shards are read. */
    private static final int MAX_ATTEMPTS = 5;

    /**
     * In one shard, where (score, member) stands: {position, strictly better, size, then the
     * entries (member, score) at positions position - reach .. position + reach, none when reach is negative}. The position
     * counts the entries ordered before (score, member), found among level scores by a binary
     * search that compares member bytes as Redis does. ARGV: order, score, member, reach.
     */
    private static final Script VIEW = Script.fromResource(ShardedLeaderboard.class, "shard_view.lua");

    private final Store store;
    private final String name;
    private final BoardOptions options;
    private final List<Leaderboard> shards;
    private final Comparator<Entry<String>> order;
    /** Told of each public call; {@link BoardObserver#NONE} unless {@link #withObserver} gave another. */
    private final BoardObserver observer;
    /** This board without an observer, which runs the calls {@link #observer} is told of: this board when it has none. */
    private final ShardedLeaderboard unobserved;
    private volatile RuntimeException lastSnapshotFailure;

    /** A half-built snapshot of a run that died expires after this long. */
    private static final long BUILDING_TTL_MILLIS = 3_600_000;

    private ShardedLeaderboard(Store store, String name, int shardCount, BoardOptions options) {
        this.store = Objects.requireNonNull(store, "store");
        this.name = name;
        this.options = options;
        List<Leaderboard> list = new ArrayList<>(shardCount);
        for (int i = 0; i < shardCount; i++) {
            String key = "{" + name + "#" + i + "}";
            list.add(new Leaderboard(store, BoardKeys.of(key), key + ":meta", options, true, 0));
        }
        this.shards = List.copyOf(list);
        Comparator<Entry<String>> ascending = Comparator.comparingDouble((Entry<String> e) -> e.score())
                .thenComparing((a, b) -> Arrays.compareUnsigned(utf8(a.member()), utf8(b.member())));
        this.order = options.descending() ? ascending.reversed() : ascending;
        this.observer = BoardObserver.NONE;
        this.unobserved = this;
    }

    /** {@code board}'s shards, each public call (its shards' too) told to {@code observer}. */
    private ShardedLeaderboard(ShardedLeaderboard board, BoardObserver observer) {
        this.store = board.store;
        this.name = board.name;
        this.options = board.options;
        this.shards = board.unobserved.shards.stream().map(s -> s.withObserver(observer)).toList();
        this.order = board.order;
        this.observer = Objects.requireNonNull(observer, "observer");
        this.unobserved = board.unobserved;
    }

    /**
     * This board, on the same shards, telling {@code observer} of each public call that reads or
     * writes it (besides any observer this one has, which is told first), and the shard boards it hands out ({@link
     * #shards}, {@link #shardOf}) telling it of theirs; {@link BoardObserver#NONE} gives the board
     * without any. This board is unchanged; a snapshot schedule belongs to the board that made it.
     *
     * @param observer told of each call
     * @return the board with that observer
     */
    public ShardedLeaderboard withObserver(BoardObserver observer) {
        return observer == BoardObserver.NONE ? unobserved : new ShardedLeaderboard(this, BoardObserver.both(this.observer, observer));
    }

    /**
     * A board called {@code name} (no braces: the shards add their own hash tags) over {@code shards} shards.
     *
     * @param store where the shards live
     * @param name the board's name, without braces
     * @param shards how many shards to spread members over, 1 to {@link #MAX_SHARDS}
     * @param options how every shard sorts and ranks
     * @return the sharded board
     */
    public static ShardedLeaderboard create(Store store, String name, int shards, BoardOptions options) {
        if (name.indexOf('{') >= 0 || name.indexOf('}') >= 0) {
            throw new IllegalArgumentException("a sharded board's name cannot hold braces: each shard takes its own hash tag");
        }
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new IllegalArgumentException("shards must be between 1 and " + MAX_SHARDS + ", got " + shards);
        }
        if (options.tieRule() != TieRule.MEMBER_ORDER && options.tieRule() != TieRule.COMPETITION) {
            throw new IllegalArgumentException("a sharded board ranks ties by MEMBER_ORDER or COMPETITION, not " + options.tieRule());
        }
        return new ShardedLeaderboard(store, name, shards, options);
    }

    /**
     * The shard board holding {@code member}.
     *
     * @param member the member to place
     * @return its shard, chosen by the CRC32 of its name
     */
    public Leaderboard shardOf(String member) {
        CRC32 crc = new CRC32();
        crc.update(utf8(member));
        return shards.get((int) (crc.getValue() % shards.size()));
    }

    /**
     * The shard boards, in shard order.
     *
     * @return the shards
     */
    public List<Leaderboard> shards() {
        return shards;
    }

    /**
     * Adds points on the member's shard; returns the new score and the member's global rank, read
     * from every shard just after the write (so not atomically with it). {@link #incrementScore}
     * writes alone.
     */
    @Override
    public Placement<String> addPoints(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPoints(member, points));
        }
        return placed(member, shardOf(member).incrementScore(member, points));
    }

    /**
     * Adds points on the member's shard; returns only the new score: one command on one shard.
     *
     * @param member the member whose score changes
     * @param points the points to add, finite; negative to take some away
     * @return the member's new score
     */
    public double incrementScore(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "incrementScore", () -> unobserved.incrementScore(member, points));
        }
        return shardOf(member).incrementScore(member, points);
    }

    /** {@link #addPoints}, without blocking. */
    @Override
    public CompletionStage<Placement<String>> addPointsAsync(String member, double points) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.WRITE, "addPoints", () -> unobserved.addPointsAsync(member, points));
        }
        return shardOf(member).addPointsAsync(member, points)
                .thenCompose(p -> rankOfAsync(member, p.score()).thenApply(rank -> new Placement<>(member, p.score(), rank)));
    }

    /** Sets the member's score; returns it with the global rank read just after the write. */
    @Override
    public Placement<String> setScore(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "setScore", () -> unobserved.setScore(member, score));
        }
        return placed(member, shardOf(member).setScore(member, score).score());
    }

    /** Keeps the better of the member's score and {@code score}; returns the score kept with the global rank read just after. */
    @Override
    public Placement<String> keepBest(String member, double score) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "keepBest", () -> unobserved.keepBest(member, score));
        }
        return placed(member, shardOf(member).keepBest(member, score).score());
    }

    private Placement<String> placed(String member, double score) {
        return new Placement<>(member, score, rankOf(member, score));
    }

    /** Removes the member; true if it was on the board. */
    @Override
    public boolean remove(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "remove", () -> unobserved.remove(member));
        }
        return shardOf(member).remove(member);
    }

    /** The member's score, empty when it is not on the board. */
    @Override
    public OptionalDouble score(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "score", () -> unobserved.score(member));
        }
        return shardOf(member).score(member);
    }

    /** {@link #score}, without blocking. */
    @Override
    public CompletionStage<OptionalDouble> scoreAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "score", () -> unobserved.scoreAsync(member));
        }
        return shardOf(member).scoreAsync(member);
    }

    /** How many members all shards hold. */
    @Override
    public long count() {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "count", () -> unobserved.count());
        }
        long n = 0;
        for (Reply reply : store.callAll(shards.stream().map(s -> StoreCommand.of("ZCARD").key(s.key())).toList())) {
            n += reply.asLong();
        }
        return n;
    }

    /** The member's global 1-based rank under the tie rule, empty when it is not on the board. */
    @Override
    public OptionalLong rank(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "rank", () -> unobserved.rank(member));
        }
        OptionalDouble score = score(member);
        if (score.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(rankOf(member, score.getAsDouble()));
    }

    /** {@link #rank}, without blocking. */
    @Override
    public CompletionStage<OptionalLong> rankAsync(String member) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "rank", () -> unobserved.rankAsync(member));
        }
        return scoreAsync(member).thenCompose(score -> score.isEmpty()
                ? CompletableFuture.completedFuture(OptionalLong.empty())
                : rankOfAsync(member, score.getAsDouble()).thenApply(OptionalLong::of));
    }

    /** The global rank (score, member) has: 1 + the entries ordered before it (or scoring strictly better, for competition ranks). */
    private long rankOf(String member, double score) {
        return rankOf(viewReplies(store.evalAll(VIEW, viewKeys(), viewArgs(score, member, -1))));
    }

    private CompletionStage<Long> rankOfAsync(String member, double score) {
        return store.evalAllAsync(VIEW, viewKeys(), viewArgs(score, member, -1)).thenApply(r -> rankOf(viewReplies(r)));
    }

    private long rankOf(List<List<Reply>> views) {
        long before = 0;
        for (List<Reply> v : views) {
            before += v.get(options.tieRule() == TieRule.COMPETITION ? 1 : 0).asLong();
        }
        return before + 1;
    }

    /** The first {@code n} entries of the whole board. */
    @Override
    public List<Entry<String>> top(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "top", () -> unobserved.top(n));
        }
        Leaderboard.checkWindow("n", n);
        if (n == 0) {
            return List.of();
        }
        if (options.metadata()) {
            return topOf(metadataTops(n, store.evalAll(BoardScripts.RANGE, topKeys(), topArgs(n))), n);
        }
        TopRounds rounds = new TopRounds(n);
        for (List<StoreCommand> reads = rounds.next(); reads != null; reads = rounds.next()) {
            rounds.take(store.callAll(reads));
        }
        return topOf(rounds.all, n);
    }

    /** {@link #top}, without blocking. */
    @Override
    public CompletionStage<List<Entry<String>>> topAsync(int n) {
        if (observer != BoardObserver.NONE) {
            return observer.observeAsync(BoardObserver.Access.READ, "top", () -> unobserved.topAsync(n));
        }
        Leaderboard.checkWindow("n", n);
        if (n == 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        if (options.metadata()) {
            return store.evalAllAsync(BoardScripts.RANGE, topKeys(), topArgs(n)).thenApply(r -> topOf(metadataTops(n, r), n));
        }
        TopRounds rounds = new TopRounds(n);
        return roundsAsync(rounds).thenApply(all -> topOf(all, n));
    }

    /** Runs the rounds of {@code rounds} one after another without blocking; completes with every entry read. */
    private CompletionStage<List<Entry<String>>> roundsAsync(TopRounds rounds) {
        List<StoreCommand> reads = rounds.next();
        if (reads == null) {
            return CompletableFuture.completedFuture(rounds.all);
        }
        return store.callAllAsync(reads).thenCompose(replies -> {
            rounds.take(replies);
            return roundsAsync(rounds);
        });
    }

    private List<List<String>> topKeys() {
        List<List<String>> keys = new ArrayList<>(shards.size());
        for (Leaderboard s : shards) {
            keys.add(s.scriptKeys());
        }
        return keys;
    }

    private List<List<String>> topArgs(int n) {
        List<List<String>> args = new ArrayList<>(shards.size());
        for (Leaderboard s : shards) {
            args.add(s.rangeArgs(0, n - 1));
        }
        return args;
    }

    /** Every shard's top {@code n} with metadata, from the replies of RANGE on each. */
    private List<Entry<String>> metadataTops(int n, List<Reply> replies) {
        List<Entry<String>> all = new ArrayList<>(n);
        for (int i = 0; i < shards.size(); i++) {
            all.addAll(shards.get(i).entries(replies.get(i).asList()));
        }
        return all;
    }

    /** The best {@code n} of {@code all}, ranked. */
    private List<Entry<String>> topOf(List<Entry<String>> all, int n) {
        all.sort(order);
        return ranked(all.subList(0, Math.min(n, all.size())), 0, 1);
    }

    /**
     * Enough of each shard's best entries to hold the board's best {@code n}, read in rounds: each
     * shard is first asked for about twice its fair share of {@code n}, and asked again (for twice
     * as many, never past {@code n}) only while it may hide more of the best {@code n}: while it
     * gave all it was asked for and its last entry does not come after the {@code n}-th best read
     * so far. Exact, and usually one round reading a fraction of the {@code n} per shard that
     * merging whole shard tops would read. Not thread-safe: one per read.
     */
    private final class TopRounds {
        private final int n;
        private final int count = shards.size();
        private final int[] have = new int[count];
        private final int[] asked = new int[count];
        private final List<Entry<String>> last = new ArrayList<>(Collections.nCopies(count, null));
        private final boolean[] done = new boolean[count];
        private final List<Entry<String>> all = new ArrayList<>();
        private List<Integer> reading = List.of();

        TopRounds(int n) {
            this.n = n;
            Arrays.fill(asked, Math.min(n, 2 * ((n + count - 1) / count) + 2));
        }

        /** The reads of the next round, or null when every entry needed has been read. */
        List<StoreCommand> next() {
            List<Integer> shardsRead = new ArrayList<>();
            List<StoreCommand> ranges = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                if (!done[i] && have[i] < asked[i]) {
                    shardsRead.add(i);
                    ranges.add(StoreCommand.of(options.descending() ? "ZREVRANGE" : "ZRANGE").key(shards.get(i).key())
                            .arg(have[i]).arg(asked[i] - 1).arg("WITHSCORES"));
                }
            }
            reading = shardsRead;
            return ranges.isEmpty() ? null : ranges;
        }

        /** Takes the replies of the round {@link #next} gave, and decides what the next round asks. */
        void take(List<Reply> replies) {
            for (int k = 0; k < reading.size(); k++) {
                int i = reading.get(k);
                List<Reply> r = replies.get(k).asList();
                for (int j = 0; j < r.size(); j += 2) {
                    last.set(i, new Entry<>(r.get(j).asString(), r.get(j + 1).asDouble(), 0, Map.of()));
                    all.add(last.get(i));
                }
                have[i] += r.size() / 2;
                done[i] = have[i] < asked[i] || have[i] >= n;
            }
            Entry<String> nth = null;
            if (all.size() >= n) {
                all.sort(order);
                nth = all.get(n - 1);
            }
            for (int i = 0; i < count; i++) {
                if (!done[i] && (nth == null || order.compare(last.get(i), nth) <= 0)) {
                    asked[i] = (int) Math.min(n, 2L * asked[i]);
                } else {
                    done[i] = true;
                }
            }
        }
    }

    /**
     * A window of {@code size} entries holding the member, as central as the board's edges allow
     * and full whenever the board has {@code size} entries; empty when the member is absent.
     */
    @Override
    public List<Entry<String>> around(String member, int size) {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.READ, "around", () -> unobserved.around(member, size));
        }
        Leaderboard.checkWindow("size", size);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            OptionalDouble score = score(member);
            if (score.isEmpty() || size == 0) {
                return List.of();
            }
            List<Entry<String>> window = aroundScore(member, score.getAsDouble(), size);
            if (window != null) {
                return options.metadata() ? withMetadata(window) : window;
            }
        }
        throw new IllegalStateException("member " + member + " moved during each of " + MAX_ATTEMPTS + " reads of the window around it");
    }

    /** The window around (score, member), or null when the member's score changed while the shards were read. */
    private List<Entry<String>> aroundScore(String member, double score, int size) {
        long before = 0;
        long total = 0;
        List<Entry<String>> near = new ArrayList<>();
        for (List<Reply> v : views(score, member, size - 1)) {
            before += v.get(0).asLong();
            total += v.get(2).asLong();
            for (int i = 3; i < v.size(); i += 2) {
                near.add(new Entry<>(v.get(i).asString(), v.get(i + 1).asDouble(), 0, Map.of()));
            }
        }
        near.sort(order);
        int self = 0;
        while (self < near.size() && !near.get(self).member().equals(member)) {
            self++;
        }
        if (self == near.size() || near.get(self).score() != score) {
            return null;
        }
        long start = Math.max(0, Math.min(before - (size - 1) / 2, total - size));
        int from = (int) (self - (before - start));
        List<Entry<String>> window = near.subList(from, Math.min(near.size(), from + size));
        long firstRank = start + 1;
        if (options.tieRule() == TieRule.COMPETITION) {
            firstRank = 1 + strictlyBetter(window.get(0).score());
        }
        return ranked(window, start, firstRank);
    }

    /** The entries with each member's metadata, read from the members' shards together. */
    private List<Entry<String>> withMetadata(List<Entry<String>> entries) {
        List<StoreCommand> reads = new ArrayList<>(entries.size());
        for (Entry<String> e : entries) {
            reads.add(StoreCommand.of("HGET").key(shardOf(e.member()).key() + ":meta").arg(e.member()));
        }
        List<Reply> metas = store.callAll(reads);
        List<Entry<String>> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            Entry<String> e = entries.get(i);
            out.add(new Entry<>(e.member(), e.score(), e.rank(), Metadata.decode(metas.get(i))));
        }
        return out;
    }

    /**
     * Merges every shard into one sorted set, {@code {name}:snapshot}, for consumers that want a
     * single key: ZUNIONSTORE on one server; on a cluster (where the shards live on other nodes)
     * a ZSCAN of each shard into a key of this run's own, renamed over the snapshot at the end
     * (so runs from several processes never mix). Returns the snapshot's size.
     *
     * @return the number of members in the snapshot
     */
    public long mergeSnapshot() {
        if (observer != BoardObserver.NONE) {
            return observer.observe(BoardObserver.Access.WRITE, "mergeSnapshot", () -> unobserved.mergeSnapshot());
        }
        String snapshot = snapshotKey();
        if (!store.clustered()) {
            StoreCommand union = StoreCommand.of("ZUNIONSTORE").key(snapshot).arg(shards.size());
            shards.forEach(s -> union.key(s.key()));
            return store.call(union).asLong();
        }
        String building = snapshot + ":building:" + UUID.randomUUID();
        boolean any = false;
        for (Leaderboard s : shards) {
            String cursor = "0";
            do {
                List<Reply> page = store.call(StoreCommand.of("ZSCAN").key(s.key()).arg(cursor).arg("COUNT").arg(1000)).asList();
                cursor = page.get(0).asString();
                List<Reply> items = page.get(1).asList();
                if (!items.isEmpty()) {
                    StoreCommand add = StoreCommand.of("ZADD").key(building);
                    for (int i = 0; i < items.size(); i += 2) {
                        add.arg(items.get(i + 1).asString()).arg(items.get(i).asString());
                    }
                    store.call(add);
                    if (!any) {
                        store.call(StoreCommand.of("PEXPIRE").key(building).arg(BUILDING_TTL_MILLIS));
                        any = true;
                    }
                }
            } while (!cursor.equals("0"));
        }
        if (!any) {
            store.call(StoreCommand.of("DEL").key(snapshot));
            return 0;
        }
        store.call(StoreCommand.of("PERSIST").key(building));
        store.call(StoreCommand.of("RENAME").key(building).key(snapshot));
        return store.call(StoreCommand.of("ZCARD").key(snapshot)).asLong();
    }

    /**
     * Runs {@link #mergeSnapshot()} every {@code interval} on {@code executor}. A failed run
     * (the database unreachable, say) does not stop later ones; see {@link #lastSnapshotFailure()}.
     *
     * @param executor where the merges run
     * @param interval the time between merges
     * @return the scheduled task; cancel it to stop
     */
    public ScheduledFuture<?> scheduleSnapshots(ScheduledExecutorService executor, Duration interval) {
        long ms = interval.toMillis();
        return executor.scheduleAtFixedRate(() -> {
            try {
                mergeSnapshot();
                lastSnapshotFailure = null;
            } catch (RuntimeException e) {
                lastSnapshotFailure = e;
            }
        }, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Why the last scheduled snapshot failed, or empty when it succeeded (or none has run).
     *
     * @return the last failure, or empty
     */
    public Optional<RuntimeException> lastSnapshotFailure() {
        return Optional.ofNullable(lastSnapshotFailure);
    }

    /**
     * The key {@link #mergeSnapshot()} writes.
     *
     * @return the snapshot's key, {@code {name}:snapshot}
     */
    public String snapshotKey() {
        return "{" + name + "}:snapshot";
    }

    /**
     * A local cache of the top {@code n}, never older than {@code maxAge}.
     *
     * @param n how many entries to cache, from the top
     * @param maxAge how old the cached entries may be
     * @return the cache
     */
    public CachedTop cachedTop(int n, Duration maxAge) {
        return CachedTop.of(() -> top(n), maxAge);
    }

    private long strictlyBetter(double score) {
        String bound = "(" + Scores.format(score);
        List<StoreCommand> counts = new ArrayList<>(shards.size());
        for (Leaderboard s : shards) {
            counts.add(options.descending()
                    ? StoreCommand.of("ZCOUNT").key(s.key()).arg(bound).arg("+inf")
                    : StoreCommand.of("ZCOUNT").key(s.key()).arg("-inf").arg(bound));
        }
        long n = 0;
        for (Reply reply : store.callAll(counts)) {
            n += reply.asLong();
        }
        return n;
    }

    /** Each shard's {@link #VIEW} of (score, member), read together. */
    private List<List<Reply>> views(double score, String member, int reach) {
        return viewReplies(store.evalAll(VIEW, viewKeys(), viewArgs(score, member, reach)));
    }

    private List<List<String>> viewKeys() {
        List<List<String>> keys = new ArrayList<>(shards.size());
        for (Leaderboard s : shards) {
            keys.add(List.of(s.key()));
        }
        return keys;
    }

    private List<List<String>> viewArgs(double score, String member, int reach) {
        List<String> args = List.of(options.order(), Scores.format(score), member, Integer.toString(reach));
        return Collections.nCopies(shards.size(), args);
    }

    private static List<List<Reply>> viewReplies(List<Reply> replies) {
        List<List<Reply>> views = new ArrayList<>(replies.size());
        for (Reply reply : replies) {
            views.add(reply.asList());
        }
        return views;
    }

    /** Entries in global order starting at 0-based position {@code start}, ranked by the tie rule. */
    private List<Entry<String>> ranked(List<Entry<String>> entries, long start, long firstRank) {
        List<Entry<String>> out = new ArrayList<>(entries.size());
        long rank = firstRank;
        for (int i = 0; i < entries.size(); i++) {
            Entry<String> e = entries.get(i);
            if (i > 0 && (options.tieRule() == TieRule.MEMBER_ORDER || e.score() != entries.get(i - 1).score())) {
                rank = start + i + 1;
            }
            out.add(new Entry<>(e.member(), e.score(), rank, e.metadata()));
        }
        return out;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
