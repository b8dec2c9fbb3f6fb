package dev.ordo.console;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Placement;
import dev.ordo.patterns.leaderboard.ScoreCodec;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.ScriptedLimiter;
import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the Ordo Console shows and does, over the patterns' {@link Store} port, so the same
 * console runs on embedded Ordo, an Ordo server, Redis and Redis Cluster. Every answer is a plain
 * value (records, lists, maps) that {@link ConsoleHttp} writes as JSON.
 *
 * <p>Nothing here reads unbounded data: every list of data is a page of at most
 * {@link ConsoleOptions#maxPage()} rows, key browsing is one SCAN step with a bounded COUNT,
 * sampling a limiter's keys stops after {@link #LIMITER_SCAN_STEPS} SCAN steps or
 * {@code maxPage} keys, a sharded board's merged view reaches {@link #MAX_MERGED_DEPTH} places,
 * and the pattern list is the registry's, which holds at most 10,000 entries. Writes are refused unless
 * the console is {@link ConsoleOptions#writable()}, and each one is logged with who asked.
 */
public final class Console implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Console.class.getName());
    /** The most SCAN steps sampling a limiter's keys takes. */
    static final int LIMITER_SCAN_STEPS = 20;
    /** The most keys one SCAN step may be asked to look at. */
    static final int MAX_SCAN_COUNT = 1000;
    /** Around-me windows reach at most this many places on each side. */
    static final int MAX_WINDOW = 50;
    /** A sharded board's merged view pages through at most this many leading places. */
    static final int MAX_MERGED_DEPTH = 10_000;

    private final Store store;
    private final List<Store> nodes;
    private final ConsoleOptions options;
    private final Catalog catalog;
    private final LiveFeed feed;
    private final String description;

    /**
     * A console over one server; {@code description} says which (shown, never a password).
     *
     * @param store the database
     * @param description what to call it on screen
     * @param options how the console behaves
     */
    public Console(Store store, String description, ConsoleOptions options) {
        this(store, List.of(store), description, options);
    }

    /**
     * A console over a database of several nodes (a Redis Cluster): {@code store} reaches keys
     * wherever they live; {@code nodes}, one store per master, serve what each node answers for
     * itself (INFO, which the overview sums; SCAN, which key browsing walks node by node).
     *
     * @param store the database
     * @param nodes one store per master node, in a fixed order
     * @param description what to call it on screen
     * @param options how the console behaves
     */
    public Console(Store store, List<Store> nodes, String description, ConsoleOptions options) {
        this(store, nodes, description, options, List.of());
    }

    /**
     * A console that also knows {@code declared} patterns without reading them from the registry
     * (an application's own, which the console mounted in it shows even when the registry could
     * not be written); where both name the same pattern, the declared one wins.
     *
     * @param store the database
     * @param nodes one store per master node, in a fixed order
     * @param description what to call it on screen
     * @param options how the console behaves
     * @param declared patterns known without the registry
     */
    public Console(Store store, List<Store> nodes, String description, ConsoleOptions options, List<PatternInfo> declared) {
        this.store = Objects.requireNonNull(store, "store");
        this.nodes = List.copyOf(nodes);
        if (this.nodes.isEmpty()) {
            throw new IllegalArgumentException("a console needs at least one node");
        }
        this.options = Objects.requireNonNull(options, "options");
        this.description = description;
        this.catalog = new Catalog(store, options.registryKey(), declared);
        this.feed = new LiveFeed(this.nodes, options);
    }

    ConsoleOptions options() {
        return options;
    }

    LiveFeed feed() {
        return feed;
    }

    // ------------------------------------------------------------------ overview

    record About(String store, boolean writable, int maxPage, boolean clustered) {
    }

    About about() {
        return new About(description, options.writable(), options.maxPage(), store.clustered());
    }

    record Overview(LiveFeed.Sample now, List<LiveFeed.Sample> history) {
    }

    Overview overview() {
        return new Overview(feed.current(), feed.history());
    }

    record PatternView(String kind, String name, Map<String, String> settings) {
    }

    List<PatternView> patterns() {
        List<PatternView> out = new ArrayList<>();
        for (PatternInfo p : catalog.all()) {
            out.add(new PatternView(p.kind().id(), p.name(), p.settings()));
        }
        return out;
    }

    // ------------------------------------------------------------------ leaderboards

    /** One place of a board; {@code dimensions} holds a composite score's decoded fields, else nothing. */
    record Row(long rank, String member, Object score, Map<String, String> metadata, Map<String, Long> dimensions) {
        static Row of(Entry<String> e, ScoreCodec codec) {
            return new Row(e.rank(), e.member(), Console.score(e.score()), e.metadata(), decoded(codec, e.score()));
        }
    }

    /** A composite score's fields by name, or an empty map without a codec or for a score it did not write. */
    static Map<String, Long> decoded(ScoreCodec codec, double score) {
        if (codec == null) {
            return Map.of();
        }
        try {
            long[] values = codec.decode(score);
            Map<String, Long> out = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                out.put(codec.dimensions().get(i).name(), values[i]);
            }
            return out;
        } catch (IllegalArgumentException notPacked) {
            return Map.of();
        }
    }

    record BoardPage(String name, String kind, String order, String tieRule, List<String> periods, String period, int shards,
                     List<String> dimensions, long count, int offset, int limit, List<Row> rows) {
    }

    BoardPage board(String name, String period, int offset, int limit) {
        PatternInfo info = catalog.find(PatternInfo.Kind.LEADERBOARD, name);
        checkPage(offset, limit);
        ScoreCodec codec = Catalog.codec(info);
        List<String> periods = Catalog.periods(info);
        int shards = Catalog.shards(info);
        String kind = shards > 1 ? "sharded" : periods.isEmpty() ? "single" : "periodic";
        String shown = shards > 1 ? null : Catalog.period(info, period);
        List<Row> rows = new ArrayList<>();
        long count;
        if (shards > 1) {
            ShardedLeaderboard sharded = (ShardedLeaderboard) catalog.board(info);
            if ((long) offset + limit > MAX_MERGED_DEPTH) {
                throw ApiException.badRequest("a sharded board's merged view reaches the first " + MAX_MERGED_DEPTH + " places");
            }
            List<Entry<String>> top = sharded.top(offset + limit);
            for (int i = offset; i < top.size(); i++) {
                rows.add(Row.of(top.get(i), codec));
            }
            count = sharded.count();
        } else {
            Leaderboard board = (Leaderboard) catalog.board(info, shown);
            if (offset % limit != 0) {
                throw ApiException.badRequest("offset must be a multiple of limit (a page), got offset " + offset + " and limit " + limit);
            }
            for (Entry<String> e : board.page(offset / limit + 1, limit)) {
                rows.add(Row.of(e, codec));
            }
            count = board.count();
        }
        return new BoardPage(name, kind, info.setting("order", "highest-first"), info.setting("tie-rule", "member-order"),
                periods, shown, shards, codec == null ? List.of() : codec.dimensions().stream().map(ScoreCodec.Dimension::name).toList(),
                count, offset, limit, rows);
    }

    record MemberView(String member, boolean found, long rank, Object score, Map<String, Long> dimensions, Double percentile, List<Row> around) {
    }

    MemberView member(String name, String period, String member, int window) {
        if (window < 0 || window > MAX_WINDOW) {
            throw ApiException.badRequest("window must be 0 to " + MAX_WINDOW + ", got " + window);
        }
        PatternInfo info = catalog.find(PatternInfo.Kind.LEADERBOARD, name);
        Board<String> board = catalog.board(info, period);
        ScoreCodec codec = Catalog.codec(info);
        OptionalLong rank = board.rank(member);
        if (rank.isEmpty()) {
            return new MemberView(member, false, -1, null, Map.of(), null, List.of());
        }
        OptionalDouble score = board.score(member);
        Double percentile = board instanceof Leaderboard single ? boxed(single.percentile(member)) : null;
        List<Row> around = new ArrayList<>();
        for (Entry<String> e : board.around(member, 2 * window + 1)) {
            around.add(Row.of(e, codec));
        }
        double s = score.orElse(Double.NaN);
        return new MemberView(member, true, rank.getAsLong(), score(s), decoded(codec, s), percentile, around);
    }

    record Placed(String member, long rank, Object score) {
    }

    Placed setScore(String name, String period, String member, double score, String who) {
        checkWritable();
        Board<String> board = boardFor(name, period);
        Placement<String> p = board.setScore(member, score);
        LOG.log(System.Logger.Level.INFO, "console write by " + who + ": board '" + name + "'" + (period == null ? "" : " (" + period + ")")
                + ", member '" + member + "' score set to " + score + ", now rank " + p.rank());
        return new Placed(p.member(), p.rank(), score(p.score()));
    }

    boolean removeMember(String name, String period, String member, String who) {
        checkWritable();
        boolean removed = boardFor(name, period).remove(member);
        LOG.log(System.Logger.Level.INFO, "console write by " + who + ": board '" + name + "'" + (period == null ? "" : " (" + period + ")")
                + ", member '" + member + "' removed: " + removed);
        return removed;
    }

    private Board<String> boardFor(String name, String period) {
        return catalog.board(catalog.find(PatternInfo.Kind.LEADERBOARD, name), period);
    }

    // ------------------------------------------------------------------ queues

    record QueueView(String name, String type, Map<String, Long> counts, Map<Integer, Long> depthByPriority, long nextDueInMs) {
    }

    QueueView queue(String name) {
        PatternInfo info = catalog.queue(name);
        if (info.kind() == PatternInfo.Kind.PRIORITY_QUEUE) {
            PriorityJobQueue<String> q = catalog.priorityQueue(info);
            Map<Integer, Long> depth = q.depthByPriority();
            long total = depth.values().stream().mapToLong(Long::longValue).sum();
            return new QueueView(name, "priority", Map.of("ready", total), depth, -1);
        }
        DelayedJobQueue.Counts c = catalog.delayedQueue(info).counts();
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("ready", c.ready());
        counts.put("delayed", c.delayed());
        counts.put("inFlight", c.inFlight());
        counts.put("dead", c.dead());
        return new QueueView(name, "delayed", counts, Map.of(), -1);
    }

    record DueHistogram(long from, long bucketMs, List<Long> counts, long later) {
    }

    DueHistogram due(String name, long bucketMs, int buckets) {
        if (buckets < 1 || buckets > 100 || bucketMs < 1) {
            throw ApiException.badRequest("a due histogram takes 1 to 100 buckets of at least 1 ms");
        }
        DelayedJobQueue<String> q = catalog.delayedQueue(delayedInfo(name));
        Instant now = Instant.now();
        List<Long> counts = q.dueHistogram(now, Duration.ofMillis(bucketMs), buckets);
        return new DueHistogram(now.toEpochMilli(), bucketMs, counts.subList(0, buckets), counts.get(buckets));
    }

    record InFlightRow(String id, int attempt, long deadline, long claimAgeMs) {
    }

    List<InFlightRow> inFlight(String name, int limit) {
        checkPage(0, limit);
        PatternInfo info = delayedInfo(name);
        long timeout = Catalog.visibilityTimeout(info).toMillis();
        long now = System.currentTimeMillis();
        List<InFlightRow> out = new ArrayList<>();
        for (DelayedJobQueue.InFlight f : catalog.delayedQueue(info).inFlight(limit)) {
            long deadline = f.deadline().toEpochMilli();
            out.add(new InFlightRow(f.id(), f.attempt(), deadline, Math.max(0, now - (deadline - timeout))));
        }
        return out;
    }

    record DeadGroup(String reason, int count, List<DeadRow> jobs) {
    }

    record DeadRow(String id, String payload) {
    }

    /** The oldest {@code limit} dead letters, grouped by reason (groups by size, largest first). */
    List<DeadGroup> dead(String name, int limit) {
        checkPage(0, limit);
        Map<String, List<DeadRow>> byReason = new LinkedHashMap<>();
        for (DelayedJobQueue.DeadJob<String> d : catalog.delayedQueue(delayedInfo(name)).deadLetters(limit)) {
            byReason.computeIfAbsent(d.reason(), r -> new ArrayList<>()).add(new DeadRow(d.id(), d.payload()));
        }
        List<DeadGroup> out = new ArrayList<>();
        byReason.forEach((reason, jobs) -> out.add(new DeadGroup(reason, jobs.size(), jobs)));
        out.sort((a, b) -> Integer.compare(b.count(), a.count()));
        return out;
    }

    int retryDead(String name, List<String> ids, String who) {
        checkWritable();
        if (ids.isEmpty() || ids.size() > options.maxPage()) {
            throw ApiException.badRequest("retry 1 to " + options.maxPage() + " dead letters at a time, got " + ids.size());
        }
        int n = catalog.delayedQueue(delayedInfo(name)).retryDead(ids);
        LOG.log(System.Logger.Level.INFO, "console write by " + who + ": queue '" + name + "', " + n + " of " + ids.size() + " dead letters retried: " + ids);
        return n;
    }

    int purgeDead(String name, int max, String who) {
        checkWritable();
        checkPage(0, max);
        int n = catalog.delayedQueue(delayedInfo(name)).purgeDead(max);
        LOG.log(System.Logger.Level.INFO, "console write by " + who + ": queue '" + name + "', " + n + " dead letters purged (asked up to " + max + ")");
        return n;
    }

    private PatternInfo delayedInfo(String name) {
        PatternInfo info = catalog.queue(name);
        if (info.kind() != PatternInfo.Kind.DELAYED_QUEUE) {
            throw ApiException.badRequest("queue '" + name + "' is a priority queue: it has no delayed, in-flight or dead jobs");
        }
        return info;
    }

    // ------------------------------------------------------------------ rate limiters

    record LimitView(long permits, long windowMs) {
    }

    record KeyStanding(String key, long remaining, long permits, double used, int limit) {
    }

    record LimiterView(String name, String algorithm, List<LimitView> limits, List<KeyStanding> nearest, int keysSeen, boolean complete) {
    }

    /**
     * The limiter's limits and its keys nearest their limit: SCAN (never KEYS) over at most
     * {@link #LIMITER_SCAN_STEPS} steps of {@code count}, each distinct key then peeked, the
     * {@code top} most used first.
     */
    LimiterView limiter(String name, int top, int count) {
        checkPage(0, top);
        checkCount(count);
        PatternInfo info = catalog.find(PatternInfo.Kind.RATE_LIMITER, name);
        ScriptedLimiter limiter = catalog.limiter(info);
        List<Limit> limits = Catalog.limits(info);
        Set<String> keys = new LinkedHashSet<>();
        String cursor = START;
        int steps = 0;
        do {
            ScanStep step = scan(cursor, limiter.scanPattern(), count, null);
            cursor = step.next();
            for (String k : step.keys()) {
                limiter.keyOf(k).ifPresent(keys::add);
            }
        } while (!cursor.equals(START) && ++steps < LIMITER_SCAN_STEPS && keys.size() < options.maxPage());
        List<KeyStanding> standings = new ArrayList<>();
        for (String key : keys) {
            standings.add(standing(limiter, limits, key));
        }
        standings.sort((a, b) -> Double.compare(b.used(), a.used()));
        List<LimitView> views = limits.stream().map(l -> new LimitView(l.permits(), l.window().toMillis())).toList();
        return new LimiterView(name, info.setting("algorithm", "sliding-window"), views,
                standings.subList(0, Math.min(top, standings.size())), keys.size(), cursor.equals(START));
    }

    KeyStanding limiterKey(String name, String key) {
        PatternInfo info = catalog.find(PatternInfo.Kind.RATE_LIMITER, name);
        return standing(catalog.limiter(info), Catalog.limits(info), key);
    }

    private static KeyStanding standing(ScriptedLimiter limiter, List<Limit> limits, String key) {
        Decision d = limiter.peek(key);
        long permits = limits.get(d.limit()).permits();
        return new KeyStanding(key, d.remaining(), permits, permits == 0 ? 1.0 : 1.0 - (double) d.remaining() / permits, d.limit());
    }

    // ------------------------------------------------------------------ raw keys

    record KeyRow(String key, String type) {
    }

    record KeyPage(String cursor, List<KeyRow> keys) {
    }

    /** The cursor that starts a walk over every node's keys, and that a finished walk returns. */
    static final String START = "0";

    /** One SCAN step's keys, and the console cursor that goes on from there ({@link #START} when done). */
    record ScanStep(String next, List<String> keys) {
    }

    /**
     * One SCAN step over the nodes in turn: the console's cursor is the node's SCAN cursor, prefixed
     * with {@code <node>-} past the first node; when a node's walk ends, the cursor moves to the
     * next node, and after the last node it is {@link #START} again.
     */
    private ScanStep scan(String cursor, String match, int count, String type) {
        int node = 0;
        String at = cursor;
        int dash = cursor.indexOf('-');
        if (dash > 0) {
            node = parseCursorPart(cursor.substring(0, dash), cursor);
            at = cursor.substring(dash + 1);
        }
        parseCursorPart(at, cursor);
        if (node >= nodes.size()) {
            throw ApiException.badRequest("cursor '" + cursor + "' names node " + node + " of " + nodes.size());
        }
        StoreCommand scan = StoreCommand.of("SCAN").arg(at).arg("MATCH").arg(match.isEmpty() ? "*" : match).arg("COUNT").arg(count);
        if (type != null && !type.isEmpty()) {
            scan.arg("TYPE").arg(type);
        }
        List<Reply> r = nodes.get(node).call(scan).asList();
        List<String> keys = new ArrayList<>();
        for (Reply k : r.get(1).asList()) {
            keys.add(k.asString());
        }
        String next = r.get(0).asString();
        if (next.equals("0")) {
            return new ScanStep(node + 1 < nodes.size() ? (node + 1) + "-0" : START, keys);
        }
        return new ScanStep(node == 0 ? next : node + "-" + next, keys);
    }

    private static int parseCursorPart(String part, String cursor) {
        if (!part.matches("[0-9]{1,20}")) {
            throw ApiException.badRequest("'" + cursor + "' is not a console cursor (digits, or node-digits)");
        }
        try {
            return (int) Math.min(Integer.MAX_VALUE, Long.parseUnsignedLong(part));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("'" + cursor + "' is not a console cursor");
        }
    }

    /** One SCAN step (over the nodes in turn): the next cursor and the keys it returned, with their types. */
    KeyPage keys(String match, String cursor, int count, String type) {
        checkCount(count);
        ScanStep step = scan(cursor, match, count, type);
        List<String> names = step.keys();
        List<StoreCommand> types = new ArrayList<>(names.size());
        for (String k : names) {
            types.add(StoreCommand.of("TYPE").key(k));
        }
        List<Reply> t = types.isEmpty() ? List.of() : store.callAll(types);
        List<KeyRow> rows = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            rows.add(new KeyRow(names.get(i), t.get(i).asString()));
        }
        return new KeyPage(step.next(), rows);
    }

    record ZsetRow(long rank, String member, Object score) {
    }

    record ZsetPage(String key, String type, String encoding, long card, String by, List<ZsetRow> rows) {
    }

    /**
     * A page of the sorted set at {@code key}: by rank from {@code start} (ascending, or
     * descending when {@code reverse}); or, with {@code min}/{@code max}, by score range; or with
     * {@code lexMin}/{@code lexMax}, by lex range. Every row carries its rank.
     */
    ZsetPage zset(String key, long start, int count, boolean reverse, String min, String max, String lexMin, String lexMax) {
        checkPage(0, count);
        String type = store.call(StoreCommand.of("TYPE").key(key)).asString();
        if (type.equals("none")) {
            throw ApiException.notFound("no key '" + key + "'");
        }
        if (!type.equals("zset")) {
            throw ApiException.badRequest("key '" + key + "' holds a " + type + ", not a sorted set");
        }
        String encoding = store.call(StoreCommand.of("OBJECT").arg("ENCODING").key(key)).asString();
        long card = store.call(StoreCommand.of("ZCARD").key(key)).asLong();
        StoreCommand range = StoreCommand.of("ZRANGE").key(key);
        String by;
        if (min != null || max != null) {
            by = "score";
            range.arg(reverse ? orElse(max, "+inf") : orElse(min, "-inf")).arg(reverse ? orElse(min, "-inf") : orElse(max, "+inf")).arg("BYSCORE");
        } else if (lexMin != null || lexMax != null) {
            by = "lex";
            range.arg(reverse ? orElse(lexMax, "+") : orElse(lexMin, "-")).arg(reverse ? orElse(lexMin, "-") : orElse(lexMax, "+")).arg("BYLEX");
        } else {
            by = "rank";
            if (start < 0) {
                throw ApiException.badRequest("start must be 0 or more, got " + start);
            }
            range.arg(start).arg(start + count - 1);
        }
        if (reverse) {
            range.arg("REV");
        }
        if (!by.equals("rank")) {
            range.arg("LIMIT").arg(start).arg(count);
        }
        if (!by.equals("lex")) {
            range.arg("WITHSCORES");
        }
        List<Reply> r;
        try {
            r = store.call(range).asList();
        } catch (dev.ordo.patterns.store.StoreException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        int step = by.equals("lex") ? 1 : 2;
        List<StoreCommand> ranks = new ArrayList<>();
        for (int i = 0; i < r.size(); i += step) {
            ranks.add(StoreCommand.of(reverse ? "ZREVRANK" : "ZRANK").key(key).arg(r.get(i).asString()));
        }
        List<Reply> rk = ranks.isEmpty() ? List.of() : store.callAll(ranks);
        List<StoreCommand> scores = new ArrayList<>();
        if (by.equals("lex")) {
            for (int i = 0; i < r.size(); i++) {
                scores.add(StoreCommand.of("ZSCORE").key(key).arg(r.get(i).asString()));
            }
        }
        List<Reply> sc = scores.isEmpty() ? List.of() : store.callAll(scores);
        List<ZsetRow> rows = new ArrayList<>();
        for (int i = 0, j = 0; i < r.size(); i += step, j++) {
            Reply s = step == 2 ? r.get(i + 1) : sc.get(j);
            rows.add(new ZsetRow(rk.get(j).isNil() ? -1 : rk.get(j).asLong(), r.get(i).asString(), s.isNil() ? null : score(s.asDouble())));
        }
        return new ZsetPage(key, type, encoding, card, by, rows);
    }

    // ------------------------------------------------------------------ shared

    private void checkWritable() {
        if (!options.writable()) {
            throw new ApiException(403, "the console is read-only; start it writable (--writable, or ordo.console.writable=true) to change data");
        }
    }

    private void checkPage(int offset, int limit) {
        if (limit < 1 || limit > options.maxPage()) {
            throw ApiException.badRequest("limit must be 1 to " + options.maxPage() + ", got " + limit);
        }
        if (offset < 0) {
            throw ApiException.badRequest("offset must be 0 or more, got " + offset);
        }
    }

    private static void checkCount(int count) {
        if (count < 1 || count > MAX_SCAN_COUNT) {
            throw ApiException.badRequest("count must be 1 to " + MAX_SCAN_COUNT + ", got " + count);
        }
    }

    private static String orElse(String value, String fallback) {
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static Double boxed(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }

    /** A score as JSON can carry it: a number, or "inf" / "-inf" (JSON has no infinities). */
    static Object score(double s) {
        if (Double.isInfinite(s)) {
            return s > 0 ? "inf" : "-inf";
        }
        return Double.isNaN(s) ? null : s;
    }

    @Override
    public void close() {
        feed.close();
    }
}
