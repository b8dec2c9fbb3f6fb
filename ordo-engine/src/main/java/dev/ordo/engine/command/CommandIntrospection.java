package dev.ordo.engine.command;

import dev.ordo.engine.match.Glob;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What COMMAND reports about a {@link Command}: Redis 7's ten-element INFO array, the DOCS map,
 * the ACL categories and the names COMMAND LIST filters.
 *
 * <p>Redis declares ACL categories, tips and key specs per command; Ordo takes the categories and
 * key specs from Redis's own description ({@link CommandDescriptors}). For a command Redis 7.0
 * does not describe they are derived: categories from the flags (write, readonly, admin, fast
 * ...), the command's group and a few commands Redis marks by name (dangerous ones, SORT,
 * COMMAND); one key spec covering its (first, last, step) range, flagged RW/update when it
 * writes and RO/access otherwise. Tips are empty. A container (subcommands and no use of its own, arity -2) has no categories but
 * {@code @slow}, as in Redis.
 */
final class CommandIntrospection {
    /** Redis's ACL categories, in the order COMMAND INFO lists them. */
    private static final List<String> CATEGORY_ORDER = List.of("keyspace", "read", "write", "set", "sortedset", "list",
            "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");
    private static final Set<String> DANGEROUS = Set.of("keys", "flushall", "flushdb", "swapdb", "migrate", "restore",
            "restore-asking", "info", "sort", "sort_ro", "role", "lastsave");
    private static final Set<String> ADMIN_WITHOUT_FLAG = Set.of("role", "lastsave");
    private static final Set<String> SORTING = Set.of("sort", "sort_ro");

    private CommandIntrospection() {
    }

    /** Writes COMMAND INFO's description of {@code cmd}: name, arity, flags, keys, categories, tips, key specs, subcommands. */
    static void writeInfo(ReplyWriter r, Command cmd) {
        r.arrayHeader(10);
        r.bulk(cmd.fullName());
        r.integer(cmd.arity());
        writeStatusSet(r, flagNames(cmd), "");
        r.integer(cmd.firstKey());
        r.integer(cmd.lastKey());
        r.integer(cmd.keyStep());
        writeStatusSet(r, cmd.aclCategories(), "@");
        r.setHeader(0);
        writeKeySpecs(r, cmd);
        Map<String, Command> subs = cmd.subcommands();
        if (subs.isEmpty()) {
            r.setHeader(0);
        } else {
            r.arrayHeader(subs.size());
            subs.values().forEach(sub -> writeInfo(r, sub));
        }
    }

    /** Writes COMMAND DOCS's map for {@code cmd}: summary, since, group and its subcommands' docs. */
    static void writeDocs(ReplyWriter r, Command cmd) {
        Map<String, Command> subs = cmd.subcommands();
        r.mapHeader(subs.isEmpty() ? 3 : 4);
        r.bulk("summary");
        r.bulk(cmd.summary());
        r.bulk("since");
        r.bulk(cmd.since());
        r.bulk("group");
        r.bulk(group(cmd));
        if (!subs.isEmpty()) {
            r.bulk("subcommands");
            r.mapHeader(subs.size());
            for (Command sub : subs.values()) {
                r.bulk(sub.fullName());
                writeDocs(r, sub);
            }
        }
    }

    /** Every command and subcommand name that passes COMMAND LIST's filter (null: no filter). */
    static List<String> listNames(CommandTable table, String filterType, String filterValue) {
        List<String> out = new ArrayList<>();
        for (Command cmd : table.all()) {
            addIfListed(out, cmd, filterType, filterValue);
            cmd.subcommands().values().forEach(sub -> addIfListed(out, sub, filterType, filterValue));
        }
        return out;
    }

    private static void addIfListed(List<String> out, Command cmd, String filterType, String filterValue) {
        if (filterType == null
                || filterType.equals("aclcat") && cmd.aclCategories().contains(filterValue.toLowerCase(Locale.ROOT))
                || filterType.equals("pattern") && Glob.matches(filterValue.getBytes(StandardCharsets.UTF_8),
                        cmd.fullName().getBytes(StandardCharsets.UTF_8), true)) {
            out.add(cmd.fullName());
        }
    }

    /** The flag names COMMAND INFO shows (may_replicate and protected are hidden, as in Redis). */
    static List<String> flagNames(Command cmd) {
        List<String> names = new ArrayList<>();
        for (Command.Flag f : cmd.flags()) {
            if (f == Command.Flag.MOVABLE_KEYS) {
                names.add("movablekeys");
            } else if (f != Command.Flag.MAY_REPLICATE && f != Command.Flag.PROTECTED) {
                names.add(f.redisName());
            }
        }
        return names;
    }

