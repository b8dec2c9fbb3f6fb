package dev.ordo.patterns;

import dev.ordo.patterns.store.Reply;

import java.util.ArrayList;
import java.util.List;

/**
 * Replies as plain Java values, for assertions that read like RESP: integers as {@link Long},
 * strings as {@link String}, nil as {@code null}, arrays as {@link List}s of those.
 */
public final class Plain {
    private Plain() {
    }

    /** {@code reply} as a plain value. */
    public static Object of(Reply reply) {
        return plain(java.util.Objects.requireNonNull(reply, "reply"));
    }

    /** Each of {@code replies} as a plain value, in order. */
    public static List<Object> of(List<Reply> replies) {
        List<Object> out = new ArrayList<>(replies.size());
        for (Reply r : replies) {
            out.add(plain(r));
        }
        return out;
    }

    private static Object plain(Reply reply) {
        if (reply instanceof Reply.Int i) {
            return i.value();
        }
        if (reply instanceof Reply.Bulk b) {
            return b.value();
        }
        if (reply instanceof Reply.Array a) {
            return of(a.items());
        }
        return null;
    }
}
