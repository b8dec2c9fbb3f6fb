package dev.ordo.patterns.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/** What the adapters share about replies. */
final class Replies {
    private Replies() {
    }

    /**
     * Collects {@code reply.apply(i)} for i in 0..count-1, in order. A {@link StoreException}
     * does not stop the others: the first one is thrown once all have answered.
     */
    static List<Object> each(int count, IntFunction<Object> reply) {
        List<Object> replies = new ArrayList<>(count);
        StoreException first = null;
        for (int i = 0; i < count; i++) {
            try {
                replies.add(reply.apply(i));
            } catch (StoreException e) {
                replies.add(null);
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
        return replies;
    }
}
