package dev.ordo.engine.command;

import dev.ordo.engine.TestClients;
import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.EmbeddedClient;
import dev.ordo.engine.Engine;
import dev.ordo.engine.number.Doubles;

import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/**
 * A reply writer that encodes replies as the RESP2 or RESP3 text a network client would read, so
 * tests can compare reply shapes (map, set, verbatim, null) with what redis-server sends. The
 * protocol is read at each write, as a connection's writer reads it.
 */
final class RespText implements ReplyWriter {
    private final IntSupplier protocol;
    private final StringBuilder out = new StringBuilder();

    RespText(IntSupplier protocol) {
        this.protocol = protocol;
    }

    /** Runs a command for {@code client}'s session and returns its reply as RESP text ("" when it wrote none). */
    static String call(Engine engine, EmbeddedClient client, String... args) {
        byte[][] raw = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            raw[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        Session session = TestClients.session(client);
        RespText writer = new RespText(session::protocol);
        HostedEngine.of(engine).execute(session, raw, writer, () -> { });
        return writer.text();
    }

    /** The RESP text written so far. */
    String text() {
        return out.toString();
    }

    @Override
    public int protocol() {
        return protocol.getAsInt();
    }

    private boolean resp3() {
        return protocol() >= 3;
    }

    private void line(char type, Object body) {
        out.append(type).append(body).append("\r\n");
    }

    @Override
    public void simpleString(String status) {
        line('+', status);
    }

    @Override
    public void error(String text) {
        line('-', text);
    }

    @Override
    public void integer(long value) {
        line(':', value);
    }

    @Override
    public void bulk(byte[] value) {
        bulk(value, 0, value.length);
    }

    @Override
    public void bulk(byte[] buf, int off, int len) {
        line('$', len);
        out.append(new String(buf, off, len, StandardCharsets.UTF_8)).append("\r\n");
    }

    @Override
    public void nullBulk() {
        out.append(resp3() ? "_\r\n" : "$-1\r\n");
    }

    @Override
    public void nullArray() {
        out.append(resp3() ? "_\r\n" : "*-1\r\n");
    }

    @Override
    public void arrayHeader(int count) {
        line('*', count);
    }

    @Override
    public void mapHeader(int pairs) {
        if (resp3()) {
            line('%', pairs);
        } else {
            line('*', 2 * pairs);
        }
    }

    @Override
    public void setHeader(int count) {
        line(resp3() ? '~' : '*', count);
    }

    @Override
    public void bigNumber(byte[] digits) {
        if (resp3()) {
            line('(', new String(digits, StandardCharsets.UTF_8));
        } else {
            bulk(digits);
        }
    }

    @Override
    public void doubleValue(double value) {
        if (resp3()) {
            line(',', new String(Doubles.formatBytes(value), StandardCharsets.US_ASCII));
        } else {
            bulk(Doubles.formatBytes(value));
        }
    }

    @Override
    public void bool(boolean value) {
        if (resp3()) {
            line('#', value ? "t" : "f");
        } else {
            integer(value ? 1 : 0);
        }
    }

    @Override
    public void verbatim(String format, byte[] text) {
        if (resp3()) {
            line('=', text.length + 4);
            out.append(format).append(':').append(new String(text, StandardCharsets.UTF_8)).append("\r\n");
        } else {
            bulk(text);
        }
    }

    @Override
    public void pushHeader(int count) {
        line(resp3() ? '>' : '*', count);
    }

    @Override
    public void attributeHeader(int pairs) {
        line('|', pairs);
    }
}
