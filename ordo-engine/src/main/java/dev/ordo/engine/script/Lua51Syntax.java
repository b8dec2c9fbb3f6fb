package dev.ordo.engine.script;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Lua 5.1's compile-time verdict on a chunk, with the message Redis's embedded Lua 5.1 gives for
 * the first lexical or syntax error. Ordo compiles with LuaJ, whose Lua 5.2 parser words its
 * errors differently and accepts or rejects other programs; running this check first lets EVAL
 * and FUNCTION LOAD answer as Redis does.
 *
 * <p>Written from the Lua 5.1 reference manual's grammar and from the replies of a real
 * redis-server 7.0.15, which fix what is observable:
 * <ul>
 * <li>A message is {@code CHUNK:LINE: TEXT near 'TOKEN'}. LINE is the line the scanner is on
 *     when the error is found: the line where the offending token ends, or where the scanner
 *     stopped inside a bad token. TOKEN is the text of the last scanned token when it is a name,
 *     number or string (strings with their quotes, escapes decoded, the first newline of a long
 *     string dropped, cut at a NUL byte); otherwise the token's fixed spelling ({@code <eof>},
 *     {@code ==}, {@code end}), a control byte as {@code char(N)}, or nothing at all for a NUL
 *     byte and for limit errors.</li>
 * <li>Lua 5.1 specifics: {@code goto} is a name and {@code ::}, {@code //}, {@code &},
 *     {@code <<} are not tokens; unknown escapes like {@code \z} or {@code \x} stand for the letter,
 *     and only a decimal escape above 255 is an error; a numeral is any run of digits, dots,
 *     letters and underscores (with a sign after its first {@code e}) that C's {@code strtod}
 *     must read entirely, so hex floats such as {@code 0x1p4} are numbers; long brackets do not
 *     nest; {@code \r\n} and {@code \n\r} are one line end; empty statements ({@code ;;}) are
 *     errors; {@code return} and {@code break} end their block.</li>
 * <li>Limits, as Lua 5.1 counts them: 200 syntax levels (each chunk, block and sub-expression
 *     takes one, so 199 nested parentheses in a {@code return} are too many), 200 local
 *     variables active per function (counting the three hidden ones of a {@code for}, {@code self}
 *     and the {@code arg} of a vararg function), 60 upvalues per function, and fewer targets in
 *     one assignment the deeper it sits (199 at the top level).</li>
 * </ul>
 *
 * <p>Not checked, because they depend on code generation rather than syntax: registers ("function
 * or expression too complex"), jump lengths ("control structure too long") and the constant
 * table's size. Scripts that hit them reach LuaJ, which has limits of its own.
 *
 * <p>Cost: one pass over the bytes, linear in their length; recursion is bounded by the 200-level
 * limit, so hostile nesting ends in the limit's message, never in a stack overflow. Not
 * thread-safe; each call makes its own state.
 */
final class Lua51Syntax {
    private static final int EOZ = -1;
    private static final int MAX_LEVELS = 200;
    private static final int MAX_VARS = 200;
    private static final int MAX_UPVALUES = 60;

    // Tokens: single bytes are their own codes; these follow them.
    private static final int AND = 257;
    private static final int BREAK = 258;
    private static final int DO = 259;
    private static final int ELSE = 260;
    private static final int ELSEIF = 261;
    private static final int END = 262;
    private static final int FALSE = 263;
    private static final int FOR = 264;
    private static final int FUNCTION = 265;
    private static final int IF = 266;
    private static final int IN = 267;
    private static final int LOCAL = 268;
    private static final int NIL = 269;
    private static final int NOT = 270;
    private static final int OR = 271;
    private static final int REPEAT = 272;
    private static final int RETURN = 273;
    private static final int THEN = 274;
    private static final int TRUE = 275;
    private static final int UNTIL = 276;
    private static final int WHILE = 277;
    private static final int CONCAT = 278;
    private static final int DOTS = 279;
    private static final int EQ = 280;
    private static final int GE = 281;
    private static final int LE = 282;
    private static final int NE = 283;
    private static final int NUMBER = 284;
    private static final int NAME = 285;
    private static final int STRING = 286;
    private static final int EOS = 287;

    private static final String[] SPELLING = {
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local", "nil", "not", "or",
        "repeat", "return", "then", "true", "until", "while", "..", "...", "==", ">=", "<=", "~=", "<number>", "<name>",
        "<string>", "<eof>",
    };
    private static final Map<String, Integer> RESERVED = new HashMap<>();

    static {
        for (int t = AND; t <= WHILE; t++) {
            RESERVED.put(SPELLING[t - AND], t);
        }
    }

    /** Binary operators' priorities, left and right, indexed by {@link #binaryOperator}'s result. */
    private static final int[] LEFT = {6, 6, 7, 7, 7, 10, 5, 3, 3, 3, 3, 3, 3, 2, 1};
    private static final int[] RIGHT = {6, 6, 7, 7, 7, 9, 4, 3, 3, 3, 3, 3, 3, 2, 1};
    private static final int UNARY_PRIORITY = 8;

    /** What a primary expression turned out to be, which decides whether it may be assigned or stand alone. */
    private enum Kind { VARIABLE, CALL, VALUE }

    private final byte[] src;
    private final String chunkName;
    private int pos;
    private int current;
    private int line = 1;
    private int lastLine = 1;
    private byte[] buffer = new byte[64];
    private int bufferLength;
    private int token;
    private String tokenName;
    private String scannedName;
    private int ahead = EOS;
    private String aheadName;
    private int levels;
    private Function fs;

    private Lua51Syntax(byte[] src, String chunkName) {
        this.src = src;
        this.chunkName = chunkName;
        this.current = src.length > 0 ? src[0] & 0xff : EOZ;
    }

    /**
     * Returns Lua 5.1's message for the first lexical or syntax error in {@code source}, as
     * {@code chunkName:LINE: message near 'token'}, or null when Lua 5.1 compiles it.
     */
    static String firstError(byte[] source, String chunkName) {
        Lua51Syntax p = new Lua51Syntax(source, chunkName);
        try {
            p.mainFunction();
            return null;
        } catch (Failure f) {
            return f.getMessage();
        }
    }

    /** The first error found; it ends the check. */
    private static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * One function being parsed. Local variable i of a function lives in register i, so an active
     * local is known by its index; {@code latest} maps a name to its innermost active index, and
     * {@code shadowed[i]} to the index it hid (or -1), so scopes close in constant time per
     * variable. Upvalues are known by where the enclosing function keeps them: a local index, or
     * {@link #UPVALUE} plus an upvalue index.
     */
    private static final class Function {
        static final int UPVALUE = 1 << 16;
        final Function parent;
        final int lineDefined;
        boolean vararg;
        final String[] names = new String[MAX_VARS];
        final int[] shadowed = new int[MAX_VARS];
        final Map<String, Integer> latest = new HashMap<>();
        int active;
        final int[] upvalues = new int[MAX_UPVALUES];
        int upvalueCount;
        int openLoops;

        Function(Function parent, int lineDefined) {
            this.parent = parent;
            this.lineDefined = lineDefined;
        }
    }

    // ---- errors ----

    private Failure error(String message, int near) {
        StringBuilder m = new StringBuilder(chunkName).append(':').append(line).append(": ").append(message);
        if (near != 0) {
            m.append(" near '").append(text(near)).append('\'');
        }
        return new Failure(m.toString());
    }

    private Failure syntaxError(String message) {
        return error(message, token);
    }

    /** A token as messages show it: the scanned text for names, numbers and strings (up to a NUL), else its spelling. */
    private String text(int t) {
        if (t == NAME || t == NUMBER || t == STRING) {
            int n = 0;
            while (n < bufferLength && buffer[n] != 0) {
                n++;
            }
            return new String(buffer, 0, n, StandardCharsets.UTF_8);
        }
        return spelling(t);
    }

    private static String spelling(int t) {
        if (t >= AND) {
            return SPELLING[t - AND];
        }
        if (t < 32 || t == 127) {
            return "char(" + t + ")";
        }
        return new String(new byte[] {(byte) t}, StandardCharsets.UTF_8);
    }

    private Failure expected(int t) {
        return syntaxError("'" + spelling(t) + "' expected");
    }

    private void limit(Function f, int value, int max, String what) {
        if (value > max) {
            String where = f.lineDefined == 0 ? "main function" : "function at line " + f.lineDefined;
            throw error(where + " has more than " + max + " " + what, 0);
        }
    }

    // ---- scanner ----

    private void advance() {
        pos++;
        current = pos < src.length ? src[pos] & 0xff : EOZ;
    }

    private void save(int c) {
        if (bufferLength == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        buffer[bufferLength++] = (byte) c;
    }

    private void saveAndAdvance() {
        save(current);
        advance();
    }

    /**
     * Saves and skips the current byte when it is in {@code set}. As C's {@code strchr} does, a NUL
     * byte counts as in every set.
     */
    private boolean acceptAny(String set) {
        if (current == EOZ || current != 0 && set.indexOf(current) < 0) {
            return false;
        }
        saveAndAdvance();
        return true;
    }

    private boolean atNewline() {
        return current == '\n' || current == '\r';
    }

    /** Skips a line end: one of \n, \r, \r\n, \n\r. */
    private void newline() {
        int first = current;
        advance();
        if (atNewline() && current != first) {
            advance();
        }
        line++;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isAlpha(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static boolean isNameChar(int c) {
        return isAlpha(c) || isDigit(c) || c == '_';
    }

    private static boolean isSpace(int c) {
        return c == ' ' || c >= '\t' && c <= '\r';
    }

    private void next() {
        lastLine = line;
        if (ahead != EOS) {
            token = ahead;
            tokenName = aheadName;
            ahead = EOS;
        } else {
            token = scan();
            tokenName = token == NAME ? scannedName : null;
        }
    }

    private void lookahead() {
        ahead = scan();
        aheadName = ahead == NAME ? scannedName : null;
    }

    private int scan() {
        bufferLength = 0;
        for (;;) {
            switch (current) {
                case '\n', '\r' -> newline();
                case '-' -> {
                    advance();
                    if (current != '-') {
                        return '-';
                    }
                    advance();
                    if (current == '[') {
                        int level = longBracket();
                        bufferLength = 0;
                        if (level >= 0) {
                            longString(level, false);
                            bufferLength = 0;
                            continue;
                        }
                    }
                    while (!atNewline() && current != EOZ) {
                        advance();
                    }
                }
                case '[' -> {
                    int level = longBracket();
                    if (level >= 0) {
                        longString(level, true);
                        return STRING;
                    }
                    if (level == -1) {
                        return '[';
                    }
                    throw error("invalid long string delimiter", STRING);
                }
                case '=' -> {
                    return twoChar('=', EQ);
                }
                case '<' -> {
                    return twoChar('<', LE);
                }
                case '>' -> {
                    return twoChar('>', GE);
                }
                case '~' -> {
                    return twoChar('~', NE);
                }
                case '"', '\'' -> {
                    quotedString(current);
                    return STRING;
                }
                case '.' -> {
                    saveAndAdvance();
                    if (acceptAny(".")) {
                        return acceptAny(".") ? DOTS : CONCAT;
                    }
                    if (!isDigit(current)) {
                        return '.';
                    }
                    numeral();
                    return NUMBER;
                }
                case EOZ -> {
                    return EOS;
                }
                default -> {
                    if (isSpace(current)) {
                        advance();
                    } else if (isDigit(current)) {
                        numeral();
                        return NUMBER;
                    } else if (isAlpha(current) || current == '_') {
                        do {
                            saveAndAdvance();
                        } while (isNameChar(current));
                        String name = new String(buffer, 0, bufferLength, StandardCharsets.ISO_8859_1);
                        Integer reserved = RESERVED.get(name);
                        if (reserved != null) {
                            return reserved;
                        }
                        scannedName = name;
                        return NAME;
                    } else {
                        int c = current;
                        advance();
                        return c;
                    }
                }
            }
        }
    }

    /** {@code c} alone, or {@code two} when an '=' follows. */
    private int twoChar(int c, int two) {
        advance();
        if (current != '=') {
            return c;
        }
        advance();
        return two;
    }

    /**
     * Reads a '[' or ']' and the '='s after it. Returns their count when the same bracket follows,
     * else -(count + 1): -1 for a lone bracket.
     */
    private int longBracket() {
        int bracket = current;
        int count = 0;
        saveAndAdvance();
        while (current == '=') {
            saveAndAdvance();
            count++;
        }
        return current == bracket ? count : -count - 1;
    }

    private void longString(int level, boolean keep) {
        saveAndAdvance();
        if (atNewline()) {
            newline();
        }
        for (;;) {
            switch (current) {
                case EOZ -> throw error(keep ? "unfinished long string" : "unfinished long comment", EOS);
                case ']' -> {
                    if (longBracket() == level) {
                        saveAndAdvance();
                        return;
                    }
                }
                case '\n', '\r' -> {
                    save('\n');
                    newline();
                    if (!keep) {
                        bufferLength = 0;
                    }
                }
                default -> {
                    if (keep) {
                        saveAndAdvance();
                    } else {
                        advance();
                    }
                }
            }
        }
    }

    private void quotedString(int quote) {
        saveAndAdvance();
        while (current != quote) {
            switch (current) {
                case EOZ -> throw error("unfinished string", EOS);
                case '\n', '\r' -> throw error("unfinished string", STRING);
                case '\\' -> escape();
                default -> saveAndAdvance();
            }
        }
        saveAndAdvance();
    }

    private void escape() {
        advance();
        int c;
        switch (current) {
            case 'a' -> c = 7;
            case 'b' -> c = '\b';
            case 'f' -> c = '\f';
            case 'n' -> c = '\n';
            case 'r' -> c = '\r';
            case 't' -> c = '\t';
            case 'v' -> c = 11;
            case '\n', '\r' -> {
                save('\n');
                newline();
                return;
            }
            case EOZ -> {
                return;
            }
            default -> {
                if (!isDigit(current)) {
                    saveAndAdvance();
                    return;
                }
                c = 0;
                int i = 0;
                do {
                    c = 10 * c + current - '0';
                    advance();
                } while (++i < 3 && isDigit(current));
                if (c > 255) {
                    throw error("escape sequence too large", STRING);
                }
                save(c);
                return;
            }
        }
        save(c);
        advance();
    }

    private void numeral() {
        do {
            saveAndAdvance();
        } while (isDigit(current) || current == '.');
        if (acceptAny("Ee")) {
            acceptAny("+-");
        }
        while (isNameChar(current)) {
            saveAndAdvance();
        }
        if (!Strtod.readsWhole(buffer, bufferLength)) {
            throw error("malformed number", NUMBER);
        }
    }

    /**
     * Whether C's {@code strtod} (glibc, C locale) reads all of a numeral up to its first NUL, as
     * Lua 5.1 requires. A numeral starts with a digit or a dot and holds only digits, dots,
     * letters, underscores and signs, so only the decimal and hexadecimal forms matter. (Lua also
     * retries with {@code strtoul} when {@code strtod} stops at an 'x'; that never reads further,
     * since {@code strtod} already took every hexadecimal integer.)
     */
    private static final class Strtod {
        private Strtod() {
        }

        static boolean readsWhole(byte[] b, int length) {
            int end = 0;
            while (end < length && b[end] != 0) {
                end++;
            }
            if (end >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')) {
                int j = 2;
                int digits = 0;
                while (j < end && Character.digit(b[j], 16) >= 0) {
                    j++;
                    digits++;
                }
                if (j < end && b[j] == '.') {
                    j++;
                    while (j < end && Character.digit(b[j], 16) >= 0) {
                        j++;
                        digits++;
                    }
                }
                // With no hexadecimal digit, strtod reads the "0" alone.
                return digits > 0 && exponent(b, j, end, 'p') == end;
            }
            int i = 0;
            int digits = 0;
            while (i < end && isDigit(b[i])) {
                i++;
                digits++;
            }
            if (i < end && b[i] == '.') {
                i++;
                while (i < end && isDigit(b[i])) {
                    i++;
                    digits++;
                }
            }
            return digits > 0 && exponent(b, i, end, 'e') == end;
        }

        /** The end of an optional exponent at {@code i} (marker, sign, at least one digit), or {@code i}. */
        private static int exponent(byte[] b, int i, int end, char marker) {
            if (i >= end || (b[i] | 0x20) != marker) {
                return i;
            }
            int j = i + 1;
            if (j < end && (b[j] == '+' || b[j] == '-')) {
                j++;
            }
            if (j >= end || !isDigit(b[j])) {
                return i;
            }
            while (j < end && isDigit(b[j])) {
                j++;
            }
            return j;
        }
    }

    // ---- parser helpers ----

    private boolean test(int t) {
        if (token != t) {
            return false;
        }
        next();
        return true;
    }

    private void check(int t) {
        if (token != t) {
            throw expected(t);
        }
    }

    private void checkNext(int t) {
        check(t);
        next();
    }

    /** Expects {@code what} closing {@code who} opened at {@code where}; names that line when it is not this one. */
    private void checkMatch(int what, int who, int where) {
        if (!test(what)) {
            if (where == line) {
                throw expected(what);
            }
            throw syntaxError("'" + spelling(what) + "' expected (to close '" + spelling(who) + "' at line " + where + ")");
        }
    }

    private String checkName() {
        check(NAME);
        String name = tokenName;
        next();
        return name;
    }

    private void enterLevel() {
        if (++levels > MAX_LEVELS) {
            throw error("chunk has too many syntax levels", 0);
        }
    }

    private void leaveLevel() {
        levels--;
    }

    private static boolean blockFollows(int t) {
        return t == ELSE || t == ELSEIF || t == END || t == UNTIL || t == EOS;
    }

    // ---- variables ----

    /** Declares the {@code n}-th of the variables a statement is introducing; they become visible at {@link #activate}. */
    private void declareLocal(String name, int n) {
        limit(fs, fs.active + n + 1, MAX_VARS, "local variables");
        fs.names[fs.active + n] = name;
    }

    private void activate(int count) {
        for (int i = 0; i < count; i++) {
            int index = fs.active++;
            Integer hidden = fs.latest.put(fs.names[index], index);
            fs.shadowed[index] = hidden == null ? -1 : hidden;
        }
    }

    private void closeScope(int activeBefore) {
        while (fs.active > activeBefore) {
            int index = --fs.active;
            if (fs.shadowed[index] < 0) {
                fs.latest.remove(fs.names[index]);
            } else {
                fs.latest.put(fs.names[index], fs.shadowed[index]);
            }
        }
    }

    /** Resolves a name: a local index, {@link Function#UPVALUE} plus an upvalue index, or -1 for a global. */
    private int resolve(Function f, String name) {
        if (f == null) {
            return -1;
        }
        Integer local = f.latest.get(name);
        if (local != null) {
            return local;
        }
        int outer = resolve(f.parent, name);
        if (outer < 0) {
            return -1;
        }
        for (int i = 0; i < f.upvalueCount; i++) {
            if (f.upvalues[i] == outer) {
                return Function.UPVALUE + i;
            }
        }
        limit(f, f.upvalueCount + 1, MAX_UPVALUES, "upvalues");
        f.upvalues[f.upvalueCount] = outer;
        return Function.UPVALUE + f.upvalueCount++;
    }

    private void variable() {
        String name = checkName();
        resolve(fs, name);
    }

    // ---- statements ----

    private void mainFunction() {
        fs = new Function(null, 0);
        fs.vararg = true;
        next();
        chunk();
        check(EOS);
    }

    private void chunk() {
        enterLevel();
        boolean last = false;
        while (!last && !blockFollows(token)) {
            last = statement();
            test(';');
        }
        leaveLevel();
    }

    private void block() {
        int before = fs.active;
        chunk();
        closeScope(before);
    }

    /** Parses one statement; returns whether it must be the block's last ({@code return}, {@code break}). */
    private boolean statement() {
        int startLine = line;
        switch (token) {
            case IF -> ifStatement(startLine);
            case WHILE -> whileStatement(startLine);
            case DO -> {
                next();
                block();
                checkMatch(END, DO, startLine);
            }
            case FOR -> forStatement(startLine);
            case REPEAT -> repeatStatement(startLine);
            case FUNCTION -> {
                next();
                boolean method = functionName();
                body(method, startLine);
            }
            case LOCAL -> {
                next();
                if (test(FUNCTION)) {
                    declareLocal(checkName(), 0);
                    activate(1);
                    body(false, line);
                } else {
                    localStatement();
                }
            }
            case RETURN -> {
                next();
                if (!blockFollows(token) && token != ';') {
                    expressionList();
                }
                return true;
            }
            case BREAK -> {
                next();
                if (fs.openLoops == 0) {
                    throw syntaxError("no loop to break");
                }
                return true;
            }
            default -> expressionStatement();
        }
        return false;
    }

    private void ifStatement(int startLine) {
        testThenBlock();
        while (token == ELSEIF) {
            testThenBlock();
        }
        if (test(ELSE)) {
            block();
        }
        checkMatch(END, IF, startLine);
    }

    private void testThenBlock() {
        next();
        expression();
        checkNext(THEN);
        block();
    }

    private void whileStatement(int startLine) {
        next();
        expression();
        fs.openLoops++;
        checkNext(DO);
        block();
        checkMatch(END, WHILE, startLine);
        fs.openLoops--;
    }

    private void repeatStatement(int startLine) {
        int before = fs.active;
        fs.openLoops++;
        next();
        chunk();
        checkMatch(UNTIL, REPEAT, startLine);
        expression();
        closeScope(before);
        fs.openLoops--;
    }

    private void forStatement(int startLine) {
        int before = fs.active;
        fs.openLoops++;
        next();
        String first = checkName();
        switch (token) {
            case '=' -> {
                declareLocal("(for index)", 0);
                declareLocal("(for limit)", 1);
                declareLocal("(for step)", 2);
                declareLocal(first, 3);
                checkNext('=');
                expression();
                checkNext(',');
                expression();
                if (test(',')) {
                    expression();
                }
                forBody(1);
            }
            case ',', IN -> {
                int n = 0;
                declareLocal("(for generator)", n++);
                declareLocal("(for state)", n++);
                declareLocal("(for control)", n++);
                declareLocal(first, n++);
                while (test(',')) {
                    declareLocal(checkName(), n++);
                }
                checkNext(IN);
                expressionList();
                forBody(n - 3);
            }
            default -> throw syntaxError("'=' or 'in' expected");
        }
        checkMatch(END, FOR, startLine);
        closeScope(before);
        fs.openLoops--;
    }

    private void forBody(int declared) {
        activate(3);
        checkNext(DO);
        int before = fs.active;
        activate(declared);
        block();
        closeScope(before);
    }

    /** Parses {@code a.b.c:m}; returns whether it names a method. */
    private boolean functionName() {
        variable();
        while (token == '.') {
            next();
            checkName();
        }
        if (token == ':') {
            next();
            checkName();
            return true;
        }
        return false;
    }

    private void body(boolean method, int startLine) {
        fs = new Function(fs, startLine);
        checkNext('(');
        if (method) {
            declareLocal("self", 0);
            activate(1);
        }
        parameters();
        checkNext(')');
        chunk();
        checkMatch(END, FUNCTION, startLine);
        fs = fs.parent;
    }

    private void parameters() {
        int n = 0;
        if (token != ')') {
            do {
                if (token == NAME) {
                    declareLocal(checkName(), n++);
                } else if (token == DOTS) {
                    next();
                    declareLocal("arg", n++);
                    fs.vararg = true;
                } else {
                    throw syntaxError("<name> or '...' expected");
                }
            } while (!fs.vararg && test(','));
        }
        activate(n);
    }

    private void localStatement() {
        int n = 0;
        do {
            declareLocal(checkName(), n++);
        } while (test(','));
        if (test('=')) {
            expressionList();
        }
        activate(n);
    }

    private void expressionStatement() {
        Kind kind = primaryExpression();
        if (kind != Kind.CALL) {
            assignment(kind, 1);
        }
    }

    private void assignment(Kind target, int targets) {
        if (target != Kind.VARIABLE) {
            throw syntaxError("syntax error");
        }
        if (test(',')) {
            Kind nextTarget = primaryExpression();
            limit(fs, targets, MAX_LEVELS - levels, "variables in assignment");
            assignment(nextTarget, targets + 1);
        } else {
            checkNext('=');
            expressionList();
        }
    }

    // ---- expressions ----

    private void expressionList() {
        expression();
        while (test(',')) {
            expression();
        }
    }

    private void expression() {
        subexpression(0);
    }

    /** Parses operands and operators binding tighter than {@code limit}; returns the first operator left over, or -1. */
    private int subexpression(int limit) {
        enterLevel();
        if (token == NOT || token == '-' || token == '#') {
            next();
            subexpression(UNARY_PRIORITY);
        } else {
            simpleExpression();
        }
        int op = binaryOperator(token);
        while (op >= 0 && LEFT[op] > limit) {
            next();
            op = subexpression(RIGHT[op]);
        }
        leaveLevel();
        return op;
    }

    private static int binaryOperator(int t) {
        return switch (t) {
            case '+' -> 0;
            case '-' -> 1;
            case '*' -> 2;
            case '/' -> 3;
            case '%' -> 4;
            case '^' -> 5;
            case CONCAT -> 6;
            case NE -> 7;
            case EQ -> 8;
            case '<' -> 9;
            case LE -> 10;
            case '>' -> 11;
            case GE -> 12;
            case AND -> 13;
            case OR -> 14;
            default -> -1;
        };
    }

    private void simpleExpression() {
        switch (token) {
            case NUMBER, STRING, NIL, TRUE, FALSE -> next();
            case DOTS -> {
                if (!fs.vararg) {
                    throw syntaxError("cannot use '...' outside a vararg function");
                }
                next();
            }
            case '{' -> constructor();
            case FUNCTION -> {
                next();
                body(false, line);
            }
            default -> primaryExpression();
        }
    }

    private Kind primaryExpression() {
        Kind kind;
        if (token == '(') {
            int open = line;
            next();
            expression();
            checkMatch(')', '(', open);
            kind = Kind.VALUE;
        } else if (token == NAME) {
            variable();
            kind = Kind.VARIABLE;
        } else {
            throw syntaxError("unexpected symbol");
        }
        for (;;) {
            switch (token) {
                case '.' -> {
                    next();
                    checkName();
                    kind = Kind.VARIABLE;
                }
                case '[' -> {
                    index();
                    kind = Kind.VARIABLE;
                }
                case ':' -> {
                    next();
                    checkName();
                    arguments();
                    kind = Kind.CALL;
                }
                case '(', STRING, '{' -> {
                    arguments();
                    kind = Kind.CALL;
                }
                default -> {
                    return kind;
                }
            }
        }
    }

    private void index() {
        next();
        expression();
        checkNext(']');
    }

    private void arguments() {
        int open = line;
        switch (token) {
            case '(' -> {
                if (open != lastLine) {
                    throw syntaxError("ambiguous syntax (function call x new statement)");
                }
                next();
                if (token != ')') {
                    expressionList();
                }
                checkMatch(')', '(', open);
            }
            case '{' -> constructor();
            case STRING -> next();
            default -> throw syntaxError("function arguments expected");
        }
    }

    private void constructor() {
        int open = line;
        checkNext('{');
        do {
            if (token == '}') {
                break;
            }
            if (token == NAME) {
                lookahead();
                if (ahead != '=') {
                    expression();
                } else {
                    next();
                    checkNext('=');
                    expression();
                }
            } else if (token == '[') {
                index();
                checkNext('=');
                expression();
            } else {
                expression();
            }
        } while (test(',') || test(';'));
        checkMatch('}', '{', open);
    }
}
