package dev.ordo.engine.acl;

import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.text.Errors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One set of permissions: the commands, keys and channels it allows. A user has a root selector
 * and any number of further ones; a command is allowed when one selector allows all of it.
 *
 * <p>Commands: a bit per command and subcommand ({@link GuardedCommand#id}). {@code +cmd} of a command
 * with subcommands sets its bit and all its subcommands' bits; {@code +@cat} does that for every
 * command or subcommand in the category. {@code +cmd|arg} of a command without subcommands
 * allows that command only when its first argument is {@code arg} (Redis's first-arg rule).
 * {@code allowsFutureCommands} is set by {@code +@all} only and cleared by {@code -@all} only.
 *
 * <p>What the rules say is kept as Redis 7.2 keeps it, so that GETUSER and LIST show what was
 * applied: {@code commandRules} holds each command or category rule once, in the order last
 * applied ({@code +get -get} leaves {@code -get}), lowercased; {@code +@all} and {@code -@all}
 * empty it. Replaying {@code +@all} or {@code -@all} (per {@code allowsFutureCommands}) and then
 * the rules on an empty selector gives the same bits: {@link #describeCommands} is what
 * GETUSER's {@code commands} shows, and what the round-trip tests replay.
 *
 * <p>Keys: {@code allKeys} (set by {@code allkeys} and {@code ~*} exactly; {@code %RW~*} is a
 * pattern, as in Redis, though shown as {@code ~*} too), else patterns, each with
 * read and write permission ({@code ~p} both, {@code %R~p}, {@code %W~p}, {@code %RW~p});
 * a second rule for the same pattern adds its permissions. A key of a call is allowed when a
 * pattern with the permissions the call needs matches it (reads need R, writes W, a key the
 * call neither reads nor writes, as EXISTS, any pattern). Channels: {@code allChannels}, else
 * patterns ({@code &*} is {@code allchannels}). A pattern after {@code allkeys} (or a
 * channel after {@code allchannels}) is refused. Not thread-safe: changed and read under the engine lock.
 */
final class Selector {
    /** One key pattern with its permissions. */
    static final class KeyPattern {
        final String pattern;
        final byte[] bytes;
        boolean read;
        boolean write;

        KeyPattern(String pattern, boolean read, boolean write) {
            this.pattern = pattern;
            this.bytes = pattern.getBytes(StandardCharsets.UTF_8);
            this.read = read;
            this.write = write;
        }

        String describe() {
            return (read && write ? "" : read ? "%R" : "%W") + "~" + pattern;
        }
    }

    private final CommandCatalog table;
    BitSet allowed = new BitSet();
    boolean allowsFutureCommands;
    final Map<Integer, Set<String>> firstArgs = new HashMap<>();
    final List<String> commandRules = new ArrayList<>();
    boolean allKeys;
    /** By pattern, in the order first added (a repeated pattern joins its permissions to the first). */
    final Map<String, KeyPattern> keys = new LinkedHashMap<>();
    boolean allChannels;
    final Set<String> channels = new LinkedHashSet<>();

    Selector(CommandCatalog table) {
        this.table = table;
    }

    /** Whether this selector may read any key: all keys, or a {@code *} pattern that reads. */
    boolean readsEveryKey() {
        KeyPattern star = keys.get("*");
        return allKeys || star != null && star.read;
    }

    Selector copy() {
        Selector s = new Selector(table);
        s.allowed = (BitSet) allowed.clone();
        s.allowsFutureCommands = allowsFutureCommands;
        firstArgs.forEach((id, args) -> s.firstArgs.put(id, new HashSet<>(args)));
        s.commandRules.addAll(commandRules);
        s.allKeys = allKeys;
        keys.forEach((p, k) -> s.keys.put(p, new KeyPattern(k.pattern, k.read, k.write)));
        s.allChannels = allChannels;
        s.channels.addAll(channels);
        return s;
    }

    /** Whether {@code rule} is one a selector takes (commands, keys, channels), rather than a user's. */
    static boolean isSelectorRule(String rule) {
        String lower = rule.toLowerCase(Locale.ROOT);
        if (rule.isEmpty()) {
            return false;
        }
        char c = rule.charAt(0);
        return c == '~' || c == '%' || c == '&' || c == '+' || c == '-'
                || lower.equals("allkeys") || lower.equals("resetkeys") || lower.equals("allchannels")
                || lower.equals("resetchannels") || lower.equals("allcommands") || lower.equals("nocommands");
    }

    /** Applies one rule; throws {@link AclRuleException} with Redis's reason when it is not valid, leaving this selector as it was. */
    void apply(String rule) {
        String lower = rule.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "allkeys", "~*" -> {
                allKeys = true;
                keys.clear();
                return;
            }
            case "resetkeys" -> {
                allKeys = false;
                keys.clear();
                return;
            }
            case "allchannels", "&*" -> {
                allChannels = true;
                channels.clear();
                return;
            }
            case "resetchannels" -> {
                allChannels = false;
                channels.clear();
                return;
            }
            case "allcommands", "+@all" -> {
                allowed.set(0, table.idCount());
                allowsFutureCommands = true;
                commandRules.clear();
                firstArgs.clear();
                return;
            }
            case "nocommands", "-@all" -> {
                allowed.clear();
                allowsFutureCommands = false;
                commandRules.clear();
                firstArgs.clear();
                return;
            }
            default -> {
            }
        }
        char c = rule.isEmpty() ? ' ' : rule.charAt(0);
        if (c == '~' || c == '%') {
            addKeyPattern(rule);
        } else if (c == '&') {
            addChannel(rule);
        } else if (c == '+' || c == '-') {
            applyCommandRule(rule, c == '+');
        } else {
            throw new AclRuleException(Errors.ACL_SYNTAX);
        }
    }

    private void addKeyPattern(String rule) {
        if (allKeys) {
            throw new AclRuleException(Errors.ACL_KEY_AFTER_ALLKEYS);
        }
        boolean read;
        boolean write;
        int offset;
        if (rule.charAt(0) == '~') {
            read = true;
            write = true;
            offset = 1;
        } else {
            read = false;
            write = false;
            offset = 1;
            boolean tilde = false;
            for (; offset < rule.length(); offset++) {
                char f = Character.toUpperCase(rule.charAt(offset));
                if (f == 'R' && !read) {
                    read = true;
                } else if (f == 'W' && !write) {
                    write = true;
                } else if (f == '~') {
                    tilde = true;
                    offset++;
                    break;
                } else {
                    throw new AclRuleException(Errors.ACL_SYNTAX);
                }
            }
            // The shape behind CVE-2024-51741: permissions without '~', or with nothing after it, or
            // no permission at all, is no rule (Redis 7.2.7 refuses them as a syntax error).
            if (!tilde || !(read || write) || offset >= rule.length()) {
                throw new AclRuleException(Errors.ACL_SYNTAX);
            }
        }
        String pattern = rule.substring(offset);
        requireNoSpace(pattern);
        KeyPattern k = keys.computeIfAbsent(pattern, p -> new KeyPattern(p, false, false));
        k.read |= read;
        k.write |= write;
    }

    /** Redis refuses whitespace in patterns: ACL SAVE could not write them back as one rule. */
    private static void requireNoSpace(String pattern) {
        if (Acl.hasSpace(pattern)) {
            throw new AclRuleException(Errors.ACL_SYNTAX);
        }
    }

    private void addChannel(String rule) {
        if (allChannels) {
            throw new AclRuleException(Errors.ACL_CHANNEL_AFTER_ALLCHANNELS);
        }
        String pattern = rule.substring(1);
        requireNoSpace(pattern);
        channels.add(pattern); // a set: kept once, in the order first given
    }

    private void applyCommandRule(String rule, boolean allow) {
        String body = rule.substring(1);
        if (body.startsWith("@")) {
            String category = body.substring(1).toLowerCase(Locale.ROOT);
            if (!Acl.CATEGORIES.contains(category)) {
                throw new AclRuleException(Errors.ACL_UNKNOWN_COMMAND);
            }
            for (GuardedCommand cmd : table.all()) {
                if (cmd.aclCategories().contains(category)) {
                    setCommand(cmd, allow);
                }
                for (GuardedCommand sub : cmd.subcommands().values()) {
                    if (sub.aclCategories().contains(category)) {
                        setCommand(sub, allow);
                    }
                }
            }
            recordRule(rule);
            return;
        }
        int bar = body.indexOf('|');
        if (bar < 0) {
            GuardedCommand cmd = table.lookup(body);
            if (cmd == null || body.isEmpty()) {
                throw new AclRuleException(Errors.ACL_UNKNOWN_COMMAND);
            }
            setCommand(cmd, allow);
            recordRule(rule);
            return;
        }
        GuardedCommand parent = table.lookup(body.substring(0, bar));
        String arg = body.substring(bar + 1);
        if (parent == null) {
            throw new AclRuleException(Errors.ACL_UNKNOWN_COMMAND);
        }
        if (arg.isEmpty()) {
            throw new AclRuleException(Errors.ACL_SYNTAX);
        }
        if (!parent.subcommands().isEmpty()) {
            if (arg.indexOf('|') >= 0) {
                throw new AclRuleException(Errors.ACL_SUBCOMMAND_FIRST_ARG);
            }
            GuardedCommand sub = parent.subcommand(arg.getBytes(StandardCharsets.UTF_8));
            if (sub == null) {
                throw new AclRuleException(Errors.ACL_UNKNOWN_COMMAND);
            }
            setCommand(sub, allow);
            recordRule(rule);
            return;
        }
        if (!allow || arg.indexOf('|') >= 0) {
            throw new AclRuleException(Errors.ACL_UNKNOWN_COMMAND);
        }
        if (!allowed.get(parent.id())) {
            firstArgs.computeIfAbsent(parent.id(), k -> new HashSet<>()).add(arg.toLowerCase(Locale.ROOT));
        }
        recordRule(rule);
    }

    private void setCommand(GuardedCommand cmd, boolean allow) {
        allowed.set(cmd.id(), allow);
        firstArgs.remove(cmd.id());
        for (GuardedCommand sub : cmd.subcommands().values()) {
            allowed.set(sub.id(), allow);
        }
    }

    /** Keeps {@code rule} once, last, in lowercase, dropping an earlier rule for the same command or category. */
    private void recordRule(String rule) {
        String lower = rule.toLowerCase(Locale.ROOT);
        String target = lower.substring(1);
        commandRules.removeIf(r -> r.substring(1).equals(target));
        commandRules.add(lower);
    }

    /** Whether this selector allows running {@code cmd} (a command or subcommand) with {@code args}. */
    boolean allowsCommand(GuardedCommand cmd, byte[][] args) {
        if (allowed.get(cmd.id()) || cmd.runsWithoutAuth()) {
            return true;
        }
        Set<String> first = firstArgs.get(cmd.id());
        return first != null && args.length > 1
                && first.contains(new String(args[1], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT));
    }

    /** Whether a key the call reads ({@code reads}) and/or writes ({@code writes}) is allowed. */
    boolean allowsKey(byte[] key, boolean reads, boolean writes) {
        if (allKeys) {
            return true;
        }
        for (KeyPattern p : keys.values()) {
            if ((!reads || p.read) && (!writes || p.write) && Glob.matches(p.bytes, key, false)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a channel is allowed: a channel a message goes to or a client subscribes to must
     * match a pattern; a pattern a client subscribes to ({@code literal}) must equal one.
     */
    boolean allowsChannel(byte[] channel, boolean literal) {
        if (allChannels) {
            return true;
        }
        String text = new String(channel, StandardCharsets.UTF_8);
        for (String p : channels) {
            if (literal ? p.equals(text) : Glob.matches(p.getBytes(StandardCharsets.UTF_8), channel, false)) {
                return true;
            }
        }
        return false;
    }

    /** The {@code commands} of GETUSER: {@code +@all} or {@code -@all}, then the rules as applied. */
    String describeCommands() {
        StringBuilder out = new StringBuilder(allowsFutureCommands ? "+@all" : "-@all");
        for (String r : commandRules) {
            out.append(' ').append(r);
        }
        return out.toString();
    }

    /** The {@code keys} of GETUSER: {@code ~*}, or the patterns, space-separated. */
    String describeKeys() {
        if (allKeys) {
            return "~*";
        }
        StringBuilder out = new StringBuilder();
        for (KeyPattern k : keys.values()) {
            out.append(out.length() == 0 ? "" : " ").append(k.describe());
        }
        return out.toString();
    }

    /** The {@code channels} of GETUSER: {@code &*}, or the patterns, space-separated. */
    String describeChannels() {
        if (allChannels) {
            return "&*";
        }
        StringBuilder out = new StringBuilder();
        for (String c : channels) {
            out.append(out.length() == 0 ? "" : " ").append('&').append(c);
        }
        return out.toString();
    }

    /** The selector as ACL LIST writes it: keys, channels ({@code resetchannels} first unless all), commands. */
    String describe() {
        StringBuilder out = new StringBuilder();
        String k = describeKeys();
        if (!k.isEmpty()) {
            out.append(k).append(' ');
        }
        if (allChannels) {
            out.append("&* ");
        } else {
            out.append("resetchannels ");
            String c = describeChannels();
            if (!c.isEmpty()) {
                out.append(c).append(' ');
            }
        }
        return out.append(describeCommands()).toString();
    }
}
