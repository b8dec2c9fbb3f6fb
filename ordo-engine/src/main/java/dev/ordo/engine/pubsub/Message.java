package dev.ordo.engine.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * One delivery of a published message to one subscription: a channel message, a message that
 * matched a pattern ({@code pattern} set), or a shard channel message. The arrays are shared by
 * every subscriber of a publication and must not be changed.
 *
 * @param kind    what was subscribed to
 * @param pattern the pattern that matched, for {@link Kind#PMESSAGE}; else null
 * @param channel the channel it was published to
 * @param payload the message
 */
public record Message(Kind kind, byte[] pattern, byte[] channel, byte[] payload) {
    /** What the subscriber subscribed to, named as the push's first element. */
    public enum Kind {
        /** A message published to a channel subscribed to by name. */
        MESSAGE("message"),
        /** A message published to a channel that matched a subscribed pattern. */
        PMESSAGE("pmessage"),
        /** A message published to a subscribed shard channel. */
        SMESSAGE("smessage");

        private final byte[] word;

        Kind(String word) {
            this.word = word.getBytes(StandardCharsets.US_ASCII);
        }

        /**
         * The push's first element ({@code message}, {@code pmessage}, {@code smessage}); do not change it.
         *
         * @return the word, shared
         */
        public byte[] word() {
            return word;
        }
    }

    /**
     * The bytes this delivery holds beyond what is shared, as an output buffer counts them (its encoded size).
     *
     * @return the size in bytes
     */
    public long encodedSize() {
        long size = 32 + kind.word.length + channel.length + payload.length;
        return pattern == null ? size : size + 16 + pattern.length;
    }
}
