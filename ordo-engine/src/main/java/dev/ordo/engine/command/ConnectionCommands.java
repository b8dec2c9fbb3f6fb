package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.pubsub.Space;
import dev.ordo.engine.pubsub.Subscriptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Connection commands: PING, ECHO, SELECT, QUIT, RESET, HELLO, AUTH and CLIENT. They act on the
 * calling client's {@link Session} (protocol, name, database, authentication, reply mode) and,
 * for CLIENT LIST and KILL, on the sessions {@link ServerControl} knows.
 *
 * <p>Authentication is the ACL's ({@link dev.ordo.engine.acl.Acl}): AUTH and HELLO AUTH name a
 * user and its password (AUTH with the password alone names {@code default}); a failure is
 * logged in ACL LOG and answered WRONGPASS. A client is of type {@code pubsub} while it has a
 * subscription, else {@code normal} (there are no masters or replicas); CLIENT LIST shows
 * {@code fd} as Redis shows it for a connection it knows nothing about.
 */
final class ConnectionCommands {
    private static final String DEFAULT_USER = "default";
    private static final byte[] PONG = "pong".getBytes(StandardCharsets.US_ASCII);
    private static final List<String> CLIENT_TYPES = List.of("normal", "master", "replica", "slave", "pubsub");

    private ConnectionCommands() {
    }

    static void register(CommandTable table) {
        table.register(Command.of("ping", ConnectionCommands::ping));
        table.register(Command.of("echo", c -> c.reply().bulk(c.arg(1))));
        table.register(Command.of("select", ConnectionCommands::select));
        table.register(Command.of("quit", ConnectionCommands::quit));
        table.register(Command.of("reset", ConnectionCommands::reset));
        table.register(Command.of("hello", ConnectionCommands::hello));
        table.register(Command.of("auth", ConnectionCommands::auth));
        table.register(Command.of("client", c -> { })
                .with(Command.of("id", c -> c.reply().integer(c.session().id())))
                .with(Command.of("setname", ConnectionCommands::clientSetName))
                .with(Command.of("getname", ConnectionCommands::clientGetName))
                .with(Command.of("list", ConnectionCommands::clientList))
                .with(Command.of("info", ConnectionCommands::clientInfo))
                .with(Command.of("kill", ConnectionCommands::clientKill))
                .with(Command.of("no-evict", c -> c.session().setNoEvict(onOff(c))))
                .with(Command.of("no-touch", c -> c.session().setNoTouch(onOff(c))))
                .with(Command.of("setinfo", ConnectionCommands::clientSetInfo))
                .with(Command.of("unblock", ConnectionCommands::clientUnblock))
                .with(Command.of("reply", ConnectionCommands::clientReply))
                .with(Command.of("tracking", ClientTrackingCommands::tracking))
                .with(Command.of("caching", ClientTrackingCommands::caching))
                .with(Command.of("trackinginfo", ClientTrackingCommands::trackingInfo))
                .with(Command.of("getredir", ClientTrackingCommands::getRedir))
                .with(Command.of("help", ConnectionCommands::clientHelp)));
    }

    /** PING [message]: PONG, or the message as a bulk string. */
    private static void ping(Call c) {
        if (c.argc() > 2) {
            throw new ErrorReply(Errors.wrongArity("ping"));
        }
        if (c.session().protocol() == 2 && c.session().subscribed()) {
            // A subscribed RESP2 client reads only arrays: Redis answers ["pong", message or ""].
            c.reply().arrayHeader(2);
            c.reply().bulk(PONG);
            c.reply().bulk(c.argc() == 2 ? c.arg(1) : new byte[0]);
        } else if (c.argc() == 2) {
            c.reply().bulk(c.arg(1));
        } else {
            c.reply().simpleString("PONG");
        }
    }

    /** SELECT index: read as an int, as Redis 7 does, then checked against the databases. */
    private static void select(Call c) {
        long index = Call.parseLong(c.arg(1), Errors.NOT_INTEGER);
        if (index < Integer.MIN_VALUE || index > Integer.MAX_VALUE) {
            throw new ErrorReply(Errors.INT_OUT_OF_RANGE);
        }
        if (index < 0 || index >= c.keyspace().databases()) {
            throw new ErrorReply(Errors.DB_INDEX);
        }
        c.session().selectDb((int) index);
        c.reply().simpleString("OK");
    }