    /** The categories derived from flags, group and name, for a command described in Java ({@link Command#custom}). */
    static List<String> derivedCategories(Command cmd) {
        Set<String> cats = new HashSet<>();
        boolean container = !cmd.subcommands().isEmpty() && cmd.arity() == -2;
        if (!container) {
            String fromGroup = groupCategory(group(cmd));
            if (fromGroup != null && !SORTING.contains(cmd.fullName())) {
                cats.add(fromGroup);
            }
            addNamedCategories(cmd.fullName(), cats);
        }
        addFlagCategories(cmd, cats);
        List<String> ordered = new ArrayList<>();
        for (String c : CATEGORY_ORDER) {
            if (cats.contains(c)) {
                ordered.add(c);
            }
        }
        return ordered;
    }

    private static void addNamedCategories(String name, Set<String> cats) {
        if (DANGEROUS.contains(name)) {
            cats.add("dangerous");
        }
        if (ADMIN_WITHOUT_FLAG.contains(name)) {
            cats.add("admin");
        }
        if (SORTING.contains(name)) {
            cats.addAll(List.of("set", "sortedset", "list"));
        }
        if (name.equals("command") || name.startsWith("command|")) {
            cats.add("connection");
        }
    }

    private static void addFlagCategories(Command cmd, Set<String> cats) {
        if (cmd.is(Command.Flag.WRITE)) {
            cats.add("write");
        }
        if (cmd.is(Command.Flag.READONLY)) {
            cats.add("read");
        }
        if (cmd.is(Command.Flag.ADMIN)) {
            cats.add("admin");
            cats.add("dangerous");
        }
        if (cmd.is(Command.Flag.PUBSUB)) {
            cats.add("pubsub");
        }
        if (cmd.is(Command.Flag.BLOCKING)) {
            cats.add("blocking");
        }
        cats.add(cmd.is(Command.Flag.FAST) ? "fast" : "slow");
    }

    /** The command's group under Redis's name for it ({@code sorted-set}, {@code generic} ...). */
    static String group(Command cmd) {
        String g = cmd.group().toLowerCase(Locale.ROOT).replace('_', '-');
        switch (g) {
            case "zset":
            case "sortedset":
                return "sorted-set";
            case "key":
            case "keys":
            case "keyspace":
                return "generic";
            case "transaction":
                return "transactions";
            default:
                return g;
        }
    }

    private static String groupCategory(String group) {
        switch (group) {
            case "generic":
                return "keyspace";
            case "sorted-set":
                return "sortedset";
            case "transactions":
                return "transaction";
            case "string":
            case "hash":
            case "set":
            case "list":
            case "bitmap":
            case "hyperloglog":
            case "geo":
            case "stream":
            case "pubsub":
            case "connection":
            case "scripting":
                return group;
            default:
                return null;
        }
    }

    /** The command's key specs as Redis writes them: flags, begin_search and find_keys, with notes where Redis has them. */
    private static void writeKeySpecs(ReplyWriter r, Command cmd) {
        KeySpec[] specs = cmd.keySpecs();
        r.setHeader(specs.length);
        for (KeySpec spec : specs) {
            r.mapHeader(spec.notes == null ? 3 : 4);
            if (spec.notes != null) {
                r.bulk("notes");
                r.bulk(spec.notes);
            }
            r.bulk("flags");
            writeStatusSet(r, spec.flags, "");
            r.bulk("begin_search");
            r.mapHeader(2);
            r.bulk("type");
            r.bulk(spec.beginType);
            r.bulk("spec");
            switch (spec.beginType) {
                case "index" -> {
                    r.mapHeader(1);
                    r.bulk("index");
                    r.integer(spec.index);
                }
                case "keyword" -> {
                    r.mapHeader(2);
                    r.bulk("keyword");
                    r.bulk(spec.keyword);
                    r.bulk("startfrom");
                    r.integer(spec.startFrom);
                }
                default -> r.mapHeader(0);
            }
            r.bulk("find_keys");
            r.mapHeader(2);
            r.bulk("type");
            r.bulk(spec.findType);
            r.bulk("spec");
            switch (spec.findType) {
                case "range" -> {
                    r.mapHeader(3);
                    r.bulk("lastkey");
                    r.integer(spec.lastKey);
                    r.bulk("keystep");
                    r.integer(spec.keyStep);
                    r.bulk("limit");
                    r.integer(spec.limit);
                }
                case "keynum" -> {
                    r.mapHeader(3);
                    r.bulk("keynumidx");
                    r.integer(spec.keyNumIndex);
                    r.bulk("firstkey");
                    r.integer(spec.firstKey);
                    r.bulk("keystep");
                    r.integer(spec.keyStep);
                }
                default -> r.mapHeader(0);
            }
        }
    }

    private static void writeStatusSet(ReplyWriter r, List<String> items, String prefix) {
        r.setHeader(items.size());
        for (String item : items) {
            r.simpleString(prefix + item);
        }
    }
}
