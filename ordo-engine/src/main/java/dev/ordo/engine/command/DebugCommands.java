package dev.ordo.engine.command;

import dev.ordo.engine.list.ListValue;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.StringValue;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.value.Value;
import dev.ordo.engine.value.ValueDigest;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DEBUG, the test hooks Redis's own test suites rely on, with Redis 7.0's replies and errors:
 * OBJECT, RELOAD, LOADAOF, DIGEST, DIGEST-VALUE, PROTOCOL, SLEEP, SET-ACTIVE-EXPIRE,
 * SET-DISABLE-DENY-SCRIPTS, PAUSE-CRON, STRINGMATCH-TEST and QUICKLIST-PACKED-THRESHOLD.
 * Subcommands about structures Ordo does not have (quicklists, SDS, jemalloc, cluster links) or
 * that crash the server on purpose are not there; they answer Redis's unknown-subcommand error.
 * The switches (active expiry, noscript in scripts, the cron) are kept by whoever they govern:
 * the keyspace, the dispatcher, the engine.
 */
final class DebugCommands {
    private static final int SHARED_INTEGER_LIMIT = 10000;
    private static final int SHARED_REFCOUNT = Integer.MAX_VALUE;
    private static final Pattern LEADING_DOUBLE = Pattern.compile("\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)");
    /** STRINGMATCH-TEST: how many random pattern and string pairs it matches, as Redis. */
    static final int STRINGMATCH_CYCLES = 10_000_000;
    /** STRINGMATCH-TEST: patterns and strings are shorter than this many bytes, each byte in 0..127. */
    private static final int STRINGMATCH_MAX_LENGTH = 32;
    /** The largest QUICKLIST-PACKED-THRESHOLD Redis accepts: 4 GB less 1 MB. */
    private static final long PACKED_THRESHOLD_MAX = (1L << 32) - (1L << 20);
    private static final byte[] BIG_NUMBER = ascii("1234567999999999999999999999999999999");

