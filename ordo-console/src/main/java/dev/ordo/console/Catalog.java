package dev.ordo.console;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ScoreCodec;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.leaderboard.TieRule;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.ScriptedLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.registry.PatternInfo;
import dev.ordo.patterns.registry.PatternRegistry;
import dev.ordo.patterns.store.Store;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The patterns the console knows, read from the {@link PatternRegistry} on every call (a few
 * fields of one hash), and each opened the way its owner opens it from the settings recorded
 * there: a board with its order, tie rule, periods or shards; a queue with its visibility timeout;
 * a limiter with its algorithm and limits. The settings are the Spring Boot starter's property
 * names and values.
 */
final class Catalog {
    private final Store store;
    private final PatternRegistry registry;
    private final List<PatternInfo> declared;

    Catalog(Store store, String registryKey, List<PatternInfo> declared) {
        this.store = store;
        this.registry = PatternRegistry.on(store, registryKey);
        this.declared = List.copyOf(declared);
    }

    /** The declared patterns, then the registry's others, by kind and name. */
    List<PatternInfo> all() {
        java.util.Map<String, PatternInfo> byId = new java.util.TreeMap<>();
        for (PatternInfo p : registry.list()) {
            byId.put(p.kind().ordinal() + ":" + p.name(), p);
        }
        for (PatternInfo p : declared) {
            byId.put(p.kind().ordinal() + ":" + p.name(), p);
        }
        return new ArrayList<>(byId.values());
    }

    PatternInfo find(PatternInfo.Kind kind, String name) {
        for (PatternInfo p : all()) {
            if (p.kind() == kind && p.name().equals(name)) {
                return p;
            }
        }
        throw ApiException.notFound("no " + kind.id() + " called '" + name + "' is registered");
    }

    /** Finds a queue of either kind. */
    PatternInfo queue(String name) {
        for (PatternInfo p : all()) {
            if ((p.kind() == PatternInfo.Kind.DELAYED_QUEUE || p.kind() == PatternInfo.Kind.PRIORITY_QUEUE) && p.name().equals(name)) {
                return p;
            }
        }
        throw ApiException.notFound("no queue called '" + name + "' is registered");
    }

    static BoardOptions boardOptions(PatternInfo info) {
        BoardOptions options = info.setting("order", "highest-first").equals("lowest-first") ? BoardOptions.lowestFirst() : BoardOptions.highestFirst();
        return options.withTieRule(TieRule.valueOf(enumName(info.setting("tie-rule", "member-order"))))
                .withMetadata(Boolean.parseBoolean(info.setting("metadata", "false")));
    }

    static List<String> periods(PatternInfo info) {
        String text = info.setting("period", "");
        return text.isEmpty() ? List.of() : List.of(text.split(","));
    }

    /** A composite board's layout (setting {@code dimensions}, as {@link ScoreCodec#spec()} writes it), or null. */
    static ScoreCodec codec(PatternInfo info) {
        String spec = info.setting("dimensions", "");
        return spec.isEmpty() ? null : ScoreCodec.parse(spec);
    }

    static int shards(PatternInfo info) {
        return Integer.parseInt(info.setting("shards", "1"));
    }

    /** The board itself: single, periodic or sharded, as its settings say. */
    Board<String> board(PatternInfo info) {
        BoardOptions options = boardOptions(info);
        if (shards(info) > 1) {
            return ShardedLeaderboard.create(store, info.name(), shards(info), options);
        }
        if (periods(info).isEmpty()) {
            return Leaderboard.create(store, info.name(), options);
        }
        return periodic(info, options);
    }

    PeriodicLeaderboard periodic(PatternInfo info, BoardOptions options) {
        PeriodicLeaderboard.Builder builder = PeriodicLeaderboard.builder(store, info.name()).options(options)
                .zone(ZoneId.of(info.setting("zone", "UTC")));
        for (String period : periods(info)) {
            switch (period.trim()) {
                case "daily" -> builder.period(Period.daily());
                case "weekly" -> builder.period(Period.weekly());
                case "monthly" -> builder.period(Period.monthly());
                case "all-time" -> builder.allTime();
                default -> throw ApiException.badRequest("board '" + info.name() + "' is registered with an unknown period '" + period + "'");
            }
        }
        return builder.build();
    }

    /** One period's board of a periodic board ({@code all-time} included), at the current time. */
    Leaderboard periodBoard(PatternInfo info, String period) {
        PeriodicLeaderboard periodic = periodic(info, boardOptions(info));
        return switch (period) {
            case "all-time" -> periodic.allTime();
            case "daily" -> periodic.current(Period.daily());
            case "weekly" -> periodic.current(Period.weekly());
            case "monthly" -> periodic.current(Period.monthly());
            default -> throw ApiException.badRequest("no period '" + period + "'; use daily, weekly, monthly or all-time");
        };
    }

    DelayedJobQueue<String> delayedQueue(PatternInfo info) {
        DelayedJobQueue.Options options = DelayedJobQueue.Options.defaults()
                .withVisibilityTimeout(Duration.parse(info.setting("visibility-timeout", "PT30S")))
                .withMaxAttempts(Integer.parseInt(info.setting("max-attempts", "5")));
        return DelayedJobQueue.create(store, info.name(), options);
    }

    PriorityJobQueue<String> priorityQueue(PatternInfo info) {
        return PriorityJobQueue.create(store, info.name());
    }

    static List<Limit> limits(PatternInfo info) {
        List<Limit> out = new ArrayList<>();
        for (String text : info.setting("limits", "").split(",")) {
            int slash = text.indexOf('/');
            if (slash > 0) {
                out.add(new Limit(Long.parseLong(text.substring(0, slash).trim()), Duration.parse(text.substring(slash + 1).trim())));
            }
        }
        return out;
    }

    /** The limiter, as the concrete kind whose {@code peek}, {@code scanPattern} and {@code keyOf} the console reads. */
    ScriptedLimiter limiter(PatternInfo info) {
        Limit[] limits = limits(info).toArray(Limit[]::new);
        if (limits.length == 0) {
            throw ApiException.badRequest("rate limiter '" + info.name() + "' is registered without limits");
        }
        return switch (info.setting("algorithm", "sliding-window")) {
            case "sliding-log" -> SlidingLogLimiter.create(store, info.name(), limits);
            case "token-bucket" -> TokenBucketLimiter.create(store, info.name(),
                    java.util.Arrays.stream(limits).map(TokenBucketLimiter.Bucket::of).toArray(TokenBucketLimiter.Bucket[]::new));
            default -> SlidingWindowLimiter.create(store, info.name(), limits);
        };
    }

    private static String enumName(String setting) {
        return setting.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
