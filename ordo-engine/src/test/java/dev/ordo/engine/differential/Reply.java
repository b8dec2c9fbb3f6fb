package dev.ordo.engine.differential;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A reply as a tree of RESP types, so that two servers' answers compare type for type: a status
 * and a bulk string with the same text differ, as do a null bulk string and a null array.
 */
public record Reply(Kind kind, byte[] text, long integer, double dbl, List<Reply> children) {
    public enum Kind {
        STATUS, ERROR, INTEGER, BULK, NULL_BULK, NULL_ARRAY, NULL, ARRAY, MAP, SET, PUSH, DOUBLE, BOOLEAN, VERBATIM, BIG_NUMBER
    }

    static Reply text(Kind kind, byte[] text) {
        return new Reply(kind, text, 0, 0, List.of());
    }

    static Reply integer(long v) {
        return new Reply(Kind.INTEGER, null, v, 0, List.of());
    }

    static Reply dbl(double v) {
        return new Reply(Kind.DOUBLE, null, 0, v, List.of());
    }

    static Reply of(Kind kind) {
        return new Reply(kind, null, 0, 0, List.of());
    }

    static Reply aggregate(Kind kind, List<Reply> children) {
        return new Reply(kind, null, 0, 0, children);
    }

    public String textString() {
        return text == null ? null : new String(text, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        switch (kind) {
            case STATUS:
                return "+" + textString();
            case ERROR:
                return "-" + textString();
            case INTEGER:
                return ":" + integer;
            case BULK:
            case VERBATIM:
                return '"' + textString().replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0") + '"';
            case DOUBLE:
                return "," + dbl;
            case BOOLEAN:
                return integer != 0 ? "#t" : "#f";
            case ARRAY:
            case MAP:
            case SET:
            case PUSH:
                return kind.name().charAt(0) + children.toString();
            default:
                return kind.name();
        }
    }
}
