package dev.ordo.spring.boot;

import org.springframework.boot.convert.DurationStyle;

import dev.ordo.patterns.ratelimit.Limit;

import java.time.Duration;
import java.util.Map;

/** What the registries share: look-ups that name the property to fix, and parsing of limits. */
final class Registries {
    private Registries() {
    }

    static <T> T lookUp(Map<String, T> entries, String name, String property) {
        T entry = entries.get(name);
        if (entry == null) {
            throw new IllegalArgumentException("no " + property + "." + name + " is declared; declared: " + entries.keySet());
        }
        return entry;
    }

    /** Parses {@code permits/window}, as {@code 10/1s} or {@code 1000/1h}; {@code property} names it in the error. */
    static Limit parseLimit(String text, String property) {
        int slash = text.indexOf('/');
        try {
            if (slash < 1) {
                throw new IllegalArgumentException("no '/'");
            }
            long permits = Long.parseLong(text.substring(0, slash).trim());
            Duration window = DurationStyle.detectAndParse(text.substring(slash + 1).trim());
            return new Limit(permits, window);
        } catch (IllegalArgumentException e) {
            // The message says all: a chained NumberFormatException would only hide it as the root cause.
            throw new IllegalArgumentException(property + " has '" + text + "', which is not a limit such as 10/1s or 1000/1h: "
                    + e.getMessage());
        }
    }
}
