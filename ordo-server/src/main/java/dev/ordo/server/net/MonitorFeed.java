package dev.ordo.server.net;

import dev.ordo.engine.host.HostedEngine;
import dev.ordo.engine.command.CommandObserver;
import dev.ordo.engine.command.Session;
import dev.ordo.server.resp.Repr;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * MONITOR's fan-out: an engine observer, registered only while some connection monitors (so
 * the command path pays nothing otherwise), that formats each command the engine shows it (which
 * and in what order: {@link CommandObserver}) once and hands the line to every monitoring
 * connection. Line format, one status reply per command:
 *
 * <pre>
 *   +1700000000.123456 [0 127.0.0.1:50012] "SET" "k" "a\"b\n"
 * </pre>
 *
 * seconds.microseconds of wall-clock time, the client's database after the command and its
 * address ({@code lua} for the commands a script runs, {@code embedded} for in-process clients),
 * then each argument quoted by {@link Repr}.
 * Passwords are shown as {@code "(redacted)"}: every argument of AUTH and the two after HELLO's
 * AUTH. Called under the engine lock, so lines reach each monitor in execution order.
 */
final class MonitorFeed implements CommandObserver {
    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMBEDDED = "embedded".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LUA = "lua".getBytes(StandardCharsets.US_ASCII);

    private final HostedEngine engine;
    private final ByteBufAllocator alloc;
    private final Set<Connection> monitors = ConcurrentHashMap.newKeySet();

    MonitorFeed(HostedEngine engine, ByteBufAllocator alloc) {
        this.engine = engine;
        this.alloc = alloc;
    }

    /** Starts feeding {@code c}. */
    synchronized void add(Connection c) {
        if (monitors.isEmpty()) {
            engine.addObserver(this);
        }
        monitors.add(c);
    }

    /** Stops feeding {@code c} (it closed, or ran RESET). */
    synchronized void remove(Connection c) {
        if (monitors.remove(c) && monitors.isEmpty()) {
            engine.removeObserver(this);
        }
    }

    /** Stops feeding everyone. */
    synchronized void clear() {
        monitors.clear();
        engine.removeObserver(this);
    }

    @Override
    public void executed(Session session, byte[][] args) {
        if (monitors.isEmpty()) {
            return;
        }
        ByteBuf line = format(Instant.now(), session, args);
        try {
            for (Connection m : monitors) {
                m.monitorLine(line.retainedDuplicate());
            }
        } finally {
            line.release();
        }
    }

    /** One MONITOR line for a command, as RESP status bytes. */
    private ByteBuf format(Instant now, Session session, byte[][] args) {
        ByteBuf out = alloc.buffer(64 + 16 * args.length);
        String micros = String.format(Locale.ROOT, "%06d", now.getNano() / 1000);
        String address = session.address();
        out.writeCharSequence("+" + now.getEpochSecond() + "." + micros + " [" + session.db() + " ", StandardCharsets.US_ASCII);
        out.writeBytes(session.isScriptClient() ? LUA : address.isEmpty() ? EMBEDDED : address.getBytes(StandardCharsets.UTF_8));
        out.writeByte(']');
        boolean[] redacted = redactions(args);
        for (int i = 0; i < args.length; i++) {
            out.writeByte(' ');
            Repr.quote(redacted[i] ? REDACTED : args[i], out);
        }
        out.writeByte('\r').writeByte('\n');
        return out;
    }

    /** Which arguments hide a password. */
    static boolean[] redactions(byte[][] args) {
        boolean[] hide = new boolean[args.length];
        if (is(args[0], "auth")) {
            for (int i = 1; i < args.length; i++) {
                hide[i] = true;
            }
        } else if (is(args[0], "hello")) {
            for (int i = 2; i < args.length; i++) {
                int more = args.length - 1 - i;
                if (is(args[i], "auth") && more >= 2) {
                    hide[i + 1] = true;
                    hide[i + 2] = true;
                    i += 2;
                } else if (is(args[i], "setname") && more >= 1) {
                    i++;
                } else {
                    break;
                }
            }
        }
        return hide;
    }

    private static boolean is(byte[] arg, String word) {
        return new String(arg, StandardCharsets.ISO_8859_1).equalsIgnoreCase(word);
    }
}
