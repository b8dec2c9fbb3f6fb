package dev.ordo.engine.pubsub;

import dev.ordo.engine.config.OutputBufferLimits;
import dev.ordo.engine.config.OutputLimitWatch;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An in-process subscriber: subscribes to channels, patterns and shard channels of an embedded
 * engine without a socket, and hands each message to a {@link Listener} (obtain one from
 * {@code Engine.subscriber}). It counts with the server's subscribers: PUBLISH's answer, PUBSUB
 * NUMSUB and keyspace notifications see it.
 *
 * <p>Delivery: messages are queued in publication order and given to the listener on the
 * executor, one at a time and in order, whatever the executor's threads; the listener never
 * runs under the engine's lock, so it may call the engine. A listener that falls behind is held
 * to {@code client-output-buffer-limit}'s pubsub class like a slow network subscriber: past the
 * hard limit of queued bytes (or over the soft one for longer than its seconds) it is
 * unsubscribed from everything, its queue dropped, and told why by {@link Listener#closed}.
 */
public final class Subscriber implements AutoCloseable {
    /** Receives the messages of a {@link Subscriber}. */
    @FunctionalInterface
    public interface Listener {
        /**
         * One message, on the subscriber's executor.
         *
         * @param message the message (shared: do not change it)
         */
        void message(Message message);

        /**
         * The subscriber was closed by the engine ({@code why}), not by {@link Subscriber#close}.
         *
         * @param why the reason, as Redis logs it for a client it disconnects
         */
        default void closed(String why) {
        }
    }

    private static final System.Logger LOG = System.getLogger(Subscriber.class.getName());

    private final PubSub hub;
    private final Consumer<Runnable> underLock;
    private final Executor executor;
    private final Listener listener;
    private final Supplier<OutputBufferLimits.Limit> limit;
    private final Subscriptions subscriptions = new Subscriptions(this::push);
    private final ConcurrentLinkedQueue<Message> queue = new ConcurrentLinkedQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final OutputLimitWatch watch = new OutputLimitWatch();
    private volatile boolean closed;

    /**
     * A subscriber of {@code hub}; {@code underLock} runs an action under the engine's lock, and
     * {@code limit} gives the pubsub output class's current limit.
     *
     * @param hub       the engine's subscriptions
     * @param underLock runs an action under the engine's lock
     * @param executor  runs the listener
     * @param listener  receives the messages
     * @param limit     the pubsub class of client-output-buffer-limit, read at each check
     */
    public Subscriber(PubSub hub, Consumer<Runnable> underLock, Executor executor, Listener listener,
                      Supplier<OutputBufferLimits.Limit> limit) {
        this.hub = hub;
        this.underLock = underLock;
        this.executor = executor;
        this.listener = listener;
        this.limit = limit;
    }

    /**
     * SUBSCRIBE: receives what is published to these channels.
     *
     * @param channels the channels
     * @return this subscriber
     */
    public Subscriber subscribe(String... channels) {
        return change(Space.CHANNELS, true, channels);
    }

    /**
     * PSUBSCRIBE: receives what is published to channels matching these glob patterns.
     *
     * @param patterns the glob patterns
     * @return this subscriber
     */
    public Subscriber psubscribe(String... patterns) {
        return change(Space.PATTERNS, true, patterns);
    }

    /**
     * SSUBSCRIBE: receives what is published with SPUBLISH to these shard channels.
     *
     * @param channels the shard channels
     * @return this subscriber
     */
    public Subscriber ssubscribe(String... channels) {
        return change(Space.SHARD_CHANNELS, true, channels);
    }

    /**
     * UNSUBSCRIBE: stops receiving what is published to these channels.
     *
     * @param channels the channels
     * @return this subscriber
     */
    public Subscriber unsubscribe(String... channels) {
        return change(Space.CHANNELS, false, channels);
    }

    /**
     * PUNSUBSCRIBE: stops receiving what matches these patterns.
     *
     * @param patterns the glob patterns
     * @return this subscriber
     */
    public Subscriber punsubscribe(String... patterns) {
        return change(Space.PATTERNS, false, patterns);
    }

    /**
     * SUNSUBSCRIBE: stops receiving from these shard channels.
     *
     * @param channels the shard channels
     * @return this subscriber
     */
    public Subscriber sunsubscribe(String... channels) {
        return change(Space.SHARD_CHANNELS, false, channels);
    }

    /**
     * How many names of {@code space} this subscriber has now.
     *
     * @param space channels, patterns or shard channels
     * @return the count
     */
    public int count(Space space) {
        int[] n = new int[1];
        underLock.accept(() -> n[0] = subscriptions.count(space));
        return n[0];
    }

    /**
     * Whether the subscriber is closed (by {@link #close} or by the engine).
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    private Subscriber change(Space space, boolean subscribe, String... names) {
        if (closed) {
            throw new IllegalStateException("the subscriber is closed");
        }
        underLock.accept(() -> {
            for (String name : names) {
                byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
                if (subscribe) {
                    hub.subscribe(space, subscriptions, bytes);
                } else {
                    hub.unsubscribe(space, subscriptions, bytes);
                }
            }
        });
        return this;
    }

    /** Under the engine lock: queues the message, or closes the subscriber when the listener is too far behind. */
    private void push(Message message) {
        if (closed) {
            return;
        }
        long queued = queuedBytes.addAndGet(message.encodedSize());
        if (watch.breaks(limit.get(), queued, System::currentTimeMillis)) {
            closed = true;
            hub.forget(subscriptions);
            queue.clear();
            queuedBytes.set(0);
            executor.execute(() -> listener.closed("the listener fell behind past client-output-buffer-limit pubsub"));
            return;
        }
        queue.add(message);
        if (draining.compareAndSet(false, true)) {
            executor.execute(this::drain);
        }
    }

    /** On the executor: hands queued messages to the listener in order, until none is left. */
    private void drain() {
        do {
            Message m;
            while (!closed && (m = queue.poll()) != null) {
                queuedBytes.addAndGet(-m.encodedSize());
                try {
                    listener.message(m);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "A Pub/Sub listener failed; it keeps its subscriptions", e);
                }
            }
            draining.set(false);
        } while (!closed && !queue.isEmpty() && draining.compareAndSet(false, true));
    }

    /** Unsubscribes from everything; messages not yet delivered are dropped. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        underLock.accept(() -> hub.forget(subscriptions));
        queue.clear();
    }
}
