package dev.ordo.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a connection does around its commands: blocking without blocking others, MONITOR,
 * RESP3 after HELLO, CLIENT REPLY, CLIENT KILL, and the limits (maxclients, idle timeout,
 * requirepass, query buffer), over real sockets.
 */
class ConnectionBehaviourTest extends ServerTestSupport {

    @Test
    void blockedClientWaitsAloneAndKeepsItsPipelineInOrder() throws IOException {
        RawClient waiter = connect().send("BZPOPMIN queue 0\r\nPING\r\nECHO after\r\n");
        await("the client blocks", () -> ordo.engine().blockedClients() == 1);
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
        assertThat(waiter.silentFor(100)).isTrue();
        assertThat(bystander.call("ZADD", "queue", "1", "job")).isEqualTo(":1\r\n");
        assertThat(waiter.reply()).isEqualTo("*3\r\n$5\r\nqueue\r\n$3\r\njob\r\n$1\r\n1\r\n");
        assertThat(waiter.reply()).isEqualTo("+PONG\r\n");
        assertThat(waiter.reply()).isEqualTo("$5\r\nafter\r\n");
    }

    @Test
    void blockedClientTimesOutWithANullArray() throws IOException {
        RawClient waiter = connect();
        assertThat(waiter.call("BZPOPMIN", "nothing", "0.05")).isEqualTo("*-1\r\n");
        assertThat(waiter.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void blockedClientThatDisconnectsIsForgotten() throws IOException {
        RawClient waiter = connect().send("BZPOPMIN gone 0\r\n");
        await("the client blocks", () -> ordo.engine().blockedClients() == 1);
        waiter.close();
        await("the engine forgets it", () -> ordo.engine().blockedClients() == 0);
        assertThat(bystander.call("ZADD", "gone", "1", "m")).isEqualTo(":1\r\n");
        assertThat(bystander.call("ZCARD", "gone")).isEqualTo(":1\r\n");
    }

    @Test
    void monitorSeesEveryoneQuotedAndRedacted() throws IOException {
        RawClient monitor = connect();
        assertThat(monitor.call("MONITOR")).isEqualTo("+OK\r\n");
        RawClient c = connect();
        String from = " 127.0.0.1:" + c.localPort() + "] ";
        assertThat(c.call("SET", "k", "a\"b\\\n\u0001\u00ff")).isEqualTo("+OK\r\n");
        assertThat(monitorLine(monitor)).isEqualTo("+T [0" + from + "\"SET\" \"k\" \"a\\\"b\\\\\\n\\x01\\xff\"\r\n");
        c.call("SELECT", "2");
        assertThat(monitorLine(monitor)).isEqualTo("+T [2" + from + "\"SELECT\" \"2\"\r\n");
        c.call("AUTH", "secret");
        assertThat(monitorLine(monitor)).isEqualTo("+T [2" + from + "\"AUTH\" \"(redacted)\"\r\n");
        c.call("HELLO", "2", "AUTH", "default", "secret");
        assertThat(monitorLine(monitor)).isEqualTo("+T [2" + from + "\"HELLO\" \"2\" \"AUTH\" \"(redacted)\" \"(redacted)\"\r\n");
        ordo.client().call("ECHO", "in process");
        assertThat(monitorLine(monitor)).isEqualTo("+T [0 embedded] \"ECHO\" \"in process\"\r\n");
    }

    @Test
    void monitorStillRunsItsOwnCommandsAndAnswersMonitorOnce() throws IOException {
        RawClient monitor = connect();
        assertThat(monitor.call("MONITOR")).isEqualTo("+OK\r\n");
        monitor.send("MONITOR\r\n");
        assertThat(monitor.call("MONITOR", "extra")).isEqualTo("-ERR wrong number of arguments for 'monitor' command\r\n");
        assertThat(monitor.call("PING")).isEqualTo("+PONG\r\n");
        assertThat(monitorLine(monitor)).isEqualTo("+T [0 127.0.0.1:" + monitor.localPort() + "] \"PING\"\r\n");
    }

    /** The next MONITOR line with its seconds.microseconds timestamp checked and replaced by T. */
    private static String monitorLine(RawClient monitor) throws IOException {
        String line = monitor.reply();
        assertThat(line).matches("\\+\\d+\\.\\d{6} .*\r\n");
        return "+T" + line.substring(line.indexOf(' '));
    }

    @Test
    void helloThreeSwitchesTheEncoding() throws IOException {
        RawClient c = connect();
        assertThat(c.call("ZADD", "z", "1.5", "m")).isEqualTo(":1\r\n");
        assertThat(c.call("ZSCORE", "z", "m")).isEqualTo("$3\r\n1.5\r\n");
        assertThat(c.call("GET", "missing")).isEqualTo("$-1\r\n");
        assertThat(c.call("HELLO", "3")).startsWith("%7\r\n$6\r\nserver\r\n");
        assertThat(c.call("ZSCORE", "z", "m")).isEqualTo(",1.5\r\n");
        assertThat(c.call("GET", "missing")).isEqualTo("_\r\n");
        assertThat(c.call("HELLO", "2")).startsWith("*14\r\n");
        assertThat(c.call("ZSCORE", "z", "m")).isEqualTo("$3\r\n1.5\r\n");
    }

    @Test
    void clientReplyOffSkipAndOn() throws IOException {
        RawClient c = connect();
        c.send("CLIENT REPLY SKIP\r\nECHO skipped\r\nECHO one\r\nCLIENT REPLY OFF\r\nECHO off\r\nCLIENT REPLY ON\r\nECHO two\r\n");
        assertThat(c.reply()).isEqualTo("$3\r\none\r\n");
        assertThat(c.reply()).isEqualTo("+OK\r\n");
        assertThat(c.reply()).isEqualTo("$3\r\ntwo\r\n");
    }

    @Test
    void clientKillClosesTheOtherConnection() throws IOException {
        RawClient victim = connect();
        String id = victim.call("CLIENT", "ID").substring(1).trim();
        assertThat(connect().call("CLIENT", "KILL", "ID", id)).isEqualTo(":1\r\n");
        assertThat(victim.closedByServer()).isTrue();
    }

    @Test
    void clientKillingItselfGetsItsReplyFirst() throws IOException {
        RawClient c = connect();
        String id = c.call("CLIENT", "ID").substring(1).trim();
        assertThat(c.call("CLIENT", "KILL", "ID", id)).as("SKIPME yes by default").isEqualTo(":0\r\n");
        c.send(RawClient.command("CLIENT", "KILL", "ID", id, "SKIPME", "no") + "PING\r\n");
        assertThat(c.reply()).isEqualTo(":1\r\n");
        assertThat(c.closedByServer()).isTrue();
    }

    @Test
    void clientListShowsBothAddresses() throws IOException {
        RawClient c = connect();
        assertThat(c.call("CLIENT", "LIST")).contains("addr=127.0.0.1:" + c.localPort() + " laddr=127.0.0.1:" + port + " ");
    }

    @Test
    void infoReportsTheBoundPort() throws IOException {
        assertThat(bystander.call("INFO", "server")).contains("tcp_port:" + port + "\r\n");
    }

    @Test
    void clientsOverMaxclientsAreRefused() throws IOException {
        ordo.engine().config().set("maxclients", "2", false);
        RawClient second = connect();
        assertThat(second.call("PING")).isEqualTo("+PONG\r\n");
        RawClient third = connect();
        assertThat(third.reply()).isEqualTo("-ERR max number of clients reached\r\n");
        assertThat(third.closedByServer()).isTrue();
    }

    @Test
    void idleClientsAreClosedButBlockedOnesWait() throws IOException {
        RawClient blocked = connect().send("BZPOPMIN later 0\r\n");
        await("the client blocks", () -> ordo.engine().blockedClients() == 1);
        RawClient idle = connect();
        assertThat(idle.call("PING")).isEqualTo("+PONG\r\n");
        ordo.engine().config().set("timeout", "1", false);
        try {
            long deadline = System.nanoTime() + 5_000_000_000L;
            boolean closed = false;
            while (!closed && System.nanoTime() < deadline) {
                closed = idle.closedWithin(200);
                assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
            }
            assertThat(closed).as("idle client closed").isTrue();
        } finally {
            ordo.engine().config().set("timeout", "0", false);
        }
        assertThat(bystander.call("ZADD", "later", "1", "m")).isEqualTo(":1\r\n");
        assertThat(blocked.reply()).isEqualTo("*3\r\n$5\r\nlater\r\n$1\r\nm\r\n$1\r\n1\r\n");
    }

    @Test
    void unauthenticatedClientsGetSmallFrameLimits() throws IOException {
        ordo.engine().config().set("requirepass", "pw", false);
        RawClient c = connect();
        assertThat(c.call("PING")).isEqualTo("-NOAUTH Authentication required.\r\n");
        c.send("*11\r\n");
        assertThat(c.reply()).isEqualTo("-ERR Protocol error: unauthenticated multibulk length\r\n");
        assertThat(c.closedByServer()).isTrue();
        RawClient d = connect().send("*1\r\n$16385\r\n");
        assertThat(d.reply()).isEqualTo("-ERR Protocol error: unauthenticated bulk length\r\n");
        assertThat(d.closedByServer()).isTrue();
        RawClient e = connect();
        assertThat(e.call("MONITOR")).isEqualTo("-NOAUTH Authentication required.\r\n");
        assertThat(e.call("AUTH", "pw")).isEqualTo("+OK\r\n");
        assertThat(e.call("ECHO", "x".repeat(20_000))).startsWith("$20000\r\n");
    }

    @Test
    void queryBufferLimitClosesWithoutReply() throws IOException {
        ordo.engine().config().set("client-query-buffer-limit", "1mb", false);
        RawClient c = connect().send("*2\r\n$4\r\nECHO\r\n$2000000\r\n");
        try {
            c.send(new byte[1_100_000]);
        } catch (IOException e) {
            // The server may close the connection while the last bytes are still being written.
        }
        assertThat(c.closedByServer()).isTrue();
    }
}
