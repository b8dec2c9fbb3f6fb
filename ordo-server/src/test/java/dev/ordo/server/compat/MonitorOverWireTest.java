package dev.ordo.server.compat;

import dev.ordo.engine.differential.Reply;
import dev.ordo.engine.differential.RespSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MONITOR beside a real {@code redis-server}: one client monitors while another runs a fixed
 * session (scripts and functions and their redis.call, MULTI/EXEC, refused commands, a blocking
 * command that times out, AUTH and HELLO, admin commands, a restricted user), and the two servers' MONITOR lines must be the same, in the same
 * order, once each line's timestamp is checked and dropped and the client's own address is
 * written {@code client}. Scripts' commands show as {@code lua}, so they are compared as they are.
 */
class MonitorOverWireTest {
    @RegisterExtension
    static final SideBySide SERVERS = new SideBySide();

    /** The session the second client runs; its last command ends the lines a test reads. */
    private static final List<String> SESSION = List.of(
            "SET k v",
            "EVAL \"redis.call('set','k','v2'); return redis.call('get','k')\" 0",
            "EVAL \"return redis.pcall('incr','k')\" 0",
            "EVAL \"redis.call('select',2); redis.call('set','x','y'); return 1\" 0",
            "EVAL \"return redis.call('nosuch')\" 0",
            "EVAL \"return redis.pcall('monitor')\" 0",
            "EVAL \"return 1\" 1",
            "EVALSHA 0000000000000000000000000000000000000000 0",
            "FUNCTION LOAD \"#!lua name=mlib\nredis.register_function('mf', function(k, a) return redis.call('set', k[1], a[1]) end)\"",
            "FCALL mf 1 fk fv", "FCALL nosuchf 0", "FUNCTION DELETE mlib",
            "BZPOPMIN nokey 0.01",
            "MULTI", "SET a 1", "INCR k", "GET a", "EXEC",
            "MULTI", "GET", "SET a 2", "EXEC",
            "MULTI", "EVAL \"return redis.call('set','m','n')\" 0", "INCR m", "EXEC",
            "MULTI", "MONITOR", "EXEC",
            "MULTI", "SET a 3", "EXEC x",
            "EXEC",
            "GET", "NOSUCH x", "INCR k", "MONITOR x",
            "CONFIG GET maxmemory", "CLIENT LIST", "INFO server",
            "SELECT 3", "SET k3 v", "SELECT 0",
            "AUTH foo", "AUTH someone secret",
            "HELLO 2 AUTH default anything SETNAME n1", "HELLO 2 SETNAME n2", "HELLO 2 AUTH default",
            "ACL SETUSER mon on >pw +@all -@dangerous",
            "AUTH mon pw", "MONITOR", "MULTI", "MONITOR", "EXEC", "GET k",
            "AUTH default anything", "ACL DELUSER mon",
            "PING monitor-end");

    private static final Pattern LINE = Pattern.compile("(\\d+)\\.(\\d{6}) \\[(\\d+) (.*?)\\] (.*)");

    @Test
    void monitor_scriptsTransactionsAndRefusals_sameLinesAsRedis() throws IOException {
        List<String> redis = monitorLines(SERVERS.redis().port());
        List<String> ordo = monitorLines(SERVERS.ordoPort());
        assertThat(redis).as("Redis's lines, so the comparison says something")
                .contains("[0 client] \"EVAL\" \"redis.call('set','k','v2'); return redis.call('get','k')\" \"0\"",
                        "[0 lua] \"set\" \"k\" \"v2\"", "[2 lua] \"set\" \"x\" \"y\"", "[0 lua] \"set\" \"fk\" \"fv\"",
                        "[0 client] \"EXEC\" \"x\"",
                        "[0 client] \"AUTH\" \"(redacted)\" \"(redacted)\"");
        assertThat(ordo).containsExactlyElementsOf(redis);
    }

    @Test
    void monitor_insideTransaction_refusedAsForADenyBlockingClient() throws IOException {
        try (RespSocket client = new RespSocket(SERVERS.ordoPort())) {
            client.call(SideBySide.words("MULTI"));
            assertThat(client.call(SideBySide.words("MONITOR")).textString()).isEqualTo("QUEUED");
            Reply exec = client.call(SideBySide.words("EXEC"));
            assertThat(exec.children()).hasSize(1);
            assertThat(exec.children().get(0).textString()).isEqualTo("ERR MONITOR isn't allowed for DENY BLOCKING client");
            assertThat(client.call(SideBySide.words("PING")).textString()).isEqualTo("PONG");
        }
    }

    @Test
    void monitor_thenReset_noMoreLines_asInRedis() throws IOException {
        for (int port : List.of(SERVERS.redis().port(), SERVERS.ordoPort())) {
            try (RespSocket monitor = new RespSocket(port); RespSocket client = new RespSocket(port)) {
                assertThat(monitor.call(SideBySide.words("MONITOR")).textString()).isEqualTo("OK");
                client.call(SideBySide.words("SET before-reset v"));
                assertThat(monitor.read().textString()).endsWith("\"SET\" \"before-reset\" \"v\"");
                assertThat(monitor.call(SideBySide.words("RESET")).textString()).isEqualTo("RESET");
                client.call(SideBySide.words("SET after-reset v"));
                assertThat(monitor.call(SideBySide.words("PING")).textString()).as("the reply after RESET on port %d", port)
                        .isEqualTo("PONG");
            }
        }
    }

    /**
     * Runs {@link #SESSION} on {@code port} beside a monitoring client and returns what it saw
     * up to the session's end, each line without its timestamp and with the client's address
     * written {@code client}.
     */
    private static List<String> monitorLines(int port) throws IOException {
        List<String> lines = new ArrayList<>();
        try (RespSocket monitor = new RespSocket(port); RespSocket client = new RespSocket(port)) {
            assertThat(monitor.call(SideBySide.words("MONITOR")).textString()).isEqualTo("OK");
            for (String command : SESSION) {
                client.call(SideBySide.words(command));
            }
            String clientAddress = null;
            while (true) {
                String text = monitor.read().textString();
                Matcher m = LINE.matcher(text);
                assertThat(m.matches()).as("a MONITOR line: %s", text).isTrue();
                String address = m.group(4);
                if (!address.equals("lua")) {
                    assertThat(clientAddress == null || clientAddress.equals(address)).as("one client, at %s", address).isTrue();
                    clientAddress = address;
                    address = "client";
                }
                String line = "[" + m.group(3) + " " + address + "] " + m.group(5);
                lines.add(line);
                if (line.equals("[0 client] \"PING\" \"monitor-end\"")) {
                    return lines;
                }
            }
        }
    }
}
