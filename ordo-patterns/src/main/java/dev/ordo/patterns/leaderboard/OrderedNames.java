package dev.ordo.patterns.leaderboard;

import java.util.Objects;

/**
 * Member names that carry sort dimensions, for dimensions that never change once a member is
 * added (changing one means removing the member and adding it under a new name).
 *
 * <p>A sorted set orders members with equal scores by their names, compared as unsigned bytes
 * (memcmp, a shorter prefix first). A name built by {@link #join} starts with fixed-width fields
 * whose byte order is the numeric order of their values, so equal-score members sort by those
 * values, most significant field first, before the id is ever compared.
 *
 * <p>Reading highest score first (ZREVRANGE, ZRANGE ... REV) also reverses the name order among
 * equal scores. For such a leaderboard, encode a dimension whose higher values rank first with
 * {@link #encodeLong} and one whose lower values rank first (an earlier timestamp) with
 * {@link #encodeLongDescending}, matching {@link ScoreCodec.Direction}.
 *
 * <p>A field is {@value #WIDTH} lowercase hex digits; a name is
 * {@code field SEPARATOR field SEPARATOR ... id}. The id may contain anything, the separator too.
 */
public final class OrderedNames {
    /** Characters in one encoded field. */
    public static final int WIDTH = 16;
    /** Follows every field in a joined name. */
    public static final char SEPARATOR = '-';

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private OrderedNames() {
    }

    /**
     * {@value #WIDTH} hex digits of {@code v} with its sign bit flipped: byte order equals signed numeric order.
     *
     * @param v the number to encode
     * @return its {@value #WIDTH}-digit encoding
     */
    public static String encodeLong(long v) {
        long u = v ^ Long.MIN_VALUE;
        char[] out = new char[WIDTH];
        for (int i = WIDTH - 1; i >= 0; i--) {
            out[i] = DIGITS[(int) (u & 0xf)];
            u >>>= 4;
        }
        return new String(out);
    }

    /**
     * Inverse of {@link #encodeLong}; IllegalArgumentException unless {@value #WIDTH} lowercase hex digits.
     *
     * @param s an encoding from {@link #encodeLong}
     * @return the number encoded
     */
    public static long decodeLong(String s) {
        Objects.requireNonNull(s, "s");
        if (s.length() != WIDTH) {
            throw new IllegalArgumentException("encoded long '" + s + "' has " + s.length()
                    + " characters, not " + WIDTH);
        }
        long u = 0;
        for (int i = 0; i < WIDTH; i++) {
            char c = s.charAt(i);
            int digit;
            if (c >= '0' && c <= '9') {
                digit = c - '0';
            } else if (c >= 'a' && c <= 'f') {
                digit = c - 'a' + 10;
            } else {
                throw new IllegalArgumentException("encoded long '" + s + "' has '" + c
                        + "' at " + i + ", not a lowercase hex digit");
            }
            u = (u << 4) | digit;
        }
        return u ^ Long.MIN_VALUE;
    }

    /**
     * Like {@link #encodeLong} but byte order is the reverse numeric order (encodes {@code ~v}).
     *
     * @param v the number to encode
     * @return its {@value #WIDTH}-digit encoding, sorting largest first
     */
    public static String encodeLongDescending(long v) {
        return encodeLong(~v);
    }

    /**
     * Inverse of {@link #encodeLongDescending}.
     *
     * @param s an encoding from {@link #encodeLongDescending}
     * @return the number encoded
     */
    public static long decodeLongDescending(String s) {
        return ~decodeLong(s);
    }

    /**
     * {@code fields[0] - fields[1] - ... - id}; each field must come from one of the encoders above.
     *
     * @param id the member's own id, last in the name
     * @param encodedFields the fields to sort by, most significant first
     * @return the member name, sorting by the fields in order
     */
    public static String join(String id, String... encodedFields) {
        Objects.requireNonNull(id, "id");
        StringBuilder name = new StringBuilder(encodedFields.length * (WIDTH + 1) + id.length());
        for (String field : encodedFields) {
            decodeLong(field);
            name.append(field).append(SEPARATOR);
        }
        return name.append(id).toString();
    }

    /**
     * The id of a name that {@link #join} built with {@code fieldCount} fields.
     *
     * @param name a name from {@link #join}
     * @param fieldCount how many fields it was built with
     * @return the id after the fields
     */
    public static String idOf(String name, int fieldCount) {
        checkLayout(name, fieldCount);
        return name.substring(fieldCount * (WIDTH + 1));
    }

    /**
     * The encoded field at {@code index} (0 = most significant) of a name built with {@code fieldCount} fields.
     *
     * @param name a name from {@link #join}
     * @param fieldCount how many fields it was built with
     * @param index which field, from 0
     * @return that field, still encoded
     */
    public static String fieldOf(String name, int fieldCount, int index) {
        checkLayout(name, fieldCount);
        if (index < 0 || index >= fieldCount) {
            throw new IllegalArgumentException("field index " + index + " outside [0, " + fieldCount + ")");
        }
        int start = index * (WIDTH + 1);
        return name.substring(start, start + WIDTH);
    }

    private static void checkLayout(String name, int fieldCount) {
        Objects.requireNonNull(name, "name");
        if (fieldCount < 0) {
            throw new IllegalArgumentException("field count " + fieldCount + " is negative");
        }
        if ((long) fieldCount * (WIDTH + 1) > name.length()) {
            throw new IllegalArgumentException("name '" + name + "' is too short for " + fieldCount + " fields");
        }
        for (int i = 0; i < fieldCount; i++) {
            int end = i * (WIDTH + 1) + WIDTH;
            decodeLong(name.substring(end - WIDTH, end));
            if (name.charAt(end) != SEPARATOR) {
                throw new IllegalArgumentException("name '" + name + "' has no '" + SEPARATOR
                        + "' after field " + i);
            }
        }
    }
}
