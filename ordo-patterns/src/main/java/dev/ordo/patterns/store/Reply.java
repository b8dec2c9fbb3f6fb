package dev.ordo.patterns.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A reply from the database, as RESP2 shapes it and every {@link Store} gives it alike: an
 * integer ({@link Int}), a bulk or status string ({@link Bulk}, UTF-8 text), nil ({@link Nil})
 * or an array of replies ({@link Array}). An error reply is never a {@code Reply}: the store
 * throws it as a {@link StoreException}.
 *
 * <p>Callers that know the shape a command answers with read it through {@link #asLong()},
 * {@link #asString()}, {@link #asDouble()} and {@link #asList()}, which refuse any other shape
 * with a {@link StoreException} naming what came. Replies are immutable values: two are equal
 * when they have the same shape and content.
 */
public sealed interface Reply permits Reply.Int, Reply.Bulk, Reply.Nil, Reply.Array {
    /**
     * An integer reply.
     *
     * @param value the integer
     */
    record Int(long value) implements Reply {
    }

    /**
     * A bulk or status string, decoded as UTF-8.
     *
     * @param value the text, never null
     */
    record Bulk(String value) implements Reply {
        /**
         * Refuses null: nil is {@link Nil}.
         *
         * @param value the string, never null
         */
        public Bulk {
            java.util.Objects.requireNonNull(value, "value");
        }
    }

    /** Nil: a missing value (a nil bulk string or nil array). */
    enum Nil implements Reply {
        /** The one nil. */
        NIL
    }

    /**
     * An array of replies.
     *
     * @param items the elements, in order; unmodifiable
     */
    record Array(List<Reply> items) implements Reply {
        /**
         * Copies {@code items}, so an array never changes.
         *
         * @param items the elements, in the order the server sent them
         */
        public Array {
            items = List.copyOf(items);
        }
    }

    /**
     * The integer reply {@code value}.
     *
     * @param value the integer
     * @return an {@link Int}
     */
    static Reply of(long value) {
        return new Int(value);
    }

    /**
     * The string reply {@code value}, or nil when it is null.
     *
     * @param value the string, or null for nil
     * @return a {@link Bulk}, or {@link Nil#NIL}
     */
    static Reply of(String value) {
        return value == null ? Nil.NIL : new Bulk(value);
    }

    /**
     * The array reply holding {@code items}.
     *
     * @param items the elements, in order; copied
     * @return an {@link Array}
     */
    static Reply of(List<Reply> items) {
        return new Array(items);
    }

    /**
     * The array reply holding {@code items}.
     *
     * @param items the elements, in order
     * @return an {@link Array}
     */
    static Reply of(Reply... items) {
        return new Array(List.of(items));
    }

    /**
     * The reply a plain Java tree stands for, as embedded engines and Lua bridges give replies:
     * {@link Long} (or another integral {@link Number}), {@link String}, {@code null}, and {@link
     * List}s of those; a {@code Reply} stays as it is. Refuses anything else.
     *
     * @param tree a {@link Long} or other integral number, a string, null, a {@code Reply}, or a list of those
     * @return the same value as a reply
     */
    static Reply from(Object tree) {
        if (tree == null) {
            return Nil.NIL;
        }
        if (tree instanceof Reply r) {
            return r;
        }
        if (tree instanceof String s) {
            return new Bulk(s);
        }
        if (tree instanceof Long || tree instanceof Integer || tree instanceof Short || tree instanceof Byte) {
            return new Int(((Number) tree).longValue());
        }
        if (tree instanceof List<?> list) {
            List<Reply> items = new ArrayList<>(list.size());
            for (Object o : list) {
                items.add(from(o));
            }
            return new Array(Collections.unmodifiableList(items));
        }
        throw new IllegalArgumentException("not a reply: " + tree.getClass().getName());
    }

    /**
     * True for nil.
     *
     * @return whether this is {@link Nil#NIL}
     */
    default boolean isNil() {
        return this == Nil.NIL;
    }

    /**
     * The integer; refuses any other shape.
     *
     * @return the integer reply's value
     */
    default long asLong() {
        if (this instanceof Int i) {
            return i.value();
        }
        throw unexpected("an integer");
    }

    /**
     * The string, or null for nil; refuses any other shape.
     *
     * @return the string reply's value, or null
     */
    default String asString() {
        if (this instanceof Bulk b) {
            return b.value();
        }
        if (isNil()) {
            return null;
        }
        throw unexpected("a string");
    }

    /**
     * A score: the string read as Redis writes doubles ({@link Scores#parse}); refuses any other shape.
     *
     * @return the score the string reply holds
     */
    default double asDouble() {
        if (this instanceof Bulk b) {
            return Scores.parse(b.value());
        }
        throw unexpected("a score");
    }

    /**
     * The elements, or null for nil; refuses any other shape.
     *
     * @return the array reply's elements, or null
     */
    default List<Reply> asList() {
        if (this instanceof Array a) {
            return a.items();
        }
        if (isNil()) {
            return null;
        }
        throw unexpected("an array");
    }

    private StoreException unexpected(String wanted) {
        return new StoreException("expected " + wanted + " reply, got " + this, null);
    }
}
