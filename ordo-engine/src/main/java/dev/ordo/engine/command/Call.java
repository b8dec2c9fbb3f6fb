package dev.ordo.engine.command;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.keyspace.Database;
import dev.ordo.engine.keyspace.Key;
import dev.ordo.engine.number.LongDouble;
import dev.ordo.engine.value.KeyType;
import dev.ordo.engine.keyspace.Keyspace;
import dev.ordo.engine.number.Decimal;
import dev.ordo.engine.number.Doubles;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One command invocation as a handler sees it: the arguments (index 0 is the name), the client's
 * session, the reply writer, and the keyspace. Argument helpers throw Redis's exact errors.
 */
public final class Call {
    private final CallContext context;
    private final Session session;
    private final byte[][] args;
    private final ReplyWriter reply;
    private final Command command;
    private final boolean blockingAllowed;
    private final EffectLog effects;
    private final Key readyKey;
    private BlockRequest block;
    private List<byte[][]> propagated;

    /**
     * What a blocking command asks for when it cannot be served now: the keys, the type of value
     * that serves it (a key holding another type does not wake it), and the timeout.
     */
    public record BlockRequest(List<Key> keys, KeyType valueType, long timeoutMillis) {
    }

    Call(CallContext context, Session session, byte[][] args, ReplyWriter reply, Command command, boolean blockingAllowed,
            EffectLog effects, Key readyKey) {
        this.context = context;
        this.readyKey = readyKey;
        this.effects = effects;
        this.session = session;
        this.args = args;
        this.reply = reply;
        this.command = command;
        this.blockingAllowed = blockingAllowed;
    }

    /**
     * The client running the command.
     *
     * @return the session
     */
    public Session session() {
        return session;
    }

    /**
     * Where the reply goes.
     *
     * @return the writer
     */
    public ReplyWriter reply() {
        return reply;
    }

    /**
     * The command being run (the subcommand, for one).
     *
     * @return the command
     */
    public Command command() {
        return command;
    }

    /**
     * What the handler reaches beyond its arguments.
     *
     * @return the context
     */
    public CallContext context() {
        return context;
    }

    /**
     * All the databases.
     *
     * @return the keyspace
     */
    public Keyspace keyspace() {
        return context.keyspace();
    }

    /**
     * The selected database.
     *
     * @return the database the session selected
     */
    public Database db() {
        return context.keyspace().db(session.db());
    }

    /**
     * Sends keyspace event {@code event} of class {@code type} ({@code EventClass}) on {@code key} in the selected database.
     *
     * @param type the event's class
     * @param event the event's name, e.g. {@code set}
     * @param key the key
     */
    public void notifyKeyspaceEvent(int type, String event, Key key) {
        context.keyspace().notifyKeyspaceEvent(type, event, key, session.db());
    }

    /**
     * The command time in ms since the epoch.
     *
     * @return the time, in ms
     */
    public long now() {
        return context.keyspace().now();
    }

    /**
     * Number of arguments, the command name included.
     *
     * @return the number of arguments
     */
    public int argc() {
        return args.length;
    }

    /**
     * Argument {@code i} as sent; 0 is the command's name.
     *
     * @param i the argument's index
     * @return its bytes
     */
    public byte[] arg(int i) {
        return args[i];
    }

    /**
     * Every argument as sent, the command's name first.
     *
     * @return the arguments
     */
    public byte[][] args() {
        return args;
    }

    /**
     * The argument decoded as UTF-8.
     *
     * @param i the argument's index
     * @return its text
     */
    public String argString(int i) {
        return new String(args[i], StandardCharsets.UTF_8);
    }

    /**
     * Argument {@code i} as a key.
     *
     * @param i the argument's index
     * @return the key
     */
    public Key key(int i) {
        return Key.of(args[i]);
    }

