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

    /** An operation on a key holding another type. */
    public static final String WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
    /** An argument that must be a 64-bit integer. */
    public static final String NOT_INTEGER = "ERR value is not an integer or out of range";
    /** Options that do not parse. */
    public static final String SYNTAX = "ERR syntax error";
    /** A command before AUTH on a server with a password. */
    public static final String NOAUTH = "NOAUTH Authentication required.";
    /** A wrong password. */
    public static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    /** AUTH on a server without a password. */
    public static final String AUTH_NO_PASSWORD = "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?";
    /** A count that must be positive. */
    public static final String NOT_POSITIVE = "ERR value is out of range, must be positive";
    /** SELECT / MOVE / SWAPDB with a database that does not exist. */
    public static final String DB_INDEX = "ERR DB index is out of range";
    /** A blocking command's timeout that is not a number. */
    public static final String TIMEOUT_NOT_FLOAT = "ERR timeout is not a float or out of range";
    /** A blocking timeout too large to represent. */
    public static final String TIMEOUT_OUT_OF_RANGE = "ERR timeout is out of range";
    /** A negative blocking timeout. */
    public static final String TIMEOUT_NEGATIVE = "ERR timeout is negative";
    /** A string grown past proto-max-bulk-len (512 MB). */
    public static final String STRING_TOO_LONG = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";
    /** An increment that overflows a 64-bit integer. */
    public static final String INCR_OVERFLOW = "ERR increment or decrement would overflow";
    /** INCRBYFLOAT / HINCRBYFLOAT producing NaN or infinity. */
    public static final String INCR_NAN_OR_INF = "ERR increment would produce NaN or Infinity";
    /** A hash value that is not an integer for HINCRBY. */
    public static final String HASH_NOT_INTEGER = "ERR hash value is not an integer";
    /** A hash value that is not a float for HINCRBYFLOAT. */
    public static final String HASH_NOT_FLOAT = "ERR hash value is not a float";
    /** RENAME of a missing key. */
    public static final String NO_SUCH_KEY = "ERR no such key";
    /** SELECT-like commands given a non-integer. */
    public static final String INVALID_DB = "ERR invalid DB index";

    private Errors() {
    }

    /** The reply to a command name the table does not know; at most 128 bytes of arguments are quoted. */
    public static String unknownCommand(String name, java.util.List<String> args) {
        StringBuilder quoted = new StringBuilder();
        for (String a : args) {
            if (quoted.length() >= 128) {
                break;
            }
            String part = a.length() > 128 - quoted.length() ? a.substring(0, 128 - quoted.length()) : a;
            quoted.append('\'').append(part).append("' ");
        }
        String n = name.length() > 128 ? name.substring(0, 128) : name;
        return sanitize("ERR unknown command '" + n + "', with args beginning with: " + quoted);
    }

    /** The reply to a command with the wrong number of arguments; {@code fullName} is lowercase. */
    public static String wrongArity(String fullName) {
        return "ERR wrong number of arguments for '" + fullName + "' command";
    }

    /** The reply to an unknown subcommand of {@code command}. */
    public static String unknownSubcommand(String subcommand, String command) {
        String s = subcommand.length() > 128 ? subcommand.substring(0, 128) : subcommand;
        return sanitize("ERR unknown subcommand '" + s + "'. Try " + command.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    /** Error texts are one line: Redis turns CR and LF inside them into spaces. */
    public static String sanitize(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }
}
