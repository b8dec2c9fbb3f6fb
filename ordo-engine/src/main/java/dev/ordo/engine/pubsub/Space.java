package dev.ordo.engine.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * The three kinds of subscription, each with its commands' reply words and the kind of message
 * it receives. Channels and patterns share one count in the replies of their commands; shard
 * channels count on their own, as in Redis.
 */
public enum Space {
    /**
     * Channels: SUBSCRIBE, PUBLISH.
     */
    CHANNELS("subscribe", "unsubscribe", Message.Kind.MESSAGE),
    /**
     * Glob patterns over channel names: PSUBSCRIBE.
     */
    PATTERNS("psubscribe", "punsubscribe", Message.Kind.PMESSAGE),
    /**
     * Shard channels: SSUBSCRIBE, SPUBLISH.
     */
    SHARD_CHANNELS("ssubscribe", "sunsubscribe", Message.Kind.SMESSAGE);

    private final byte[] subscribeWord;
    private final byte[] unsubscribeWord;
    private final Message.Kind kind;

    Space(String subscribe, String unsubscribe, Message.Kind kind) {
        this.subscribeWord = subscribe.getBytes(StandardCharsets.US_ASCII);
        this.unsubscribeWord = unsubscribe.getBytes(StandardCharsets.US_ASCII);
        this.kind = kind;
    }

    /**
     * The first element of a subscribe reply ({@code subscribe}, {@code psubscribe}, {@code ssubscribe}); do not change it.
     *
     * @return the word, shared
     */
    public byte[] subscribeWord() {
        return subscribeWord;
    }

    /**
     * The first element of an unsubscribe reply; do not change it.
     *
     * @return the word, shared
     */
    public byte[] unsubscribeWord() {
        return unsubscribeWord;
    }

    /**
     * The kind of message a subscription of this space receives.
     *
     * @return MESSAGE, PMESSAGE or SMESSAGE
     */
    public Message.Kind kind() {
        return kind;
    }
}
