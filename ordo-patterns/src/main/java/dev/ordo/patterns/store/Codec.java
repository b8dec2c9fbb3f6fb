package dev.ordo.patterns.store;

import java.util.Objects;
import java.util.function.Function;

/**
 * Turns a pattern's typed values (a queue's payloads) into the text the database stores, and
 * back. Optional: a pattern created without one stores strings as they are ({@link #strings()}).
 * {@code decode(encode(v))} must equal {@code v}; encode never returns null.
 *
 * @param <T> the type of the values
 */
public interface Codec<T> {
    /**
     * The text stored for {@code value}.
     *
     * @param value the value to store
     * @return its text, which {@link #decode} turns back into an equal value
     */
    String encode(T value);

    /**
     * The value {@code text} was stored for.
     *
     * @param text text that {@link #encode} wrote
     * @return the value it stands for
     */
    T decode(String text);

    /**
     * Strings stored as they are: the default.
     *
     * @return the identity codec for strings
     */
    static Codec<String> strings() {
        return of(s -> s, s -> s);
    }

    /**
     * A codec from two functions, {@code encode} and its inverse {@code decode}.
     *
     * @param <T> the type of the values stored
     * @param encode turns a value into the text stored
     * @param decode turns stored text back into the value
     * @return a codec calling the two functions
     */
    static <T> Codec<T> of(Function<? super T, String> encode, Function<String, ? extends T> decode) {
        Objects.requireNonNull(encode, "encode");
        Objects.requireNonNull(decode, "decode");
        return new Codec<>() {
            @Override
            public String encode(T value) {
                return Objects.requireNonNull(encode.apply(Objects.requireNonNull(value, "value")), "encoded value");
            }

            @Override
            public T decode(String text) {
                return decode.apply(text);
            }
        };
    }
}
