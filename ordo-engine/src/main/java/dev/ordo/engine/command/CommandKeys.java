package dev.ordo.engine.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds the key arguments of a command line, as COMMAND GETKEYS reports them and as Redis finds
 * them: from (first, last, step) for most commands, and from the key count for commands whose
 * keys move ({@link Command.Flag#MOVABLE_KEYS}): ZUNION's {@code numkeys}, EVAL's, and so on.
 */
final class CommandKeys {
    /**
     * Where each command with movable keys keeps its key count: {store key, key count, first key}
     * (argument positions; 0 for no store key), one key per argument from the first.
     */
    private static final Map<String, int[]> COUNTED = Map.ofEntries(
            Map.entry("zunion", new int[] {0, 1, 2}),
            Map.entry("zinter", new int[] {0, 1, 2}),
            Map.entry("zdiff", new int[] {0, 1, 2}),
            Map.entry("zintercard", new int[] {0, 1, 2}),
            Map.entry("sintercard", new int[] {0, 1, 2}),
            Map.entry("zmpop", new int[] {0, 1, 2}),
            Map.entry("bzmpop", new int[] {0, 2, 3}),
            Map.entry("lmpop", new int[] {0, 1, 2}),
            Map.entry("blmpop", new int[] {0, 2, 3}),
            Map.entry("zunionstore", new int[] {1, 2, 3}),
            Map.entry("zinterstore", new int[] {1, 2, 3}),
            Map.entry("zdiffstore", new int[] {1, 2, 3}),
            Map.entry("eval", new int[] {0, 2, 3}),
            Map.entry("evalsha", new int[] {0, 2, 3}),
            Map.entry("eval_ro", new int[] {0, 2, 3}),
            Map.entry("evalsha_ro", new int[] {0, 2, 3}),
            Map.entry("fcall", new int[] {0, 2, 3}),
            Map.entry("fcall_ro", new int[] {0, 2, 3}));

    private CommandKeys() {
    }

    /** Whether {@code cmd} takes key arguments at all. */
    static boolean hasKeys(Command cmd) {
        return (cmd.firstKey() > 0 && !java.util.Arrays.stream(cmd.keySpecs()).allMatch(spec -> spec.notKey))
                || COUNTED.containsKey(cmd.fullName());
    }

    /** Whether every command with movable keys in {@code table} has its key count's place here (or is SORT or SORT_RO). */
    static boolean knowsEveryMovableCommand(CommandTable table) {
        return table.all().stream().filter(c -> c.is(Command.Flag.MOVABLE_KEYS))
                .allMatch(c -> COUNTED.containsKey(c.fullName()) || c.fullName().startsWith("sort"));
    }

    /**
     * The destination of SORT's last STORE option in {@code line}, or -1, as Redis's
     * {@code sortGetKeys} finds it: LIMIT's two arguments and BY's and GET's one are skipped.
     */
    static int sortStore(byte[][] line) {
        int store = -1;
        for (int i = 2; i < line.length; i++) {
            String word = new String(line[i], java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
            switch (word) {
                case "limit" -> i += 2;
                case "get", "by" -> i += 1;
                case "store" -> {
                    if (i + 1 < line.length) {
                        store = i + 1;
                    }
                }
                default -> {
                }
            }
        }
        return store;
    }

    /**
     * The positions of the key arguments of {@code line} (a whole command line of {@code cmd}, whose
     * arity it meets). Counted keys as Redis 7.0 finds them: the count read as C's {@code atoi},
     * none when it is below 1 or more than the arguments left, the store key first.
     */
    static List<Integer> positions(Command cmd, byte[][] line) {
        List<Integer> keys = new ArrayList<>();
        if (cmd.fullName().equals("sort")) {
            keys.add(1);
            int store = sortStore(line);
            if (store > 0) {
                keys.add(store);
            }
            return keys;
        }
        int[] counted = COUNTED.get(cmd.fullName());
        if (counted != null) {
            int count = (int) Call.leadingLong(line[counted[1]]); // C's atoi
            if (count >= 1 && count <= line.length - counted[2]) {
                if (counted[0] > 0) {
                    keys.add(counted[0]);
                }
                for (int i = 0; i < count; i++) {
                    keys.add(counted[2] + i);
                }
            }
            return keys;
        }
        int last = cmd.lastKey() >= 0 ? cmd.lastKey() : line.length + cmd.lastKey();
        for (int i = cmd.firstKey(); i > 0 && i <= last && i < line.length; i += Math.max(1, cmd.keyStep())) {
            keys.add(i);
        }
        return keys;
    }
}
