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
import java.util.Map;

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

    /** The periods a board keeps, by the names the settings use; {@code all-time} is the board that never rolls over. */
    private static final Map<String, Period> PERIODS = Map.of("daily", Period.daily(), "weekly", Period.weekly(), "monthly", Period.monthly());
    private static final String ALL_TIME = "all-time";

    /** The board's periods as registered (trimmed, in order); empty for a board without periods. */
    static List<String> periods(PatternInfo info) {
        String text = info.setting("period", "");
        return text.isEmpty() ? List.of() : java.util.Arrays.stream(text.split(",")).map(String::trim).toList();
    }

    /**
     * The period shown for a request: {@code asked} when given, else the board's first; null for a
     * board without periods. A period the board does not keep is a bad request, so nothing writes
     * to a board its owner never reads.
     */
    static String period(PatternInfo info, String asked) {
        List<String> periods = periods(info);
        if (periods.isEmpty()) {
            if (asked != null && !asked.isEmpty()) {
                throw ApiException.badRequest("board '" + info.name() + "' has no periods");
            }
            return null;
        }
        if (asked == null || asked.isEmpty()) {
            return periods.get(0);
        }
        if (!periods.contains(asked)) {
            throw ApiException.badRequest("board '" + info.name() + "' keeps " + String.join(", ", periods) + "; no period '" + asked + "'");
        }
        return asked;
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

    /** The periodic board with its registered periods, zone and retention, as its owner builds it. */
    PeriodicLeaderboard periodic(PatternInfo info, BoardOptions options) {
        PeriodicLeaderboard.Builder builder = PeriodicLeaderboard.builder(store, info.name()).options(options)
                .zone(ZoneId.of(info.setting("zone", "UTC")));
        if (!info.setting("retention", "").isEmpty()) {
            builder.retention(duration(info, "retention", null));
        }
        for (String period : periods(info)) {
            if (period.equals(ALL_TIME)) {
                builder.allTime();
            } else if (PERIODS.containsKey(period)) {
                builder.period(PERIODS.get(period));
            } else {
                throw ApiException.badRequest("board '" + info.name() + "' is registered with an unknown period '" + period + "'");
            }
        }
        return builder.build();
    }

    /**
     * The board a request reads or writes: for a periodic board, the current board of
     * {@link #period(PatternInfo, String) the period shown}; otherwise the board itself.
     */
    Board<String> board(PatternInfo info, String asked) {
        String period = period(info, asked);
        if (period == null) {
            return board(info);
        }
        PeriodicLeaderboard periodic = periodic(info, boardOptions(info));
        return period.equals(ALL_TIME) ? periodic.allTime() : periodic.current(PERIODS.get(period));
    }

    DelayedJobQueue<String> delayedQueue(PatternInfo info) {
        DelayedJobQueue.Options options = DelayedJobQueue.Options.defaults()
                .withVisibilityTimeout(visibilityTimeout(info))
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
                out.add(new Limit(Long.parseLong(text.substring(0, slash).trim()), parse(info, "limits", text.substring(slash + 1).trim())));
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

    /** A delayed queue's visibility timeout, as registered (30 seconds when not). */
    static Duration visibilityTimeout(PatternInfo info) {
        return duration(info, "visibility-timeout", "PT30S");
    }

    /** A setting holding an ISO-8601 duration; a bad request naming the pattern, setting and text when it is not one. */
    private static Duration duration(PatternInfo info, String setting, String fallback) {
        return parse(info, setting, info.setting(setting, fallback));
    }

    private static Duration parse(PatternInfo info, String setting, String text) {
        try {
            return Duration.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiException.badRequest(info.kind().id() + " '" + info.name() + "' is registered with " + setting + " '" + text
                    + "', which is not an ISO-8601 duration (such as PT30S)");
        }
    }

    private static String enumName(String setting) {
        return setting.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
