package dev.ordo.server.resp;

/**
 * What {@link RespDecoder} emits, in order with the commands, when a connection's input cannot
 * go on: the connection answers {@link #reply()} (when there is one) after the replies to the
 * commands before it, then closes. A null reply (query buffer limit) closes at once, silently,
 * as Redis does.
 *
 * @param reply the error reply without its leading {@code -} and trailing CRLF, one char per byte
 *              (ISO-8859-1, as the offending byte of "expected '$', got 'c'" may be any byte), or null
 * @param reason a short description for the server log
 */
public record ProtocolError(String reply, String reason) {
    /** An error that is answered, then the connection closes. */
    static ProtocolError answered(String text) {
        return new ProtocolError("ERR Protocol error: " + text, text);
    }

    /** A limit breach that closes the connection without a reply. */
    static ProtocolError silent(String reason) {
        return new ProtocolError(null, reason);
    }
}
