package dev.ordo.patterns.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;

/** What the store's default methods share about replies. */
final class Replies {
    private Replies() {
    }

    /**
     * Collects {@code reply.apply(i)} for i in 0..count-1, in order. A {@link StoreException}
     * does not stop the others: the first one is thrown once all have answered.
     */
    static List<Reply> each(int count, IntFunction<Reply> reply) {
        List<Reply> replies = new ArrayList<>(count);
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

    /** The replies of every stage in order, once all have answered; failed with the first failure (in order) if any failed. */
    static CompletionStage<List<Reply>> all(List<CompletionStage<Reply>> stages) {
        CompletableFuture<?>[] futures = new CompletableFuture<?>[stages.size()];
        for (int i = 0; i < futures.length; i++) {
            futures[i] = stages.get(i).toCompletableFuture();
        }
        CompletableFuture<List<Reply>> out = new CompletableFuture<>();
        CompletableFuture.allOf(futures).whenComplete((ignored, failure) -> {
            List<Reply> replies = new ArrayList<>(futures.length);
            for (CompletableFuture<?> f : futures) {
                if (f.isCompletedExceptionally()) {
                    Throwable cause = f.handle((v, e) -> e).join();
                    out.completeExceptionally(cause instanceof CompletionException c && c.getCause() != null ? c.getCause() : cause);
                    return;
                }
                replies.add((Reply) f.join());
            }
            out.complete(replies);
        });
        return out;
    }
}
