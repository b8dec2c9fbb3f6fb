package dev.ordo.engine.config;

/**
 * The value of {@code notify-keyspace-events}: a set of event classes, one character each, that
 * CONFIG SET checks and CONFIG GET shows in Redis's order. The engine reads it as an
 * {@code EventClass} mask, which chooses the keyspace notifications sent.
 */
final class KeyspaceEvents {
    /** The classes in the order CONFIG GET lists them; {@code A} stands for the first ten. */
    private static final String CLASSES = "g$lshzxetdn";
    /** {@code A}: every class but key misses ({@code m}) and new keys ({@code n}). */
    private static final String ALL = "g$lshzxetd";
    /** Where the notifications go, and key misses, listed after the classes. */
    private static final String TAIL = "KEm";

    private KeyspaceEvents() {
    }

    /** Null if every character names a class, else Redis's error text. */
    static String problem(String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch != 'A' && CLASSES.indexOf(ch) < 0 && TAIL.indexOf(ch) < 0) {
                return "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";
            }
        }
        return null;
    }

    /**
     * A valid value as Redis shows it: each class once, in Redis's order, {@code A} for all ten
     * (which drops {@code n}, as Redis does).
     */
    static String canonical(String value) {
        String expanded = value.replace("A", ALL);
        StringBuilder out = new StringBuilder();
        if (ALL.chars().allMatch(ch -> expanded.indexOf(ch) >= 0)) {
            out.append('A'); // and, as in Redis, no n
        } else {
            appendPresent(out, CLASSES, expanded);
        }
        appendPresent(out, TAIL, expanded);
        return out.toString();
    }

    private static void appendPresent(StringBuilder out, String order, String value) {
        for (int i = 0; i < order.length(); i++) {
            if (value.indexOf(order.charAt(i)) >= 0) {
                out.append(order.charAt(i));
            }
        }
    }
}
