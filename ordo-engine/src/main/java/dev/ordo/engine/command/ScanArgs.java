package dev.ordo.engine.command;

import dev.ordo.engine.value.Value;
import dev.ordo.engine.match.Glob;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.value.KeyType;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What SCAN, SSCAN, HSCAN and ZSCAN share: the cursor's syntax, the MATCH / COUNT / TYPE options
 * and the reply (next cursor as unsigned decimal text, then the elements found).
 */
final class ScanArgs {
    private byte[] pattern;
    private long count = 10;
    private String typeName;

    private ScanArgs() {
    }

    /** Parses the options from argument {@code from} on; SYNTAX for anything else. */
    static ScanArgs parse(Call c, int from, boolean typeAllowed) {
        ScanArgs a = new ScanArgs();
        for (int i = from; i < c.argc(); i += 2) {
            boolean hasValue = i + 1 < c.argc();
            if (c.argIs(i, "COUNT") && hasValue) {
                a.count = c.longArg(i + 1);
                if (a.count < 1) {
                    throw new ErrorReply(Errors.SYNTAX);
                }
            } else if (c.argIs(i, "MATCH") && hasValue) {
                byte[] p = c.arg(i + 1);
                a.pattern = p.length == 1 && p[0] == '*' ? null : p;
            } else if (c.argIs(i, "TYPE") && typeAllowed && hasValue) {
                a.typeName = c.argString(i + 1);
            } else {
                throw new ErrorReply(Errors.SYNTAX);
            }
        }
        return a;
    }

    /** The COUNT hint, bounded so that a table's work budget (ten times it) cannot overflow. */
    int countForTable() {
        return (int) Math.min(count, Integer.MAX_VALUE / 10);
    }

    boolean matches(byte[] element) {
        return pattern == null || Glob.matches(pattern, element, false);
    }

    /** Whether {@code value} has the TYPE asked for (always, without TYPE; never, for an unknown name). */
    boolean typeMatches(Value value) {
        if (typeName == null) {
            return true;
        }
        KeyType wanted = KeyType.named(typeName);
        return wanted != null && value.type() == wanted;
    }

    /**
     * Parses a SCAN cursor as Redis's strtoul does: an unsigned 64-bit decimal with an optional
     * sign ("-1" wraps to 2^64-1), no leading space, the empty string meaning 0; input ends at a
     * NUL byte. Anything else is {@code ERR invalid cursor}.
     */
    static long parseCursor(byte[] arg) {
        int n = 0;
        while (n < arg.length && arg[n] != 0) {
            n++;
        }
        if (n == 0) {
            return 0;
        }
        int i = arg[0] == '+' || arg[0] == '-' ? 1 : 0;
        if (i == n) {
            throw new ErrorReply(Errors.INVALID_CURSOR);
        }
        long value = 0;
        for (; i < n; i++) {
            int d = arg[i] - '0';
            if (d < 0 || d > 9 || Long.compareUnsigned(value, Long.divideUnsigned(-1L - d, 10)) > 0) {
                throw new ErrorReply(Errors.INVALID_CURSOR);
            }
            value = value * 10 + d;
        }
        return arg[0] == '-' ? -value : value;
    }

    /** Replies a SCAN step: the next cursor as an unsigned decimal bulk string, then the elements. */
    static void reply(Call c, long next, List<byte[]> elements) {
        c.reply().arrayHeader(2);
        c.reply().bulk(Long.toUnsignedString(next).getBytes(StandardCharsets.US_ASCII));
        c.reply().arrayHeader(elements.size());
        elements.forEach(c.reply()::bulk);
    }
}
