package dev.ordo.engine.command;

/**
 * Where a command writes its reply, in RESP's vocabulary. One implementation encodes RESP bytes
 * for a connection, another builds Java objects for embedded callers. Aggregates are written as a
 * header with the element count followed by exactly that many elements.
 *
 * <p>RESP3-only types degrade as Redis degrades them for a RESP2 client: a map becomes a flat
 * array of 2n elements, a set an array, a double a bulk string in Redis 7.2's format, a null the
 * null bulk string (or null array where Redis sends one), a boolean the integer 0 or 1.
 */
public interface ReplyWriter {
    /**
     * The most elements a reply of random members with repeats (HRANDFIELD, SRANDMEMBER,
     * ZRANDMEMBER with a negative count) may hold: an array header takes an int, and a longer
     * reply, which Redis would build until memory runs out, is refused with {@code ERR value is
     * out of range} before anything is written.
     */
    long MAX_RANDOM_REPLY = Integer.MAX_VALUE - 8;

    /**
     * The protocol of the client being answered: 2 or 3.
     *
     * @return the protocol
     */
    int protocol();

    /**
     * A status reply ({@code +OK}).
     *
     * @param status the status text, without {@code +}
     */
    void simpleString(String status);

    /**
     * An error reply; {@code text} starts with its code ({@code ERR ...}, {@code WRONGTYPE ...}).
     *
     * @param text the error, with its code
     */
    void error(String text);

    /**
     * An integer reply ({@code :}).
     *
     * @param value the integer
     */
    void integer(long value);

    /**
     * A bulk string of {@code value}'s bytes.
     *
     * @param value the bytes
     */
    void bulk(byte[] value);

    /**
     * A bulk string of {@code buf[off, off+len)}.
     *
     * @param buf the buffer
     * @param off where the string starts
     * @param len its length
     */
    void bulk(byte[] buf, int off, int len);

    /**
     * A bulk string of {@code text}'s UTF-8 bytes (field names, help lines, descriptions).
     *
     * @param text the text
     */
    default void bulk(String text) {
        bulk(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A missing value: RESP2 {@code $-1}, RESP3 {@code _}. */
    void nullBulk();

    /** A missing aggregate: RESP2 {@code *-1}, RESP3 {@code _}. */
    void nullArray();

    /**
     * An array of {@code count} elements, which follow.
     *
     * @param count the number of elements
     */
    void arrayHeader(int count);

    /**
     * A map of {@code pairs} key-value pairs: RESP2 flat array of 2 * pairs.
     *
     * @param pairs the number of pairs
     */
    void mapHeader(int pairs);

    /**
     * A set: RESP2 array.
     *
     * @param count the number of elements
     */
    void setHeader(int count);

    /**
     * A double: RESP3 {@code ,}; RESP2 bulk string.
     *
     * @param value the number
     */
    void doubleValue(double value);

    /**
     * A big number (a script's {@code {big_number=...}}): RESP3 {@code (}; RESP2 bulk string.
     *
     * @param digits the number's digits
     */
    default void bigNumber(byte[] digits) {
        bulk(digits);
    }

    /**
     * A boolean: RESP3 {@code #t}/{@code #f}; RESP2 integer 1/0.
     *
     * @param value the boolean
     */
    void bool(boolean value);

    /**
     * A verbatim string (RESP3 {@code =}); RESP2 bulk string. The format goes out as exactly three
     * bytes, one per char (ISO-8859-1): cut after three, or padded with spaces, as Redis does.
     *
     * @param format the format, e.g. {@code txt}
     * @param text the text
     */
    void verbatim(String format, byte[] text);

    /**
     * An out-of-band push (RESP3 {@code >}); for RESP2 clients an array.
     *
     * @param count the number of elements
     */
    void pushHeader(int count);

    /**
     * An attribute (RESP3 {@code |}) of {@code pairs} key-value pairs, written before the reply it
     * describes and not itself a reply. RESP2 has no attributes: as in Redis, a caller writes one
     * (header and pairs) only when {@link #protocol()} is 3.
     *
     * @param pairs the number of pairs
     */
    void attributeHeader(int pairs);
}
