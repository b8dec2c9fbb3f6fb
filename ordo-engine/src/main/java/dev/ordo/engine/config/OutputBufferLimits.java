package dev.ordo.engine.config;

import java.util.Locale;

/**
 * {@code client-output-buffer-limit}: for each client class (normal, replica, pubsub) a hard
 * limit, a soft limit and the seconds a client may stay over the soft one; 0 turns a limit off.
 * Written as Redis writes it ({@code normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60});
 * CONFIG SET may name any classes, in any order and case ({@code replica} and {@code slave} are
 * the same class), and leaves the others as they were.
 */
public record OutputBufferLimits(Limit normal, Limit replica, Limit pubsub) {
    /** One class's limits, in bytes and seconds. */
    public record Limit(long hard, long soft, long softSeconds) {
        @Override
        public String toString() {
            return hard + " " + soft + " " + softSeconds;
        }
    }

    /** Redis's defaults. */
    public static final OutputBufferLimits DEFAULT = new OutputBufferLimits(new Limit(0, 0, 0),
            new Limit(256L << 20, 64L << 20, 60), new Limit(32L << 20, 8L << 20, 60));

    /** Parses a value CONFIG GET showed (all three classes). */
    static OutputBufferLimits parse(String value) {
        return DEFAULT.with(value);
    }

    /** Why {@code value} is refused, in Redis's words, or null. */
    static String problem(String value) {
        try {
            DEFAULT.with(value);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** These limits with the classes {@code value} names replaced; throws with Redis's text when it does not parse. */
    OutputBufferLimits with(String value) {
        String[] words = value.trim().isEmpty() ? new String[0] : value.trim().split("\\s+");
        if (words.length % 4 != 0) {
            throw new IllegalArgumentException("Wrong number of arguments in buffer limit configuration.");
        }
        Limit n = normal;
        Limit r = replica;
        Limit p = pubsub;
        for (int i = 0; i < words.length; i += 4) {
            String cls = words[i].toLowerCase(Locale.ROOT);
            if (!cls.equals("normal") && !cls.equals("replica") && !cls.equals("slave") && !cls.equals("pubsub")) {
                throw new IllegalArgumentException("Invalid client class specified in buffer limit configuration.");
            }
            long hard = Config.parseMemory(words[i + 1]);
            long soft = Config.parseMemory(words[i + 2]);
            long seconds = seconds(words[i + 3]);
            if (hard < 0 || soft < 0 || seconds < 0) {
                throw new IllegalArgumentException("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
            }
            Limit limit = new Limit(hard, soft, seconds);
            switch (cls) {
                case "normal":
                    n = limit;
                    break;
                case "pubsub":
                    p = limit;
                    break;
                default:
                    r = limit;
            }
        }
        return new OutputBufferLimits(n, r, p);
    }

    private static long seconds(String word) {
        if (word.isEmpty() || word.length() > 18 || !word.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return -1;
        }
        return Long.parseLong(word);
    }

    @Override
    public String toString() {
        return "normal " + normal + " slave " + replica + " pubsub " + pubsub;
    }
}
