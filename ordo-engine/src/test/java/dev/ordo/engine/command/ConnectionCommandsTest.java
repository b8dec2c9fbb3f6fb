package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.EngineTestSupport;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.error.ErrorReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * QUIT, RESET, HELLO, AUTH and CLIENT, with replies and error texts checked against Redis 7.2 (the
 * RESP texts are what redis-server sends, with the version and ids of this engine).
 */
class ConnectionCommandsTest {
    private static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";
    private static final String NOAUTH = "NOAUTH Authentication required.";

    private EngineTestSupport support = new EngineTestSupport();
    private final EmbeddedClient client = support.client();

    @AfterEach
    void close() {
        support.close();
    }

    private String resp(EmbeddedClient c, String... args) {
        return RespText.call(support.engine, c, args);
    }

    private static String text(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : (String) reply;
    }

    private EmbeddedClient clientWithPassword(String password) {
        support.close();
        Config config = new Config();
        config.set("requirepass", password, true);
        support = new EngineTestSupport(config);
        return support.client();
    }

    private static String helloMap(String header, int proto, long id) {
        return header + "$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$5\r\n7.2.4\r\n$5\r\nproto\r\n:" + proto
                + "\r\n$2\r\nid\r\n:" + id + "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n"
                + "$7\r\nmodules\r\n*0\r\n";
    }

    /** Redis 7.2's CLIENT SETINFO: LIB-NAME and LIB-VER in any case, shown by CLIENT LIST, kept across RESET. */
    @Test
    void clientSetInfo_namesTheLibraryForClientList() {
        assertThat(client.call("CLIENT", "SETINFO", "lib-name", "lettuce")).isEqualTo("OK");
        assertThat(client.call("CLIENT", "SETINFO", "LIB-VER", "6.5.1")).isEqualTo("OK");
        assertThat(resp(client, "CLIENT", "SETINFO", "lib-ver", "6 5")).isEqualTo(
                "-ERR lib-ver cannot contain spaces, newlines or special characters.\r\n");
        assertThat(resp(client, "CLIENT", "SETINFO", "lib-color", "red")).isEqualTo("-ERR Unrecognized option 'lib-color'\r\n");
        assertThat(resp(client, "CLIENT", "SETINFO", "lib-name")).isEqualTo(
                "-ERR wrong number of arguments for 'client|setinfo' command\r\n");
        client.call("RESET");
        assertThat(text(client.call("CLIENT", "INFO"))).contains(" lib-name=lettuce lib-ver=6.5.1");
        client.call("CLIENT", "SETINFO", "lib-name", "");
        assertThat(text(client.call("CLIENT", "INFO"))).contains(" lib-name= lib-ver=6.5.1");
    }

    @Test
    void quit_anyClient_repliesOkAndMarksTheSessionClosing() {
        assertThat(client.call("QUIT")).isEqualTo("OK");
        assertThat(TestClients.session(client).closing()).isTrue();
    }

    @Test
    void hello_withoutArguments_describesTheServerInTheCurrentProtocol() {
        long id = TestClients.session(client).id();
        assertThat(resp(client, "HELLO")).isEqualTo(helloMap("*14\r\n", 2, id));
        assertThat(TestClients.session(client).protocol()).isEqualTo(2);
    }

    @Test
    void hello_version3_answersInResp3AndLaterRepliesUseResp3Shapes() {
        long id = TestClients.session(client).id();
        assertThat(resp(client, "CONFIG", "GET", "hz")).isEqualTo("*2\r\n$2\r\nhz\r\n$2\r\n10\r\n");
        assertThat(resp(client, "CLIENT", "GETNAME")).isEqualTo("$-1\r\n");

        assertThat(resp(client, "HELLO", "3")).isEqualTo(helloMap("%7\r\n", 3, id));

        assertThat(TestClients.session(client).protocol()).isEqualTo(3);
        assertThat(resp(client, "CONFIG", "GET", "hz")).isEqualTo("%1\r\n$2\r\nhz\r\n$2\r\n10\r\n");
        assertThat(resp(client, "CLIENT", "GETNAME")).isEqualTo("_\r\n");
        assertThat(resp(client, "COMMAND", "DOCS", "nosuch")).isEqualTo("%0\r\n");
        assertThat(resp(client, "INFO", "cluster")).isEqualTo("=34\r\ntxt:# Cluster\r\ncluster_enabled:0\r\n\r\n");
        assertThat(client.call("INFO", "cluster")).isEqualTo("# Cluster\r\ncluster_enabled:0\r\n");
    }

