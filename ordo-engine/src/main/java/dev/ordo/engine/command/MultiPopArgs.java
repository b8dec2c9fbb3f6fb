package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.util.function.BiFunction;

/**
 * The arguments LMPOP and ZMPOP (and BLMPOP, BZMPOP) share: {@code numkeys key [key ...] WHERE
 * [COUNT count]}, checked in Redis's order: numkeys, then that a WHERE follows the keys, then
 * WHERE itself (LEFT/RIGHT or MIN/MAX, read by the family), then COUNT. The keys are arguments
 * {@code [firstKey, whereIndex)}; {@code count} is -1 when not given.
 */
record MultiPopArgs<W>(W where, int whereIndex, long count) {
    static final int NO_COUNT = -1;

    static <W> MultiPopArgs<W> parse(Call c, int numkeysIndex, BiFunction<Call, Integer, W> where) {
        long numkeys = Call.parseLong(c.arg(numkeysIndex), Errors.NUMKEYS_NOT_POSITIVE);
        if (numkeys < 1) {
            throw new ErrorReply(Errors.NUMKEYS_NOT_POSITIVE);
        }
        long whereIndex = numkeysIndex + numkeys + 1;
        if (whereIndex >= c.argc()) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        W side = where.apply(c, (int) whereIndex);
        long count = NO_COUNT;
        for (int j = (int) whereIndex + 1; j < c.argc(); j++) {
            if (count == NO_COUNT && c.argIs(j, "COUNT") && j < c.argc() - 1) {
                count = Call.parseLong(c.arg(++j), Errors.COUNT_NOT_POSITIVE);
                if (count < 1) {
                    throw new ErrorReply(Errors.COUNT_NOT_POSITIVE);
                }
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        return new MultiPopArgs<>(side, (int) whereIndex, count);
    }

    /** How many to pop: the COUNT, else 1. */
    long countOrOne() {
        return count == NO_COUNT ? 1 : count;
    }
}
