package dev.ordo.engine.script.lib;

import java.util.ArrayDeque;
import java.util.Deque;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * {@code cjson.decode}: lua-cjson 2.1.0's JSON reader.
 *
 * <p>The input reads as a C string: a NUL byte ends it (a NUL in either of the first two bytes is refused as UTF-16 or
 * UTF-32). Numbers are read with {@code strtod}, so with {@code decode_invalid_numbers} on (the default) hexadecimal,
 * {@code +1}, {@code 007}, {@code inf} and {@code nan} are accepted; with it off they are {@code invalid number}
 * errors. Strings take lua-cjson's escapes, {@code \}{@code u} escapes become UTF-8 (a surrogate pair as one code
 * point) and raw control bytes pass through. JSON {@code null} becomes {@link CjsonLib#NULL}.
 *
 * <p>Errors are lua-cjson's: {@code Expected <what> but found <token> at character <n>} with 1-based positions, and
 * {@code Found too many nested data structures (<depth>) at character <n>} past {@code decode_max_depth} or where the
 * open containers would take more than 8000 Lua stack slots (one per array, two per object).
 *
 * <p>Containers are parsed with an explicit stack rather than recursion, so deep nesting cannot overflow the Java
 * stack.
 */
final class JsonDecoder {

    private enum TokenType {
        T_OBJ_BEGIN, T_OBJ_END, T_ARR_BEGIN, T_ARR_END, T_STRING, T_NUMBER, T_BOOLEAN, T_NULL, T_COLON, T_COMMA,
        T_END, T_ERROR
    }

    private static final int ARRAY_STACK_SLOTS = 2;
    private static final int OBJECT_STACK_SLOTS = 3;

    private final JsonConfig config;
    private final byte[] data;
    private final int start;
    private final int end;
    private final CStrtod strtod;
    private final ByteSink text = new ByteSink(32);
    private int ptr;
    private int depth;
    private int stackSlots = 1;

    private TokenType tokenType;
    private int tokenIndex;
    private String tokenError;
    private LuaValue tokenValue;

    private JsonDecoder(LuaString json, JsonConfig config) {
        this.config = config;
        this.data = json.m_bytes;
        this.start = json.m_offset;
        this.end = json.m_offset + json.m_length;
        this.ptr = start;
        this.strtod = new CStrtod(data, end);
    }

    /** Returns the Lua value of the JSON text {@code json}, or throws lua-cjson's error. */
    static LuaValue decode(LuaString json, JsonConfig config) {
        if (json.m_length >= 2 && (json.m_bytes[json.m_offset] == 0 || json.m_bytes[json.m_offset + 1] == 0)) {
            throw LuaArgs.error("JSON parser does not support UTF-16 or UTF-32");
        }
        return new JsonDecoder(json, config).parse();
    }

    /** One open container; {@code key} is the pending key of an object, {@code index} the next array index. */
    private static final class Frame {
        final LuaTable table;
        final boolean object;
        LuaValue key;
        int index = 1;

        Frame(LuaTable table, boolean object) {
            this.table = table;
            this.object = object;
        }
    }

    private LuaValue parse() {
        Deque<Frame> frames = new ArrayDeque<>();
        nextToken();
        while (true) {
            LuaValue value;
            switch (tokenType) {
                case T_STRING:
                case T_NUMBER:
                case T_BOOLEAN:
                    value = tokenValue;
                    break;
                case T_NULL:
                    value = CjsonLib.NULL;
                    break;
                case T_ARR_BEGIN: {
                    descend(ARRAY_STACK_SLOTS);
                    LuaTable array = new LuaTable();
                    nextToken();
                    if (tokenType != TokenType.T_ARR_END) {
                        frames.push(new Frame(array, false));
                        stackSlots += 1;
                        continue;
                    }
                    depth--;
                    value = array;
                    break;
                }
                case T_OBJ_BEGIN: {
                    descend(OBJECT_STACK_SLOTS);
                    LuaTable object = new LuaTable();
                    nextToken();
                    if (tokenType != TokenType.T_OBJ_END) {
                        Frame frame = new Frame(object, true);
                        frames.push(frame);
                        stackSlots += 2;
                        readKeyAndColon(frame);
                        continue;
                    }
                    depth--;
                    value = object;
                    break;
                }
                default:
                    throw parseError("value");
            }
            // A value is complete: store it in its container, closing containers that end here.
            while (true) {
                Frame frame = frames.peek();
                if (frame == null) {
                    nextToken();
                    if (tokenType != TokenType.T_END) {
                        throw parseError("the end");
                    }
                    return value;
                }
                if (frame.object) {
                    frame.table.rawset(frame.key, value);
                } else {
                    frame.table.rawset(frame.index++, value);
                }
                nextToken();
                TokenType close = frame.object ? TokenType.T_OBJ_END : TokenType.T_ARR_END;
                if (tokenType == close) {
                    frames.pop();
                    stackSlots -= frame.object ? 2 : 1;
                    depth--;
                    value = frame.table;
                    continue;
                }
                if (tokenType != TokenType.T_COMMA) {
                    throw parseError(frame.object ? "comma or object end" : "comma or array end");
                }
                nextToken();
                if (frame.object) {
                    readKeyAndColon(frame);
                }
                break;
            }
        }
    }

    /** With the current token the start of an object member, reads the key and colon and the value's first token. */
    private void readKeyAndColon(Frame frame) {
        if (tokenType != TokenType.T_STRING) {
            throw parseError("object key string");
        }
        frame.key = tokenValue;
        nextToken();
        if (tokenType != TokenType.T_COLON) {
            throw parseError("colon");
        }
        nextToken();
    }

    private void descend(int slots) {
        depth++;
        if (depth > config.decodeMaxDepth || stackSlots + slots > LuaArgs.MAX_C_STACK) {
            throw LuaArgs.error("Found too many nested data structures (" + depth + ") at character "
                    + (ptr - start));
        }
    }

    private LuaError parseError(String expected) {
        String found = tokenType == TokenType.T_ERROR ? tokenError : tokenType.name();
        return LuaArgs.error("Expected " + expected + " but found " + found + " at character "
                + (tokenIndex - start + 1));
    }

    private int at(int i) {
        return i < end ? data[i] & 0xff : 0;
    }

    private void nextToken() {
        int ch = at(ptr);
        while (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            ch = at(++ptr);
        }
        tokenIndex = ptr;
        switch (ch) {
            case 0:
                tokenType = TokenType.T_END;
                return;
            case '{':
                single(TokenType.T_OBJ_BEGIN);
                return;
            case '}':
                single(TokenType.T_OBJ_END);
                return;
            case '[':
                single(TokenType.T_ARR_BEGIN);
                return;
            case ']':
                single(TokenType.T_ARR_END);
                return;
            case ':':
                single(TokenType.T_COLON);
                return;
            case ',':
                single(TokenType.T_COMMA);
                return;
            case '"':
                readString();
                return;
            default:
                break;
        }
        if (ch == '-' || (ch >= '0' && ch <= '9')) {
            if (!config.decodeInvalidNumbers && isInvalidNumber()) {
                setError("invalid number");
                return;
            }
            readNumber();
        } else if (!isKnownStart(ch)) {
            setError("invalid token");
        } else if (matches("true")) {
            literal(LuaValue.TRUE, 4);
        } else if (matches("false")) {
            literal(LuaValue.FALSE, 5);
        } else if (matches("null")) {
            tokenType = TokenType.T_NULL;
            ptr += 4;
        } else if (config.decodeInvalidNumbers && isInvalidNumber()) {
            readNumber();
        } else {
            setError("invalid token");
        }
    }

    /** Characters lua-cjson sends to its slow path: literals, numbers and the invalid-number spellings. */
    private static boolean isKnownStart(int ch) {
        return ch == 't' || ch == 'f' || ch == 'n' || ch == 'N' || ch == 'i' || ch == 'I' || ch == '+';
    }

    private void single(TokenType type) {
        tokenType = type;
        ptr++;
    }

    private void literal(LuaValue value, int length) {
        tokenType = TokenType.T_BOOLEAN;
        tokenValue = value;
        ptr += length;
    }

    private boolean matches(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (at(ptr + k) != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private boolean matchesIgnoringCase(int from, String word) {
        for (int k = 0; k < word.length(); k++) {
            int c = at(from + k);
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != word.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** lua-cjson's {@code json_is_invalid_number}: strtod input that strict JSON forbids. */
    private boolean isInvalidNumber() {
        int p = ptr;
        if (at(p) == '+') {
            return true;
        }
        if (at(p) == '-') {
            p++;
        }
        int c = at(p);
        if (c == '0') {
            int c2 = at(p + 1);
            return (c2 | 0x20) == 'x' || (c2 >= '0' && c2 <= '9');
        }
        if (c <= '9') {
            return false;
        }
        return matchesIgnoringCase(p, "inf") || matchesIgnoringCase(p, "nan");
    }

    private void readNumber() {
        if (!strtod.parse(ptr)) {
            setError("invalid number");
            return;
        }
        tokenType = TokenType.T_NUMBER;
        tokenValue = LuaValue.valueOf(strtod.value());
        ptr = strtod.end();
    }

    private void setError(String message) {
        tokenType = TokenType.T_ERROR;
        tokenIndex = ptr;
        tokenError = message;
    }

    private void readString() {
        ptr++;
        text.clear();
        while (true) {
            int ch = at(ptr);
            if (ch == '"') {
                break;
            }
            if (ch == 0) {
                setError("unexpected end of string");
                return;
            }
            if (ch == '\\') {
                int escaped = unescape(at(ptr + 1));
                if (escaped == 'u') {
                    if (!appendUnicodeEscape()) {
                        setError("invalid unicode escape code");
                        return;
                    }
                    continue;
                }
                if (escaped < 0) {
                    setError("invalid escape code");
                    return;
                }
                ptr++;
                ch = escaped;
            }
            text.append(ch);
            ptr++;
        }
        ptr++;
        tokenType = TokenType.T_STRING;
        tokenValue = text.toLuaString();
    }

    /** The byte an escape letter stands for, {@code 'u'} for a unicode escape, or -1 when it is no escape. */
    private static int unescape(int letter) {
        switch (letter) {
            case '"':
            case '\\':
            case '/':
                return letter;
            case 'b':
                return '\b';
            case 'f':
                return '\f';
            case 'n':
                return '\n';
            case 'r':
                return '\r';
            case 't':
                return '\t';
            case 'u':
                return 'u';
            default:
                return -1;
        }
    }

    /** Reads the escape at {@code ptr} (a pair for a surrogate) and appends it as UTF-8; false when malformed. */
    private boolean appendUnicodeEscape() {
        int codePoint = hex4(ptr + 2);
        if (codePoint < 0) {
            return false;
        }
        int length = 6;
        if ((codePoint & 0xF800) == 0xD800) {
            if ((codePoint & 0x400) != 0 || at(ptr + 6) != '\\' || at(ptr + 7) != 'u') {
                return false;
            }
            int low = hex4(ptr + 8);
            if (low < 0 || (low & 0xFC00) != 0xDC00) {
                return false;
            }
            codePoint = (((codePoint & 0x3FF) << 10) | (low & 0x3FF)) + 0x10000;
            length = 12;
        }
        if (codePoint < 0x80) {
            text.append(codePoint);
        } else if (codePoint < 0x800) {
            text.append(0xC0 | (codePoint >> 6));
            text.append(0x80 | (codePoint & 0x3F));
        } else if (codePoint < 0x10000) {
            text.append(0xE0 | (codePoint >> 12));
            text.append(0x80 | ((codePoint >> 6) & 0x3F));
            text.append(0x80 | (codePoint & 0x3F));
        } else {
            text.append(0xF0 | (codePoint >> 18));
            text.append(0x80 | ((codePoint >> 12) & 0x3F));
            text.append(0x80 | ((codePoint >> 6) & 0x3F));
            text.append(0x80 | (codePoint & 0x3F));
        }
        ptr += length;
        return true;
    }

    private int hex4(int from) {
        int value = 0;
        for (int k = 0; k < 4; k++) {
            int c = at(from + k);
            int digit;
            if (c >= '0' && c <= '9') {
                digit = c - '0';
            } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
                digit = (c | 0x20) - 'a' + 10;
            } else {
                return -1;
            }
            value = (value << 4) | digit;
        }
        return value;
    }
}
