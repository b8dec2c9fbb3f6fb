package dev.ordo.engine.error;

/**
 * Every error text a client can see, word for word as Redis 7.2 sends it. Commands never build
 * an error string of their own: they throw {@link ErrorReply} with one of these.
 */
public final class Errors {
    /** A score, increment or weight that is not a valid double (or is NaN). */
    public static final String NOT_A_FLOAT = "ERR value is not a valid float";
    /** A ZRANGEBYSCORE-style bound that is not a valid double. */
    public static final String MIN_MAX_NOT_FLOAT = "ERR min or max is not a float";
    /** A ZRANGEBYLEX-style bound without a leading '[', '(' or an exact '-' / '+'. */
    public static final String MIN_MAX_NOT_STRING_RANGE = "ERR min or max not valid string range item";
    /** An increment whose result would be NaN (inf + -inf). */
    public static final String SCORE_NAN = "ERR resulting score is not a number (NaN)";
    /** ZADD with both NX and XX. */
    public static final String ZADD_XX_NX = "ERR XX and NX options at the same time are not compatible";
    /** ZADD combining GT, LT and NX. */
    public static final String ZADD_GT_LT_NX = "ERR GT, LT, and/or NX options at the same time are not compatible";
    /** ZADD INCR with more than one score-member pair. */
    public static final String ZADD_INCR_PAIRS = "ERR INCR option supports a single increment-element pair";
    /** A sorted set whose member storage would pass the engine's addressable limit. */
    public static final String ZSET_TOO_LARGE = "ERR sorted set member storage limit reached";

    private Errors() {
    }
}
