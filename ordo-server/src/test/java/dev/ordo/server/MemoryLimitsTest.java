package dev.ordo.server;

import dev.ordo.engine.host.HostedEngine;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits on what one client may make the server hold, over the wire: pending input counted
 * with its decoded arguments, clients held back while their replies wait, the output buffer
 * limit's hard and soft limits, client eviction, and CLIENT LIST's real buffer figures. Each
 * case also checks that the bystander (ServerTestSupport) is still served and data is intact.
 */
class MemoryLimitsTest extends ServerTestSupport {
    /** A sorted set whose full range is a reply of about 300 KB. */
    private void bigSet() throws IOException {
        List<String> args = new ArrayList<>(List.of("ZADD", "big"));
        for (int i = 0; i < 10_000; i++) {
            args.add(String.valueOf(i));
            args.add("member:" + "x".repeat(10) + i);
        }
        assertThat(bystander.call(args.toArray(new String[0]))).isEqualTo(":10000\r\n");
    }

    private static long infoField(RawClient c, String section, String field) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + field + ":(\\d+)").matcher(c.call("INFO", section));
        assertThat(m.find()).as("INFO %s has %s", section, field).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static long clientField(String line, String field) {
        Matcher m = Pattern.compile(" " + field + "=(\\d+)").matcher(line);
        assertThat(m.find()).as("%s in %s", field, line).isTrue();
        return Long.parseLong(m.group(1));
    }

    /** The CLIENT LIST line of the client connected from {@code port}. */
    private String clientLine(int port) throws IOException {
        for (String line : bystander.call("CLIENT", "LIST").split("\n")) {
            if (line.contains(":" + port + " laddr=")) {
                return line;
            }
        }
        throw new AssertionError("no client from port " + port);
    }

    @Test
    void manyEmptyArguments_closeThatClientAtTheQueryBufferLimit() throws IOException {
        bystander.call("CONFIG", "SET", "client-query-buffer-limit", "1mb");
        bystander.call("SET", "kept", "value");
        RawClient abuser = connect();
        int args = 2_000_000;
        abuser.send("*" + (args + 1) + "\r\n$3\r\nDEL\r\n");
        byte[] chunk = "$0\r\n\r\n".repeat(10_000).getBytes(StandardCharsets.US_ASCII);
        try {
            for (int sent = 0; sent < args; sent += 10_000) {
                abuser.send(chunk);
            }
        } catch (IOException closedWhileSending) {
            // the server closed the connection part way: what the test expects
        }
        assertThat(abuser.drainedUntilClosed(5000)).isTrue();
        assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
        assertThat(bystander.call("GET", "kept")).isEqualTo("$5\r\nvalue\r\n");
        assertThat(infoField(bystander, "stats", "client_query_buffer_limit_disconnections")).isEqualTo(1);
    }

    @Test
    void slowReader_isHeldBackWhileOthersAreServed() throws IOException {
        bigSet();
        RawClient reader = connect();
        // 300 replies of 300 KB each (90 MB) requested at once and never read.
        reader.send(RawClient.command("ZRANGE", "big", "0", "-1").repeat(300));
        int port = reader.localPort();
        await("the reader is held back", () -> {
            try {
                return clientField(clientLine(port), "omem") > 0;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        for (int i = 0; i < 20; i++) {
            assertThat(bystander.call("PING")).isEqualTo("+PONG\r\n");
        }
        // The server holds the reader's waiting replies up to about the water mark (1 MB) and
        // one reply more; the commands it has not run wait as arguments.
        String line = clientLine(port);
        assertThat(clientField(line, "omem")).isLessThan(4L << 20);
        assertThat(clientField(line, "tot-mem")).isLessThan(8L << 20);
        assertThat(infoField(bystander, "memory", "mem_clients_normal")).isLessThan(8L << 20);
    }

    @Test
    void outputBufferLimit_hardLimit_closesTheClient() throws IOException {
        bigSet();
        bystander.call("CONFIG", "SET", "client-output-buffer-limit", "normal 1mb 0 0");
        RawClient reader = connect();
        reader.send(RawClient.command("ZRANGE", "big", "0", "-1").repeat(10));
        assertThat(reader.drainedUntilClosed(5000)).isTrue();
        assertThat(infoField(bystander, "stats", "client_output_buffer_limit_disconnections")).isEqualTo(1);
        assertThat(bystander.call("ZCARD", "big")).isEqualTo(":10000\r\n");
    }

    @Test
    void outputBufferLimit_softLimit_closesAClientThatStaysOverIt() throws IOException {
        bigSet();
        bystander.call("CONFIG", "SET", "client-output-buffer-limit", "normal 0 512kb 1");
        RawClient reader = connect();
        // 30 MB of replies: more than the sockets' buffers take, so the rest waits in the server.
        reader.send(RawClient.command("ZRANGE", "big", "0", "-1").repeat(100));
        // Never read (reading would bring it under the soft limit): its replies stay over 512 KB,
        // and after more than a second it is closed.
        int port = reader.localPort();
        await("the reader is closed", () -> {
            try {
                return !bystander.call("CLIENT", "LIST").contains(":" + port + " laddr=");
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertThat(reader.drainedUntilClosed(5000)).isTrue();
        assertThat(infoField(bystander, "stats", "client_output_buffer_limit_disconnections")).isEqualTo(1);
    }

    @Test
    void clientList_showsWhatAClientHolds() throws IOException {
        RawClient c = connect();
        c.send("*3\r\n$3\r\nSET\r\n$3\r\nkey\r\n$100\r\n" + "v".repeat(40));
        int port = c.localPort();
        await("the half-sent command is parsed as far as it goes", () -> {
            try {
                return clientField(clientLine(port), "argv-mem") > 0;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        String line = clientLine(port);
        assertThat(clientField(line, "qbuf")).isEqualTo(40);
        assertThat(clientField(line, "tot-mem")).isGreaterThan(clientField(line, "argv-mem") + 40);
        c.send("v".repeat(60) + "\r\n");
        assertThat(c.reply()).isEqualTo("+OK\r\n");

        c.call("MULTI");
        c.call("SET", "a", "x".repeat(1000));
        line = clientLine(port);
        assertThat(clientField(line, "multi")).isEqualTo(1);
        assertThat(clientField(line, "multi-mem")).isGreaterThan(1000);
        c.call("DISCARD");
        assertThat(clientField(clientLine(port), "multi-mem")).isZero();
    }

    @Test
    void outOfMemoryError_inARead_isAnsweredAndTheServerGoesOn() throws IOException {
        HostedEngine.of(ordo.engine()).commands().register(dev.ordo.engine.command.Command.custom("bigread", 1, "readonly", 0, 0, 0, "test", c -> {
            c.reply().arrayHeader(2);
            c.reply().bulk(new byte[10]);
            throw new OutOfMemoryError("test");
        }));
        RawClient c = connect();
        // The half-written reply is dropped: only the error goes out, and the connection stays in step.
        assertThat(c.call("bigread")).isEqualTo("-ERR out of memory while running 'bigread'; nothing was changed\r\n");
        assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void clientEviction_overMaxmemoryClients_closesTheBiggestClient() throws IOException {
        bigSet();
        bystander.call("CONFIG", "SET", "maxmemory-clients", "1mb");
        RawClient small = connect();
        assertThat(small.call("PING")).isEqualTo("+PONG\r\n");
        RawClient reader = connect();
        // Held back, the reader keeps about the 1 MB water mark and one 300 KB reply waiting: over the limit.
        reader.send(RawClient.command("ZRANGE", "big", "0", "-1").repeat(100));
        assertThat(reader.drainedUntilClosed(5000)).isTrue();
        assertThat(infoField(bystander, "stats", "evicted_clients")).isEqualTo(1);
        assertThat(small.call("PING")).isEqualTo("+PONG\r\n");
    }

    @Test
    void clientEviction_spareNoEvictClients() throws IOException {
        bigSet();
        // Over the limit with only NO-EVICT clients left, Redis evicts every other client: the
        // bystander is protected too, so that it can look.
        assertThat(bystander.call("CLIENT", "NO-EVICT", "on")).isEqualTo("+OK\r\n");
        bystander.call("CONFIG", "SET", "maxmemory-clients", "1mb");
        RawClient reader = connect();
        assertThat(reader.call("CLIENT", "NO-EVICT", "on")).isEqualTo("+OK\r\n");
        reader.send(RawClient.command("ZRANGE", "big", "0", "-1").repeat(100));
        int port = reader.localPort();
        await("the reader holds more than the limit", () -> {
            try {
                return clientField(clientLine(port), "tot-mem") > (1L << 20);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertThat(infoField(bystander, "stats", "evicted_clients")).isZero();
        assertThat(infoField(bystander, "memory", "mem_clients_normal")).isGreaterThan(1L << 20);
    }
}