    /**
     * Whether argument {@code i} is {@code word}, ignoring ASCII case.
     *
     * @param i the argument's index
     * @param word the word, in lowercase
     * @return whether they match
     */
    public boolean argIs(int i, String word) {
        byte[] a = args[i];
        if (a.length != word.length()) {
            return false;
        }
        for (int j = 0; j < a.length; j++) {
            int c = a[j];
            int w = word.charAt(j);
            if (c != w && Character.toUpperCase(c) != Character.toUpperCase(w)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Argument {@code i} as a 64-bit integer, or {@code ERR value is not an integer or out of range}.
     *
     * @param i the argument's index
     * @return its value
     */
    public long longArg(int i) {
        return parseLong(args[i], Errors.NOT_INTEGER);
    }

    /**
     * Argument {@code i} as a double (Redis's strict parsing), or {@code ERR value is not a valid float}.
     *
     * @param i the argument's index
     * @return its value
     */
    public double doubleArg(int i) {
        return doubleArg(i, Errors.NOT_A_FLOAT);
    }

    /**
     * Argument {@code i} as a double, or an error with {@code errorText}.
     *
     * @param i the argument's index
     * @param errorText the error to answer when it is not a valid float
     * @return its value
     */
    public double doubleArg(int i, String errorText) {
        double d = Doubles.parseStrict(args[i]);
        if (Double.isNaN(d)) {
            throw new ErrorReply(errorText);
        }
        return d;
    }

    /**
     * Parses a canonical-enough 64-bit integer as Redis's string2ll does, or throws {@code errorText}.
     *
     * @param b the text
     * @param errorText the error to throw when it is not an integer
     * @return its value
     */
    public static long parseLong(byte[] b, String errorText) {
        long v = Decimal.parseOrMin(b);
        if (v == Long.MIN_VALUE && !Decimal.isMinValue(b)) {
            throw new ErrorReply(errorText);
        }
        return v;
    }

    /**
     * C's {@code strtol(s, NULL, 10)}, which {@code atoi} casts to an int: leading spaces, a sign,
     * the digits up to the first other byte (0 when there are none), saturated to a long.
     */
    static long leadingLong(byte[] s) {
        int i = 0;
        while (i < s.length && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) {
            i++;
        }
        boolean negative = i < s.length && s[i] == '-';
        if (i < s.length && (s[i] == '-' || s[i] == '+')) {
            i++;
        }
        long magnitude = 0;
        for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
            int digit = s[i] - '0';
            if (magnitude > (Long.MAX_VALUE - digit) / 10) {
                return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            magnitude = magnitude * 10 + digit;
        }
        return negative ? -magnitude : magnitude;
    }

    /**
     * Reads {@code key}'s value, or null; throws WRONGTYPE if it holds another type.
     *
     * @param <T> the value type expected
     * @param key the key
     * @param type the value class expected
     * @return the value, or null
     */
    public <T> T read(Key key, Class<T> type) {
        Object v = db().get(key);
        if (v == null) {
            return null;
        }
        if (!type.isInstance(v)) {
            throw new ErrorReply(Errors.WRONGTYPE);
        }
        return type.cast(v);
    }

    /**
     * A write lookup, as Redis's: like {@link #read} (lazy expiry, WRONGTYPE), but counts no
     * keyspace hit or miss; it does refresh the key's access time (OBJECT IDLETIME).
     *
     * @param <T> the value type expected
     * @param key the key
     * @param type the value class expected
     * @return the value, or null
     */
    public <T> T readForWrite(Key key, Class<T> type) {
        Database.Entry e = entryForWrite(key, type);
        return e == null ? null : type.cast(e.value());
    }

    /**
     * {@link #readForWrite}, returning the key's entry: a command that changes the value in place
     * then hands it to {@link Database#touchModified(Key, Database.Entry)} without a second lookup.
     *
     * @param key the key
     * @param type the value class expected
     * @return the entry, or null
     */
    Database.Entry entryForWrite(Key key, Class<?> type) {
        Database.Entry e = db().entryForWrite(key);
        if (e != null && !type.isInstance(e.value())) {
            throw new ErrorReply(Errors.WRONGTYPE);
        }
        return e;
    }

    /**
     * Replies with an array of status lines (the HELP subcommands).
     *
     * @param lines the lines, one element each
     */
    public void replyLines(List<String> lines) {
        reply.arrayHeader(lines.size());
        lines.forEach(reply::simpleString);
    }

    /**
     * Whether this call may block (not inside MULTI or a script).
     *
     * @return whether it may block
     */
    public boolean blockingAllowed() {
        return blockingAllowed;
    }

    /**
     * Asks to block on {@code keys} until one holds a {@code valueType} value, for {@code
     * timeoutMillis} (0: forever); the handler must not reply.
     *
     * @param keys the keys to wait on
     * @param valueType the type of value that wakes the call
     * @param timeoutMillis the longest wait in ms, 0 for no limit
     */
    public void block(List<Key> keys, KeyType valueType, long timeoutMillis) {
        if (!blockingAllowed) {
            throw new IllegalStateException("blocking not allowed here");
        }
        block = new BlockRequest(keys, valueType, timeoutMillis);
    }

    /**
     * Whether a blocking command may serve itself from {@code key}: any of its keys on a first
     * run; once blocked, only the key whose arrival woke it, as Redis 7.0 pops a woken client's
     * reply from that key without looking at its other keys.
     *
     * @param key one of the command's keys
     * @return whether to serve from it
     */
    public boolean mayServeFrom(Key key) {
        return readyKey == null || readyKey.equals(key);
    }

    BlockRequest blockRequest() {
        return block;
    }

    /**
     * Whether this call's effects are being logged (the append-only file is on): handlers whose
     * effect differs from their arguments build it only then, for {@link #propagate}.
     *
     * @return whether effects are logged
     */
    public boolean logsEffects() {
        return effects.enabled();
    }

    /**
     * Logs {@code command} (name first; {@code String}, {@code byte[]}, {@code Key} or a number
     * per argument) as this call's effect in place of its own arguments; call it once per command
     * the effect needs, in order. See {@link EffectLog} for when it is needed.
     *
     * @param command the effect, name first
     */
    public void propagate(Object... command) {
        if (!effects.enabled()) {
            return;
        }
        byte[][] out = new byte[command.length][];
        for (int i = 0; i < command.length; i++) {
            Object part = command[i];
            if (part instanceof byte[] bytes) {
                out[i] = bytes;
            } else if (part instanceof Key key) {
                out[i] = key.bytes();
            } else {
                out[i] = String.valueOf(part).getBytes(StandardCharsets.UTF_8);
            }
        }
        if (propagated == null) {
            propagated = new ArrayList<>(1);
        }
        propagated.add(out);
    }

    /**
     * Logs the effect of a write that left {@code key} with the absolute expiry it was given:
     * {@code command} while the key exists, DEL when the expiry (in the past) deleted it.
     *
     * @param key the key the write left with an expiry
     * @param command the effect to log while the key exists, name first
     */
    public void propagateExpiring(Key key, Object... command) {
        if (db().exists(key)) {
            propagate(command);
        } else {
            propagate("DEL", key);
        }
    }

    /**
     * Logs the removal of {@code members} from {@code key} as one {@code command} (ZREM, SREM) with them.
     *
     * @param command the removing command's name
     * @param key the key
     * @param members the members removed
     */
    public void propagateRemoval(String command, Key key, List<byte[]> members) {
        if (!effects.enabled() || members.isEmpty()) {
            return;
        }
        Object[] removal = new Object[members.size() + 2];
        removal[0] = command;
        removal[1] = key;
        for (int i = 0; i < members.size(); i++) {
            removal[i + 2] = members.get(i);
        }
        propagate(removal);
    }

    /** The effects the handler declared, or null when its arguments are its effect. */
    List<byte[][]> propagated() {
        return propagated;
    }

    /**
     * Parses a blocking timeout in seconds (fractions allowed) into milliseconds: Redis's
     * {@code timeout is not a float or out of range} and {@code timeout is negative} errors.
     *
     * @param i the argument's index
     * @return the timeout in ms, 0 for none
     */
    public long timeoutMillisArg(int i) {
        double seconds = Doubles.parseStrict(args[i]);
        if (Double.isNaN(seconds)) {
            return timeoutBeyondDouble(args[i]);
        }
        double millis = Math.ceil(seconds * 1000.0);
        if (millis > Long.MAX_VALUE / 2) {
            throw new ErrorReply(Errors.TIMEOUT_OUT_OF_RANGE);
        }
        if (millis < 0) {
            throw new ErrorReply(Errors.TIMEOUT_NEGATIVE);
        }
        return (long) millis;
    }

    /**
     * A timeout a double cannot hold but Redis 7.2 reads, as a C {@code long double}
     * ({@link LongDouble}, with {@code string2ld}'s limits: hexadecimal, up to about 1.19e4932,
     * fewer than 5120 bytes), so {@code 1e309} is out of range and {@code -1e309} negative where
     * parsing as a double would call them no float.
     */
    private static long timeoutBeyondDouble(byte[] text) {
        LongDouble seconds = LongDouble.parse(text);
        if (seconds == null) {
            throw new ErrorReply(Errors.TIMEOUT_NOT_FLOAT);
        }
        if (!seconds.isFinite()) {
            throw new ErrorReply(seconds.isNegative() ? Errors.TIMEOUT_NEGATIVE : Errors.TIMEOUT_OUT_OF_RANGE);
        }
        java.math.BigInteger millis = seconds.ceilingThousandths();
        if (millis.compareTo(java.math.BigInteger.valueOf(Long.MAX_VALUE / 2)) > 0) {
            throw new ErrorReply(Errors.TIMEOUT_OUT_OF_RANGE);
        }
        if (millis.signum() < 0) {
            throw new ErrorReply(Errors.TIMEOUT_NEGATIVE);
        }
        return millis.longValueExact();
    }
}