    @Test
    void hello_version2FromResp3_answersInResp2() {
        client.call("HELLO", "3");
        assertThat(resp(client, "HELLO", "2")).isEqualTo(helloMap("*14\r\n", 2, TestClients.session(client).id()));
        assertThat(client.call("INFO", "cluster")).isInstanceOf(byte[].class);
    }

    @Test
    void hello_unsupportedOrMalformedVersion_isRejected() {
        assertThatThrownBy(() -> client.call("HELLO", "4")).hasMessage("NOPROTO unsupported protocol version");
        assertThatThrownBy(() -> client.call("HELLO", "1")).hasMessage("NOPROTO unsupported protocol version");
        assertThatThrownBy(() -> client.call("HELLO", "x"))
                .hasMessage("ERR Protocol version is not an integer or out of range");
        assertThatThrownBy(() -> client.call("HELLO", "3.0"))
                .hasMessage("ERR Protocol version is not an integer or out of range");
        assertThat(TestClients.session(client).protocol()).isEqualTo(2);
    }

    @Test
    void hello_badOptions_nameTheOptionAsTypedAndChangeNothing() {
        assertThatThrownBy(() -> client.call("HELLO", "3", "foo")).hasMessage("ERR Syntax error in HELLO option 'foo'");
        assertThatThrownBy(() -> client.call("HELLO", "3", "auth", "default"))
                .hasMessage("ERR Syntax error in HELLO option 'auth'");
        assertThatThrownBy(() -> client.call("HELLO", "3", "SETNAME"))
                .hasMessage("ERR Syntax error in HELLO option 'SETNAME'");
        assertThatThrownBy(() -> client.call("HELLO", "3", "SETNAME", "a b", "foo"))
                .hasMessage("ERR Client names cannot contain spaces, newlines or special characters.");
        assertThatThrownBy(() -> client.call("HELLO", "3", "SETNAME", "ok", "foo"))
                .hasMessage("ERR Syntax error in HELLO option 'foo'");
        assertThat(TestClients.session(client).protocol()).isEqualTo(2);
        assertThat(TestClients.session(client).name()).isEmpty();
    }

    @Test
    void hello_setnameAndAuthWithoutPassword_nameTheClient() {
        client.call("HELLO", "3", "AUTH", "default", "anything", "SETNAME", "app");
        assertThat(text(client.call("CLIENT", "GETNAME"))).isEqualTo("app");
        assertThatThrownBy(() -> client.call("HELLO", "2", "AUTH", "other", "x")).hasMessage(WRONGPASS);
        assertThat(TestClients.session(client).protocol()).isEqualTo(3);
    }

    @Test
    void auth_withoutConfiguredPassword_followsTheDefaultUsersNopass() {
        assertThatThrownBy(() -> client.call("AUTH", "x")).hasMessage("ERR AUTH <password> called without any password"
                + " configured for the default user. Are you sure your configuration is correct?");
        assertThat(client.call("AUTH", "default", "anything")).isEqualTo("OK");
        assertThatThrownBy(() -> client.call("AUTH", "Default", "x")).hasMessage(WRONGPASS);
        assertThatThrownBy(() -> client.call("AUTH", "other", "x")).hasMessage(WRONGPASS);
        assertThatThrownBy(() -> client.call("AUTH", "a", "b", "c")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("AUTH")).hasMessage("ERR wrong number of arguments for 'auth' command");
    }

    @Test
    void auth_withRequirepass_gatesCommandsUntilThePasswordIsGiven() {
        EmbeddedClient c = clientWithPassword("secret");
        assertThatThrownBy(() -> c.call("PING")).hasMessage(NOAUTH);
        assertThatThrownBy(() -> c.call("AUTH", "wrong")).hasMessage(WRONGPASS);
        assertThatThrownBy(() -> c.call("AUTH", "default", "wrong")).hasMessage(WRONGPASS);
        assertThatThrownBy(() -> c.call("PING")).hasMessage(NOAUTH);

        assertThat(c.call("AUTH", "secret")).isEqualTo("OK");
        assertThat(c.call("PING")).isEqualTo("PONG");

        EmbeddedClient other = support.client();
        assertThat(other.call("AUTH", "default", "secret")).isEqualTo("OK");
        assertThat(other.call("PING")).isEqualTo("PONG");
    }

