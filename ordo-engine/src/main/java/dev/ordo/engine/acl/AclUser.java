package dev.ordo.engine.acl;

import dev.ordo.engine.error.text.Errors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A user of Redis 7.2's ACL model: enabled or not, its passwords (kept only as SHA-256 hashes,
 * in the order added) or {@code nopass}, the payload-sanitizing flag, a root {@link Selector}
 * and further selectors.
 *
 * <p>Rules: {@code on}/{@code off}; {@code >pass}, {@code #hash} add a password and clear
 * {@code nopass}; {@code <pass}, {@code !hash} remove one (it must exist); {@code nopass}
 * empties the passwords and accepts any; {@code resetpass} empties them and accepts none;
 * {@code sanitize-payload} / {@code skip-sanitize-payload}; {@code (rules)} adds a selector;
 * {@code clearselectors} drops them; {@code reset} is resetpass resetkeys resetchannels
 * [allchannels when acl-pubsub-default says so] off sanitize-payload clearselectors -@all;
 * every other rule goes to the root selector. A rule that fails changes nothing: callers
 * apply a whole SETUSER to a {@link #copy} and keep it only when every rule passed.
 *
 * <p>Changed and read under the engine lock only, except {@link #name}.
 */
public final class AclUser {
    private final String name;
    private final CommandCatalog table;
    boolean enabled;
    boolean nopass;
    /** True for sanitize-payload, false for skip-sanitize-payload. */
    boolean sanitizePayload = true;
    final Set<String> passwords = new LinkedHashSet<>();
    Selector root;
    final List<Selector> selectors = new ArrayList<>();
    /** Whether the root selector allows every command, key and channel (the check's fast path); kept by {@link #refresh}. */
    private boolean unrestricted;

    AclUser(String name, CommandCatalog table, boolean allChannels) {
        this.name = name;
        this.table = table;
        this.root = new Selector(table);
        this.root.allChannels = allChannels;
    }

    /**
     * The user's name, as ACL rules and AUTH give it.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Whether the user may authenticate ({@code on}).
     *
     * @return whether the user is on
     */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Whether any password authenticates this user ({@code nopass}).
     *
     * @return whether the user is nopass
     */
    public boolean noPassword() {
        return nopass;
    }

    boolean unrestricted() {
        return unrestricted;
    }

    AclUser copy() {
        AclUser u = new AclUser(name, table, false);
        u.enabled = enabled;
        u.nopass = nopass;
        u.sanitizePayload = sanitizePayload;
        u.passwords.addAll(passwords);
        u.root = root.copy();
        selectors.forEach(s -> u.selectors.add(s.copy()));
        u.refresh();
        return u;
    }

    /** Takes every setting of {@code other} (the copy a SETUSER changed), keeping this object for the sessions that hold it. */
    void assign(AclUser other) {
        enabled = other.enabled;
        nopass = other.nopass;
        sanitizePayload = other.sanitizePayload;
        passwords.clear();
        passwords.addAll(other.passwords);
        root = other.root;
        selectors.clear();
        selectors.addAll(other.selectors);
        refresh();
    }

    void refresh() {
        unrestricted = root.allKeys && root.allChannels && root.allowed.cardinality() >= table.idCount();
    }

    /** Whether {@code password} authenticates this user (enabled or not: the caller checks). */
    boolean passwordMatches(byte[] password) {
        if (nopass) {
            return true;
        }
        // Every stored hash compared in full, as Redis does: the time taken tells nothing.
        byte[] given = Acl.sha256Hex(password).getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String p : passwords) {
            match |= MessageDigest.isEqual(given, p.getBytes(StandardCharsets.US_ASCII));
        }
        return match;
    }

    /**
     * Applies one rule (a selector {@code (...)} as one rule); throws {@link AclRuleException}
     * with Redis's reason, having changed nothing, when it is not valid.
     */
    void apply(String rule, boolean pubsubAllChannels) {
        String lower = rule.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "on" -> enabled = true;
            case "off" -> enabled = false;
            case "nopass" -> {
                nopass = true;
                passwords.clear();
            }
            case "resetpass" -> {
                nopass = false;
                passwords.clear();
            }
            case "sanitize-payload" -> sanitizePayload = true;
            case "skip-sanitize-payload" -> sanitizePayload = false;
            case "clearselectors" -> selectors.clear();
            case "reset" -> {
                nopass = false;
                passwords.clear();
                root.apply("resetkeys");
                root.apply("resetchannels");
                if (pubsubAllChannels) {
                    root.apply("allchannels");
                }
                enabled = false;
                sanitizePayload = true;
                selectors.clear();
                root.apply("-@all");
            }
            default -> applyOther(rule, pubsubAllChannels);
        }
        refresh();
    }

    private void applyOther(String rule, boolean pubsubAllChannels) {
        char c = rule.isEmpty() ? ' ' : rule.charAt(0);
        switch (c) {
            case '>' -> {
                passwords.add(Acl.sha256Hex(rule.substring(1).getBytes(StandardCharsets.UTF_8)));
                nopass = false;
            }
            case '#' -> {
                passwords.add(validHash(rule.substring(1)));
                nopass = false;
            }
            case '<' -> removePassword(Acl.sha256Hex(rule.substring(1).getBytes(StandardCharsets.UTF_8)));
            case '!' -> removePassword(validHash(rule.substring(1)));
            case '(' -> {
                if (!rule.endsWith(")") || rule.length() < 2) {
                    throw new AclRuleException(Errors.ACL_SYNTAX);
                }
                Selector s = new Selector(table);
                s.allChannels = pubsubAllChannels;
                for (String part : rule.substring(1, rule.length() - 1).split(" ")) {
                    if (part.isEmpty()) {
                        continue;
                    }
                    if (!Selector.isSelectorRule(part)) {
                        throw new AclRuleException(Errors.ACL_SYNTAX);
                    }
                    s.apply(part);
                }
                selectors.add(s);
            }
            default -> {
                if (!Selector.isSelectorRule(rule)) {
                    throw new AclRuleException(Errors.ACL_SYNTAX);
                }
                root.apply(rule); // a failed rule leaves a half-changed root: callers work on a copy of the user
            }
        }
    }

    private void removePassword(String hash) {
        if (!passwords.remove(hash)) {
            throw new AclRuleException(Errors.ACL_NO_SUCH_PASSWORD);
        }
    }

    private static String validHash(String hash) {
        if (hash.length() != 64) {
            throw new AclRuleException(Errors.ACL_BAD_HASH);
        }
        for (int i = 0; i < hash.length(); i++) {
            char h = hash.charAt(i);
            if (!(h >= '0' && h <= '9' || h >= 'a' && h <= 'f')) {
                throw new AclRuleException(Errors.ACL_BAD_HASH);
            }
        }
        return hash;
    }

    /**
     * GETUSER's {@code flags}: on or off, then nopass, then the sanitize flag, as Redis 7.2 lists them.
     *
     * @return the flags
     */
    public List<String> flags() {
        List<String> out = new ArrayList<>();
        out.add(enabled ? "on" : "off");
        if (nopass) {
            out.add("nopass");
        }
        out.add(sanitizePayload ? "sanitize-payload" : "skip-sanitize-payload");
        return out;
    }

    /**
     * GETUSER's {@code passwords}: the SHA-256 hashes, hex, in the order added.
     *
     * @return the hashes
     */
    public List<String> passwordHashes() {
        return new ArrayList<>(passwords);
    }

    /**
     * GETUSER's {@code commands}, {@code keys} and {@code channels} of the root selector, then of each selector.
     *
     * @return for each selector, its commands, keys and channels rules, the root first
     */
    public List<String[]> selectorDescriptions() {
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {root.describeCommands(), root.describeKeys(), root.describeChannels()});
        for (Selector s : selectors) {
            out.add(new String[] {s.describeCommands(), s.describeKeys(), s.describeChannels()});
        }
        return out;
    }

    /**
     * The user as one ACL LIST line (and ACL file line): {@code user <name> <flags> <#hashes> <root> (<selector>)...}.
     *
     * @return the line
     */
    public String describe() {
        StringBuilder out = new StringBuilder("user ").append(name);
        for (String f : flags()) {
            out.append(' ').append(f);
        }
        for (String p : passwords) {
            out.append(" #").append(p);
        }
        out.append(' ').append(root.describe());
        for (Selector s : selectors) {
            out.append(" (").append(s.describe()).append(')');
        }
        return out.toString();
    }
}
