package dev.ordo.patterns.registry;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One pattern as the {@link PatternRegistry} records it: its kind, its name (what its factory
 * took, from which its keys follow), and the settings a reader needs to open it again the way its
 * owner does (a board's order and tie rule, a queue's attempts, a limiter's limits). Settings are
 * plain strings under the names the Spring Boot starter's properties use ({@code order},
 * {@code tie-rule}, {@code period}, {@code shards}, {@code limits}...); a reader ignores those it
 * does not know, so a newer writer never breaks an older console.
 *
 * @param kind what the pattern is
 * @param name its name
 * @param settings how it is configured, by setting name
 */
public record PatternInfo(Kind kind, String name, Map<String, String> settings) {
    /** The kinds of pattern the registry records. */
    public enum Kind {
        /** A {@code Leaderboard}, {@code PeriodicLeaderboard} or {@code ShardedLeaderboard}. */
        LEADERBOARD("leaderboard"),
        /** A {@code DelayedJobQueue}. */
        DELAYED_QUEUE("delayed-queue"),
        /** A {@code PriorityJobQueue}. */
        PRIORITY_QUEUE("priority-queue"),
        /** A sliding-window, sliding-log or token-bucket rate limiter. */
        RATE_LIMITER("rate-limiter");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        /**
         * The kind's name in the registry's field names.
         *
         * @return the id, such as {@code delayed-queue}
         */
        public String id() {
            return id;
        }

        /**
         * The kind whose {@link #id()} is {@code id}.
         *
         * @param id a kind's id
         * @return the kind
         * @throws IllegalArgumentException when no kind has that id
         */
        public static Kind ofId(String id) {
            for (Kind k : values()) {
                if (k.id.equals(id)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no pattern kind '" + id + "'");
        }
    }

    /**
     * Refuses a missing kind or an empty name; keeps the settings sorted and unmodifiable.
     *
     * @param kind what the pattern is
     * @param name its name
     * @param settings how it is configured
     */
    public PatternInfo {
        Objects.requireNonNull(kind, "kind");
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a pattern's name must not be empty");
        }
        settings = settings == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    /**
     * The setting {@code name}, or {@code fallback} when it is not recorded.
     *
     * @param name the setting's name
     * @param fallback what a missing setting means
     * @return its value
     */
    public String setting(String name, String fallback) {
        return settings.getOrDefault(name, fallback);
    }

    /** The registry's field for this pattern: {@code kind:name}. */
    String field() {
        return kind.id() + ":" + name;
    }

    /** The settings as the registry stores them: form-encoded, {@code a=1&b=2}. */
    String encodedSettings() {
        StringBuilder out = new StringBuilder();
        settings.forEach((k, v) -> {
            if (!out.isEmpty()) {
                out.append('&');
            }
            out.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return out.toString();
    }

    /** The pattern a registry field and value describe; null when the field names no known kind. */
    static PatternInfo decode(String field, String value) {
        int colon = field.indexOf(':');
        if (colon < 1 || colon == field.length() - 1) {
            return null;
        }
        Kind kind;
        try {
            kind = Kind.ofId(field.substring(0, colon));
        } catch (IllegalArgumentException unknown) {
            return null;
        }
        Map<String, String> settings = new TreeMap<>();
        for (String pair : value.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                settings.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return new PatternInfo(kind, field.substring(colon + 1), settings);
    }
}
