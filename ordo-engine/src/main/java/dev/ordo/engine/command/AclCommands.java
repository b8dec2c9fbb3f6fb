package dev.ordo.engine.command;

import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.acl.AclLog;
import dev.ordo.engine.acl.AclUser;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.pubsub.Space;
import dev.ordo.engine.pubsub.Subscriptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * ACL and its subcommands (Redis 7.2): WHOAMI, SETUSER, GETUSER, LIST, USERS, DELUSER, CAT,
 * GENPASS, DRYRUN, LOG, LOAD, SAVE and HELP, over the engine's {@link Acl}. Users deleted or
 * dropped by LOAD have their connections closed, as in Redis.
 */
final class AclCommands {
    /** How many entries ACL LOG shows without a count. */
    private static final int LOG_DEFAULT_COUNT = 10;

    private AclCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("acl", c -> { })
                .with(Command.of("cat", AclCommands::cat))
                .with(Command.of("deluser", AclCommands::delUser))
                .with(Command.of("dryrun", AclCommands::dryRun))
                .with(Command.of("genpass", AclCommands::genPass))
                .with(Command.of("getuser", AclCommands::getUser))
                .with(Command.of("list", AclCommands::list))
                .with(Command.of("load", AclCommands::load))
                .with(Command.of("log", AclCommands::log))
                .with(Command.of("save", AclCommands::save))
                .with(Command.of("setuser", AclCommands::setUser))
                .with(Command.of("users", AclCommands::users))
                .with(Command.of("whoami", AclCommands::whoAmI))
                .with(Command.of("help", AclCommands::help)));
    }

    private static Acl acl(Call c) {
        return c.context().acl();
    }

    /** ACL WHOAMI: the name of the user this connection runs as. */
    private static void whoAmI(Call c) {
        c.reply().bulk(c.session().userName());
    }

    /** ACL SETUSER name [rule ...]: creates or changes the user, all rules or none. */
    private static void setUser(Call c) {
        List<String> rules = new ArrayList<>();
        for (int i = 3; i < c.argc(); i++) {
            rules.add(rule(c.arg(i)));
        }
        acl(c).setUser(c.argString(2), rules);
        closeSubscribersNoLongerAllowed(c);
        c.reply().simpleString("OK");
    }

    /**
     * Closes each client subscribed to a channel, pattern or shard channel its user may no longer
     * use, as Redis does when permissions change (the caller's own once its reply is written):
     * a subscription must not outlive the right to it.
     */
    private static void closeSubscribersNoLongerAllowed(Call c) {
        for (Session s : c.context().server().clients()) {
            if (s.user() != null && s.subscribed() && !stillAllowed(acl(c), s.user(), s.subscriptions())) {
                close(c, s);
            }
        }
    }

    private static boolean stillAllowed(Acl acl, AclUser user, Subscriptions subs) {
        for (Space space : Space.values()) {
            for (byte[] name : subs.names(space)) {
                if (!acl.channelAllowed(user, name, space == Space.PATTERNS)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Closes {@code s}: at once, or for the calling client once its reply is written. */
    private static void close(Call c, Session s) {
        if (s == c.session()) {
            s.markClosing();
        } else {
            c.context().server().kill(s.id());
        }
    }

    /**
     * A rule as text. A password ({@code >pass}, {@code <pass}) whose bytes are not UTF-8 text
     * becomes the rule for the hash of its exact bytes ({@code #hash}, {@code !hash}), as AUTH
     * hashes what it receives: decoded, it would lose bytes and match other passwords. Any other
     * rule that is not UTF-8 text is refused (Redis takes it): a key or channel pattern decoded
     * with its bytes replaced would allow other keys than the ones written.
     */
    private static String rule(byte[] arg) {
        String text = new String(arg, StandardCharsets.UTF_8);
        if (Arrays.equals(text.getBytes(StandardCharsets.UTF_8), arg)) {
            return text;
        }
        if (arg.length > 0 && (arg[0] == '>' || arg[0] == '<')) {
            return (arg[0] == '>' ? "#" : "!") + Acl.sha256Hex(Arrays.copyOfRange(arg, 1, arg.length));
        }
        throw new ErrorReply(Errors.aclSetUser(text, Errors.ACL_SYNTAX));
    }

    /** ACL GETUSER name: flags, passwords, the root selector's commands, keys and channels, then the selectors; null for no such user. */
    private static void getUser(Call c) {
        AclUser u = acl(c).user(c.argString(2));
        ReplyWriter r = c.reply();
        if (u == null) {
            r.nullBulk();
            return;
        }
        r.mapHeader(6);
        r.bulk("flags");
        List<String> flags = u.flags();
        r.setHeader(flags.size());
        flags.forEach(f -> r.bulk(f));
        r.bulk("passwords");
        List<String> hashes = u.passwordHashes();
        r.arrayHeader(hashes.size());
        hashes.forEach(h -> r.bulk(h));
        List<String[]> selectors = u.selectorDescriptions();
        writeSelector(r, selectors.get(0));
        r.bulk("selectors");
        r.arrayHeader(selectors.size() - 1);
        for (String[] s : selectors.subList(1, selectors.size())) {
            r.mapHeader(3);
            writeSelector(r, s);
        }
    }

    private static void writeSelector(ReplyWriter r, String[] s) {
        r.bulk("commands");
        r.bulk(s[0]);
        r.bulk("keys");
        r.bulk(s[1]);
        r.bulk("channels");
        r.bulk(s[2]);
    }

    /** ACL LIST: every user as a rule line. */
    private static void list(Call c) {
        List<AclUser> users = new ArrayList<>(acl(c).users());
        c.reply().arrayHeader(users.size());
        users.forEach(u -> c.reply().bulk(u.describe()));
    }

    /** ACL USERS: every user's name. */
    private static void users(Call c) {
        List<AclUser> users = new ArrayList<>(acl(c).users());
        c.reply().arrayHeader(users.size());
        users.forEach(u -> c.reply().bulk(u.name()));
    }

    /** ACL DELUSER name [name ...]: how many existed; their connections are closed. The default user is refused first. */
    private static void delUser(Call c) {
        for (int i = 2; i < c.argc(); i++) {
            if (c.argString(i).equals(Acl.DEFAULT_USER)) {
                throw new ErrorReply(Errors.ACL_DEFAULT_NOT_REMOVABLE);
            }
        }
        long deleted = 0;
        for (int i = 2; i < c.argc(); i++) {
            AclUser u = acl(c).user(c.argString(i));
            if (u != null && acl(c).deleteUser(u.name())) {
                deleted++;
                closeSessionsOf(c, u);
            }
        }
        c.reply().integer(deleted);
    }

    /** Closes every connection running as {@code user}, the caller's own once its reply is written. */
    private static void closeSessionsOf(Call c, AclUser user) {
        for (Session s : c.context().server().clients()) {
            if (s.user() == user) {
                close(c, s);
            }
        }
    }

    /** ACL CAT [category]: the categories, or the commands and subcommands in one. */
    private static void cat(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "acl"));
        }
        if (c.argc() == 2) {
            c.reply().arrayHeader(Acl.CATEGORIES.size());
            Acl.CATEGORIES.forEach(cat -> c.reply().bulk(cat));
            return;
        }
        String category = c.argString(2).toLowerCase(Locale.ROOT);
        if (!Acl.CATEGORIES.contains(category)) {
            throw new ErrorReply(Errors.aclUnknownCategory(c.argString(2)));
        }
        List<String> names = new ArrayList<>();
        for (Command cmd : c.context().commands().all()) {
            if (cmd.aclCategories().contains(category)) {
                names.add(cmd.fullName());
            }
            for (Command sub : cmd.subcommands().values()) {
                if (sub.aclCategories().contains(category)) {
                    names.add(sub.fullName());
                }
            }
        }
        c.reply().arrayHeader(names.size());
        names.forEach(n -> c.reply().bulk(n));
    }

    /** ACL GENPASS [bits]: a random password of {@code bits} bits (256 by default), as hex. */
    private static void genPass(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "acl"));
        }
        long bits = 256;
        if (c.argc() == 3) {
            bits = Call.parseLong(c.arg(2), Errors.NOT_INTEGER);
            if (bits <= 0 || bits > 4096) {
                throw new ErrorReply(Errors.ACL_GENPASS_BITS);
            }
        }
        c.reply().bulk(acl(c).generatePassword((int) bits));
    }

    /**
     * ACL DRYRUN user command [arg ...]: OK when the user may run it, else why not, naming the
     * command, key or channel. Nothing runs and nothing is logged.
     */
    private static void dryRun(Call c) {
        AclUser u = acl(c).user(c.argString(2));
        if (u == null) {
            throw new ErrorReply(Errors.aclUserNotFound(c.argString(2)));
        }
        byte[][] args = java.util.Arrays.copyOfRange(c.args(), 3, c.argc());
        Command cmd = c.context().commands().lookup(args[0]);
        if (cmd != null && !cmd.subcommands().isEmpty() && args.length > 1) {
            cmd = cmd.subcommand(args[1]);
        }
        if (cmd == null) {
            throw new ErrorReply(Errors.aclCommandNotFound(c.argString(3)));
        }
        if (!cmd.arityAccepts(args.length)) {
            throw new ErrorReply(Errors.wrongArity(cmd.fullName()));
        }
        Acl.Denial d = acl(c).check(u, cmd, args);
        if (d == null) {
            c.reply().simpleString("OK");
            return;
        }
        String object = d.position() > 0 ? new String(args[d.position()], StandardCharsets.UTF_8) : "";
        c.reply().bulk(switch (d.reason()) {
            case KEY -> Errors.aclKeyDenied(u.name(), object);
            case CHANNEL -> Errors.aclChannelDenied(u.name(), object);
            default -> Errors.aclCommandDenied(u.name(), cmd.fullName());
        });
    }

    /** ACL LOG [count | RESET]: the newest entries (10 by default), or clears them. */
    private static void log(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "acl"));
        }
        AclLog log = acl(c).log();
        long count = LOG_DEFAULT_COUNT;
        if (c.argc() == 3) {
            if (c.argIs(2, "RESET")) {
                log.reset();
                c.reply().simpleString("OK");
                return;
            }
            count = Math.max(0, Call.parseLong(c.arg(2), Errors.NOT_INTEGER));
        }
        List<AclLog.Entry> entries = log.newest(count);
        ReplyWriter r = c.reply();
        long now = c.now();
        r.arrayHeader(entries.size());
        for (AclLog.Entry e : entries) {
            r.mapHeader(10);
            r.bulk("count");
            r.integer(e.count());
            r.bulk("reason");
            r.bulk(e.reason());
            r.bulk("context");
            r.bulk(e.context());
            r.bulk("object");
            r.bulk(e.object());
            r.bulk("username");
            r.bulk(e.username());
            r.bulk("age-seconds");
            r.doubleValue((now - e.updatedMillis()) / 1000.0);
            r.bulk("client-info");
            r.bulk(e.clientInfo());
            r.bulk("entry-id");
            r.integer(e.id());
            r.bulk("timestamp-created");
            r.integer(e.createdMillis());
            r.bulk("timestamp-last-updated");
            r.integer(e.updatedMillis());
        }
    }

    /** ACL LOAD: the users of the ACL file replace all users; connections of users no longer there are closed. */
    private static void load(Call c) {
        acl(c).loadFromFile();
        for (Session s : c.context().server().clients()) {
            AclUser u = s.user();
            if (u != null && acl(c).user(u.name()) != u) {
                close(c, s);
            }
        }
        closeSubscribersNoLongerAllowed(c);
        c.reply().simpleString("OK");
    }

    /** ACL SAVE: writes every user to the ACL file. */
    private static void save(Call c) {
        acl(c).saveToFile();
        c.reply().simpleString("OK");
    }

    private static void help(Call c) {
        ServerCommands.help(c, "ACL",
                "CAT [<category>]",
                "    List all commands that belong to <category>, or all command categories",
                "    when no category is specified.",
                "DELUSER <username> [<username> ...]",
                "    Delete a list of users.",
                "DRYRUN <username> <command> [<arg> ...]",
                "    Returns whether the user can execute the given command without executing the command.",
                "GETUSER <username>",
                "    Get the user's details.",
                "GENPASS [<bits>]",
                "    Generate a secure 256-bit user password. The optional `bits` argument can",
                "    be used to specify a different size.",
                "LIST",
                "    Show users details in config file format.",
                "LOAD",
                "    Reload users from the ACL file.",
                "LOG [<count> | RESET]",
                "    Show the ACL log entries.",
                "SAVE",
                "    Save the current config to the ACL file.",
                "SETUSER <username> <attribute> [<attribute> ...]",
                "    Create or modify a user with the specified attributes.",
                "USERS",
                "    List all the registered usernames.",
                "WHOAMI",
                "    Return the current connection username.");
    }
}