    /** QUIT: OK, then the connection closes once the reply is written. */
    private static void quit(Call c) {
        c.session().markClosing();
        c.reply().simpleString("OK");
    }

    /** RESET: the connection as new (database 0, RESP2, no name, replies on, not monitoring, authenticated only without a password). */
    private static void reset(Call c) {
        Session s = c.session();
        s.selectDb(0);
        s.setProtocol(2);
        s.setName("");
        s.setReplyMode(Session.ReplyMode.ON);
        s.setNoEvict(false);
        s.setNoTouch(false);
        s.setUser(c.context().acl().defaultUser());
        s.setAuthenticated(!c.context().acl().authRequired());
        s.endMulti();
        c.context().transactions().unwatchAll(s);
        if (s.subscriptions() != null) {
            c.context().pubSub().forget(s.subscriptions());
        }
        c.context().server().stopMonitoring(s);
        c.reply().simpleString("RESET");
    }

    /** HELLO [protover [AUTH user pass] [SETNAME name]]: switches protocol and replies with the server's description. */
    private static void hello(Call c) {
        long version = 0;
        if (c.argc() >= 2) {
            version = Call.parseLong(c.arg(1), Errors.HELLO_PROTOCOL_NOT_INTEGER);
            if (version < 2 || version > 3) {
                throw new ErrorReply(Errors.NOPROTO);
            }
        }
        byte[] user = null;
        byte[] password = null;
        String name = null;
        for (int i = 2; i < c.argc(); i++) {
            int more = c.argc() - 1 - i;
            if (c.argIs(i, "AUTH") && more >= 2) {
                user = c.arg(i + 1);
                password = c.arg(i + 2);
                i += 2;
            } else if (c.argIs(i, "SETNAME") && more >= 1) {
                name = validClientName(c.arg(i + 1));
                i++;
            } else {
                throw new ErrorReply(Errors.helloSyntax(c.argString(i)));
            }
        }
        if (user != null) {
            authenticate(c, user, password);
        }
        if (!c.session().authenticated() && c.context().acl().authRequired()) {
            throw new ErrorReply(Errors.HELLO_NOAUTH);
        }
        if (name != null) {
            c.session().setName(name);
        }
        if (version != 0) {
            c.session().setProtocol((int) version);
        }
        writeServerDescription(c);
    }

    private static void writeServerDescription(Call c) {
        ReplyWriter r = c.reply();
        r.mapHeader(7);
        r.bulk("server");
        r.bulk("redis");
        r.bulk("version");
        r.bulk(ServerCommands.REDIS_VERSION);
        r.bulk("proto");
        r.integer(c.session().protocol());
        r.bulk("id");
        r.integer(c.session().id());
        r.bulk("mode");
        r.bulk("standalone");
        r.bulk("role");
        r.bulk("master");
        r.bulk("modules");
        r.arrayHeader(0);
    }

    /** AUTH [username] password, for the default user. */
    private static void auth(Call c) {
        if (c.argc() > 3) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        if (c.argc() == 2) {
            if (c.context().acl().defaultUser().noPassword()) {
                throw new ErrorReply(Errors.AUTH_NO_PASSWORD);
            }
            authenticate(c, DEFAULT_USER.getBytes(StandardCharsets.US_ASCII), c.arg(1));
        } else {
            authenticate(c, c.arg(1), c.arg(2));
        }
        c.reply().simpleString("OK");
    }

    /**
     * Makes the session run as {@code user} if {@code password} is one of its passwords (and the
     * user is on), else logs the failure in ACL LOG and throws WRONGPASS, the session unchanged.
     */
    private static void authenticate(Call c, byte[] user, byte[] password) {
        dev.ordo.engine.acl.AclUser u = c.context().acl().authenticate(user, password);
        if (u == null) {
            c.context().dispatcher().logFailedAuth(c.session(), c.arg(0), new String(user, StandardCharsets.UTF_8));
            throw new ErrorReply(Errors.WRONGPASS);
        }
        c.session().setUser(u);
        c.session().setAuthenticated(true);
    }

    /** A client name as given, or INVALID_CLIENT_NAME when a byte is outside '!'..'~'; empty clears the name. */
    private static String validClientName(byte[] name) {
        return validClientAttribute(name, Errors.INVALID_CLIENT_NAME);
    }