    @Test
    void hello_withRequirepass_needsAuthOrItsAuthOption() {
        EmbeddedClient c = clientWithPassword("secret");
        assertThatThrownBy(() -> c.call("HELLO")).hasMessage("NOAUTH HELLO must be called with the client already"
                + " authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate"
                + " the client and select the RESP protocol version at the same time");
        assertThatThrownBy(() -> c.call("HELLO", "3", "SETNAME", "x")).hasMessageStartingWith("NOAUTH HELLO must");
        assertThatThrownBy(() -> c.call("HELLO", "3", "AUTH", "default", "nope")).hasMessage(WRONGPASS);
        assertThat(TestClients.session(c).protocol()).isEqualTo(2);
        assertThat(TestClients.session(c).name()).isEmpty();

        assertThat(resp(c, "HELLO", "3", "AUTH", "default", "secret", "SETNAME", "x"))
                .isEqualTo(helloMap("%7\r\n", 3, TestClients.session(c).id()));
        assertThat(TestClients.session(c).name()).isEqualTo("x");
        assertThat(c.call("PING")).isEqualTo("PONG");
    }

    @Test
    void reset_afterChanges_restoresTheInitialStateInResp2() {
        client.call("SELECT", "3");
        client.call("CLIENT", "SETNAME", "app");
        client.call("HELLO", "3");
        client.call("CLIENT", "REPLY", "OFF");

        assertThat(resp(client, "RESET")).isEqualTo("+RESET\r\n");

        Session s = TestClients.session(client);
        assertThat(s.db()).isZero();
        assertThat(s.protocol()).isEqualTo(2);
        assertThat(s.name()).isEmpty();
        assertThat(s.replyMode()).isEqualTo(Session.ReplyMode.ON);
        assertThat(s.authenticated()).isTrue();
    }

    @Test
    void reset_withRequirepass_logsTheClientOut() {
        EmbeddedClient c = clientWithPassword("secret");
        c.call("AUTH", "secret");
        assertThat(c.call("RESET")).isEqualTo("RESET");
        assertThatThrownBy(() -> c.call("PING")).hasMessage(NOAUTH);
    }

    @Test
    void noAuthCommands_beforeAuthentication_areAllowed() {
        EmbeddedClient c = clientWithPassword("secret");
        for (String name : List.of("auth", "hello", "quit", "reset")) {
            assertThat(HostedEngine.of(support.engine).lookup(name.getBytes(StandardCharsets.US_ASCII)).is(Command.Flag.NO_AUTH))
                    .as(name).isTrue();
        }
        assertThatThrownBy(() -> c.call("CLIENT", "ID")).hasMessage(NOAUTH);
        assertThat(c.call("QUIT")).isEqualTo("OK");
    }

    @Test
    void clientSetName_specialCharacters_areRejected() {
        for (String bad : List.of("a b", "a\nb", "é", "\u007f", "tab\t")) {
            assertThatThrownBy(() -> client.call("CLIENT", "SETNAME", bad)).as(bad)
                    .hasMessage("ERR Client names cannot contain spaces, newlines or special characters.");
        }
        assertThat(client.call("CLIENT", "SETNAME", "!~name-1")).isEqualTo("OK");
        assertThat(text(client.call("CLIENT", "GETNAME"))).isEqualTo("!~name-1");
        assertThat(client.call("CLIENT", "SETNAME", "")).isEqualTo("OK");
        assertThat(client.call("CLIENT", "GETNAME")).isNull();
        assertThatThrownBy(() -> client.call("CLIENT", "SETNAME", "x", "y"))
                .hasMessage("ERR wrong number of arguments for 'client|setname' command");
    }

    @Test
    void clientId_twoClients_returnsEachSessionsOwnId() {
        EmbeddedClient other = support.client();
        assertThat(client.call("CLIENT", "ID")).isEqualTo(TestClients.session(client).id());
        assertThat(other.call("CLIENT", "ID")).isEqualTo(TestClients.session(other).id()).isNotEqualTo(TestClients.session(client).id());
        assertThatThrownBy(() -> client.call("CLIENT", "ID", "x"))
                .hasMessage("ERR wrong number of arguments for 'client|id' command");
    }

    @Test
    void client_unknownSubcommand_pointsToHelp() {
        assertThatThrownBy(() -> client.call("CLIENT", "foo")).hasMessage("ERR unknown subcommand 'foo'. Try CLIENT HELP.");
        assertThatThrownBy(() -> client.call("CLIENT")).hasMessage("ERR wrong number of arguments for 'client' command");
    }

