package dev.ordo.engine.differential;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw RESP connection for tests: sends a command as a multibulk frame and parses the reply into
 * a {@link Reply} tree with every RESP2 and RESP3 type kept distinct. Deliberately tiny, so that
 * no client library normalises away the details the differential test compares.
 */
public final class RespSocket implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RespSocket(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = socket.getOutputStream();
    }

    /** Sends one command and returns its reply. */
    public Reply call(byte[]... args) throws IOException {
        out.write(encode(args));
        out.flush();
        return read();
    }

    /** Sends one command without reading its reply (pipelining: read the replies later with {@link #read()}). */
    public void send(byte[]... args) throws IOException {
        out.write(encode(args));
        out.flush();
    }

    public static byte[] encode(byte[][] args) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] a : args) {
            b.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(a);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        return b.toByteArray();
    }

    public Reply read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("connection closed");
        }
        String line = line();
        switch (type) {
            case '+':
                return Reply.text(Reply.Kind.STATUS, line.getBytes(StandardCharsets.ISO_8859_1));
            case '-':
                return Reply.text(Reply.Kind.ERROR, line.getBytes(StandardCharsets.ISO_8859_1));
            case '(':
                return Reply.text(Reply.Kind.BIG_NUMBER, line.getBytes(StandardCharsets.ISO_8859_1));
            case ':':
                return Reply.integer(Long.parseLong(line));
            case '$':
            case '=': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return Reply.of(Reply.Kind.NULL_BULK);
                }
                byte[] data = in.readNBytes(len);
                in.readNBytes(2);
                if (type == '=') {
                    return Reply.text(Reply.Kind.VERBATIM, java.util.Arrays.copyOfRange(data, 4, data.length));
                }
                return Reply.text(Reply.Kind.BULK, data);
            }
            case '*':
            case '~':
            case '>':
            case '%': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return Reply.of(Reply.Kind.NULL_ARRAY);
                }
                int items = type == '%' ? 2 * n : n;
                List<Reply> children = new ArrayList<>(items);
                for (int i = 0; i < items; i++) {
                    children.add(read());
                }
                Reply.Kind kind = type == '*' ? Reply.Kind.ARRAY : type == '~' ? Reply.Kind.SET : type == '>' ? Reply.Kind.PUSH : Reply.Kind.MAP;
                return Reply.aggregate(kind, children);
            }
            case '_':
                return Reply.of(Reply.Kind.NULL);
            case ',':
                return Reply.dbl(parseResp3Double(line));
            case '#':
                return new Reply(Reply.Kind.BOOLEAN, null, "t".equals(line) ? 1 : 0, 0, List.of());
            default:
                throw new IOException("unexpected reply type '" + (char) type + "' " + line);
        }
    }

    private static double parseResp3Double(String s) {
        switch (s) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                return Double.parseDouble(s);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("connection closed mid-line");
            }
            if (prev == '\r' && c == '\n') {
                byte[] all = b.toByteArray();
                return new String(all, 0, all.length - 1, StandardCharsets.ISO_8859_1);
            }
            b.write(c);
            prev = c;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
