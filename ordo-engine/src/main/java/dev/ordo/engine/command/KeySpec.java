package dev.ordo.engine.command;

import dev.ordo.engine.acl.GuardedCommand;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One of Redis 7's key specifications: where a command's keys begin (a fixed argument index, or
 * the argument after a keyword) and how they are found from there (a range, or a count read
 * from an argument), with flags saying what the command does to them.
 *
 * <p>How keys are found, as Redis's {@code getKeysUsingKeySpecs}: a keyword is searched from
 * {@code startFrom} forwards (positive) or from {@code argc + startFrom} backwards (negative);
 * no keyword, no keys. A range ends at {@code first + lastKey}, or for a negative
 * {@code lastKey} at {@code argc + lastKey} (with {@code limit} > 0: every limit-th of the rest).
 * A key count is read at {@code first + keyNumIndex} as a whole non-negative integer (anything
 * else finds no keys) and the keys start {@code firstKey} after {@code first}. A position past
 * the arguments ends the spec. An {@code unknown} search (SORT's BY and GET patterns) finds none.
 *
 * <p>For ACL checks only the logical flags matter: ACCESS means the command reads the value;
 * INSERT, DELETE and UPDATE that it writes it. RO/RW/OW/RM are shown by COMMAND INFO only.
 */
final class KeySpec {
    final List<String> flags;
    /** Arguments that look like keys for cluster routing but are not keys (SPUBLISH's channel): ACL and GETKEYS skip them. */
    final boolean notKey;
    /** Redis's note on the spec (COMMAND INFO shows it), or null. */
    final String notes;
    final boolean reads;
    final boolean writes;
    final boolean variableFlags;
    /** {@code index}, {@code keyword} or {@code unknown}. */
    final String beginType;
    final int index;
    final String keyword;
    final int startFrom;
    /** {@code range}, {@code keynum} or {@code unknown}. */
    final String findType;
    final int lastKey;
    final int keyStep;
    final int limit;
    final int keyNumIndex;
    final int firstKey;

    private KeySpec(List<String> flags, String notes, String beginType, int index, String keyword, int startFrom,
                    String findType, int a, int b, int c) {
        this.flags = List.copyOf(flags);
        this.notes = notes;
        this.reads = flags.contains("access");
        this.writes = flags.contains("insert") || flags.contains("delete") || flags.contains("update");
        this.variableFlags = flags.contains("variable_flags");
        this.notKey = flags.contains("not_key");
        this.beginType = beginType;
        this.index = index;
        this.keyword = keyword;
        this.startFrom = startFrom;
        this.findType = findType;
        this.lastKey = findType.equals("range") ? a : 0;
        this.keyStep = findType.equals("range") ? b : findType.equals("keynum") ? c : 1;
        this.limit = findType.equals("range") ? c : 0;
        this.keyNumIndex = findType.equals("keynum") ? a : 0;
        this.firstKey = findType.equals("keynum") ? b : 0;
    }

    /**
     * Parses one spec as {@code commands.txt} writes it:
     * {@code RW,access,update index:1 range:0:1:0 [-- notes]}.
     */
    static KeySpec parse(String text) {
        int dashes = text.indexOf(" -- ");
        String notes = dashes < 0 ? null : text.substring(dashes + 4);
        String[] parts = (dashes < 0 ? text : text.substring(0, dashes)).trim().split(" ");
        List<String> flags = Arrays.asList(parts[0].split(","));
        String[] begin = parts[1].split(":");
        String[] find = parts[2].split(":");
        int index = begin[0].equals("index") ? Integer.parseInt(begin[1]) : 0;
        String keyword = begin[0].equals("keyword") ? begin[1] : null;
        int startFrom = begin[0].equals("keyword") ? Integer.parseInt(begin[2]) : 0;
        boolean known = !find[0].equals("unknown");
        return new KeySpec(flags, notes, begin[0], index, keyword, startFrom, find[0],
                known ? Integer.parseInt(find[1]) : 0, known ? Integer.parseInt(find[2]) : 0, known ? Integer.parseInt(find[3]) : 0);
    }

    /**
     * The spec of a command Redis does not describe, from its (first, last, step): RW/update for
     * a write command, RO/access otherwise; none without keys.
     */
    static KeySpec[] derived(Command cmd) {
        if (cmd.firstKey() <= 0) {
            return new KeySpec[0];
        }
        List<String> flags = cmd.is(Command.Flag.WRITE) ? List.of("RW", "update") : List.of("RO", "access");
        int last = cmd.lastKey() < 0 ? cmd.lastKey() : cmd.lastKey() - cmd.firstKey();
        return new KeySpec[] {new KeySpec(flags, null, "index", cmd.firstKey(), null, 0, "range", last, cmd.keyStep(), 0)};
    }

    /** Visits the keys this spec finds in {@code args}; false when the visitor asked to stop. */
    boolean visit(Command cmd, byte[][] args, GuardedCommand.KeyVisitor visitor) {
        if (notKey) {
            return true;
        }
        int argc = args.length;
        int first;
        switch (beginType) {
            case "index" -> first = index;
            case "keyword" -> {
                first = keywordEnd(args);
                if (first < 0) {
                    return true;
                }
            }
            default -> {
                return true;
            }
        }
        int last;
        int step = Math.max(1, keyStep);
        switch (findType) {
            case "range" -> {
                if (lastKey >= 0) {
                    last = first + lastKey;
                } else if (limit == 0) {
                    last = argc + lastKey;
                } else {
                    last = first + ((argc - first) / limit + lastKey);
                }
            }
            case "keynum" -> {
                int at = first + keyNumIndex;
                if (at >= argc) {
                    return true;
                }
                long count = wholeNumber(args[at]);
                if (count < 0) {
                    return true;
                }
                first += firstKey;
                last = (int) Math.min(Integer.MAX_VALUE, first + (count - 1) * step);
            }
            default -> {
                return true;
            }
        }
        boolean reading = reads;
        boolean writing = writes;
        if (variableFlags && cmd.fullName().equals("set") && !hasWord(args, 3, "get")) {
            reading = false; // SET without GET: OW update, as Redis's setGetKeys says
        }
        for (int i = first; i <= last; i += step) {
            if (i < 1 || i >= argc) {
                return true;
            }
            if (!visitor.visit(i, reading, writing)) {
                return false;
            }
        }
        return true;
    }

    private int keywordEnd(byte[][] args) {
        int argc = args.length;
        int start = startFrom > 0 ? startFrom : argc + startFrom;
        int end = startFrom > 0 ? argc - 1 : 1;
        for (int i = start; ; i = start <= end ? i + 1 : i - 1) {
            if (i >= argc || i < 1) {
                return -1;
            }
            if (new String(args[i], java.nio.charset.StandardCharsets.ISO_8859_1).equalsIgnoreCase(keyword)) {
                return i + 1;
            }
            if (i == end) {
                return -1;
            }
        }
    }

    private static boolean hasWord(byte[][] args, int from, String word) {
        for (int i = from; i < args.length; i++) {
            if (new String(args[i], java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT).equals(word)) {
                return true;
            }
        }
        return false;
    }

    /** A whole non-negative number as Redis's string2ll reads it, or -1. */
    private static long wholeNumber(byte[] b) {
        if (b.length == 0 || b.length > 18) {
            return -1;
        }
        long n = 0;
        for (byte x : b) {
            if (x < '0' || x > '9') {
                return -1;
            }
            n = n * 10 + (x - '0');
        }
        return b.length > 1 && b[0] == '0' ? -1 : n;
    }
}
