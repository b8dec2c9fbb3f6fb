package dev.ordo.engine.pubsub;

/**
 * Where a subscriber's messages go: a server connection (which encodes them as pushes) or an
 * embedded listener. Called under the engine lock, on the publishing thread, in publication
 * order; an implementation hands the message to its own thread and returns at once.
 */
public interface PushSink {
    /**
     * Delivers one message to the subscriber, in publication order.
     *
     * @param message the message (shared: do not change it)
     */
    void push(Message message);

    /**
     * A client-side caching invalidation of {@code keys} (null: everything, after a flush), for
     * this client's own cache or, {@code redirected}, for the client that redirected to it.
     *
     * @param keys       the keys whose cached values are stale; null when everything is (a flush)
     * @param redirected whether this client receives them for the client that redirected to it
     */
    default void invalidate(java.util.List<byte[]> keys, boolean redirected) {
    }

    /**
     * This tracking client's redirect target ({@code id}) is gone: told once, RESP3 only.
     *
     * @param id the redirect target that is gone
     */
    default void trackingRedirectBroken(long id) {
    }
}
