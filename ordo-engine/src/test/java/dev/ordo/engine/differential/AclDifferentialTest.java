package dev.ordo.engine.differential;

import dev.ordo.engine.command.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same users, commands and keys sent to Ordo's engine and to a real {@code redis-server}:
 * every command must be allowed or refused alike, with the same texts; each refusal must leave
 * the same ACL LOG entry (reason, context, object, user, count); ACL DRYRUN must agree; each
 * category must hold the same commands (those Ordo has); and COMMAND INFO's key specs of the
 * commands whose keys ACL checks by spec must be Redis's, byte for byte.
 *
 * <p>Ordo follows Redis 7.2's texts. Against an older server (Debian's 7.0) the few texts 7.2
 * reworded are translated from 7.0's before comparing, by {@link #as72}; nothing else is.
 * Rules 7.0 accepts but 7.2 refuses ({@code %R} without {@code ~}) are left to the unit tests.
 */
class AclDifferentialTest {
    private static RedisServer redis;
    private static boolean redis72;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServer.start();
        String[] v = redis.version().split("\\.");
        redis72 = Integer.parseInt(v[0]) > 7 || Integer.parseInt(v[0]) == 7 && Integer.parseInt(v[1]) >= 2;
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    private static final Map<String, List<String>> USERS = new LinkedHashMap<>();

    static {
        USERS.put("reader", List.of("on", ">pw", "~r:*", "+@read", "+eval", "+multi", "+exec"));
        USERS.put("writer", List.of("on", ">pw", "%W~w:*", "%R~r:*", "+@write", "+@read", "-del", "+eval"));
        USERS.put("mixed", List.of("on", ">pw", "~k*", "+get", "+set", "+zadd", "+zunionstore", "+copy", "+eval", "(~s* +zrange)"));
        USERS.put("sorted", List.of("on", ">pw", "allkeys", "-@all", "+@sortedset", "-zadd", "+acl|whoami"));
        USERS.put("firstarg", List.of("on", ">pw", "~*", "+select|0", "+config|get"));
    }

    /** Commands every user tries, each alone. */
    private static final List<String[]> COMMANDS = List.of(
            a("GET", "r:1"), a("GET", "w:1"), a("GET", "k1"), a("SET", "w:1", "v"), a("SET", "r:1", "v"),
            a("SET", "w:1", "v", "GET"), a("SET", "k1", "v"), a("EXISTS", "w:1", "r:1"), a("DEL", "w:1"), a("INCR", "w:2"),
            a("COPY", "r:1", "w:c"), a("COPY", "w:1", "r:c"), a("ZADD", "k", "1", "a"), a("ZADD", "w:z", "1", "a"),
            a("ZUNIONSTORE", "w:u", "2", "r:a", "r:b"), a("ZUNIONSTORE", "r:u", "1", "r:a"), a("ZRANGE", "s1", "0", "-1"),
            a("ZRANGE", "k", "0", "-1"), a("BZMPOP", "0.01", "1", "r:z", "MIN"), a("ZMPOP", "1", "w:z", "MIN"),
            a("SELECT", "0"), a("SELECT", "1"), a("CONFIG", "GET", "maxmemory"), a("ACL", "WHOAMI"), a("PING"),
            a("EVAL", "return redis.call('get','r:1')", "0"), a("EVAL", "return redis.call('set','r:1','x')", "0"),
            a("EVAL", "return redis.call('get',KEYS[1])", "1", "w:1"), a("EVAL", "return redis.pcall('zcard','k1')", "0"),
            a("EVAL", "return redis.acl_check_cmd('set','k1','v')", "0"));

    private static String[] a(String... args) {
        return args;
    }