    private DebugCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("debug", DebugCommands::debug));
    }

    /** DEBUG subcommand [arguments]: each subcommand checks its own argument count, as Redis's does. */
    private static void debug(Call c) {
        int argc = c.argc();
        if (argc == 2 && c.argIs(1, "HELP")) {
            debugHelp(c);
        } else if (argc == 3 && c.argIs(1, "OBJECT")) {
            debugObject(c);
        } else if (argc == 3 && c.argIs(1, "SLEEP")) {
            debugSleep(c);
        } else if (c.argIs(1, "RELOAD")) {
            debugReload(c);
        } else if (c.argIs(1, "LOADAOF")) {
            c.context().persistence().loadAof();
            c.reply().simpleString("OK");
        } else if (argc == 2 && c.argIs(1, "DIGEST")) {
            c.reply().simpleString(DatasetDigest.ofDataset(c.keyspace()));
        } else if (c.argIs(1, "DIGEST-VALUE")) {
            c.reply().arrayHeader(argc - 2);
            for (int i = 2; i < argc; i++) {
                c.reply().simpleString(DatasetDigest.ofValue(c.db(), c.key(i)));
            }
        } else if (argc == 3 && c.argIs(1, "PROTOCOL")) {
            debugProtocol(c);
        } else if (argc == 3 && c.argIs(1, "SET-ACTIVE-EXPIRE")) {
            c.keyspace().setActiveExpireEnabled(Call.leadingLong(c.arg(2)) != 0);
            c.reply().simpleString("OK");
        } else if (argc == 3 && c.argIs(1, "SET-DISABLE-DENY-SCRIPTS")) {
            c.context().dispatcher().setNoscriptAllowedInScripts(Call.leadingLong(c.arg(2)) != 0);
            c.reply().simpleString("OK");
        } else if (argc == 3 && c.argIs(1, "PAUSE-CRON")) {
            c.context().pauseCron(Call.leadingLong(c.arg(2)) != 0);
            c.reply().simpleString("OK");
        } else if (argc == 2 && c.argIs(1, "STRINGMATCH-TEST")) {
            stringmatchTest(c.keyspace().random(), STRINGMATCH_CYCLES);
            c.reply().simpleString("Apparently Redis did not crash: test passed");
        } else if (argc == 3 && c.argIs(1, "QUICKLIST-PACKED-THRESHOLD")) {
            long size = Config.parseMemory(c.argString(2));
            if (size < 0 || size > PACKED_THRESHOLD_MAX) {
                throw new ErrorReply(Errors.PACKED_THRESHOLD);
            }
            c.context().config().setListPackedThreshold(size);
            c.reply().simpleString("OK");
        } else {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "debug"));
        }
    }

    private static void debugHelp(Call c) {
        ServerCommands.help(c, "DEBUG",
                "DIGEST",
                "    Output a hex signature representing the current DB content.",
                "DIGEST-VALUE <key> [<key> ...]",
                "    Output a hex signature of the values of all the specified keys.",
                "LOADAOF",
                "    Flush the AOF buffers on disk and reload the AOF in memory.",
                "OBJECT <key>",
                "    Describe the value stored at <key>: encoding, estimated serialized length, access time.",
                "PAUSE-CRON <0|1>",
                "    Stop periodic cron job processing (active expiry, metrics, save points, AOF rewrites).",
                "PROTOCOL <type>",
                "    Reply with a test value of the specified type. <type> can be: string,",
                "    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
                "    true, false.",
                "QUICKLIST-PACKED-THRESHOLD <size>",
                "    List elements of at least <size> bytes get a node of their own (0: the node size decides).",
                "RELOAD [MERGE] [NOFLUSH] [NOSAVE]",
                "    Save the RDB on disk, empty the dataset and reload it from the file. NOSAVE skips the save,",
                "    NOFLUSH keeps the dataset, MERGE lets loaded keys and libraries replace existing ones.",
                "SET-ACTIVE-EXPIRE <0|1>",
                "    Stop or resume the background deletion of expired keys.",
                "SET-DISABLE-DENY-SCRIPTS <0|1>",
                "    Let scripts call commands flagged noscript (1), or stop them again (0).",
                "SLEEP <seconds>",
                "    Hold the server for <seconds> (fractions allowed), serving no command.",
                "STRINGMATCH-TEST",
                "    Run a fuzz tester against the glob matcher.");
    }

    /**
     * DEBUG PROTOCOL type: Redis's sample reply of each RESP type. An attribute is sent to RESP3
     * clients only; a push is refused to RESP2 clients. Both are followed by a real reply.
     */
    private static void debugProtocol(Call c) {
        ReplyWriter r = c.reply();
        String type = c.argString(2).toLowerCase(java.util.Locale.ROOT);
        switch (type) {
            case "string" -> r.bulk(ascii("Hello World"));
            case "integer" -> r.integer(12345);
            case "double" -> r.doubleValue(3.141);
            case "bignum" -> r.bigNumber(BIG_NUMBER);
            case "null" -> r.nullBulk();
            case "array" -> {
                r.arrayHeader(3);
                zeroOneTwo(r);
            }
            case "set" -> {
                r.setHeader(3);
                zeroOneTwo(r);
            }
            case "map" -> {
                r.mapHeader(3);
                for (int j = 0; j < 3; j++) {
                    r.integer(j);
                    r.bool(j == 1);
                }
            }
            case "attrib" -> {
                if (r.protocol() >= 3) {
                    r.attributeHeader(1);
                    r.bulk(ascii("key-popularity"));
                    r.arrayHeader(2);
                    r.bulk(ascii("key:123"));
                    r.integer(90);
                }
                r.bulk(ascii("Some real reply following the attribute"));
            }
            case "push" -> {
                if (r.protocol() < 3) {
                    throw new ErrorReply(Errors.RESP2_NOT_SUPPORTED);
                }
                r.pushHeader(2);
                r.bulk(ascii("server-cpu-usage"));
                r.integer(42);
                r.bulk(ascii("Some real reply following the push reply"));
            }
            case "verbatim" -> r.verbatim("txt", ascii("This is a verbatim\nstring"));
            case "true" -> r.bool(true);
            case "false" -> r.bool(false);
            default -> throw new ErrorReply(Errors.DEBUG_PROTOCOL_TYPE);
        }
    }

    private static void zeroOneTwo(ReplyWriter r) {
        for (int j = 0; j < 3; j++) {
            r.integer(j);
        }
    }

    /**
     * Redis's stringmatchlen fuzz test: matches {@code cycles} random patterns against random
     * strings (bytes 0..127, shorter than 32) and returns how many matched; its point is that it
     * returns at all, neither overflowing the stack nor running away on any pattern.
     */
    static long stringmatchTest(RandomGenerator random, int cycles) {
        long matches = 0;
        for (int i = 0; i < cycles; i++) {
            byte[] string = randomAscii(random);
            byte[] pattern = randomAscii(random);
            if (Glob.matches(pattern, string, false)) {
                matches++;
            }
        }
        return matches;
    }

    private static byte[] randomAscii(RandomGenerator random) {
        byte[] b = new byte[random.nextInt(STRINGMATCH_MAX_LENGTH)];
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) random.nextInt(128);
        }
        return b;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: save, empty, load the snapshot again, as the options allow. */
    private static void debugReload(Call c) {
        boolean merge = false;
        boolean flush = true;
        boolean save = true;
        for (int j = 2; j < c.argc(); j++) {
            if (c.argIs(j, "MERGE")) {
                merge = true;
            } else if (c.argIs(j, "NOFLUSH")) {
                flush = false;
            } else if (c.argIs(j, "NOSAVE")) {
                save = false;
            } else {
                throw new ErrorReply("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
            }
        }
        c.context().persistence().reload(save, flush, merge);
        c.reply().simpleString("OK");
    }

    /** DEBUG OBJECT key: Redis's one-line description of the stored value. */
    private static void debugObject(Call c) {
        Database.Entry entry = c.db().entry(c.key(2));
        if (entry == null) {
            throw new ErrorReply(Errors.NO_SUCH_KEY);
        }
        Value value = entry.value();
        String encoding = value.encodingName();
        long lruSeconds = entry.lastAccess() / 1000;
        c.reply().simpleString("Value at:0x" + Integer.toHexString(System.identityHashCode(value))
                + " refcount:" + refcount(value, encoding)
                + " encoding:" + encoding
                + " serializedlength:" + serializedLength(value, encoding)
                + " lru:" + (lruSeconds & 0xFFFFFF)
                + " lru_seconds_idle:" + Math.max(0, (c.now() - entry.lastAccess()) / 1000)
                + quicklistDetails(value));
    }

    /** What Redis adds for a quicklist: nodes, average entries per node, the fill, compression, raw bytes. */
    private static String quicklistDetails(Value value) {
        if (!(value instanceof ListValue list) || list.encoding() != ListValue.Encoding.QUICKLIST) {
            return "";
        }
        ListValue.Limits limits = list.nodeLimits();
        return " ql_nodes:" + list.nodeCount()
                + " ql_avg_node:" + String.format(java.util.Locale.ROOT, "%.2f", (double) list.size() / list.nodeCount())
                + " ql_listpack_max:" + limits.fill()
                + " ql_compressed:" + (limits.compressDepth() != 0 ? 1 : 0)
                + " ql_uncompressed_size:" + list.uncompressedBytes();
    }

    /** Redis shares the small non-negative integers (0..9999) among all keys. */
    private static int refcount(Value value, String encoding) {
        if (encoding.equals("int")) {
            long n = Long.parseLong(new String(((StringValue) value).bytes(), StandardCharsets.US_ASCII));
            if (n >= 0 && n < SHARED_INTEGER_LIMIT) {
                return SHARED_REFCOUNT;
            }
        }
        return 1;
    }

    /**
     * The value's length in Redis's RDB format, uncompressed: exact for integers and strings, an
     * estimate for collections (element by element, as the portable types save them, with scores
     * as text).
     */
    private static long serializedLength(Value value, String encoding) {
        if (encoding.equals("int")) {
            return integerLength(((StringValue) value).bytes());
        }
        long[] total = {value.type() == KeyType.STRING ? 0 : lengthPrefix(value.weight() - 1)};
        value.digest(new ValueDigest() {
            @Override
            public void mix(byte[] buf, int off, int len) {
                total[0] += stringLength(len);
            }

            @Override
            public void element(byte[] part) {
                total[0] += stringLength(part.length);
            }

            @Override
            public void element(byte[] first, int off, int len, byte[] second) {
                total[0] += stringLength(len) + stringLength(second.length);
            }
        });
        return total[0];
    }

    private static long integerLength(byte[] digits) {
        long n = Long.parseLong(new String(digits, StandardCharsets.US_ASCII));
        if (n >= Byte.MIN_VALUE && n <= Byte.MAX_VALUE) {
            return 2;
        }
        if (n >= Short.MIN_VALUE && n <= Short.MAX_VALUE) {
            return 3;
        }
        if (n >= Integer.MIN_VALUE && n <= Integer.MAX_VALUE) {
            return 5;
        }
        return stringLength(digits.length);
    }

    private static long stringLength(long length) {
        return lengthPrefix(length) + length;
    }

    private static long lengthPrefix(long length) {
        if (length < 64) {
            return 1;
        }
        if (length < 16384) {
            return 2;
        }
        return length <= 0xFFFFFFFFL ? 5 : 9;
    }

    /** DEBUG SLEEP seconds: holds the engine (and so every client) for that long; unparsable means 0. */
    private static void debugSleep(Call c) {
        double seconds = leadingDouble(c.argString(2));
        long nanos = (long) (seconds * 1e9);
        if (nanos > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        c.reply().simpleString("OK");
    }

    /** The decimal number at the start of {@code text}, as C's strtod reads it (0 when there is none). */
    private static double leadingDouble(String text) {
        Matcher m = LEADING_DOUBLE.matcher(text);
        return m.lookingAt() ? Double.parseDouble(m.group(1)) : 0;
    }}
