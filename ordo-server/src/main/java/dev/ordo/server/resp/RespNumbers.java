package dev.ordo.server.resp;

import io.netty.buffer.ByteBuf;

/**
 * Decimal integers on the wire: parsing the lengths in {@code *N} and {@code $N} lines with the
 * strictness of Redis's {@code string2ll}.
 */
final class RespNumbers {
    /** Returned by {@link #parse} for text that is not a canonical 64-bit integer. */
    static final long INVALID = Long.MIN_VALUE;

    private RespNumbers() {
    }

    /**
     * Parses bytes {@code [from, to)} of {@code buf}: an optional '-', then digits with no leading
     * zero (except "0" itself), no '+', no spaces, within 64 bits. Any valid negative value is
     * returned as -1 (callers only need its sign); invalid text returns {@link #INVALID}.
     */
    static long parse(ByteBuf buf, int from, int to) {
        if (from == to) {
            return INVALID;
        }
        boolean negative = buf.getByte(from) == '-';
        int i = negative ? from + 1 : from;
        if (i == to) {
            return INVALID;
        }
        byte first = buf.getByte(i);
        if (first == '0') {
            return !negative && to - from == 1 ? 0 : INVALID;
        }
        long value = 0;
        for (; i < to; i++) {
            int digit = buf.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                return INVALID;
            }
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return negative && isMinLong(value, digit, i, to) ? -1 : INVALID;
            }
            value = value * 10 + digit;
        }
        return negative ? -1 : value;
    }

    /** Whether the digits end exactly at -9223372036854775808, the one magnitude beyond Long.MAX_VALUE. */
    private static boolean isMinLong(long value, int digit, int index, int to) {
        return index == to - 1 && value == Long.MAX_VALUE / 10 && digit == 8;
    }
}
