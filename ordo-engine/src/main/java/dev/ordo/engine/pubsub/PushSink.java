package dev.ordo.engine.pubsub;

/**
 * Where a subscriber's messages go: a server connection (which encodes them as pushes) or an
 * embedded listener. Called under the engine lock, on the publishing thread, in publication
 * order; an implementation hands the message to its own thread and returns at once.
 */
@FunctionalInterface
public interface PushSink {
    void push(Message message);
}