    private static byte[][] bytes(String... args) {
        byte[][] out = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            out[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    @Test
    void sameUsersCommandsAndKeys_sameAllowDenyTextsLogAndDryRun() throws Exception {
        List<String> differences = new ArrayList<>();
        Map<String, RespSocket> redisAs = new HashMap<>();
        Map<String, Session> ordoAs = new HashMap<>();
        try (EngineTarget ordo = new EngineTarget(); RespSocket admin = new RespSocket(redis.port())) {
            for (var u : USERS.entrySet()) {
                List<String> setuser = new ArrayList<>(List.of("ACL", "SETUSER", u.getKey()));
                setuser.addAll(u.getValue());
                byte[][] args = bytes(setuser.toArray(String[]::new));
                assertThat(admin.call(args).toString()).isEqualTo("+OK");
                assertThat(ordo.call(args).toString()).isEqualTo("+OK");
                RespSocket r = new RespSocket(redis.port());
                assertThat(r.call(bytes("AUTH", u.getKey(), "pw")).toString()).isEqualTo("+OK");
                redisAs.put(u.getKey(), r);
                Session s = ordo.newSession();
                assertThat(ordo.call(s, bytes("AUTH", u.getKey(), "pw")).toString()).isEqualTo("+OK");
                ordoAs.put(u.getKey(), s);
                compareUser(u.getKey(), admin, ordo, differences);
            }
            for (String[] seed : List.of(a("SET", "r:1", "v"), a("SET", "w:1", "v"), a("ZADD", "r:a", "1", "x"), a("ZADD", "s1", "1", "x"))) {
                admin.call(bytes(seed));
                ordo.call(bytes(seed));
            }
            for (String user : USERS.keySet()) {
                for (String[] command : COMMANDS) {
                    admin.call(bytes("ACL", "LOG", "RESET"));
                    ordo.call(bytes("ACL", "LOG", "RESET"));
                    String what = user + " " + String.join(" ", command);
                    Reply expected = as72(redisAs.get(user).call(bytes(command)), user, command);
                    Reply got = ordo.call(ordoAs.get(user), bytes(command));
                    note(differences, what, got, expected);
                    note(differences, what + " (ACL LOG)", logSummary(ordo.call(bytes("ACL", "LOG", "1"))),
                            logSummary(admin.call(bytes("ACL", "LOG", "1"))));
                    String[] dry = new String[command.length + 3];
                    dry[0] = "ACL";
                    dry[1] = "DRYRUN";
                    dry[2] = user;
                    System.arraycopy(command, 0, dry, 3, command.length);
                    note(differences, what + " (DRYRUN)", ordo.call(bytes(dry)), as72(admin.call(bytes(dry)), user, command));
                }
            }
            transactions(redisAs.get("reader"), ordo, ordoAs.get("reader"), admin, differences);
            failedAuth(ordo, admin, differences);
        } finally {
            for (RespSocket r : redisAs.values()) {
                r.close();
            }
        }
        assertThat(differences).isEmpty();
    }

    /** MULTI with a refused command aborts EXEC, and the refusal is logged with context multi, on both. */
    private static void transactions(RespSocket redisReader, EngineTarget ordo, Session ordoReader, RespSocket admin,
                                     List<String> differences) throws Exception {
        admin.call(bytes("ACL", "LOG", "RESET"));
        ordo.call(bytes("ACL", "LOG", "RESET"));
        for (String[] command : List.of(a("MULTI"), a("GET", "r:1"), a("SET", "r:1", "x"), a("GET", "w:1"), a("EXEC"))) {
            note(differences, "reader in MULTI: " + String.join(" ", command), ordo.call(ordoReader, bytes(command)),
                    as72(redisReader.call(bytes(command)), "reader", command));
        }
        note(differences, "reader in MULTI (ACL LOG)", ordo.call(bytes("ACL", "LOG")), admin.call(bytes("ACL", "LOG")), true);
    }

    /** A wrong password is refused alike and logged alike (reason auth, the command as sent, the user tried). */
    private static void failedAuth(EngineTarget ordo, RespSocket admin, List<String> differences) throws Exception {
        admin.call(bytes("ACL", "LOG", "RESET"));
        ordo.call(bytes("ACL", "LOG", "RESET"));
        try (RespSocket r = new RespSocket(redis.port())) {
            Session s = ordo.newSession();
            for (String[] auth : List.of(a("AUTH", "reader", "wrong"), a("auth", "nosuch", "x"), a("AUTH", "reader", "wrong"))) {
                note(differences, String.join(" ", auth), ordo.call(s, bytes(auth)), r.call(bytes(auth)));
            }
        }
        note(differences, "failed AUTH (ACL LOG)", ordo.call(bytes("ACL", "LOG")), admin.call(bytes("ACL", "LOG")), true);
    }

    private static void compareUser(String user, RespSocket admin, EngineTarget ordo, List<String> differences) throws Exception {
        Map<String, Reply> r = fields(admin.call(bytes("ACL", "GETUSER", user)));
        Map<String, Reply> o = fields(ordo.call(bytes("ACL", "GETUSER", user)));
        for (String field : List.of("passwords", "keys", "channels")) {
            note(differences, user + " GETUSER " + field, o.get(field), r.get(field));
        }
    }

    private static Map<String, Reply> fields(Reply map) {
        Map<String, Reply> out = new HashMap<>();
        List<Reply> c = map.children();
        for (int i = 0; i + 1 < c.size(); i += 2) {
            out.put(c.get(i).textString(), c.get(i + 1));
        }
        return out;
    }

    /** The fields of the newest ACL LOG entry both servers write alike (not times, ids or the client line). */
    private static Reply logSummary(Reply log) {
        List<Reply> kept = new ArrayList<>();
        for (Reply entry : log.children()) {
            Map<String, Reply> f = fields(entry);
            for (String name : List.of("count", "reason", "context", "object", "username")) {
                kept.add(f.get(name));
            }
        }
        return Reply.aggregate(Reply.Kind.ARRAY, kept);
    }

    private static void note(List<String> differences, String what, Reply ordo, Reply redis) {
        note(differences, what, ordo, redis, false);
    }

    private static void note(List<String> differences, String what, Reply ordo, Reply redis, boolean logs) {
        Reply o = logs ? logSummary(ordo) : ordo;
        Reply r = logs ? logSummary(redis) : redis;
        String d = ReplyComparison.difference(o, r, false);
        if (d != null) {
            differences.add(what + ": ordo " + o + " / redis " + r + " (" + d + ")");
        }
    }

    private static final String EXEC_ABORT = "EXECABORT Transaction discarded because of: ";
    private static final Pattern CMD_70 = Pattern.compile("NOPERM this user has no permissions to run the '([^']*)' command");
    private static final Pattern DRY_CMD_70 = Pattern.compile("This user has no permissions to run the '([^']*)' command");
    private static final Pattern DRY_KEY_70 = Pattern.compile("This user has no permissions to access the '([^']*)' key");

    /**
     * Redis 7.0's reply in Redis 7.2's words, for the ACL texts 7.2 reworded: top-level NOPERM
     * (the user named, the key not), refusals inside scripts ("ACL failure in script: ..."),
     * and DRYRUN's answers (the user named), also as the reason EXECABORT gives. {@code command}
     * is the command the user sent.
     */
    static Reply as72(Reply reply, String user, String[] command) {
        if (redis72) {
            return reply;
        }
        if (reply.kind() == Reply.Kind.ARRAY) {
            List<Reply> children = new ArrayList<>();
            for (Reply c : reply.children()) {
                children.add(as72(c, user, command));
            }
            return Reply.aggregate(Reply.Kind.ARRAY, children);
        }
        if (reply.kind() != Reply.Kind.ERROR && reply.kind() != Reply.Kind.BULK) {
            return reply;
        }
        String t = reply.textString();
        if (t.startsWith(EXEC_ABORT)) {
            Reply why = as72(Reply.text(Reply.Kind.ERROR, t.substring(EXEC_ABORT.length()).getBytes(StandardCharsets.ISO_8859_1)), user, command);
            return Reply.text(reply.kind(), (EXEC_ABORT + why.textString()).getBytes(StandardCharsets.ISO_8859_1));
        }
        Matcher m = CMD_70.matcher(t);
        if (m.matches()) {
            t = "NOPERM User " + user + " has no permissions to run the '" + m.group(1) + "' command";
        } else if (t.equals("NOPERM this user has no permissions to access one of the keys used as arguments")) {
            t = "NOPERM No permissions to access a key";
        } else if (t.startsWith("ERR The user executing the script can't run this command or subcommand")) {
            t = "ERR ACL failure in script: User " + user + " has no permissions to run the '" + scriptCommand(command)
                    + "' command" + t.substring("ERR The user executing the script can't run this command or subcommand".length());
        } else if (t.startsWith("ERR The user executing the script can't access at least one of the keys mentioned in the command arguments")) {
            t = "ERR ACL failure in script: No permissions to access a key" + t.substring(
                    "ERR The user executing the script can't access at least one of the keys mentioned in the command arguments".length());
        } else if ((m = DRY_CMD_70.matcher(t)).matches()) {
            t = "User " + user + " has no permissions to run the '" + m.group(1) + "' command";
        } else if ((m = DRY_KEY_70.matcher(t)).matches()) {
            t = "User " + user + " has no permissions to access the '" + m.group(1) + "' key";
        } else {
            return reply;
        }
        return Reply.text(reply.kind(), t.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The command a corpus script calls: the first quoted word after {@code call(} or {@code pcall(}. */
    private static String scriptCommand(String[] command) {
        Matcher m = Pattern.compile("call\\('([a-z]+)'").matcher(command.length > 1 ? command[1] : "");
        return m.find() ? m.group(1) : "?";
    }

    /**
     * MONITOR is a command like any other for ACL: its categories (admin, slow, dangerous) and its
     * name decide, DRYRUN answers alike, and a refusal is logged alike. Only refusals are run (an
     * allowed MONITOR would turn Redis's socket into a feed; Ordo's engine has no connection).
     */
    @Test
    void monitor_rulesByNameAndCategory_allowAndRefuseAsRedis() throws Exception {
        Map<String, List<String>> users = new LinkedHashMap<>();
        users.put("m-nodanger", List.of("+@all", "-@dangerous"));
        users.put("m-noadmin", List.of("+@all", "-@admin"));
        users.put("m-only", List.of("-@all", "+monitor"));
        users.put("m-allbut", List.of("+@all", "-monitor"));
        users.put("m-admin", List.of("+@admin"));
        users.put("m-noslow", List.of("+@all", "-@slow"));
        users.put("m-back", List.of("-@all", "+@dangerous", "-@admin", "+monitor"));
        List<String> differences = new ArrayList<>();
        try (EngineTarget ordo = new EngineTarget(); RespSocket admin = new RespSocket(redis.port())) {
            for (var u : users.entrySet()) {
                String user = u.getKey();
                List<String> setuser = new ArrayList<>(List.of("ACL", "SETUSER", user, "on", ">pw"));
                setuser.addAll(u.getValue());
                byte[][] args = bytes(setuser.toArray(String[]::new));
                assertThat(admin.call(args).toString()).isEqualTo("+OK");
                assertThat(ordo.call(args).toString()).isEqualTo("+OK");
                String[] monitor = a("MONITOR");
                Reply redisDry = as72(admin.call(bytes("ACL", "DRYRUN", user, "MONITOR")), user, monitor);
                note(differences, user + " DRYRUN MONITOR", ordo.call(bytes("ACL", "DRYRUN", user, "MONITOR")), redisDry);
                if (redisDry.kind() == Reply.Kind.STATUS) {
                    continue;
                }
                admin.call(bytes("ACL", "LOG", "RESET"));
                ordo.call(bytes("ACL", "LOG", "RESET"));
                try (RespSocket r = new RespSocket(redis.port())) {
                    assertThat(r.call(bytes("AUTH", user, "pw")).toString()).isEqualTo("+OK");
                    Session s = ordo.newSession();
                    assertThat(ordo.call(s, bytes("AUTH", user, "pw")).toString()).isEqualTo("+OK");
                    note(differences, user + " MONITOR", ordo.call(s, bytes(monitor)), as72(r.call(bytes(monitor)), user, monitor));
                    for (String[] command : List.of(a("MULTI"), a("MONITOR"), a("EXEC"))) {
                        note(differences, user + " in MULTI: " + command[0], ordo.call(s, bytes(command)),
                                as72(r.call(bytes(command)), user, command));
                    }
                }
                note(differences, user + " MONITOR (ACL LOG)", ordo.call(bytes("ACL", "LOG")), admin.call(bytes("ACL", "LOG")), true);
            }
            Reply o = ordo.call(bytes("COMMAND", "INFO", "monitor")).children().get(0);
            Reply e = admin.call(bytes("COMMAND", "INFO", "monitor")).children().get(0);
            note(differences, "COMMAND INFO monitor", o, e, false);
        }
        assertThat(differences).isEmpty();
    }

    @Test
    void aclCat_eachCategory_holdsRedissCommandsThatOrdoHas() throws Exception {
        try (EngineTarget ordo = new EngineTarget(); RespSocket r = new RespSocket(redis.port())) {
            Set<String> ordoCommands = names(ordo.call(bytes("COMMAND", "LIST")));
            Set<String> redisCommands = names(r.call(bytes("COMMAND", "LIST")));
            List<String> differences = new ArrayList<>();
            for (Reply category : r.call(bytes("ACL", "CAT")).children()) {
                String cat = category.textString();
                Set<String> expected = names(r.call(bytes("ACL", "CAT", cat)));
                expected.retainAll(ordoCommands);
                Set<String> got = names(ordo.call(bytes("ACL", "CAT", cat)));
                got.retainAll(redisCommands);
                if (!got.equals(expected)) {
                    Set<String> extra = new HashSet<>(got);
                    extra.removeAll(expected);
                    Set<String> missing = new HashSet<>(expected);
                    missing.removeAll(got);
                    differences.add("@" + cat + ": Ordo has " + extra + " more and lacks " + missing);
                }
            }
            assertThat(differences).isEmpty();
        }
    }

    private static Set<String> names(Reply list) {
        Set<String> out = new HashSet<>();
        for (Reply c : list.children()) {
            out.add(c.textString());
        }
        return out;
    }

    @Test
    void commandInfo_keySpecsAndCategories_areRedissForCommandsAclChecksBySpec() throws Exception {
        try (EngineTarget ordo = new EngineTarget(); RespSocket r = new RespSocket(redis.port())) {
            for (String name : List.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro", "bzmpop", "zmpop", "copy",
                    "zunionstore", "zrangestore", "set", "smove", "rename", "del", "exists", "mset", "sintercard")) {
                Reply o = ordo.call(bytes("COMMAND", "INFO", name)).children().get(0);
                Reply e = r.call(bytes("COMMAND", "INFO", name)).children().get(0);
                assertThat(ReplyComparison.difference(o.children().get(8), e.children().get(8), false)).as(name + " key specs").isNull();
                assertThat(ReplyComparison.difference(o.children().get(6), e.children().get(6), true)).as(name + " categories").isNull();
            }
        }
    }
}