    @Test
    void clientList_twoClients_describesEachInRedisFormat() {
        EmbeddedClient idle = support.client();
        idle.call("SELECT", "2");
        support.advance(5_000);
        TestClients.session(idle).setAddresses("10.0.0.1:5000", "127.0.0.1:6379");

        String list = text(client.call("CLIENT", "LIST"));

        String idleLine = "id=" + TestClients.session(idle).id() + " addr=10.0.0.1:5000 laddr=127.0.0.1:6379 fd=-1 name= age=5 idle=5"
                + " flags=N db=2 sub=0 psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0"
                + " obl=0 oll=0 omem=0 tot-mem=0 events=r cmd=select user=default redir=-1 resp=2 lib-name= lib-ver=";
        String ownLine = "id=" + TestClients.session(client).id() + " addr= laddr= fd=-1 name= age=5 idle=0 flags=N db=0 sub=0"
                + " psub=0 ssub=0 multi=-1 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=0 rbp=0 obl=0 oll=0 omem=0"
                + " tot-mem=0 events=r cmd=client|list user=default redir=-1 resp=2 lib-name= lib-ver=";
        assertThat(list).isEqualTo(ownLine + "\n" + idleLine + "\n");
    }

    @Test
    void clientList_typeOrIdFilter_selectsClientsOrRejectsBadValues() {
        EmbeddedClient other = support.client();
        String otherId = String.valueOf(TestClients.session(other).id());
        assertThat(text(client.call("CLIENT", "LIST", "TYPE", "normal")).lines()).hasSize(2);
        assertThat(text(client.call("CLIENT", "LIST", "type", "PUBSUB"))).isEmpty();
        assertThat(text(client.call("CLIENT", "LIST", "TYPE", "replica"))).isEmpty();
        assertThat(text(client.call("CLIENT", "LIST", "ID", otherId, "999999"))).startsWith("id=" + otherId + " ")
                .hasLineCount(1);

        assertThatThrownBy(() -> client.call("CLIENT", "LIST", "TYPE", "foo")).hasMessage("ERR Unknown client type 'foo'");
        assertThatThrownBy(() -> client.call("CLIENT", "LIST", "ID", "1", "2", "x")).hasMessage("ERR Invalid client ID");
        assertThat(text(client.call("CLIENT", "LIST", "ID", "0", "-1"))).isEmpty();
        assertThatThrownBy(() -> client.call("CLIENT", "LIST", "ID", otherId, "TYPE", "normal"))
                .hasMessage("ERR Invalid client ID");
        for (List<String> bad : List.of(List.of("ID"), List.of("TYPE"), List.of("foo"), List.of("TYPE", "normal", "x"))) {
            String[] args = concat(List.of("CLIENT", "LIST"), bad);
            assertThatThrownBy(() -> client.call(args)).as(bad.toString()).hasMessage("ERR syntax error");
        }
    }

