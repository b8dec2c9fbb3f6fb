package dev.ordo.engine.acl;

import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * The server's users and their permissions, Redis 7.2's ACL model: {@link AclUser}s with
 * {@link Selector}s, the check made before every command, and ACL LOG.
 *
 * <p>Invariants: the user {@code default} always exists; every new connection starts as it, and
 * is authenticated from the start when it is {@code on} and {@code nopass}. {@code requirepass}
 * is the default user's password: setting it (at startup or by CONFIG SET) applies
 * {@code resetpass >value}, or {@code resetpass nopass} for an empty value. Users are listed in
 * byte order of their names. A SETUSER, LOAD or user line is applied whole or not at all.
 * Sessions keep the {@link AclUser} object they authenticated as; SETUSER changes that object
 * in place, so their next command sees the new rules.
 *
 * <p>A command is allowed when one of the user's selectors (the root first) allows the command
 * (or its first argument), every key the command's key specs find with the access each needs,
 * and every channel. When none does, the refusal reported is the most serious one any selector
 * gave (command, then key, then channel), and among equals the one at the latest argument, as
 * Redis picks it.
 *
 * <p>Threads: everything runs under the engine lock, except {@link #defaultUserHasNoPassword}
 * and {@link #authRequired}, which read a volatile kept in step with the default user.
 */
public final class Acl {
    /** Redis's ACL categories, in ACL CAT's order. */
    public static final List<String> CATEGORIES = List.of("keyspace", "read", "write", "set", "sortedset", "list",
            "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
            "dangerous", "connection", "transaction", "scripting");
    /** The user every connection starts as. */
    public static final String DEFAULT_USER = "default";

    /** Why a command was refused, in Redis's order of seriousness. */
    public enum Reason {
        /** The user may not run the command or subcommand. */
        COMMAND("command"),
        /** The user may not touch one of the call's keys. */
        KEY("key"),
        /** AUTH or HELLO with a wrong user or password. */
        AUTH("auth"),
        /** The user may not use one of the call's channels. */
        CHANNEL("channel");

        private final String logName;

        Reason(String logName) {
            this.logName = logName;
        }

        /**
         * The reason as ACL LOG shows it.
         *
         * @return {@code command}, {@code key}, {@code auth} or {@code channel}
         */
        public String logName() {
            return logName;
        }
    }

    /** A refusal: why, and the argument refused (0 for the command itself). */
    public record Denial(Reason reason, int position) {
    }

    private final Config config;
    private final CommandCatalog table;
    private final Random random;
    private final TreeMap<String, AclUser> users = new TreeMap<>();
    private AclUser defaultUser;
    private final AclLog log = new AclLog();
    private volatile boolean defaultNoPassword;
    private volatile boolean authRequired;

    /**
     * The users of a server with {@code config}: the default user (with {@code requirepass}),
     * then the config file's {@code user} lines or the {@code aclfile}. Throws
     * {@link IllegalStateException} with Redis's reason when those cannot be loaded.
     *
     * @param config the server's configuration: requirepass, user lines, aclfile
     * @param table the commands the rules name
     */
    public Acl(Config config, CommandCatalog table) {
        this(config, table, new SecureRandom());
    }

    /**
     * As {@link #Acl(Config, CommandCatalog)}, with the source of ACL GENPASS's bits.
     *
     * @param config the server's configuration: requirepass, user lines, aclfile
     * @param table the commands the rules name
     * @param random the source of ACL GENPASS's bits
     */
    public Acl(Config config, CommandCatalog table, Random random) {
        this.config = config;
        this.table = table;
        this.random = random;
        this.defaultUser = newDefaultUser();
        users.put(DEFAULT_USER, defaultUser);
        applyRequirepass(config.get("requirepass"));
        config.onChange("requirepass", this::applyRequirepass);
        List<List<String>> lines = new ArrayList<>();
        for (List<String> words : config.userLines()) {
            List<String> line = new ArrayList<>(words);
            line.add(0, "user");
            lines.add(line);
        }
        String file = config.get("aclfile");
        if (!lines.isEmpty() && !file.isEmpty()) {
            throw new IllegalStateException(Errors.ACL_USERS_AND_FILE);
        }
        if (!lines.isEmpty()) {
            String errors = load(lines, "config", true);
            if (errors != null) {
                throw new IllegalStateException(errors);
            }
        } else if (!file.isEmpty()) {
            String errors = loadFile();
            if (errors != null) {
                throw new IllegalStateException(errors);
            }
        }
        publishDefault();
    }

    private AclUser newDefaultUser() {
        AclUser u = new AclUser(DEFAULT_USER, table, pubsubAllChannels());
        for (String rule : List.of("reset", "on", "nopass", "allkeys", "allchannels", "+@all")) {
            u.apply(rule, pubsubAllChannels());
        }
        return u;
    }

    private boolean pubsubAllChannels() {
        return "allchannels".equals(config.get("acl-pubsub-default"));
    }

    private void applyRequirepass(String password) {
        defaultUser.apply("resetpass", false);
        defaultUser.apply(password == null || password.isEmpty() ? "nopass" : ">" + password, false);
        publishDefault();
    }

    private void publishDefault() {
        defaultNoPassword = defaultUser.nopass;
        authRequired = !(defaultUser.nopass && defaultUser.enabled);
    }

    /**
     * Whether the default user accepts any password (nopass), as protected mode asks; cheap and
     * safe from any thread.
     *
     * @return whether the default user is nopass
     */
    public boolean defaultUserHasNoPassword() {
        return defaultNoPassword;
    }

    /**
     * Whether a connection that has not authenticated must do so before running commands: the
     * default user has a password or is off. Safe from any thread.
     *
     * @return whether connections must authenticate first
     */
    public boolean authRequired() {
        return authRequired;
    }

    /**
     * The user every connection starts as.
     *
     * @return the {@value #DEFAULT_USER} user
     */
    public AclUser defaultUser() {
        return defaultUser;
    }

    /**
     * The user named {@code name}, or null.
     *
     * @param name the user's name, exactly
     * @return the user, or null
     */
    public AclUser user(String name) {
        return users.get(name);
    }

    /**
     * Every user, in byte order of their names.
     *
     * @return the users, sorted by name
     */
    public Collection<AclUser> users() {
        return users.values();
    }

    /**
     * ACL LOG's entries.
     *
     * @return the log
     */
    public AclLog log() {
        return log;
    }

    /**
     * The user {@code name} authenticates as with {@code password}, or null (no such user, off, or a wrong password).
     *
     * @param name the user's name as sent
     * @param password the password as sent
     * @return the user authenticated, or null
     */
    public AclUser authenticate(byte[] name, byte[] password) {
        AclUser u = users.get(new String(name, StandardCharsets.UTF_8));
        if (u == null || !u.enabled || !u.passwordMatches(password)) {
            return null;
        }
        return u;
    }

    /**
     * ACL SETUSER: creates or changes {@code name} with {@code rules} (a selector may be spread
     * over several arguments, from the one starting with '(' to the one ending with ')'), all or
     * nothing. Throws {@link ErrorReply} with Redis's text for the first bad rule.
     *
     * @param name the user's name
     * @param rules the rules, applied in order
     */
    public void setUser(String name, List<String> rules) {
        if (hasSpace(name) || name.indexOf('\0') >= 0) {
            throw new ErrorReply(Errors.ACL_BAD_USERNAME);
        }
        AclUser existing = users.get(name);
        AclUser changed = existing != null ? existing.copy() : new AclUser(name, table, pubsubAllChannels());
        for (String rule : mergeSelectors(rules)) {
            try {
                changed.apply(rule, pubsubAllChannels());
            } catch (AclRuleException e) {
                throw new ErrorReply(Errors.aclSetUser(rule, e.getMessage()));
            }
        }
        if (existing != null) {
            existing.assign(changed);
        } else {
            users.put(name, changed);
        }
        if (existing == defaultUser) {
            publishDefault();
        }
    }

    /** Joins a selector given over several arguments into one rule; throws Redis's error, naming the opening argument, for one left open. */
    static List<String> mergeSelectors(List<String> rules) {
        List<String> out = new ArrayList<>();
        StringBuilder open = null;
        String opening = null;
        for (String r : rules) {
            if (open == null) {
                if (r.startsWith("(") && !r.endsWith(")")) {
                    open = new StringBuilder(r);
                    opening = r;
                } else {
                    out.add(r);
                }
            } else {
                open.append(' ').append(r);
                if (r.endsWith(")")) {
                    out.add(open.toString());
                    open = null;
                }
            }
        }
        if (open != null) {
            throw new ErrorReply(Errors.aclUnmatchedParenthesis(opening));
        }
        return out;
    }

    /**
     * ACL DELUSER of one user: whether it existed. The default user cannot be removed (the caller refuses it first).
     *
     * @param name the user's name
     * @return whether it existed and is gone
     */
    public boolean deleteUser(String name) {
        if (name.equals(DEFAULT_USER)) {
            throw new ErrorReply(Errors.ACL_DEFAULT_NOT_REMOVABLE);
        }
        return users.remove(name) != null;
    }

    /**
     * Checks {@code args}, a call of {@code cmd} (a command or subcommand, arity met), against
     * {@code user}'s permissions: null when allowed, else the refusal. A null user (the
     * server's own sessions: loading, scripts' inner client) may run anything.
     *
     * @param user the user running the call, or null for the server itself
     * @param cmd the command or subcommand called
     * @param args the whole call, name included
     * @return null when allowed, else why and which argument
     */
    public Denial check(AclUser user, GuardedCommand cmd, byte[][] args) {
        if (user == null || user.unrestricted()) {
            return null;
        }
        Denial worst = check(user.root, cmd, args);
        if (worst == null) {
            return null;
        }
        for (Selector s : user.selectors) {
            Denial d = check(s, cmd, args);
            if (d == null) {
                return null;
            }
            if (d.reason.ordinal() > worst.reason.ordinal()
                    || d.reason == worst.reason && d.position > worst.position) {
                worst = d;
            }
        }
        return worst;
    }

    /**
     * Whether one of {@code user}'s selectors that allow this call may also read every key (all
     * keys, or a {@code ~*} or {@code %R~*} pattern): SORT's BY and GET patterns name keys only
     * their values spell, so Redis takes them only from such a user.
     *
     * @param user the user running the call
     * @param cmd the command or subcommand called
     * @param args the whole call, name included
     * @return whether the user may read every key in this call
     */
    public boolean readsEveryKey(AclUser user, GuardedCommand cmd, byte[][] args) {
        if (user == null || user.unrestricted()) {
            return true;
        }
        if (check(user.root, cmd, args) == null && user.root.readsEveryKey()) {
            return true;
        }
        for (Selector s : user.selectors) {
            if (check(s, cmd, args) == null && s.readsEveryKey()) {
                return true;
            }
        }
        return false;
    }

    private static Denial check(Selector s, GuardedCommand cmd, byte[][] args) {
        if (!s.allowsCommand(cmd, args)) {
            return new Denial(Reason.COMMAND, 0);
        }
        if (!s.allKeys) {
            int[] refused = {-1};
            cmd.forEachKey(args, (position, reads, writes) -> {
                if (s.allowsKey(args[position], reads, writes)) {
                    return true;
                }
                refused[0] = position;
                return false;
            });
            if (refused[0] >= 0) {
                return new Denial(Reason.KEY, refused[0]);
            }
        }
        if (!s.allChannels) {
            int[] channels = CHANNEL_ARGS.get(cmd.fullName());
            if (channels != null) {
                int last = channels[1] < 0 ? args.length - 1 : Math.min(channels[1], args.length - 1);
                for (int i = channels[0]; i <= last; i++) {
                    if (!s.allowsChannel(args[i], channels[2] == 1)) {
                        return new Denial(Reason.CHANNEL, i);
                    }
                }
            }
        }
        return null;
    }

    /**
     * The commands whose arguments are channels a user must be allowed, as Redis finds them:
     * {first, last (-1: to the end), 1 when each is a pattern that must equal one of the user's
     * (PSUBSCRIBE), else 0}. Unsubscribing is never refused.
     */
    private static final java.util.Map<String, int[]> CHANNEL_ARGS = java.util.Map.of(
            "publish", new int[] {1, 1, 0},
            "spublish", new int[] {1, 1, 0},
            "subscribe", new int[] {1, -1, 0},
            "ssubscribe", new int[] {1, -1, 0},
            "psubscribe", new int[] {1, -1, 1});

    /**
     * Whether {@code user} may use {@code channel}: publish or subscribe to it, or, with
     * {@code literal}, subscribe to it as a pattern. For the Pub/Sub commands to ask.
     *
     * @param user the user to check
     * @param channel the channel or pattern
     * @param literal true when {@code channel} is a pattern being subscribed to (PSUBSCRIBE)
     * @return whether the user may use it
     */
    public boolean channelAllowed(AclUser user, byte[] channel, boolean literal) {
        if (user == null || user.root.allowsChannel(channel, literal)) {
            return true;
        }
        for (Selector s : user.selectors) {
            if (s.allowsChannel(channel, literal)) {
                return true;
            }
        }
        return false;
    }

    /**
     * ACL GENPASS: {@code bits} random bits (rounded up to whole hex digits), as lowercase hex.
     *
     * @param bits how many random bits
     * @return the password, {@code ceil(bits / 4)} hex digits
     */
    public String generatePassword(int bits) {
        int chars = (bits + 3) / 4;
        byte[] bytes = new byte[(chars + 1) / 2];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes).substring(0, chars);
    }

    /** The lowercase hex SHA-256 of {@code password}, as ACL shows and files keep passwords. */
    /** Whether {@code s} holds a character C's isspace accepts (space, \t, \n, \v, \f, \r), as Redis checks names and patterns. */
    static boolean hasSpace(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || (c >= '\t' && c <= '\r')) {
                return true;
            }
        }
        return false;
    }

    /**
     * The SHA-256 of {@code password} in lowercase hex, as ACL rules and GETUSER name passwords.
     *
     * @param password the password's bytes
     * @return 64 hex digits
     */
    public static String sha256Hex(byte[] password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    // ---- ACL files ----

    /** Where {@code aclfile} points (relative to {@code dir}), or null when no file is configured. */
    private Path aclFile() {
        String file = config.get("aclfile");
        if (file.isEmpty()) {
            return null;
        }
        return Path.of(config.get("dir")).resolve(file);
    }

    /** ACL LOAD: replaces every user with the file's; throws Redis's error, changing nothing, when it cannot. */
    public void loadFromFile() {
        if (aclFile() == null) {
            throw new ErrorReply(Errors.ACL_NO_FILE);
        }
        String errors = loadFile();
        if (errors != null) {
            throw new ErrorReply(Errors.sanitize("ERR " + errors));
        }
    }

    private String loadFile() {
        Path path = aclFile();
        List<List<String>> lines = new ArrayList<>();
        try {
            // As Redis reads an ACL file: words split by spaces, no quoting (ACL SAVE writes no spaces in a word).
            for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
                String stripped = line.strip();
                lines.add(stripped.isEmpty() ? List.of() : List.of(stripped.split("\\s+")));
            }
        } catch (NoSuchFileException e) {
            return Errors.aclFileUnreadable(path.toString(), "No such file or directory");
        } catch (IOException e) {
            return Errors.aclFileUnreadable(path.toString(), e.getMessage());
        }
        return load(lines, path.toString(), false);
    }

    /**
     * Loads users from {@code user <name> <rules>} lines, all or nothing: null when loaded, else
     * every error found, in Redis's words. A user is built from nothing by its line, the default
     * user too. When no line names the default user, lines from the config file
     * ({@code fromConfig}) leave it as it is; an ACL file gives it its initial rules.
     */
    private String load(List<List<String>> lines, String source, boolean fromConfig) {
        TreeMap<String, AclUser> loaded = new TreeMap<>();
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            List<String> words = lines.get(i);
            if (words.isEmpty()) {
                continue;
            }
            if (!words.get(0).equals("user") || words.size() < 2) {
                errors.append(Errors.aclFileNotAUser(source, i + 1));
                continue;
            }
            String name = words.get(1);
            if (hasSpace(name) || name.indexOf('\0') >= 0) { // possible from a quoted word in the config file
                errors.append(Errors.aclFileLine(source, i + 1, Errors.ACL_BAD_USERNAME.substring("ERR ".length())));
                continue;
            }
            if (loaded.containsKey(name)) {
                errors.append(Errors.aclFileDuplicate(name, i + 1));
                continue;
            }
            AclUser u = new AclUser(name, table, pubsubAllChannels());
            try {
                List<String> rules = new ArrayList<>(words.subList(2, words.size()));
                for (String rule : mergeSelectors(rules)) {
                    try {
                        u.apply(rule, pubsubAllChannels());
                    } catch (AclRuleException e) {
                        errors.append(Errors.aclFileRule(source, i + 1, rule, e.getMessage()));
                        break;
                    }
                }
            } catch (ErrorReply e) {
                errors.append(Errors.aclFileLine(source, i + 1, e.getMessage().substring(4)));
            }
            loaded.put(name, u);
        }
        if (errors.length() > 0) {
            return errors.append(Errors.ACL_FILE_NOT_LOADED).toString();
        }
        if (fromConfig && !loaded.containsKey(DEFAULT_USER)) {
            loaded.put(DEFAULT_USER, defaultUser);
        }
        install(loaded);
        return null;
    }

    /** Replaces the users, keeping the objects of users that remain so their sessions follow the new rules. */
    private void install(TreeMap<String, AclUser> loaded) {
        loaded.computeIfAbsent(DEFAULT_USER, n -> newDefaultUser());
        TreeMap<String, AclUser> next = new TreeMap<>();
        for (var e : loaded.entrySet()) {
            AclUser old = users.get(e.getKey());
            if (old != null && old != e.getValue()) {
                old.assign(e.getValue());
                next.put(e.getKey(), old);
            } else {
                next.put(e.getKey(), e.getValue());
            }
        }
        users.clear();
        users.putAll(next);
        defaultUser = users.get(DEFAULT_USER);
        publishDefault();
    }

    /** ACL SAVE: writes every user to the ACL file, atomically (a whole new file renamed over the old). */
    public void saveToFile() {
        Path path = aclFile();
        if (path == null) {
            throw new ErrorReply(Errors.ACL_NO_FILE);
        }
        StringBuilder text = new StringBuilder();
        for (AclUser u : users.values()) {
            text.append(u.describe()).append('\n');
        }
        try {
            Path tmp = path.resolveSibling(path.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ErrorReply(Errors.ACL_SAVE_FAILED);
        }
    }
}
