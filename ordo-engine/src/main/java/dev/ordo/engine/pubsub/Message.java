package dev.ordo.engine.pubsub;

import java.nio.charset.StandardCharsets;

/**
 * One delivery of a published message to one subscription: a channel message, a message that
 * matched a pattern ({@code pattern} set), or a shard channel message. The arrays are shared by
 * every subscriber of a publication and must not be changed.
 */
public record Message(Kind kind, byte[] pattern, byte[] channel, byte[] payload) {
    /** What the subscriber subscribed to, named as the push's first element. */
    public enum Kind {
        MESSAGE("message"), PMESSAGE("pmessage"), SMESSAGE("smessage");

        private final byte[] word;

        Kind(String word) {
            this.word = word.getBytes(StandardCharsets.US_ASCII);
        }

        /** The push's first element ({@code message}, {@code pmessage}, {@code smessage}); do not change it. */
        public byte[] word() {
            return word;
        }
    }

    /** The bytes this delivery holds beyond what is shared, as an output buffer counts them (its encoded size). */
    public long encodedSize() {
        long size = 32 + kind.word.length + channel.length + payload.length;
        return pattern == null ? size : size + 16 + pattern.length;
    }
}
