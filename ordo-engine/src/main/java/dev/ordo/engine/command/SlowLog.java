package dev.ordo.engine.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The slow log (SLOWLOG): the most recent calls that ran at least {@code slowlog-log-slower-than}
 * microseconds, newest first, at most {@code slowlog-max-len} of them. Entry ids keep growing
 * across RESET. Arguments are stored as Redis stores them: at most 32 slots (the last one saying
 * how many were left out), each at most 128 bytes (plus a note of the bytes left out), with
 * passwords replaced by {@code (redacted)}. Guarded by the engine lock.
 */
public final class SlowLog {
    private static final int MAX_ARGS = 32;
    private static final int MAX_ARG_BYTES = 128;
    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long nextId;

    /** One logged call: SLOWLOG GET's id, unix time in seconds, duration, arguments, client address and name. */
    public record Entry(long id, long timestampSeconds, long durationMicros, List<byte[]> args, String clientAddress,
                        String clientName) {
    }

    /** Logs a call that ended at {@code nowMillis}, then drops the oldest entries beyond {@code maxLen}. */
    void add(Command command, Session session, byte[][] args, long nowMillis, long micros, int maxLen) {
        entries.addFirst(new Entry(nextId++, nowMillis / 1000, micros, storedArgs(command, args), session.address(),
                session.name()));
        trim(maxLen);
    }

    /** Drops the oldest entries beyond {@code maxLen}: after every call, so a lowered slowlog-max-len applies at once. */
    void trim(int maxLen) {
        while (entries.size() > maxLen) {
            entries.removeLast();
        }
    }

    /**
     * The newest {@code count} entries (all of them when {@code count} is negative), newest first.
     *
     * @param count the most entries, or negative for all
     * @return the entries
     */
    public List<Entry> newest(long count) {
        List<Entry> out = new ArrayList<>();
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext() && (count < 0 || out.size() < count)) {
            out.add(it.next());
        }
        return out;
    }

    /**
     * The number of entries kept (SLOWLOG LEN).
     *
     * @return the number
     */
    public int size() {
        return entries.size();
    }

    /** Empties the log (SLOWLOG RESET); ids are not reused. */
    public void reset() {
        entries.clear();
    }

    private static List<byte[]> storedArgs(Command command, byte[][] args) {
        boolean[] redacted = redactedPositions(command, args);
        int slots = Math.min(args.length, MAX_ARGS);
        List<byte[]> out = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            if (slots != args.length && i == slots - 1) {
                out.add(ascii("... (" + (args.length - slots + 1) + " more arguments)"));
            } else if (redacted[i]) {
                out.add(REDACTED);
            } else {
                out.add(truncated(args[i]));
            }
        }
        return out;
    }

    private static byte[] truncated(byte[] arg) {
        if (arg.length <= MAX_ARG_BYTES) {
            return arg.clone();
        }
        byte[] note = ascii("... (" + (arg.length - MAX_ARG_BYTES) + " more bytes)");
        byte[] out = Arrays.copyOf(arg, MAX_ARG_BYTES + note.length);
        System.arraycopy(note, 0, out, MAX_ARG_BYTES, note.length);
        return out;
    }

    /** The arguments that carry secrets: AUTH's, HELLO's AUTH pair, ACL SETUSER's rules, and CONFIG SET values of password parameters. */
    private static boolean[] redactedPositions(Command command, byte[][] args) {
        boolean[] redacted = new boolean[args.length];
        switch (command.fullName()) {
            case "auth":
                Arrays.fill(redacted, 1, args.length, true);
                break;
            case "acl|setuser": // its rules carry passwords
                Arrays.fill(redacted, Math.min(2, args.length), args.length, true);
                break;
            case "hello":
                redactHelloAuth(args, redacted);
                break;
            case "config|set":
                for (int i = 2; i + 1 < args.length; i += 2) {
                    String name = new String(args[i], StandardCharsets.UTF_8);
                    redacted[i + 1] = name.equalsIgnoreCase("requirepass") || name.equalsIgnoreCase("masterauth");
                }
                break;
            default:
                break;
        }
        return redacted;
    }

    private static void redactHelloAuth(byte[][] args, boolean[] redacted) {
        for (int i = 2; i < args.length; i++) {
            String option = new String(args[i], StandardCharsets.UTF_8);
            if (option.equalsIgnoreCase("AUTH") && i + 2 < args.length) {
                redacted[i + 1] = true;
                redacted[i + 2] = true;
                i += 2;
            } else if (option.equalsIgnoreCase("SETNAME") && i + 1 < args.length) {
                i++;
            } else {
                return;
            }
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