    /** A name or library attribute: printable ASCII without spaces, so CLIENT LIST splits on spaces. */
    private static String validClientAttribute(byte[] value, String error) {
        for (byte b : value) {
            if (b < '!' || b > '~') {
                throw new ErrorReply(error);
            }
        }
        return new String(value, StandardCharsets.US_ASCII);
    }

    /** The ON or OFF of CLIENT NO-EVICT and NO-TOUCH (any case), answered with OK; else a syntax error. */
    private static boolean onOff(Call c) {
        boolean on = c.argIs(2, "on");
        if (!on && !c.argIs(2, "off")) {
            throw new ErrorReply(Errors.SYNTAX);
        }
        c.reply().simpleString("OK");
        return on;
    }

    /** CLIENT SETINFO (LIB-NAME|LIB-VER) value: checked as a client name is; an empty value clears it. */
    private static void clientSetInfo(Call c) {
        String attribute = c.argString(2);
        boolean name = attribute.equalsIgnoreCase("lib-name");
        if (!name && !attribute.equalsIgnoreCase("lib-ver")) {
            throw new ErrorReply(Errors.unrecognizedClientInfo(attribute));
        }
        String value = validClientAttribute(c.arg(3), Errors.invalidClientInfo(attribute));
        if (name) {
            c.session().setLibName(value);
        } else {
            c.session().setLibVersion(value);
        }
        c.reply().simpleString("OK");
    }

    /** CLIENT SETNAME name. */
    private static void clientSetName(Call c) {
        c.session().setName(validClientName(c.arg(2)));
        c.reply().simpleString("OK");
    }

    /** CLIENT GETNAME: the name, or null when none is set. */
    private static void clientGetName(Call c) {
        String name = c.session().name();
        if (name.isEmpty()) {
            c.reply().nullBulk();
        } else {
            c.reply().bulk(name);
        }
    }

