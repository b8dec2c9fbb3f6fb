package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.acl.Acl;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ACL users, rules, authentication and enforcement, with Redis 7.2's texts. Each case sets up
 * users with ACL SETUSER as the default user and acts as them from other clients.
 */
class AclCommandsTest extends CommandTestSupport {
    private static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";

    /** A new client authenticated as {@code user} (password {@code pw}). */
    private EmbeddedClient as(String user) {
        EmbeddedClient c = support.client();
        assertThat(c.call("AUTH", user, "pw")).isEqualTo("OK");
        return c;
    }

    private void user(String name, String... rules) {
        String[] args = new String[3 + rules.length + 2];
        args[0] = "ACL";
        args[1] = "SETUSER";
        args[2] = name;
        args[3] = "on";
        args[4] = ">pw";
        System.arraycopy(rules, 0, args, 5, rules.length);
        assertThat(client.call(args)).isEqualTo("OK");
    }

    private Map<String, Object> getUser(String name) {
        List<?> flat = (List<?>) client.call("ACL", "GETUSER", name);
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
            Object v = flat.get(i + 1);
            out.put(s(flat.get(i)), v instanceof byte[] ? s(v) : v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof byte[]
                    ? strings(l) : v);
        }
        return out;
    }

    private List<Map<String, Object>> aclLog() {
        List<Map<String, Object>> out = new java.util.ArrayList<>();
        for (Object entry : (List<?>) client.call("ACL", "LOG")) {
            List<?> flat = (List<?>) entry;
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i < flat.size(); i += 2) {
                Object v = flat.get(i + 1);
                m.put(s(flat.get(i)), v instanceof byte[] ? s(v) : v);
            }
            out.add(m);
        }
        return out;
    }

    // ---- users and rules ----

    @Test
    void whoami_newConnection_isTheDefaultUser() {
        assertThat(s(client.call("ACL", "WHOAMI"))).isEqualTo("default");
        user("alice", "+acl|whoami");
        assertThat(s(as("alice").call("ACL", "WHOAMI"))).isEqualTo("alice");
    }

    @Test
    void getUser_defaultUser_showsRedis72Description() {
        Map<String, Object> u = getUser("default");
        assertThat(u.get("flags")).isEqualTo(List.of("on", "nopass", "sanitize-payload"));
        assertThat(u.get("commands")).isEqualTo("+@all");
        assertThat(u.get("keys")).isEqualTo("~*");
        assertThat(u.get("channels")).isEqualTo("&*");
        assertThat(strings(client.call("ACL", "LIST"))).containsExactly("user default on nopass sanitize-payload ~* &* +@all");
    }

    @Test
    void setUser_rulesInOrder_areShownAsApplied() {
        client.call("ACL", "SETUSER", "u1", "on", ">p1", "~k*", "%R~r*", "%W~w*", "&ch*", "+get", "+set", "-get", "+get",
                "+@sortedset", "-zadd", "(+get ~x*)");
        Map<String, Object> u = getUser("u1");
        assertThat(u.get("flags")).isEqualTo(List.of("on", "sanitize-payload"));
        assertThat(u.get("passwords")).isEqualTo(List.of(Acl.sha256Hex("p1".getBytes())));
        assertThat(u.get("commands")).isEqualTo("-@all +set +get +@sortedset -zadd");
        assertThat(u.get("keys")).isEqualTo("~k* %R~r* %W~w*");
        assertThat(u.get("channels")).isEqualTo("&ch*");
        assertThat(strings(client.call("ACL", "LIST"))).contains("user u1 on sanitize-payload #" + Acl.sha256Hex("p1".getBytes())
                + " ~k* %R~r* %W~w* resetchannels &ch* -@all +set +get +@sortedset -zadd (~x* resetchannels -@all +get)");
        assertThat(strings(client.call("ACL", "USERS"))).containsExactly("default", "u1");
    }

    @Test
    void setUser_samePatternTwice_mergesPermissions() {
        client.call("ACL", "SETUSER", "u", "%R~a", "%W~a", "%RW~c");
        assertThat(getUser("u").get("keys")).isEqualTo("~a ~c");
    }

    @Test
    void setUser_malformedRules_areRefusedWithRedisTextsAndChangeNothing() {
        client.call("ACL", "SETUSER", "u", "on", "~k");
        Map<String, Object> before = getUser("u");
        fails("ERR Error in ACL SETUSER modifier 'foo': Syntax error", "ACL", "SETUSER", "u", "off", "foo");
        fails("ERR Error in ACL SETUSER modifier '%R': Syntax error", "ACL", "SETUSER", "u", "%R");
        fails("ERR Error in ACL SETUSER modifier '%RW': Syntax error", "ACL", "SETUSER", "u", "%RW");
        fails("ERR Error in ACL SETUSER modifier '%': Syntax error", "ACL", "SETUSER", "u", "%");
        fails("ERR Error in ACL SETUSER modifier '%~a': Syntax error", "ACL", "SETUSER", "u", "%~a");
        fails("ERR Error in ACL SETUSER modifier '%X~a': Syntax error", "ACL", "SETUSER", "u", "%X~a");
        fails("ERR Error in ACL SETUSER modifier '%RR~a': Syntax error", "ACL", "SETUSER", "u", "%RR~a");
        fails("ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL", "ACL", "SETUSER", "u", "+nosuch");
        fails("ERR Error in ACL SETUSER modifier '-@nosuch': Unknown command or category name in ACL", "ACL", "SETUSER", "u", "-@nosuch");
        fails("ERR Error in ACL SETUSER modifier '+config|nosuch': Unknown command or category name in ACL", "ACL", "SETUSER", "u",
                "+config|nosuch");
        fails("ERR Error in ACL SETUSER modifier '+config|get|x': Allowing first-arg of a subcommand is not supported", "ACL",
                "SETUSER", "u", "+config|get|x");
        fails("ERR Error in ACL SETUSER modifier '+get|': Syntax error", "ACL", "SETUSER", "u", "+get|");
        fails("ERR Error in ACL SETUSER modifier '#abc': The password hash must be exactly 64 characters and contain only "
                + "lowercase hexadecimal characters", "ACL", "SETUSER", "u", "#abc");
        fails("ERR Error in ACL SETUSER modifier '<nope': The password you are trying to remove from the user does not exist",
                "ACL", "SETUSER", "u", "<nope");
        fails("ERR Error in ACL SETUSER modifier '~a': Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid "
                + "and does not have any effect. Try 'resetkeys' to start with an empty list of patterns", "ACL", "SETUSER", "u",
                "allkeys", "~a");
        fails("ERR Error in ACL SETUSER modifier '&a': Adding a pattern after the * pattern (or the 'allchannels' flag) is not "
                + "valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels", "ACL",
                "SETUSER", "u", "&*", "&a");
        fails("ERR Unmatched parenthesis in acl selector starting at '(+get'.", "ACL", "SETUSER", "u", "(+get", "~x");
        fails("ERR Error in ACL SETUSER modifier '(~x on)': Syntax error", "ACL", "SETUSER", "u", "(~x", "on)");
        fails("ERR Error in ACL SETUSER modifier '(%R)': Syntax error", "ACL", "SETUSER", "u", "(%R)");
        fails("ERR Usernames can't contain spaces or null characters", "ACL", "SETUSER", "a b");
        assertThat(getUser("u")).isEqualTo(before);
        assertThat(client.call("PING")).isEqualTo("PONG");
    }

    @Test
    void setUser_passwordRules_followNopassAndResetpass() {
        client.call("ACL", "SETUSER", "u", "on", "nopass");
        assertThat(support.client().call("AUTH", "u", "anything")).isEqualTo("OK");
        client.call("ACL", "SETUSER", "u", ">a", ">b", "<a");
        assertThat(getUser("u").get("flags")).isEqualTo(List.of("on", "sanitize-payload"));
        assertThatThrownBy(() -> support.client().call("AUTH", "u", "a")).hasMessage(WRONGPASS);
        assertThat(support.client().call("AUTH", "u", "b")).isEqualTo("OK");
        client.call("ACL", "SETUSER", "u", "resetpass");
        assertThatThrownBy(() -> support.client().call("AUTH", "u", "b")).hasMessage(WRONGPASS);
        client.call("ACL", "SETUSER", "u", "#" + Acl.sha256Hex("c".getBytes()), "off");
        assertThatThrownBy(() -> support.client().call("AUTH", "u", "c")).hasMessage(WRONGPASS);
        client.call("ACL", "SETUSER", "u", "on");
        assertThat(support.client().call("AUTH", "u", "c")).isEqualTo("OK");
    }

    @Test
    void delUser_defaultIsRefused_othersCountedAndTheirConnectionsClosed() {
        user("a", "+@all");
        EmbeddedClient a = as("a");
        fails("ERR The 'default' user cannot be removed", "ACL", "DELUSER", "a", "default");
        assertThat(client.call("ACL", "DELUSER", "a", "nosuch")).isEqualTo(1L);
        assertThat(client.call("ACL", "GETUSER", "a")).isNull();
        assertThat(TestClients.session(a).closing() || a.isClosed()).isTrue();
    }

    @Test
    void cat_listsCategoriesAndTheirCommands() {
        assertThat(strings(client.call("ACL", "CAT"))).containsExactlyElementsOf(Acl.CATEGORIES);
        assertThat(strings(client.call("ACL", "CAT", "sortedset"))).contains("zadd", "bzmpop", "zrangestore").doesNotContain("get");
        assertThat(strings(client.call("ACL", "CAT", "dangerous"))).contains("flushall", "acl|setuser", "config|set", "keys");
        fails("ERR Unknown category 'nosuch'", "ACL", "CAT", "nosuch");
    }

    @Test
    void genPass_givesHexOfTheBitsAskedFor() {
        assertThat(s(client.call("ACL", "GENPASS"))).matches("[0-9a-f]{64}");
        assertThat(s(client.call("ACL", "GENPASS", "5"))).matches("[0-9a-f]{2}");
        fails("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096",
                "ACL", "GENPASS", "0");
        fails("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096",
                "ACL", "GENPASS", "4097");
        fails("ERR value is not an integer or out of range", "ACL", "GENPASS", "x");
    }

    // ---- authentication ----

    @Test
    void requirepass_isTheDefaultUsersPassword_andConfigSetChangesIt() {
        Acl acl = HostedEngine.of(support.engine).acl();
        assertThat(acl.defaultUserHasNoPassword()).isTrue();
        client.call("CONFIG", "SET", "requirepass", "s3cret");
        assertThat(acl.defaultUserHasNoPassword()).isFalse();
        assertThat(getUser("default").get("passwords")).isEqualTo(List.of(Acl.sha256Hex("s3cret".getBytes())));
        EmbeddedClient c = support.client();
        assertThatThrownBy(() -> c.call("PING")).hasMessage("NOAUTH Authentication required.");
        assertThat(c.call("AUTH", "s3cret")).isEqualTo("OK");
        client.call("CONFIG", "SET", "requirepass", "");
        assertThat(acl.defaultUserHasNoPassword()).isTrue();
        assertThat(support.client().call("PING")).isEqualTo("PONG");
    }

    @Test
    void defaultUserGivenAPasswordByAcl_unauthenticatedClientsMustAuth() {
        EmbeddedClient waiting = support.client();
        client.call("ACL", "SETUSER", "default", "resetpass", ">pw");
        EmbeddedClient fresh = support.client();
        assertThatThrownBy(() -> fresh.call("PING")).hasMessage("NOAUTH Authentication required.");
        assertThat(waiting.call("PING")).isEqualTo("PONG"); // authenticated when it connected, as in Redis
        client.call("ACL", "SETUSER", "default", "nopass");
        assertThat(fresh.call("PING")).isEqualTo("PONG");
    }

    @Test
    void failedAuth_isLoggedAsRedisLogsIt() {
        client.call("ACL", "SETUSER", "antirez", "on", ">foo");
        EmbeddedClient c = support.client();
        assertThatThrownBy(() -> c.call("AUTH", "antirez", "wrong-password")).hasMessage(WRONGPASS);
        assertThatThrownBy(() -> c.call("HELLO", "3", "AUTH", "nosuch", "x")).hasMessage(WRONGPASS);
        List<Map<String, Object>> log = aclLog();
        assertThat(log).hasSize(2);
        assertThat(log.get(1)).containsEntry("reason", "auth").containsEntry("context", "toplevel")
                .containsEntry("object", "AUTH").containsEntry("username", "antirez").containsEntry("count", 1L);
        assertThat(log.get(0)).containsEntry("object", "HELLO").containsEntry("username", "nosuch");
        assertThat((String) log.get(0).get("client-info")).contains("cmd=hello").contains("user=default");
    }

    @Test
    void helloAuth_switchesUserAndProtocol() {
        user("bob", "+@all");
        EmbeddedClient c = support.client();
        c.call("HELLO", "3", "AUTH", "bob", "pw");
        assertThat(s(c.call("ACL", "WHOAMI"))).isEqualTo("bob");
        assertThat(TestClients.session(c).protocol()).isEqualTo(3);
        assertThat(c.call("RESET")).isEqualTo("RESET");
        assertThat(s(c.call("ACL", "WHOAMI"))).isEqualTo("default");
    }

    // ---- enforcement ----

    @Test
    void commandNotAllowed_getsNopermNamingUserAndCommand_andIsLogged() {
        user("u", "~*", "+get");
        EmbeddedClient u = as("u");
        assertThatThrownBy(() -> u.call("SET", "k", "v")).hasMessage("NOPERM User u has no permissions to run the 'set' command");
        assertThatThrownBy(() -> u.call("CONFIG", "GET", "x"))
                .hasMessage("NOPERM User u has no permissions to run the 'config|get' command");
        Map<String, Object> entry = aclLog().get(0);
        assertThat(entry).containsEntry("reason", "command").containsEntry("context", "toplevel")
                .containsEntry("object", "config|get").containsEntry("username", "u");
    }

    @Test
    void monitor_refusedByItsCategoriesOrName_loggedLikeAnyCommand() {
        user("nodanger", "+@all", "-@dangerous");
        user("noadmin", "+@all", "-@admin");
        user("allbut", "+@all", "-monitor");
        for (String name : List.of("nodanger", "noadmin", "allbut")) {
            EmbeddedClient u = as(name);
            assertThatThrownBy(() -> u.call("MONITOR")).hasMessage("NOPERM User " + name + " has no permissions to run the 'monitor' command");
            assertThat(s(client.call("ACL", "DRYRUN", name, "MONITOR")))
                    .isEqualTo("User " + name + " has no permissions to run the 'monitor' command");
        }
        assertThat(aclLog().get(0)).containsEntry("reason", "command").containsEntry("context", "toplevel")
                .containsEntry("object", "monitor").containsEntry("username", "allbut");
        assertThat(strings(client.call("ACL", "CAT", "admin"))).contains("monitor");
        assertThat(strings(client.call("ACL", "CAT", "dangerous"))).contains("monitor");
    }

    @Test
    void monitor_allowedByNameOrCategory_reachesTheCommand_whichEmbeddedClientsCannotRun() {
        user("only", "-@all", "+monitor");
        user("admins", "+@admin");
        for (String name : List.of("only", "admins")) {
            assertThat(client.call("ACL", "DRYRUN", name, "MONITOR")).isEqualTo("OK");
            EmbeddedClient u = as(name);
            assertThatThrownBy(() -> u.call("MONITOR")).hasMessage("ERR MONITOR needs a network connection; an embedded client has none");
        }
        assertThat(aclLog()).isEmpty();
    }

    @Test
    void keyNotAllowed_getsNopermWithoutTheKey_andTheLogNamesIt() {
        user("u", "~k*", "+@all");
        EmbeddedClient u = as("u");
        assertThat(u.call("SET", "k1", "v")).isEqualTo("OK");
        assertThatThrownBy(() -> u.call("GET", "x1")).hasMessage("NOPERM No permissions to access a key");
        assertThatThrownBy(() -> u.call("MSET", "k2", "v", "x2", "v")).hasMessage("NOPERM No permissions to access a key");
        assertThat(aclLog().get(0)).containsEntry("reason", "key").containsEntry("object", "x2");
    }

    @Test
    void readAndWritePatterns_followEachKeySpecsAccess() {
        user("u", "%R~r*", "%W~w*", "+@all");
        EmbeddedClient u = as("u");
        String denied = "NOPERM No permissions to access a key";
        assertThat(u.call("GET", "r1")).isNull();
        assertThatThrownBy(() -> u.call("GET", "w1")).hasMessage(denied);
        assertThat(u.call("SET", "w1", "v")).isEqualTo("OK");                     // SET without GET only writes
        assertThatThrownBy(() -> u.call("SET", "w1", "v", "GET")).hasMessage(denied); // with GET it reads too
        assertThatThrownBy(() -> u.call("SET", "r1", "v")).hasMessage(denied);
        assertThat(u.call("EXISTS", "w1", "r1")).isEqualTo(1L);                    // neither reads nor writes values
        assertThat(u.call("COPY", "r1", "w2")).isEqualTo(0L);                      // source read, destination written
        assertThatThrownBy(() -> u.call("COPY", "w1", "w2")).hasMessage(denied);
        assertThat(u.call("ZUNIONSTORE", "w3", "2", "r1", "r2")).isEqualTo(0L);
        assertThatThrownBy(() -> u.call("ZUNIONSTORE", "r3", "1", "r1")).hasMessage(denied);
        assertThatThrownBy(() -> u.call("INCR", "w4")).hasMessage(denied);          // INCR reads and writes
        assertThat(u.call("DEL", "w1")).isEqualTo(1L);
    }

    @Test
    void selectors_allowWhenAnyAllows_andReportTheMostSeriousRefusal() {
        user("u", "~a*", "+get", "(~b* +set)");
        EmbeddedClient u = as("u");
        assertThat(u.call("GET", "a1")).isNull();
        assertThat(u.call("SET", "b1", "v")).isEqualTo("OK");
        assertThatThrownBy(() -> u.call("GET", "b1")).hasMessage("NOPERM No permissions to access a key");
        assertThatThrownBy(() -> u.call("SET", "a1", "v")).hasMessage("NOPERM No permissions to access a key");
        assertThatThrownBy(() -> u.call("DEL", "a1")).hasMessage("NOPERM User u has no permissions to run the 'del' command");
    }

    @Test
    void firstArgRule_allowsOnlyThatFirstArgument() {
        user("u", "~*", "+select|0");
        EmbeddedClient u = as("u");
        assertThat(u.call("SELECT", "0")).isEqualTo("OK");
        assertThatThrownBy(() -> u.call("SELECT", "1")).hasMessage("NOPERM User u has no permissions to run the 'select' command");
        assertThat(getUser("u").get("commands")).isEqualTo("-@all +select|0");
    }

    @Test
    void subcommandRules_allowOneSubcommand() {
        user("u", "+config|get");
        EmbeddedClient u = as("u");
        assertThat(u.call("CONFIG", "GET", "hz")).isNotNull();
        assertThatThrownBy(() -> u.call("CONFIG", "SET", "hz", "10"))
                .hasMessage("NOPERM User u has no permissions to run the 'config|set' command");
    }

    @Test
    void noAuthCommands_areAllowedToEveryone() {
        user("u");
        EmbeddedClient u = as("u");
        assertThat(u.call("AUTH", "u", "pw")).isEqualTo("OK");
        assertThatThrownBy(() -> u.call("PING")).hasMessage("NOPERM User u has no permissions to run the 'ping' command");
    }

    @Test
    void scriptCommands_areCheckedAgainstTheCaller_withRedis72Texts() {
        user("u", "~k*", "+eval", "+get");
        EmbeddedClient u = as("u");
        assertThatThrownBy(() -> u.call("EVAL", "return redis.call('set','k1','v')", "0"))
                .hasMessageStartingWith("ERR ACL failure in script: User u has no permissions to run the 'set' command script: ");
        assertThatThrownBy(() -> u.call("EVAL", "return redis.call('get','x')", "0"))
                .hasMessageStartingWith("ERR ACL failure in script: No permissions to access a key script: ");
        Object pcall = u.call("EVAL", "local r = redis.pcall('get','x') return r['err']", "0");
        assertThat(s(pcall)).isEqualTo("ERR ACL failure in script: No permissions to access a key");
        assertThat(u.call("EVAL", "return redis.acl_check_cmd('get','k1')", "0")).isEqualTo(1L);
        assertThat(u.call("EVAL", "return redis.acl_check_cmd('set','k1','v')", "0")).isNull();
        assertThatThrownBy(() -> u.call("EVAL", "return 1", "1", "x")).hasMessage("NOPERM No permissions to access a key");
        Map<String, Object> entry = aclLog().get(1);
        assertThat(entry).containsEntry("reason", "key").containsEntry("context", "lua").containsEntry("object", "x")
                .containsEntry("username", "u");
        assertThat((String) entry.get("client-info")).contains("cmd=eval");
    }

    @Test
    void multi_refusedCommandAbortsExec_andRulesChangedBeforeExecRefuseAtExec() {
        user("u", "~*", "+multi", "+exec", "+get", "+set");
        EmbeddedClient u = as("u");
        u.call("MULTI");
        assertThatThrownBy(() -> u.call("DEL", "k")).hasMessage("NOPERM User u has no permissions to run the 'del' command");
        assertThatThrownBy(() -> u.call("EXEC")).hasMessage("EXECABORT Transaction discarded because of previous errors.");
        assertThat(aclLog().get(0)).containsEntry("context", "multi");
        u.call("MULTI");
        u.call("SET", "k", "v");
        u.call("GET", "k");
        client.call("ACL", "SETUSER", "u", "-set");
        List<?> results = (List<?>) u.call("EXEC");
        assertThat(results.get(0)).isInstanceOf(ErrorReply.class);
        assertThat(((ErrorReply) results.get(0)).getMessage()).isEqualTo("NOPERM ACL rules changed between the moment the "
                + "transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: "
                + "no permission to execute the command or subcommand");
        assertThat(results.get(1)).isNull();
    }

    @Test
    void dryRun_answersWithoutRunningOrLogging() {
        user("u", "~k*", "+get");
        assertThat(client.call("ACL", "DRYRUN", "u", "GET", "k1")).isEqualTo("OK");
        assertThat(s(client.call("ACL", "DRYRUN", "u", "GET", "x"))).isEqualTo("User u has no permissions to access the 'x' key");
        assertThat(s(client.call("ACL", "DRYRUN", "u", "SET", "k", "v"))).isEqualTo("User u has no permissions to run the 'set' command");
        fails("ERR User 'nosuch' not found", "ACL", "DRYRUN", "nosuch", "GET", "x");
        fails("ERR Command 'nosuchcmd' not found", "ACL", "DRYRUN", "u", "nosuchcmd");
        fails("ERR wrong number of arguments for 'get' command", "ACL", "DRYRUN", "u", "GET");
        assertThat(aclLog()).isEmpty();
    }

    // ---- ACL LOG ----

    @Test
    void log_groupsEqualRefusalsWithinAMinute_andResets() {
        user("u", "+get");
        EmbeddedClient u = as("u");
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> u.call("SET", "k", "v")).isInstanceOf(ErrorReply.class);
        }
        assertThat(aclLog()).hasSize(1);
        assertThat(aclLog().get(0)).containsEntry("count", 3L);
        support.advance(60_001);
        assertThatThrownBy(() -> u.call("SET", "k", "v")).isInstanceOf(ErrorReply.class);
        assertThat(aclLog()).hasSize(2);
        assertThat((List<?>) client.call("ACL", "LOG", "1")).hasSize(1);
        assertThat(client.call("ACL", "LOG", "RESET")).isEqualTo("OK");
        assertThat(aclLog()).isEmpty();
    }

    @Test
    void log_keepsAtMostAcllogMaxLen() {
        client.call("CONFIG", "SET", "acllog-max-len", "2");
        user("u", "+get");
        EmbeddedClient u = as("u");
        for (List<String> cmd : List.of(List.of("SET", "k", "v"), List.of("DEL", "k"), List.of("INCR", "k"))) {
            assertThatThrownBy(() -> u.call(cmd.toArray(String[]::new))).isInstanceOf(ErrorReply.class);
        }
        assertThat(aclLog()).extracting(e -> e.get("object")).containsExactly("incr", "del");
    }

    @Test
    void infoStats_countsRefusalsByReason_untilResetstat() {
        client.call("CONFIG", "SET", "acllog-max-len", "0");
        user("u", "~k*", "+get");
        EmbeddedClient u = as("u");
        assertThatThrownBy(() -> u.call("SET", "k", "v")).isInstanceOf(ErrorReply.class);
        assertThatThrownBy(() -> u.call("GET", "x")).isInstanceOf(ErrorReply.class);
        assertThatThrownBy(() -> u.call("GET", "y")).isInstanceOf(ErrorReply.class);
        assertThatThrownBy(() -> support.client().call("AUTH", "u", "bad")).isInstanceOf(ErrorReply.class);
        String stats = s(client.call("INFO", "stats"));
        assertThat(stats).contains("acl_access_denied_auth:1\r\n", "acl_access_denied_cmd:1\r\n", "acl_access_denied_key:2\r\n",
                "acl_access_denied_channel:0\r\n");
        assertThat(aclLog()).isEmpty();
        client.call("CONFIG", "RESETSTAT");
        assertThat(s(client.call("INFO", "stats"))).contains("acl_access_denied_key:0\r\n");
    }

    // ---- files and config ----

    @Test
    void saveThenLoad_roundTripsUsers_andLoadRefusesABadFileWhole(@TempDir Path dir) throws Exception {
        Config config = new Config();
        config.set("dir", dir.toString(), true);
        config.set("aclfile", "users.acl", true);
        Files.writeString(dir.resolve("users.acl"), "user default on nopass ~* &* +@all\nuser alice on >pw ~a* +get\n");
        try (EngineTestSupport files = new EngineTestSupport(config)) {
            roundTripThroughTheFile(files, dir);
        }
    }

    private void roundTripThroughTheFile(EngineTestSupport files, Path dir) throws Exception {
        EmbeddedClient alice = files.client();
        assertThat(alice.call("AUTH", "alice", "pw")).isEqualTo("OK");
        EmbeddedClient root = files.client();
        root.call("ACL", "SETUSER", "bob", "on", ">x", "%R~b*", "(+set ~s*)");
        assertThat(root.call("ACL", "SAVE")).isEqualTo("OK");
        List<String> saved = Files.readAllLines(dir.resolve("users.acl"));
        assertThat(saved).containsExactlyElementsOf(strings(root.call("ACL", "LIST")));
        root.call("ACL", "DELUSER", "bob");
        assertThat(root.call("ACL", "LOAD")).isEqualTo("OK");
        assertThat(strings(root.call("ACL", "LIST"))).containsExactlyElementsOf(saved);
        Files.writeString(dir.resolve("users.acl"), "user default on nopass ~* &* +@all\nuser bob on foo\n\nuser carol +nosuch\n");
        assertThatThrownBy(() -> root.call("ACL", "LOAD")).hasMessage("ERR " + dir.resolve("users.acl") + ":2: Syntax error. "
                + dir.resolve("users.acl") + ":4: Error in applying operation '+nosuch': Unknown command or category name in ACL. "
                + "WARNING: ACL errors detected, no change to the previously active ACL rules was performed");
        assertThat(strings(root.call("ACL", "LIST"))).containsExactlyElementsOf(saved);
        Files.writeString(dir.resolve("users.acl"), "user default on nopass ~* &* +@all\n");
        assertThat(root.call("ACL", "LOAD")).isEqualTo("OK");
        assertThat(alice.isClosed()).isTrue();                    // her user is gone: her connection closes
        assertThat(root.call("PING")).isEqualTo("PONG");
    }

    @Test
    void noAclFile_loadAndSaveAreRefused() {
        String text = "ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL "
                + "SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to "
                + "store users in the Redis configuration.";
        fails(text, "ACL", "LOAD");
        fails(text, "ACL", "SAVE");
    }

    @Test
    void configUserLines_defineUsers_andPubsubDefaultGivesNewUsersAllChannels() {
        Config config = new Config();
        config.addUserLine(List.of("alice", "on", ">pw", "~a*", "+get"));
        config.set("acl-pubsub-default", "allchannels", true);
        try (EngineTestSupport lines = new EngineTestSupport(config)) {
            EmbeddedClient c = lines.client();
            assertThat(strings(c.call("ACL", "LIST"))).contains("user alice on sanitize-payload #" + Acl.sha256Hex("pw".getBytes())
                    + " ~a* &* -@all +get");
            c.call("ACL", "SETUSER", "bob");
            assertThat(HostedEngine.of(lines.engine).acl().user("bob").selectorDescriptions().get(0)[2]).isEqualTo("&*");
        }
    }

    @Test
    void configUserLinesWithAnAclFile_areRefusedAtStart() {
        Config config = new Config();
        config.addUserLine(List.of("alice", "on"));
        config.set("aclfile", "x.acl", true);
        assertThatThrownBy(() -> new EngineTestSupport(config)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("please define either an ACL file or declare users directly in your redis.conf");
    }

    @Test
    void clientKillUser_closesThatUsersConnections() {
        user("u", "+get");
        EmbeddedClient u = as("u");
        EmbeddedClient other = support.client();
        assertThat(client.call("CLIENT", "KILL", "USER", "u")).isEqualTo(1L);
        assertThat(u.isClosed()).isTrue();
        assertThat(other.isClosed()).isFalse();
        fails("ERR No such user 'nosuch'", "CLIENT", "KILL", "USER", "nosuch");
    }

    @Test
    void clientList_showsTheUser() {
        user("u", "+client|info");
        assertThat(s(as("u").call("CLIENT", "INFO"))).contains(" user=u ");
    }

    @Test
    void busyScript_aUserWithoutTheRightCannotKillItOrShutDown() throws Exception {
        user("u", "+get");
        EmbeddedClient u = as("u");
        EmbeddedClient admin = support.client();
        admin.call("CONFIG", "SET", "busy-reply-threshold", "50");
        java.util.concurrent.CompletableFuture<Object> looping = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return client.call("EVAL", "while true do end", "0");
            } catch (ErrorReply e) {
                return e;
            }
        });
        awaitBusy(admin);
        assertThatThrownBy(() -> u.call("SCRIPT", "KILL")).hasMessage("NOPERM User u has no permissions to run the 'script|kill' command");
        assertThatThrownBy(() -> u.call("SHUTDOWN", "NOSAVE")).hasMessage("NOPERM User u has no permissions to run the 'shutdown' command");
        assertThat(admin.call("SCRIPT", "KILL")).isEqualTo("OK");
        assertThat(looping.get(10, java.util.concurrent.TimeUnit.SECONDS)).isInstanceOf(ErrorReply.class);
        assertThat(admin.call("PING")).isEqualTo("PONG");
    }

    /** Waits (10 s at most) until {@code c} gets BUSY. */
    private static void awaitBusy(EmbeddedClient c) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            try {
                c.call("GET", "probe");
            } catch (ErrorReply e) {
                assertThat(e.getMessage()).startsWith("BUSY");
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("never saw BUSY");
    }

    @Test
    void blockedCommand_isCheckedAgainWhenItWakes_afterItsUserLostTheKey() throws Exception {
        user("waiter", "~k*", "+@all");
        EmbeddedClient waiter = as("waiter");
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Object> popped = thread.submit(() -> {
                try {
                    return waiter.call("BZPOPMIN", "k1", "0");
                } catch (ErrorReply e) {
                    return e.getMessage();
                }
            });
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (support.engine.blockedClients() != 1) {
                assertThat(System.nanoTime()).as("the client blocks").isLessThan(deadline);
                Thread.sleep(2);
            }
            assertThat(client.call("ACL", "SETUSER", "waiter", "resetkeys")).isEqualTo("OK");
            client.call("ZADD", "k1", "1", "a");
            assertThat(popped.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("NOPERM No permissions to access a key");
            assertThat(client.call("ZCARD", "k1")).isEqualTo(1L);
            assertThat(aclLog().get(0)).containsEntry("reason", "key").containsEntry("object", "k1").containsEntry("username", "waiter");
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void setuser_rulesNeverReachTheSlowLog() {
        client.call("CONFIG", "SET", "slowlog-log-slower-than", "0");
        client.call("ACL", "SETUSER", "alice", "on", ">s3cret", "~*");
        List<?> entry = (List<?>) ((List<?>) client.call("SLOWLOG", "GET", "1")).get(0);
        assertThat(strings((List<?>) entry.get(3))).containsExactly("ACL", "SETUSER", "(redacted)", "(redacted)", "(redacted)", "(redacted)");
    }

    @Test
    void whitespaceInNamesAndPatterns_isRefused_soAclSaveCanWriteEveryUserBack() {
        assertThatThrownBy(() -> client.call("ACL", "SETUSER", "a\tb")).isInstanceOf(ErrorReply.class);
        assertThatThrownBy(() -> client.call("ACL", "SETUSER", "u", "~a b")).hasMessageContaining("Syntax error");
        assertThatThrownBy(() -> client.call("ACL", "SETUSER", "u", "%R~a\nb")).hasMessageContaining("Syntax error");
        assertThatThrownBy(() -> client.call("ACL", "SETUSER", "u", "&a\tb")).hasMessageContaining("Syntax error");
        assertThat(strings(client.call("ACL", "USERS"))).containsExactly("default");
    }

    @Test
    void firstArgumentRuleWithTwoBars_isAnUnknownCommandAsInRedis() {
        assertThatThrownBy(() -> client.call("ACL", "SETUSER", "u", "+select|0|1"))
                .hasMessageContaining("Unknown command or category name in ACL");
    }

    @Test
    void aPasswordThatIsNotUtf8_isKeptByteForByte() {
        byte[] pw = {(byte) 0x80, (byte) 0x81};
        byte[] replaced = "\uFFFD\uFFFD".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(client.call("ACL".getBytes(), "SETUSER".getBytes(), "b".getBytes(), "on".getBytes(), concat('>', pw),
                "+@all".getBytes())).isEqualTo("OK");
        assertThat(support.client().call("AUTH".getBytes(), "b".getBytes(), pw)).isEqualTo("OK");
        assertThatThrownBy(() -> support.client().call("AUTH".getBytes(), "b".getBytes(), replaced)).hasMessage(WRONGPASS);
        assertThat(client.call("ACL".getBytes(), "SETUSER".getBytes(), "b".getBytes(), concat('<', pw))).isEqualTo("OK");
        assertThatThrownBy(() -> support.client().call("AUTH".getBytes(), "b".getBytes(), pw)).hasMessage(WRONGPASS);
    }

    @Test
    void aPatternThatIsNotUtf8_isRefused_ratherThanAllowingOtherKeys() {
        assertThatThrownBy(() -> client.call("ACL".getBytes(), "SETUSER".getBytes(), "p".getBytes(), concat('~', new byte[] {(byte) 0x80})))
                .hasMessageContaining("Syntax error");
        assertThat(strings(client.call("ACL", "USERS"))).containsExactly("default");
    }

    private static byte[] concat(char first, byte[] rest) {
        byte[] out = new byte[rest.length + 1];
        out[0] = (byte) first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }
}
