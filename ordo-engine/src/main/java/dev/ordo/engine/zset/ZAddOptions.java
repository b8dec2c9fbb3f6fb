package dev.ordo.engine.zset;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

/**
 * ZADD's conditions as one immutable value: NX (only add), XX (only update), GT / LT (update an
 * existing member only to a greater / lower score; new members are not gated), CH (reply counts
 * changed members too) and INCR (the score is an increment). Built fluently from {@link #NONE}.
 */
public final class ZAddOptions {
    private static final int NX = 1;
    private static final int XX = 2;
    private static final int GT = 4;
    private static final int LT = 8;
    private static final int CH = 16;
    private static final int INCR = 32;

    /** No condition: add new members, update existing ones. */
    public static final ZAddOptions NONE = new ZAddOptions(0);

    private final int flags;

    private ZAddOptions(int flags) {
        this.flags = flags;
    }

    public ZAddOptions nx() {
        return with(NX);
    }

    public ZAddOptions xx() {
        return with(XX);
    }

    public ZAddOptions gt() {
        return with(GT);
    }

    public ZAddOptions lt() {
        return with(LT);
    }

    public ZAddOptions ch() {
        return with(CH);
    }

    public ZAddOptions incr() {
        return with(INCR);
    }

    public boolean isNx() {
        return (flags & NX) != 0;
    }

    public boolean isXx() {
        return (flags & XX) != 0;
    }

    public boolean isGt() {
        return (flags & GT) != 0;
    }

    public boolean isLt() {
        return (flags & LT) != 0;
    }

    public boolean isCh() {
        return (flags & CH) != 0;
    }

    public boolean isIncr() {
        return (flags & INCR) != 0;
    }

    /**
     * Checks the combination as ZADD does before touching anything: NX with XX, or more than one
     * of GT, LT and NX, is an error; INCR takes exactly one score-member pair.
     */
    public ZAddOptions validate(int pairs) {
        if (isNx() && isXx()) {
            throw new ErrorReply(Errors.ZADD_XX_NX);
        }
        if (Integer.bitCount(flags & (GT | LT | NX)) > 1) {
            throw new ErrorReply(Errors.ZADD_GT_LT_NX);
        }
        if (isIncr() && pairs > 1) {
            throw new ErrorReply(Errors.ZADD_INCR_PAIRS);
        }
        return this;
    }

    /** Whether a member whose score is {@code current} may take {@code proposed} under GT / LT. */
    boolean permitsUpdate(double current, double proposed) {
        return !((isLt() && proposed >= current) || (isGt() && proposed <= current));
    }

    private ZAddOptions with(int flag) {
        return new ZAddOptions(flags | flag);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("ZAddOptions[");
        String[] names = {"NX", "XX", "GT", "LT", "CH", "INCR"};
        for (int i = 0; i < names.length; i++) {
            if ((flags & (1 << i)) != 0) {
                sb.append(' ').append(names[i]);
            }
        }
        return sb.append(" ]").toString();
    }
}