    private static String[] concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toArray(String[]::new);
    }

    @Test
    void clientInfo_namedClient_describesItselfAsVerbatimText() {
        client.call("CLIENT", "SETNAME", "me");
        String info = text(client.call("CLIENT", "INFO"));
        assertThat(info).startsWith("id=" + TestClients.session(client).id() + " addr= laddr= fd=-1 name=me age=0 idle=0 flags=N db=0 ")
                .contains(" cmd=client|info user=default redir=-1 resp=2 lib-name= lib-ver=\n")
                .hasLineCount(1);
        client.call("HELLO", "3");
        assertThat(resp(client, "CLIENT", "INFO")).startsWith("=" + (info.length() + 4) + "\r\ntxt:id=")
                .endsWith("resp=3 lib-name= lib-ver=\n\r\n");
    }

    @Test
    void clientInfo_runByExec_showsTheTransactionStillOpen() {
        client.call("MULTI");
        client.call("PING");
        client.call("CLIENT", "INFO");
        String info = text(((java.util.List<?>) client.call("EXEC")).get(1));
        assertThat(info).contains(" flags=x ").contains(" multi=2 "); // as redis-server 7.0.15 shows it
        assertThat(text(client.call("CLIENT", "INFO"))).contains(" flags=N ").contains(" multi=-1 ");
    }

    @Test
    void clientKill_byId_killsOthersAndSkipsTheCallerByDefault() {
        EmbeddedClient victim = support.client();
        String victimId = String.valueOf(TestClients.session(victim).id());
        String ownId = String.valueOf(TestClients.session(client).id());

        assertThat(client.call("CLIENT", "KILL", "ID", victimId)).isEqualTo(1L);
        assertThat(TestClients.session(victim).closing()).isTrue();
        assertThat(text(client.call("CLIENT", "LIST"))).doesNotContain("id=" + victimId + " ");
        assertThatThrownBy(() -> victim.call("PING")).isInstanceOf(IllegalStateException.class);
        assertThat(client.call("CLIENT", "KILL", "ID", victimId)).isEqualTo(0L);
        assertThat(client.call("CLIENT", "KILL", "ID", "999999")).isEqualTo(0L);
        assertThat(client.call("CLIENT", "KILL", "ID", ownId)).isEqualTo(0L);
        assertThat(TestClients.session(client).closing()).isFalse();
        assertThat(client.call("CLIENT", "KILL", "ID", ownId, "SKIPME", "no")).isEqualTo(1L);
        assertThat(TestClients.session(client).closing()).isTrue();
    }

    @Test
    void clientKill_combinedFilters_mustAllMatchAndBadValuesAreRejected() {
        EmbeddedClient a = support.client();
        EmbeddedClient b = support.client();
        TestClients.session(a).setAddresses("10.0.0.1:1", "127.0.0.1:6379");
        TestClients.session(b).setAddresses("10.0.0.2:2", "127.0.0.1:6380");

        assertThat(client.call("CLIENT", "KILL", "LADDR", "127.0.0.1:6380", "USER", "default")).isEqualTo(1L);
        assertThat(TestClients.session(b).closing()).isTrue();
        assertThat(TestClients.session(a).closing()).isFalse();
        assertThat(client.call("CLIENT", "KILL", "ADDR", "10.0.0.1:1", "TYPE", "pubsub")).isEqualTo(0L);
        assertThat(client.call("CLIENT", "KILL", "ADDR", "10.0.0.1:1", "TYPE", "normal")).isEqualTo(1L);
        assertThat(TestClients.session(a).closing()).isTrue();

        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "ID", "0"))
                .hasMessage("ERR client-id should be greater than 0");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "ID", "x"))
                .hasMessage("ERR client-id should be greater than 0");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "TYPE", "foo")).hasMessage("ERR Unknown client type 'foo'");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "USER", "nobody")).hasMessage("ERR No such user 'nobody'");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "ID", "1", "SKIPME", "maybe")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "ID", "1", "foo")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "ID", "1", "NAME", "x")).hasMessage("ERR syntax error");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL"))
                .hasMessage("ERR wrong number of arguments for 'client|kill' command");
    }

    @Test
    void clientKill_oldAddressForm_repliesOkOrNoSuchClient() {
        EmbeddedClient victim = support.client();
        TestClients.session(victim).setAddresses("10.0.0.9:4242", "127.0.0.1:6379");
        assertThatThrownBy(() -> client.call("CLIENT", "KILL", "1.2.3.4:5")).hasMessage("ERR No such client");
        assertThat(client.call("CLIENT", "KILL", "10.0.0.9:4242")).isEqualTo("OK");
        assertThat(TestClients.session(victim).closing()).isTrue();
    }

    @Test
    void clientReply_eachMode_setsItAndOnlyOnReplies() {
        assertThat(resp(client, "CLIENT", "REPLY", "OFF")).isEmpty();
        assertThat(TestClients.session(client).replyMode()).isEqualTo(Session.ReplyMode.OFF);
        assertThat(resp(client, "CLIENT", "REPLY", "SKIP")).isEmpty();
        assertThat(TestClients.session(client).replyMode()).isEqualTo(Session.ReplyMode.OFF);
        assertThat(resp(client, "CLIENT", "REPLY", "on")).isEqualTo("+OK\r\n");
        assertThat(TestClients.session(client).replyMode()).isEqualTo(Session.ReplyMode.ON);
        assertThat(resp(client, "CLIENT", "REPLY", "skip")).isEmpty();
        assertThat(TestClients.session(client).replyMode()).isEqualTo(Session.ReplyMode.SKIP_NEXT);
        assertThatThrownBy(() -> client.call("CLIENT", "REPLY", "maybe")).isInstanceOf(ErrorReply.class)
                .hasMessage("ERR syntax error");
    }

    @Test
    void clientHelp_noArguments_listsStatusLinesEndingWithHelp() {
        String help = resp(client, "CLIENT", "HELP");
        assertThat(help).startsWith("*").contains("\r\n+CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n")
                .contains("\r\n+REPLY (ON|OFF|SKIP)\r\n").endsWith("+HELP\r\n+    Print this help.\r\n");
        assertThat(help.lines().filter(l -> !l.startsWith("+")).count()).isEqualTo(1);
    }
}
