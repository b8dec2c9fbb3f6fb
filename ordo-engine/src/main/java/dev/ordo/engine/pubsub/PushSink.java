package dev.ordo.engine.pubsub;

/**
 * Where a subscriber's messages go: a server connection (which encodes them as pushes) or an
 * embedded listener. Called under the engine lock, on the publishing thread, in publication
 * order; an implementation hands the message to its own thread and returns at once.
 */
public interface PushSink {
    void push(Message message);

    /**
     * A client-side caching invalidation of {@code keys} (null: everything, after a flush), for
     * this client's own cache or, {@code redirected}, for the client that redirected to it.
     */
    default void invalidate(java.util.List<byte[]> keys, boolean redirected) {
    }

    /** This tracking client's redirect target ({@code id}) is gone: told once, RESP3 only. */
    default void trackingRedirectBroken(long id) {
    }
}
