package dev.ordo.engine.error.text;

/**
 * Every error text a client can see, word for word as Redis 7.2 sends it. Commands never build
 * an error string of their own: they throw {@link dev.ordo.engine.error.ErrorReply} with one of these.
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
    /** LSET's index beyond the list. */
    public static final String INDEX_OUT_OF_RANGE = "ERR index out of range";
    /** LPOS RANK 0. */
    public static final String LPOS_RANK_ZERO = "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list";
    /** LPOS COUNT below 0. */
    public static final String LPOS_COUNT_NEGATIVE = "ERR COUNT can't be negative";
    /** LPOS MAXLEN below 0. */
    public static final String LPOS_MAXLEN_NEGATIVE = "ERR MAXLEN can't be negative";
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
    /** LCS of a key holding something other than a string (Redis answers this, not WRONGTYPE). */
    public static final String LCS_NOT_STRINGS = "ERR The specified keys must contain string values";
    /** LCS given both LEN and IDX. */
    public static final String LCS_LEN_AND_IDX = "ERR If you want both the length and indexes, please just use IDX.";
    /** LCS whose table of (len1 + 1) * (len2 + 1) four-byte cells would pass proto-max-bulk-len. */
    public static final String LCS_OVER_PROTO_MAX_BULK_LEN =
            "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len";
    /** LCS whose table the heap cannot hold (Redis: the allocation failed; Ordo: past a command's transient share of the heap). */
    public static final String LCS_ALLOCATION_FAILED = "ERR Insufficient memory, failed allocating transient memory for LCS";
    /** An increment that overflows a 64-bit integer. */
    public static final String INCR_OVERFLOW = "ERR increment or decrement would overflow";
    /** INCRBYFLOAT / HINCRBYFLOAT producing NaN or infinity. */
    public static final String INCR_NAN_OR_INF = "ERR increment would produce NaN or Infinity";
    /** A hash value that is not an integer for HINCRBY. */
    public static final String HASH_NOT_INTEGER = "ERR hash value is not an integer";
    /** A hash value that is not a float for HINCRBYFLOAT. */
    public static final String HASH_NOT_FLOAT = "ERR hash value is not a float";
    /** DEBUG while {@code enable-debug-command} does not allow it (Redis 7's default). */
    public static final String DEBUG_NOT_ALLOWED = "ERR DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
            + "you can run it from a local connection, otherwise you need to set this option in the configuration file, "
            + "and then restart the server.";
    /** DEBUG LOADAOF that could not load the append-only file (Redis 7.2's text; 7.0 exits instead). */
    public static final String AOF_LOAD_FAILED = "ERR Error trying to load the AOF files, check server logs.";
    /** DEBUG PROTOCOL with a type it does not know. */
    public static final String DEBUG_PROTOCOL_TYPE = "ERR Wrong protocol type name. Please use one of the following: "
            + "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false";
    /** DEBUG PROTOCOL push from a RESP2 client, which has no push replies. */
    public static final String RESP2_NOT_SUPPORTED = "ERR RESP2 is not supported by this command";
    /** DEBUG QUICKLIST-PACKED-THRESHOLD with a size that is not a memory value up to 4 GB less 1 MB. */
    public static final String PACKED_THRESHOLD = "ERR argument must be a memory value bigger than 1 and smaller than 4gb";
    /** RENAME of a missing key. */
    public static final String NO_SUCH_KEY = "ERR no such key";
    /** ZRANGE ... LIMIT without BYSCORE or BYLEX. */
    public static final String LIMIT_NEEDS_BYSCORE_OR_BYLEX = "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX";
    /** ZRANGE ... BYLEX WITHSCORES, or ZRANGEBYLEX ... WITHSCORES. */
    public static final String WITHSCORES_WITH_BYLEX = "ERR syntax error, WITHSCORES not supported in combination with BYLEX";
    /** ZMPOP / BZMPOP numkeys below 1 or not a number. */
    public static final String NUMKEYS_NOT_POSITIVE = "ERR numkeys should be greater than 0";
    /** ZMPOP / BZMPOP COUNT below 1 or not a number. */
    public static final String COUNT_NOT_POSITIVE = "ERR count should be greater than 0";
    /** ZRANDMEMBER with a count of -2^63. */
    public static final String RANDMEMBER_RANGE = "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807";
    /** A number outside what the command accepts. */
    public static final String OUT_OF_RANGE = "ERR value is out of range";
    /** A SCAN-family cursor that is not an unsigned 64-bit integer. */
    public static final String INVALID_CURSOR = "ERR invalid cursor";
    /** ZUNIONSTORE ... WEIGHTS with a weight that is not a float. */
    public static final String WEIGHT_NOT_FLOAT = "ERR weight value is not a float";
    /** ZINTERCARD / SINTERCARD with a negative or non-numeric LIMIT. */
    public static final String LIMIT_NEGATIVE = "ERR LIMIT can't be negative";

    /** HELLO with a protocol version that is not an integer. */
    public static final String HELLO_PROTOCOL_NOT_INTEGER = "ERR Protocol version is not an integer or out of range";
    /** HELLO with a protocol version other than 2 or 3. */
    public static final String NOPROTO = "NOPROTO unsupported protocol version";
    /** HELLO from an unauthenticated client that gave no AUTH option. */
    public static final String HELLO_NOAUTH = "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time";
    /** CLIENT SETNAME / HELLO SETNAME with a byte outside '!'..'~'. */
    public static final String INVALID_CLIENT_NAME = "ERR Client names cannot contain spaces, newlines or special characters.";
    /** CLIENT KILL ip:port naming no connected client. */
    public static final String NO_SUCH_CLIENT = "ERR No such client";
    /** COMMAND GETKEYS naming a command the server does not know. */
    public static final String GETKEYS_UNKNOWN_COMMAND = "ERR Invalid command specified";
    /** COMMAND GETKEYS of a command that takes no keys. */
    public static final String GETKEYS_NO_KEYS = "ERR The command has no key arguments";
    /** COMMAND GETKEYS with the wrong number of arguments for the command named. */
    public static final String GETKEYS_BAD_ARITY = "ERR Invalid number of arguments specified for command";
    /** COMMAND GETKEYS with arguments the command named cannot take. */
    public static final String GETKEYS_BAD_ARGUMENTS = "ERR Invalid arguments specified for command";
    /**
     * CLIENT SETINFO naming an attribute other than LIB-NAME and LIB-VER.
     *
     * @param attribute the attribute as typed
     * @return the error reply
     */
    public static String unrecognizedClientInfo(String attribute) {
        return sanitize("ERR Unrecognized option '" + attribute + "'");
    }

    /**
     * CLIENT SETINFO with a value holding spaces or other bytes CLIENT LIST could not show.
     *
     * @param attribute the attribute whose value is refused
     * @return the error reply
     */
    public static String invalidClientInfo(String attribute) {
        return sanitize("ERR " + attribute + " cannot contain spaces, newlines or special characters.");
    }

    /** What a client blocked in a command gets when CLIENT UNBLOCK ... ERROR releases it. */
    public static final String UNBLOCKED = "UNBLOCKED client unblocked via CLIENT UNBLOCK";
    /** CLIENT UNBLOCK with a reason other than TIMEOUT or ERROR. */
    public static final String UNBLOCK_REASON = "ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR";
    /** CLIENT LIST ID with an id that is not a positive integer. */
    public static final String INVALID_CLIENT_ID = "ERR Invalid client ID";
    /** CLIENT KILL ID with an id that is not a positive integer. */
    public static final String CLIENT_ID_NOT_POSITIVE = "ERR client-id should be greater than 0";
    /** SLOWLOG GET with a count below -1 or not a number. */
    public static final String SLOWLOG_COUNT = "ERR count should be greater than or equal to -1";
    /** SHUTDOWN ABORT when no shutdown is under way. */
    public static final String NO_SHUTDOWN_IN_PROGRESS = "ERR No shutdown in progress.";

    /** MONITOR where the client must get one reply per command (inside EXEC), as Redis words it. */
    public static final String MONITOR_DENY_BLOCKING = "ERR MONITOR isn't allowed for DENY BLOCKING client";
    /** MONITOR from an embedded client: it has no connection to stream the lines to. */
    public static final String MONITOR_EMBEDDED = "ERR MONITOR needs a network connection; an embedded client has none";

    /** EXEC at a transaction whose queueing failed. */
    public static final String EXEC_ABORT_PREVIOUS = "EXECABORT Transaction discarded because of previous errors.";

    /**
     * EXEC refused before it runs (BUSY, arity ...): the transaction is discarded, naming why; an ERR code is dropped.
     *
     * @param error the error that aborted the transaction, with its code
     * @return the EXECABORT reply
     */
    public static String execAbort(String error) {
        return "EXECABORT Transaction discarded because of: " + (error.startsWith("ERR ") ? error.substring(4) : error);
    }

    /**
     * What a client gets while a script ({@code function} false) or a function runs past busy-reply-threshold.
     *
     * @param function true while a function runs, false for a script
     * @return the BUSY reply
     */
    public static String busy(boolean function) {
        return "BUSY Redis is busy running a script. You can only call " + (function ? "FUNCTION" : "SCRIPT")
                + " KILL or SHUTDOWN NOSAVE.";
    }

    /**
     * CLIENT LIST / KILL TYPE with a type Redis does not know.
     *
     * @param type the type as typed
     * @return the error reply
     */
    public static String unknownClientType(String type) {
        return sanitize("ERR Unknown client type '" + type + "'");
    }

    /**
     * CLIENT KILL USER naming a user that does not exist.
     *
     * @param user the user name as typed
     * @return the error reply
     */
    public static String noSuchUser(String user) {
        return sanitize("ERR No such user '" + user + "'");
    }

    /**
     * HELLO with an option it does not know or that lacks its arguments; {@code option} as typed.
     *
     * @param option the option as typed
     * @return the error reply
     */
    public static String helloSyntax(String option) {
        return sanitize("ERR Syntax error in HELLO option '" + option + "'");
    }

    /**
     * CONFIG SET refusing {@code name}, for {@code reason}.
     *
     * @param name the parameter refused
     * @param reason why, in Redis's words
     * @return the error reply
     */
    public static String configSetFailed(String name, String reason) {
        return sanitize("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    /** Why CONFIG SET of a TLS parameter failed when the new files or settings give no TLS context (the log says more). */
    public static final String TLS_CONFIG_FAILED = "Unable to update TLS configuration. Check server logs.";
    /** Why CONFIG SET of a port failed when the server cannot listen there (the log says more). */
    public static final String LISTEN_FAILED = "Unable to listen on this port. Check server logs.";

    /**
     * CONFIG SET of a protected parameter (dir, dbfilename) that enable-protected-configs does not allow this client.
     *
     * @param name the protected parameter
     * @return the error reply
     */
    public static String configProtected(String name) {
        return configSetFailed(name, "can't set protected config");
    }

    /**
     * CONFIG SET naming one parameter twice.
     *
     * @param name the parameter named twice
     * @return the error reply
     */
    public static String configDuplicate(String name) {
        return configSetFailed(name, "duplicate parameter");
    }

    /**
     * A RESP2 client with subscriptions running anything but the Pub/Sub commands, PING, QUIT and RESET.
     *
     * @param fullName the command's full name, as the client sent it
     * @return the error reply
     */
    public static String pubsubContext(String fullName) {
        return "ERR Can't execute '" + fullName + "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";
    }

    /**
     * SUBSCRIBE and its kin from a client that cannot receive messages (an embedded client).
     *
     * @param fullName the command's full name
     * @return the error reply
     */
    public static String subscribeNeedsConnection(String fullName) {
        return "ERR " + fullName.toUpperCase(java.util.Locale.ROOT) + " needs a connection that can receive messages;"
                + " in process, use Engine.subscriber";
    }

    /**
     * A command parsing its own subcommands (DEBUG, SLOWLOG GET) given an unknown one or the wrong arguments.
     *
     * @param subcommand the subcommand as typed; cut to 128 characters
     * @param command the command, for the HELP it suggests
     * @return the error reply
     */
    public static String subcommandSyntax(String subcommand, String command) {
        String s = subcommand.length() > 128 ? subcommand.substring(0, 128) : subcommand;
        return sanitize("ERR unknown subcommand or wrong number of arguments for '" + s + "'. Try "
                + command.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    /**
     * LATENCY GRAPH of an event with no samples.
     *
     * @param event the event's name as typed
     * @return the error reply
     */
    public static String latencyNoSamples(String event) {
        return sanitize("ERR No samples available for event '" + event + "'");
    }

    /**
     * EVAL / SCRIPT LOAD of a script Lua 5.1 does not compile; {@code luaMessage} is Lua's, e.g. {@code user_script:1: ...}.
     *
     * @param luaMessage Lua's compile error
     * @return the error reply
     */
    public static String scriptCompile(String luaMessage) {
        return sanitize("ERR Error compiling script (new function): " + luaMessage);
    }

    /**
     * FUNCTION LOAD of a library Lua 5.1 does not compile; {@code luaMessage} is Lua's, e.g. {@code user_function:2: ...}.
     *
     * @param luaMessage Lua's compile error
     * @return the error reply
     */
    public static String functionCompile(String luaMessage) {
        return sanitize("ERR Error compiling function: " + luaMessage);
    }

    /** SET with an EX/PX/EXAT/PXAT time that is not positive or overflows once absolute in ms. */
    public static final String INVALID_EXPIRE_SET = "ERR invalid expire time in 'set' command";
    /** SETEX with a time that is not positive or overflows. */
    public static final String INVALID_EXPIRE_SETEX = "ERR invalid expire time in 'setex' command";
    /** PSETEX with a time that is not positive or overflows. */
    public static final String INVALID_EXPIRE_PSETEX = "ERR invalid expire time in 'psetex' command";
    /** GETEX with a time that is not positive or overflows. */
    public static final String INVALID_EXPIRE_GETEX = "ERR invalid expire time in 'getex' command";
    /** DECRBY by -2^63, whose negation overflows. */
    public static final String DECR_OVERFLOW = "ERR decrement would overflow";
    /** SETRANGE with a negative offset. */
    public static final String OFFSET_OUT_OF_RANGE = "ERR offset is out of range";
    /** HINCRBYFLOAT with an infinite increment. */
    public static final String HASH_INCR_NAN_OR_INF = "ERR value is NaN or Infinity";

    /** EXPIRE and friends with NX beside XX, GT or LT. */
    public static final String EXPIRE_NX_AND_OTHERS = "ERR NX and XX, GT or LT options at the same time are not compatible";
    /** EXPIRE and friends with both GT and LT. */
    public static final String EXPIRE_GT_AND_LT = "ERR GT and LT options at the same time are not compatible";
    /** EXPIRE with a time that overflows when turned into absolute milliseconds. */
    public static final String INVALID_EXPIRE_EXPIRE = "ERR invalid expire time in 'expire' command";
    /** PEXPIRE with a time that overflows when made absolute. */
    public static final String INVALID_EXPIRE_PEXPIRE = "ERR invalid expire time in 'pexpire' command";
    /** EXPIREAT with a time that overflows in milliseconds. */
    public static final String INVALID_EXPIRE_EXPIREAT = "ERR invalid expire time in 'expireat' command";
    /** PEXPIREAT with a time that overflows (unreachable in practice; kept for symmetry with Redis). */
    public static final String INVALID_EXPIRE_PEXPIREAT = "ERR invalid expire time in 'pexpireat' command";
    /** COPY onto itself in the same database, or MOVE to the selected database. */
    public static final String SAME_OBJECT = "ERR source and destination objects are the same";
    /** A 32-bit argument (COPY ... DB, MOVE's database) outside the int range. */
    public static final String INT_OUT_OF_RANGE = "ERR value is out of range, value must between -2147483648 and 2147483647";
    /** SWAPDB's first index not a 32-bit integer. */
    public static final String INVALID_FIRST_DB = "ERR invalid first DB index";
    /** SWAPDB's second index not a 32-bit integer. */
    public static final String INVALID_SECOND_DB = "ERR invalid second DB index";
    /** A write (or PING) after a background save failed, while save rules and stop-writes-on-bgsave-error are set. */
    public static final String MISCONF_RDB = "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist"
            + " to disk. Commands that may modify the data set are disabled, because this instance is configured to report errors"
            + " during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option). Please check the Redis logs for details"
            + " about the RDB error.";
    /** A denyoom command while used memory is over maxmemory and nothing can be evicted. */
    public static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    /** A flagged script without allow-oom whose flags were not known before it was dispatched (EVALSHA queued before SCRIPT LOAD ran). */
    public static final String OOM_SCRIPT_NOT_ALLOWED = "OOM allow-oom flag is not set on the script, can not run it when used memory > 'maxmemory'";

    /**
     * A read command that ran the JVM's heap out of memory (its reply is dropped; nothing changed).
     *
     * @param command the command that ran out of memory
     * @return the error reply
     */
    public static String outOfMemoryRunning(String command) {
        return "ERR out of memory while running '" + command + "'; nothing was changed";
    }

    /** Every command after a write ran the heap out of memory part way ({@code Engine#failStop}). */
    public static final String ENGINE_STOPPED = "ERR the engine stopped: a write ran out of memory part way, so its data "
            + "may be inconsistent; restart it (the append-only file holds every write that completed)";

    /** OBJECT FREQ while the maxmemory policy is not an LFU one. */
    public static final String LFU_NOT_SELECTED = "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.";
    /** OBJECT IDLETIME while the maxmemory policy is an LFU one. */
    public static final String LFU_SELECTED_NO_IDLETIME = "ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.";
    /** RESTORE (without REPLACE) onto a key that exists. */
    public static final String BUSYKEY = "BUSYKEY Target key name already exists.";
    /** RESTORE / FUNCTION RESTORE given a payload whose RDB version is newer than Ordo reads, or whose CRC-64 is wrong. */
    public static final String DUMP_PAYLOAD = "ERR DUMP payload version or checksum are wrong";
    /** RESTORE given an intact payload that holds no value Ordo can store. */
    public static final String BAD_DATA_FORMAT = "ERR Bad data format";
    /** RESTORE with a negative TTL. */
    public static final String RESTORE_TTL = "ERR Invalid TTL value, must be >= 0";
    /** RESTORE ... IDLETIME with a negative idle time. */
    public static final String RESTORE_IDLETIME = "ERR Invalid IDLETIME value, must be >= 0";
    /** RESTORE ... FREQ outside 0 to 255. */
    public static final String RESTORE_FREQ = "ERR Invalid FREQ value, must be >= 0 and <= 255";
    /** SINTERCARD with numkeys larger than the arguments that follow. */
    public static final String NUMKEYS_GREATER_THAN_ARGS = "ERR Number of keys can't be greater than number of args";

    /**
     * EXPIRE and friends given an option other than NX, XX, GT or LT; {@code option} as typed.
     *
     * @param option the option as typed
     * @return the error reply
     */
    public static String unsupportedOption(String option) {
        return sanitize("ERR Unsupported option " + option);
    }

    /**
     * A command the user's ACL rules do not allow; {@code command} is the full name ({@code config|set}).
     *
     * @param user the user refused
     * @param command the command's full name
     * @return the NOPERM reply
     */
    public static String noPermCommand(String user, String command) {
        return sanitize("NOPERM " + aclCommandDenied(user, command));
    }

    /** A key argument the user's ACL rules do not allow (Redis 7.2 names no key to the client). */
    public static final String NOPERM_KEY = "NOPERM No permissions to access a key";
    /** A channel argument the user's ACL rules do not allow. */
    public static final String NOPERM_CHANNEL = "NOPERM No permissions to access a channel";

    /**
     * Why ACL refuses a command, without a code: what DRYRUN answers and scripts quote.
     *
     * @param user the user refused
     * @param command the command's full name
     * @return the reason, without a code
     */
    public static String aclCommandDenied(String user, String command) {
        return "User " + user + " has no permissions to run the '" + command + "' command";
    }

    /**
     * ACL DRYRUN's answer for a key the user may not touch.
     *
     * @param user the user refused
     * @param key the key refused
     * @return the reason, without a code
     */
    public static String aclKeyDenied(String user, String key) {
        return sanitize("User " + user + " has no permissions to access the '" + key + "' key");
    }

    /**
     * ACL DRYRUN's answer for a channel the user may not use.
     *
     * @param user the user refused
     * @param channel the channel refused
     * @return the reason, without a code
     */
    public static String aclChannelDenied(String user, String channel) {
        return sanitize("User " + user + " has no permissions to access the '" + channel + "' channel");
    }

    /**
     * A command that redis.call refuses for ACL reasons; {@code why} is the NOPERM text without its code.
     *
     * @param why the NOPERM text, without its code
     * @return the error a script sees
     */
    public static String aclScriptFailure(String why) {
        return sanitize("ERR ACL failure in script: " + why);
    }

    /**
     * EXEC running a queued command that the user's rules no longer allow; {@code reason} as Redis words it.
     *
     * @param reason one of the {@code ACL_QUEUED_*} reasons
     * @return the NOPERM reply
     */
    public static String aclChangedSinceQueued(String reason) {
        return "NOPERM ACL rules changed between the moment the transaction was accumulated and the EXEC call. "
                + "This command is no longer allowed for the following reason: " + reason;
    }

    /**
     * An ACL SETUSER rule that is refused, and why ({@code ACL_*} reasons below).
     *
     * @param rule the rule as typed
     * @param reason one of the {@code ACL_*} reasons
     * @return the error reply
     */
    public static String aclSetUser(String rule, String reason) {
        return sanitize("ERR Error in ACL SETUSER modifier '" + rule + "': " + reason);
    }

    /** An ACL rule Redis cannot parse. */
    public static final String ACL_SYNTAX = "Syntax error";
    /** An ACL rule naming a command or category the server does not have. */
    public static final String ACL_UNKNOWN_COMMAND = "Unknown command or category name in ACL";
    /** A {@code #<hash>} or {@code !<hash>} rule whose hash is not 64 lowercase hex digits. */
    public static final String ACL_BAD_HASH = "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters";
    /** A {@code <password} or {@code !<hash>} rule removing a password the user does not have. */
    public static final String ACL_NO_SUCH_PASSWORD = "The password you are trying to remove from the user does not exist";
    /** A key pattern after allkeys, which already allows every key. */
    public static final String ACL_KEY_AFTER_ALLKEYS = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns";
    /** A channel pattern after allchannels, which already allows every channel. */
    public static final String ACL_CHANNEL_AFTER_ALLCHANNELS = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels";
    /** A {@code +command|subcommand|arg} rule: first-arg rules apply to commands only. */
    public static final String ACL_SUBCOMMAND_FIRST_ARG = "Allowing first-arg of a subcommand is not supported";

    /**
     * A selector opened with '(' and never closed.
     *
     * @param start the selector's text from its parenthesis
     * @return the error reply
     */
    public static String aclUnmatchedParenthesis(String start) {
        return sanitize("ERR Unmatched parenthesis in acl selector starting at '" + start + "'.");
    }

    /** ACL SETUSER (or an ACL file) naming a user with a space or a NUL byte. */
    public static final String ACL_BAD_USERNAME = "ERR Usernames can't contain spaces or null characters";
    /** ACL DELUSER naming the user {@code default}. */
    public static final String ACL_DEFAULT_NOT_REMOVABLE = "ERR The 'default' user cannot be removed";
    /** ACL GENPASS with a bit count that is not 1 to 4096. */
    public static final String ACL_GENPASS_BITS = "ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096";
    /** ACL LOAD or ACL SAVE on a server started without an aclfile. */
    public static final String ACL_NO_FILE = "ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration.";

    /** Why EXEC refuses a queued command the user's rules no longer allow ({@link #aclChangedSinceQueued}). */
    public static final String ACL_QUEUED_NO_COMMAND = "no permission to execute the command or subcommand";
    /** Why EXEC refuses a queued command touching a key the user's rules no longer allow. */
    public static final String ACL_QUEUED_NO_KEY = "no permission to touch the specified keys";
    /** Why EXEC refuses a queued command using a channel the user's rules no longer allow. */
    public static final String ACL_QUEUED_NO_CHANNEL = "no permission to access one of the channels used as arguments";
    /** ACL SAVE that could not write the file. */
    public static final String ACL_SAVE_FAILED = "ERR There was an error trying to save the ACLs. Please check the server logs for more information";
    /** Users both in the config file and in an aclfile (a startup error). */
    public static final String ACL_USERS_AND_FILE = "Configuring Redis with users defined in redis.conf and at the same setting an "
            + "ACL file path is invalid. This setup is very likely to lead to configuration errors and security holes, please "
            + "define either an ACL file or declare users directly in your redis.conf, but not both.";

    /**
     * An ACL file that cannot be read; {@code reason} as the system words it.
     *
     * @param path the ACL file
     * @param reason why it cannot be read
     * @return the error reply
     */
    public static String aclFileUnreadable(String path, String reason) {
        return "Error loading ACLs, opening file '" + path + "': " + reason;
    }

    /**
     * One line of an ACL file (or of the config's user lines) that is not {@code user <name> ...}.
     *
     * @param source the file, or the config, the line comes from
     * @param line the line's number, from 1
     * @return the error reply
     */
    public static String aclFileNotAUser(String source, int line) {
        return source + ":" + line + " should start with user keyword followed by the username. ";
    }

    /**
     * A user named twice in an ACL file.
     *
     * @param name the user named twice
     * @param line the number of the second line naming it
     * @return the error reply
     */
    public static String aclFileDuplicate(String name, int line) {
        return "WARNING: Duplicate user '" + name + "' found on line " + line + ". ";
    }

    /**
     * A rule of an ACL file line that is refused; a syntax error is reported without the rule, as Redis does.
     *
     * @param source the file, or the config, the line comes from
     * @param line the line's number, from 1
     * @param rule the rule refused
     * @param reason one of the {@code ACL_*} reasons
     * @return the error reply
     */
    public static String aclFileRule(String source, int line, String rule, String reason) {
        return source + ":" + line + ": " + (reason.equals(ACL_SYNTAX) ? reason : "Error in applying operation '" + rule + "': " + reason)
                + ". ";
    }

    /**
     * An ACL file line with another error (an unmatched selector parenthesis); {@code error} without its code.
     *
     * @param source the file, or the config, the line comes from
     * @param line the line's number, from 1
     * @param error the error, without its code
     * @return the error reply
     */
    public static String aclFileLine(String source, int line, String error) {
        return source + ":" + line + ": " + error + " ";
    }

    /** What ends the errors of an ACL file that was not loaded. */
    public static final String ACL_FILE_NOT_LOADED = "WARNING: ACL errors detected, no change to the previously active ACL rules was performed";

    /**
     * ACL CAT naming a category Redis does not have.
     *
     * @param category the category as typed
     * @return the error reply
     */
    public static String aclUnknownCategory(String category) {
        return sanitize("ERR Unknown category '" + category + "'");
    }

    /**
     * ACL DRYRUN naming a user that does not exist.
     *
     * @param user the user name as typed
     * @return the error reply
     */
    public static String aclUserNotFound(String user) {
        return sanitize("ERR User '" + user + "' not found");
    }

    /**
     * ACL DRYRUN naming a command the server does not know.
     *
     * @param command the command name as typed
     * @return the error reply
     */
    public static String aclCommandNotFound(String command) {
        return sanitize("ERR Command '" + command + "' not found");
    }

    private Errors() {
    }

    /**
     * The reply to a command name the table does not know; at most 128 bytes of arguments are quoted.
     *
     * @param name the command name as typed
     * @param args its arguments, of which the reply quotes the first bytes
     * @return the error reply
     */
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

    /**
     * The reply to a command with the wrong number of arguments; {@code fullName} is lowercase.
     *
     * @param fullName the command's full name, lowercase
     * @return the error reply
     */
    public static String wrongArity(String fullName) {
        return "ERR wrong number of arguments for '" + fullName + "' command";
    }

    /**
     * The reply to an unknown subcommand of {@code command}.
     *
     * @param subcommand the subcommand as typed
     * @param command the command it was given to
     * @return the error reply
     */
    public static String unknownSubcommand(String subcommand, String command) {
        String s = subcommand.length() > 128 ? subcommand.substring(0, 128) : subcommand;
        return sanitize("ERR unknown subcommand '" + s + "'. Try " + command.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    /**
     * The reply to a sorted-set algebra command given fewer than one input key.
     *
     * @param fullName the command's full name
     * @return the error reply
     */
    public static String atLeastOneInputKey(String fullName) {
        return "ERR at least 1 input key is needed for '" + fullName + "' command";
    }

    /**
     * Error texts are one line: Redis turns CR and LF inside them into spaces.
     *
     * @param text an error text
     * @return the text with CR and LF turned into spaces
     */
    public static String sanitize(String text) {
        return text.replace('\r', ' ').replace('\n', ' ');
    }
}
