package dev.ordo.server;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test client speaking raw bytes over a socket: sends exactly what a test writes and reads
 * whole RESP replies back as their exact bytes (ISO-8859-1 text). Every read waits at most a few
 * seconds, so a missing reply fails the test instead of hanging it.
 */
public final class RawClient implements AutoCloseable {
    private static final int TIMEOUT_MILLIS = 5000;
    private static final Pattern BLOCKED_CLIENTS = Pattern.compile("\r\nblocked_clients:(\\d+)\r\n");

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RawClient(int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
        socket.setSoTimeout(TIMEOUT_MILLIS);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** Sends text as ISO-8859-1 bytes (so {@code \u00ff} is the byte 0xff). */
    public RawClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Encodes a command as a RESP multibulk frame. */
    public static String command(String... args) {
        StringBuilder sb = new StringBuilder("*").append(args.length).append("\r\n");
        for (String a : args) {
            sb.append('$').append(a.getBytes(StandardCharsets.ISO_8859_1).length).append("\r\n").append(a).append("\r\n");
        }
        return sb.toString();
    }

    /** A RESP bulk string holding {@code s} (ASCII). */
    public static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    /** This connection's id, from CLIENT ID. */
    public String clientId() throws IOException {
        String reply = call("CLIENT", "ID");
        return reply.substring(1, reply.length() - 2);
    }

    /**
     * Sends {@code command}, one that blocks, without reading a reply, and waits until the server
     * counts {@code blockedAfter} blocked clients (asked on {@code admin}), so the order in which
     * clients block is certain.
     */
    public void sendBlocking(RawClient admin, int blockedAfter, String... command) throws IOException, InterruptedException {
        send(command(command));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (admin.blockedClients() != blockedAfter) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the server never counted " + blockedAfter + " blocked clients");
            }
            Thread.sleep(5);
        }
    }

    /** INFO clients' {@code blocked_clients}. */
    public int blockedClients() throws IOException {
        Matcher m = BLOCKED_CLIENTS.matcher(call("INFO", "clients"));
        if (!m.find()) {
            throw new AssertionError("INFO clients has no blocked_clients");
        }
        return Integer.parseInt(m.group(1));
    }

    /** Sends a command as multibulk and returns its reply. */
    public String call(String... args) throws IOException {
        send(command(args));
        return reply();
    }

    /** Reads one complete RESP2 or RESP3 reply, returning its exact bytes as text. */
    public String reply() throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        readValue(raw);
        return raw.toString(StandardCharsets.ISO_8859_1);
    }

    private void readValue(ByteArrayOutputStream raw) throws IOException {
        int type = readByte(raw);
        String line = readLine(raw);
        switch (type) {
            case '$':
            case '=':
            case '!':
                int len = Integer.parseInt(line);
                if (len >= 0) {
                    raw.writeBytes(in.readNBytes(len + 2));
                }
                break;
            case '*':
            case '~':
            case '>':
                readValues(raw, Integer.parseInt(line));
                break;
            case '%':
            case '|':
                readValues(raw, 2 * Integer.parseInt(line));
                break;
            default:
                break;
        }
    }

    private void readValues(ByteArrayOutputStream raw, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            readValue(raw);
        }
    }

    private int readByte(ByteArrayOutputStream raw) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed; read so far: " + raw.toString(StandardCharsets.ISO_8859_1));
        }
        raw.write(b);
        return b;
    }

    private String readLine(ByteArrayOutputStream raw) throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = readByte(raw);
            if (b == '\r') {
                readByte(raw);
                return line.toString();
            }
            line.append((char) b);
        }
    }

    /** Whether the server closes the connection (end of stream) within the read timeout, with nothing more sent. */
    public boolean closedByServer() throws IOException {
        return closedWithin(TIMEOUT_MILLIS);
    }

    /**
     * Whether the connection ends within {@code millis}; false if it stays open and silent. Any
     * data arriving instead fails the test.
     */
    public boolean closedWithin(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            int b = in.read();
            if (b >= 0) {
                throw new AssertionError("expected the connection to close, got more data starting with " + (char) b);
            }
            return true;
        } catch (SocketException e) {
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(TIMEOUT_MILLIS);
            }
        }
    }

    /**
     * Reads and drops whatever arrives until the server closes the connection; true when it
     * does within {@code millis}, false when it is still open then.
     */
    public boolean drainedUntilClosed(int millis) throws IOException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        byte[] sink = new byte[64 * 1024];
        socket.setSoTimeout(100);
        try {
            while (System.nanoTime() < deadline) {
                try {
                    if (in.read(sink) < 0) {
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    // nothing yet: keep waiting
                } catch (SocketException e) {
                    return true;
                }
            }
            return false;
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(TIMEOUT_MILLIS);
            }
        }
    }

    /** Whether nothing arrives within {@code millis} (the connection stays open and silent). */
    public boolean silentFor(int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("connection closed");
            }
            throw new AssertionError("unexpected data starting with " + (char) b);
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(TIMEOUT_MILLIS);
        }
    }

    /** This end's port, as the server sees it in CLIENT LIST and MONITOR. */
    public int localPort() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