    /** CLIENT LIST [TYPE type | ID id [id ...]]: one line per client, as verbatim text. */
    private static void clientList(Call c) {
        List<Session> listed;
        if (c.argc() == 2) {
            listed = c.context().server().clients();
        } else if (c.argc() == 4 && c.argIs(2, "TYPE")) {
            String type = clientType(c.argString(3));
            listed = c.context().server().clients().stream().filter(s -> typeOf(s).equals(type)).toList();
        } else if (c.argc() > 3 && c.argIs(2, "ID")) {
            listed = clientsById(c);
        } else {
            throw new ErrorReply(Errors.SYNTAX);
        }
        StringBuilder text = new StringBuilder();
        for (Session s : listed) {
            text.append(clientLine(s, c.now())).append('\n');
        }
        c.reply().verbatim("txt", text.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static List<Session> clientsById(Call c) {
        List<Long> ids = new ArrayList<>();
        for (int i = 3; i < c.argc(); i++) {
            ids.add(Call.parseLong(c.arg(i), Errors.INVALID_CLIENT_ID)); // 0 or below: no client, as in Redis
        }
        List<Session> clients = c.context().server().clients();
        List<Session> out = new ArrayList<>();
        for (long id : ids) {
            for (Session s : clients) {
                if (s.id() == id) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** CLIENT INFO: this client's line. */
    private static void clientInfo(Call c) {
        String line = clientLine(c.session(), c.now()) + "\n";
        c.reply().verbatim("txt", line.getBytes(StandardCharsets.UTF_8));
    }

    /** One client as CLIENT LIST describes it (Redis 7.2's fields, in its order). */
    static String clientLine(Session s, long nowMillis) {
        ClientBuffers b = s.buffers();
        return "id=" + s.id()
                + " addr=" + s.address()
                + " laddr=" + s.localAddress()
                + " fd=-1"
                + " name=" + s.name()
                + " age=" + Math.max(0, (nowMillis - s.createdMillis()) / 1000)
                + " idle=" + Math.max(0, (nowMillis - s.lastCommandMillis()) / 1000)
                + " flags=" + flags(s)
                + " db=" + s.db()
                + subscriptionCounts(s) + " multi=" + s.queuedCount()
                + " qbuf=" + b.queryBuffer() + " qbuf-free=" + b.queryBufferFree() + " argv-mem=" + b.argvMemory()
                + " multi-mem=" + s.multiMemory() + " rbs=" + b.replyBufferSize() + " rbp=" + b.replyBufferUsed()
                + " obl=" + b.replyBufferUsed() + " oll=" + b.outputListLength() + " omem=" + b.outputMemory()
                + " tot-mem=" + (b.totalMemory() + s.multiMemory()) + " events=r"
                + " cmd=" + s.lastCommand()
                + " user=" + s.userName()
                + " redir=" + (s.tracking() == null ? -1 : s.tracking().redirect())
                + " resp=" + s.protocol()
                + " lib-name=" + s.libName() + " lib-ver=" + s.libVersion();
    }

    /** CLIENT LIST's sub, psub and ssub fields. */
    private static String subscriptionCounts(Session s) {
        Subscriptions subs = s.subscriptions();
        if (subs == null) {
            return " sub=0 psub=0 ssub=0";
        }
        return " sub=" + subs.count(Space.CHANNELS) + " psub=" + subs.count(Space.PATTERNS)
                + " ssub=" + subs.count(Space.SHARD_CHANNELS);
    }

    /**
     * CLIENT LIST's flags, in Redis's order: P subscribed, x in MULTI (or its EXEC), t tracking
     * (R its redirect gone, B broadcast), c closing, e no-evict, T no-touch; N for none.
     */
    private static String flags(Session s) {
        String flags = (s.subscribed() ? "P" : "") + (s.queuedCount() >= 0 ? "x" : "") + ClientTrackingCommands.flags(s)
                + (s.closing() ? "c" : "") + (s.noEvict() ? "e" : "") + (s.noTouch() ? "T" : "");
        return flags.isEmpty() ? "N" : flags;
    }

    /** The canonical name of a client type given in any case, or Redis's unknown-type error. */
    private static String clientType(String given) {
        String type = given.toLowerCase(Locale.ROOT);
        if (!CLIENT_TYPES.contains(type)) {
            throw new ErrorReply(Errors.unknownClientType(given));
        }
        return type;
    }

    /** A client's type as CLIENT LIST TYPE and KILL TYPE match it: pubsub while it has a subscription, else normal. */
    private static String typeOf(Session s) {
        return s.subscribed() ? "pubsub" : "normal";
    }

    /** CLIENT KILL ip:port (OK or No such client), or CLIENT KILL filter value ... (the number killed). */
    private static void clientKill(Call c) {
        if (c.argc() == 3) {
            List<Session> victims = matching(c, new KillFilter(c.argString(2)));
            if (victims.isEmpty()) {
                throw new ErrorReply(Errors.NO_SUCH_CLIENT);
            }
            victims.forEach(s -> c.context().server().kill(s.id()));
            c.reply().simpleString("OK");
            return;
        }
        KillFilter filter = KillFilter.parse(c);
        List<Session> victims = matching(c, filter);
        long killed = 0;
        for (Session s : victims) {
            if (c.context().server().kill(s.id())) {
                killed++;
            }
        }
        c.reply().integer(killed);
    }

    /**
     * CLIENT UNBLOCK client-id [TIMEOUT|ERROR]: 1 when that client waited in a blocking command and
     * is now answered (a null reply, or the UNBLOCKED error), else 0. The reason is checked first.
     */
    private static void clientUnblock(Call c) {
        if (c.argc() > 4) {
            throw new ErrorReply(Errors.subcommandSyntax(c.argString(1), "client"));
        }
        boolean withError = false;
        if (c.argc() == 4) {
            String reason = c.argString(3);
            withError = reason.equalsIgnoreCase("error");
            if (!withError && !reason.equalsIgnoreCase("timeout")) {
                throw new ErrorReply(Errors.UNBLOCK_REASON);
            }
        }
        long id = Call.parseLong(c.arg(2), Errors.NOT_INTEGER);
        c.reply().integer(c.context().unblock(id, withError) ? 1 : 0);
    }

    private static List<Session> matching(Call c, KillFilter filter) {
        List<Session> out = new ArrayList<>();
        for (Session s : c.context().server().clients()) {
            if (filter.matches(s, c.session())) {
                out.add(s);
            }
        }
        return out;
    }

    /** CLIENT KILL's filters; an unset filter matches every client. */
    private static final class KillFilter {
        long id;
        String type;
        String user;
        String addr;
        String laddr;
        boolean skipMe = true;

        KillFilter() {
        }

        /** The old form: the client at {@code addr}, the caller included. */
        KillFilter(String addr) {
            this.addr = addr;
            this.skipMe = false;
        }

        /** Parses {@code filter value} pairs from argument 2 on, with Redis's errors. */
        static KillFilter parse(Call c) {
            KillFilter f = new KillFilter();
            for (int i = 2; i < c.argc(); i += 2) {
                if (i + 1 >= c.argc()) {
                    throw new ErrorReply(Errors.SYNTAX);
                }
                String value = c.argString(i + 1);
                if (c.argIs(i, "ID")) {
                    f.id = Call.parseLong(c.arg(i + 1), Errors.CLIENT_ID_NOT_POSITIVE);
                    if (f.id < 1) {
                        throw new ErrorReply(Errors.CLIENT_ID_NOT_POSITIVE);
                    }
                } else if (c.argIs(i, "TYPE")) {
                    f.type = clientType(value);
                } else if (c.argIs(i, "ADDR")) {
                    f.addr = value;
                } else if (c.argIs(i, "LADDR")) {
                    f.laddr = value;
                } else if (c.argIs(i, "USER")) {
                    if (c.context().acl().user(value) == null) {
                        throw new ErrorReply(Errors.noSuchUser(value));
                    }
                    f.user = value;
                } else if (c.argIs(i, "SKIPME")) {
                    f.skipMe = parseYesNo(c, i + 1);
                } else {
                    throw new ErrorReply(Errors.SYNTAX);
                }
            }
            return f;
        }

        private static boolean parseYesNo(Call c, int i) {
            if (c.argIs(i, "YES")) {
                return true;
            }
            if (c.argIs(i, "NO")) {
                return false;
            }
            throw new ErrorReply(Errors.SYNTAX);
        }

        boolean matches(Session s, Session caller) {
            return (id == 0 || s.id() == id)
                    && (type == null || type.equals(typeOf(s)))
                    && (addr == null || addr.equals(s.address()))
                    && (laddr == null || laddr.equals(s.localAddress()))
                    && (user == null || user.equals(s.userName()))
                    && !(skipMe && s == caller);
        }
    }

    /**
     * CLIENT REPLY ON|OFF|SKIP: sets the session's reply mode. ON replies OK; OFF and SKIP write
     * no reply (the transport discards replies while the mode says so); SKIP while OFF changes nothing.
     */
    private static void clientReply(Call c) {
        Session s = c.session();
        if (c.argIs(2, "ON")) {
            s.setReplyMode(Session.ReplyMode.ON);
            c.reply().simpleString("OK");
        } else if (c.argIs(2, "OFF")) {
            s.setReplyMode(Session.ReplyMode.OFF);
        } else if (c.argIs(2, "SKIP")) {
            if (s.replyMode() != Session.ReplyMode.OFF) {
                s.setReplyMode(Session.ReplyMode.SKIP_NEXT);
            }
        } else {
            throw new ErrorReply(Errors.SYNTAX);
        }
    }

    private static void clientHelp(Call c) {
        ServerCommands.help(c, "CLIENT",
                "GETNAME",
                "    Reply with this connection's name, or null when it has none.",
                "ID",
                "    Reply with this connection's unique id.",
                "INFO",
                "    Describe this connection in CLIENT LIST's format.",
                "KILL <ip:port>",
                "    Close the connection from <ip:port>.",
                "KILL <filter> <value> [<filter> <value> ...]",
                "    Close every connection matching all the filters; reply with how many. Filters:",
                "    * ID <client-id>",
                "    * ADDR <ip:port>: the client's address.",
                "    * LADDR <ip:port>: the address the client connected to.",
                "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
                "    * USER <username>",
                "    * SKIPME (YES|NO): whether to spare this connection (default YES).",
                "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB) | ID <client-id> [<client-id> ...]]",
                "    Describe the connections, one line each.",
                "REPLY (ON|OFF|SKIP)",
                "    Turn replies to this connection on or off, or skip the reply to the next command.",
                "SETNAME <name>",
                "    Name this connection; an empty name removes it.",
                "NO-EVICT (ON|OFF)",
                "    Protect this connection from client eviction (maxmemory-clients).",
                "NO-TOUCH (ON|OFF)",
                "    Leave the access time of the keys this connection's commands read untouched.",
                "SETINFO (LIB-NAME|LIB-VER) <value>",
                "    Name the client library and its version, for CLIENT LIST.",
                "UNBLOCK <client-id> [TIMEOUT|ERROR]",
                "    Answer the client waiting in a blocking command as its timeout would, or with an error.");
    }
}
