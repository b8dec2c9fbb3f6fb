package dev.ordo.engine.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * The three kinds of subscription, each with its commands' reply words and the kind of message
 * it receives. Channels and patterns share one count in the replies of their commands; shard
 * channels count on their own, as in Redis.
 */
public enum Space {
    CHANNELS("subscribe", "unsubscribe", Message.Kind.MESSAGE),
    PATTERNS("psubscribe", "punsubscribe", Message.Kind.PMESSAGE),
    SHARD_CHANNELS("ssubscribe", "sunsubscribe", Message.Kind.SMESSAGE);

    private final byte[] subscribeWord;
    private final byte[] unsubscribeWord;
    private final Message.Kind kind;

    Space(String subscribe, String unsubscribe, Message.Kind kind) {
        this.subscribeWord = subscribe.getBytes(StandardCharsets.US_ASCII);
        this.unsubscribeWord = unsubscribe.getBytes(StandardCharsets.US_ASCII);
        this.kind = kind;
    }

    /** The first element of a subscribe reply ({@code subscribe}, {@code psubscribe}, {@code ssubscribe}); do not change it. */
    public byte[] subscribeWord() {
        return subscribeWord;
    }

    /** The first element of an unsubscribe reply; do not change it. */
    public byte[] unsubscribeWord() {
        return unsubscribeWord;
    }

    /** The kind of message a subscription of this space receives. */
    public Message.Kind kind() {
        return kind;
    }
}
