package dev.ordo.engine.script;

import dev.ordo.engine.script.lib.LuaArgs;
import org.luaj.vm2.LocVars;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites LuaJ's runtime type errors ({@code attempt to index ? (a nil value)}, {@code attempt to
 * call nil} ...) into Lua 5.1's, which name the culprit when they can ({@code attempt to index local
 * 't' (a nil value)}) and else say {@code attempt to index a nil value}.
 *
 * <p>Lua 5.1's rules (ldebug.c), applied here to the instruction that failed ({@link Site}):
 * <ul>
 * <li>The culprit: the table of an index ({@code GETTABLE SELF SETTABLE}; for {@code GETTABUP
 * SETTABUP} the upvalue, which 5.1 first copies to a register with {@code GETUPVAL}); the function of
 * a call ({@code CALL TAILCALL}; for {@code TFORCALL} 5.1 calls a copy three registers up); the
 * operand of {@code #} and unary minus; the first operand of arithmetic unless it converts to a
 * number, else the second; for {@code ..}, which 5.1 concatenates from the right, the left value of
 * the first pair that fails unless it is a string or number, else the right.
 * <li>Its name, only when it is in a register: the local variable live in that register at that
 * instruction; else the instruction that last set the register before it, found by scanning the
 * function from its start and taking every forward jump that lands no later than the failing
 * instruction. A global read ({@code GETTABUP} of {@code _ENV}) names {@code global 'k'}; a table read
 * {@code field 'k'} (a key that is not a string constant: {@code field '?'}); {@code GETUPVAL}
 * {@code upvalue 'u'}; {@code SELF} {@code method 'm'}; a {@code MOVE} from a lower register that
 * register's name; anything else (a call, a constant, a {@code TEST}, which 5.1 counts as setting its
 * register) no name.
 * <li>No name either when the failing value is not the culprit in the instruction: an {@code
 * __index} chain that ends at a number, a type error raised inside a called Java function (where
 * 5.1, raising it in C, adds no position either: {@link #inCalledFunction}).
 * </ul>
 *
 * <p>The scan runs over LuaJ's Lua 5.2 bytecode, which for these purposes matches 5.1's once
 * the opcodes are mapped as above (checked against redis-server with a few thousand generated
 * scripts; pcall, xpcall, coroutine.resume and coroutine.wrap reword what they catch). Known
 * difference: a {@code ..} in which a {@code __concat} metamethod took part loses its name.
 *
 * <p>Also reworded: LuaJ's argument errors ({@code bad argument: number expected, got string})
 * as luaL_argerror's ({@code bad argument #2 to 'max' (number expected, got string)}), when the
 * argument is certain (see {@link #badArgument(Matcher, Site)}); LuaJ's {@code table index
 * expected, got table} for a nil or NaN key, which
 * Lua 5.1 calls {@code table index is nil} or {@code table index is NaN} (NaN when the key of the
 * failing assignment is one).
 */
final class RuntimeErrorNames {
    private static final String TYPE = "(nil|boolean|number|string|table|function|userdata|thread)";

    /** Where an error was raised: the Lua function, the instruction, and the function's registers. */
    record Site(LuaClosure closure, int pc, LuaValue[] registers) {
    }

    /** A kind of type error: Lua 5.1's verb and LuaJ's wording of it. */
    private enum Kind {
        INDEX("index", "attempt to index \\? \\(a " + TYPE + " value\\)|(?<!table )\\bindex expected, got " + TYPE + "\\b"),
        CALL("call", "attempt to call " + TYPE + "\\b"),
        LENGTH("get length of", "attempt to get length of " + TYPE + "\\b"),
        ARITHMETIC("perform arithmetic on", "attempt to perform arithmetic (?:__\\w+ |'\\w+' )?on " + TYPE + "(?: and " + TYPE + ")?\\b"),
        CONCAT("concatenate", "attempt to concatenate " + TYPE + " and " + TYPE + "\\b");

        final String verb;
        final Pattern luaj;

        Kind(String verb, String luaj) {
            this.verb = verb;
            this.luaj = Pattern.compile(luaj);
        }

        /** The type LuaJ's message names first. */
        static String type(Matcher m) {
            return m.group(1) != null ? m.group(1) : m.group(2);
        }

        /** The type Lua 5.1 would blame, read from LuaJ's message alone. */
        String blamed(Matcher m) {
            if (this != ARITHMETIC && this != CONCAT || m.group(2) == null) {
                return type(m);
            }
            String first = m.group(1);
            boolean firstFits = this == CONCAT ? first.equals("string") || first.equals("number") : first.equals("number");
            return firstFits ? m.group(2) : first;
        }
    }

    private RuntimeErrorNames() {
    }

    /**
     * {@code text} with its LuaJ type error in Lua 5.1's words, naming the culprit from {@code site}
     * (null: unknown) when the failing instruction there is of that kind; other text is unchanged.
     */
    static String rewrite(String text, Site site) {
        Matcher arg = LUAJ_BAD_ARGUMENT.matcher(text);
        if (arg.find()) {
            String worded = badArgument(arg, site);
            return worded == null ? text : text.substring(0, arg.start()) + worded + text.substring(arg.end());
        }
        int badKey = text.indexOf(LUAJ_BAD_KEY);
        if (badKey >= 0) {
            return text.substring(0, badKey) + (keyIsNaN(site) ? "table index is NaN" : "table index is nil")
                    + text.substring(badKey + LUAJ_BAD_KEY.length());
        }
        for (Kind kind : Kind.values()) {
            Matcher m = kind.luaj.matcher(text);
            if (m.find()) {
                String culprit = site == null ? null : culprit(kind, Kind.type(m), site);
                if (culprit == null) {
                    culprit = "a " + kind.blamed(m) + " value";
                }
                return text.substring(0, m.start()) + "attempt to " + kind.verb + " " + culprit + text.substring(m.end());
            }
        }
        return text;
    }

    /**
     * True when the error at {@code site} was raised inside a function that the instruction there
     * called (a Java function: an error inside a Lua function has a site of its own).
     */
    static boolean inCalledFunction(Site site) {
        if (site == null || site.pc() < 0 || site.pc() >= site.closure().p.code.length) {
            return false;
        }
        int i = site.closure().p.code[site.pc()];
        int op = Lua.GET_OPCODE(i);
        return (op == Lua.OP_CALL || op == Lua.OP_TAILCALL || op == Lua.OP_TFORCALL) && reg(site.registers(), Lua.GETARG_A(i)).isfunction();
    }

    /**
     * "local 't' (a nil value)" or "a nil value"; null to fall back on LuaJ's message (the
     * instruction at the site is not of this kind, or the value it failed on is not the culprit).
     */
    private static String culprit(Kind kind, String luajType, Site site) {
        Prototype p = site.closure().p;
        int pc = site.pc();
        if (pc < 0 || pc >= p.code.length) {
            return null;
        }
        int i = p.code[pc];
        int op = Lua.GET_OPCODE(i);
        int a = Lua.GETARG_A(i);
        int b = Lua.GETARG_B(i);
        int c = Lua.GETARG_C(i);
        LuaValue[] r = site.registers();
        switch (kind) {
            case INDEX:
                if (op == Lua.OP_GETTABLE || op == Lua.OP_SELF || op == Lua.OP_SETTABLE) {
                    int t = op == Lua.OP_SETTABLE ? a : b;
                    return indexable(reg(r, t), luajType) ? null : describe(nameOf(p, pc, t), reg(r, t));
                }
                if (op == Lua.OP_GETTABUP || op == Lua.OP_SETTABUP) {
                    int u = op == Lua.OP_SETTABUP ? a : b;
                    if (site.closure().upValues == null || u >= site.closure().upValues.length || site.closure().upValues[u] == null) {
                        return null;
                    }
                    LuaValue v = site.closure().upValues[u].getValue();
                    return indexable(v, luajType) ? null : describe("upvalue '" + upvalueName(p, u) + "'", v);
                }
                return null;
            case CALL:
                if (op == Lua.OP_CALL || op == Lua.OP_TAILCALL || op == Lua.OP_TFORCALL) {
                    return inCalledFunction(site) ? null : describe(nameOf(p, pc, op == Lua.OP_TFORCALL ? a + 3 : a), reg(r, a));
                }
                return null;
            case LENGTH:
                return op == Lua.OP_LEN && reg(r, b).typename().equals(luajType) ? describe(nameOf(p, pc, b), reg(r, b)) : null;
            case ARITHMETIC:
                if (op == Lua.OP_UNM) {
                    return describe(nameOf(p, pc, b), reg(r, b));
                }
                if (op >= Lua.OP_ADD && op <= Lua.OP_POW) {
                    int blamed = LuaArgs.toNumber(rk(p, r, b)) == null ? b : c;
                    LuaValue v = rk(p, r, blamed);
                    return LuaArgs.toNumber(v) != null ? null : describe(Lua.ISK(blamed) ? null : nameOf(p, pc, blamed), v);
                }
                return null;
            case CONCAT:
                if (op == Lua.OP_CONCAT) {
                    int blamed = concatCulprit(r, b, c);
                    return blamed < 0 ? null : describe(nameOf(p, pc, blamed), reg(r, blamed));
                }
                return null;
            default:
                return null;
        }
    }

    /** True when indexing {@code v} cannot be what failed with LuaJ's {@code type}: it is a table, or another type. */
    private static boolean indexable(LuaValue v, String luajType) {
        return v.istable() || !v.typename().equals(luajType);
    }

    private static String describe(String name, LuaValue v) {
        return name == null ? "a " + v.typename() + " value" : name + " (a " + v.typename() + " value)";
    }

    private static final String LUAJ_BAD_KEY = "table index expected, got table";
    /** LuaJ's argument errors: "bad argument: number expected, got string" or "bad argument #2: index out of range". */
    private static final Pattern LUAJ_BAD_ARGUMENT = Pattern.compile(
            "bad argument(?: #(\\d+))?: (?:(\\w+) expected, got " + TYPE + "|(.+))$", Pattern.DOTALL);

    /**
     * Lua 5.1's luaL_argerror text, {@code bad argument #2 to 'max' (number expected, got
     * string)}, for a LuaJ argument error raised by the function the instruction at {@code site}
     * called: the name is the one that call gives it (a method's arguments are counted without
     * the object), and when LuaJ gives no argument number, the one argument of the type it
     * reports is taken (or, for nil, the first missing one: "got no value"). Null (keep LuaJ's
     * text) when that is not certain: no call at the site, a call through pcall, an unknown
     * argument count, or several arguments of that type.
     */
    private static String badArgument(Matcher m, Site site) {
        if (!inCalledFunction(site)) {
            return null;
        }
        Prototype p = site.closure().p;
        int i = p.code[site.pc()];
        int a = Lua.GETARG_A(i);
        int args = Lua.GETARG_B(i) - 1;
        if (args < 0 || Lua.GET_OPCODE(i) == Lua.OP_TFORCALL) {
            return null;
        }
        LuaValue[] values = new LuaValue[args];
        for (int k = 0; k < args; k++) {
            values[k] = reg(site.registers(), a + 1 + k);
        }
        return badArgument(m, nameOf(p, site.pc(), a), values);
    }

    /**
     * {@code text} with a LuaJ argument error raised by a Java function that pcall or xpcall
     * called directly with {@code args} worded as Lua 5.1 words it there: with no name ('?').
     */
    static String rewriteCaught(String text, LuaValue[] args) {
        Matcher arg = LUAJ_BAD_ARGUMENT.matcher(text);
        String worded = arg.find() ? badArgument(arg, null, args) : null;
        return worded == null ? text : text.substring(0, arg.start()) + worded + text.substring(arg.end());
    }

    /** The 5.1 wording for a call named {@code how} ("method 'sub'", "field 'max'"; null: unknown) with {@code args}. */
    private static String badArgument(Matcher m, String how, LuaValue[] args) {
        String name = how == null ? "?" : how.substring(how.indexOf('\'') + 1, how.length() - 1);
        String message = m.group(4);
        int n;
        if (m.group(1) != null) {
            n = Integer.parseInt(m.group(1));
            if (message == null) {
                message = typeExpected(m) + " expected, got " + m.group(3);
            }
        } else if (m.group(3) == null) {
            return null;
        } else {
            String got = m.group(3);
            boolean concat = name.equals("concat") && args.length > 0 && args[0].istable();
            String element = concat ? concatElement(args[0], got) : null;
            if (element != null) {
                return element;
            }
            n = -1;
            for (int k = concat ? 2 : 1; k <= args.length; k++) {
                if (args[k - 1].typename().equals(got)) {
                    if (n > 0) {
                        return null;
                    }
                    n = k;
                }
            }
            if (n < 0 && got.equals("nil")) {
                n = args.length + 1;
                got = "no value";
            }
            if (n < 0) {
                return null;
            }
            message = typeExpected(m) + " expected, got " + got;
        }
        if (how != null && how.startsWith("method ")) {
            n--;
            if (n == 0) {
                return "calling '" + name + "' on bad self (" + message + ")";
            }
        }
        return "bad argument #" + n + " to '" + name + "' (" + message + ")";
    }

    /** Whether the failing instruction at {@code site} is an assignment whose key is NaN. */
    private static boolean keyIsNaN(Site site) {
        if (site == null || site.pc() < 0 || site.pc() >= site.closure().p.code.length) {
            return false;
        }
        Prototype p = site.closure().p;
        int i = p.code[site.pc()];
        int op = Lua.GET_OPCODE(i);
        if (op != Lua.OP_SETTABLE && op != Lua.OP_SETTABUP) {
            return false;
        }
        LuaValue key = rk(p, site.registers(), Lua.GETARG_B(i));
        return key.isnumber() && Double.isNaN(key.todouble());
    }

    /** The type LuaJ's argument error expected, in Lua's names (LuaJ's checkint says "int"). */
    private static String typeExpected(Matcher m) {
        return m.group(2).equals("int") ? "number" : m.group(2);
    }

    /** table.concat's complaint about an element, as Lua 5.1 words it; null if no element is of that type. */
    private static String concatElement(LuaValue t, String got) {
        int n = t.rawlen();
        for (int k = 1; k <= n; k++) {
            LuaValue v = t.rawget(k);
            if (!isText(v) && v.typename().equals(got)) {
                return "invalid value (" + got + ") at index " + k + " in table for 'concat'";
            }
        }
        return null;
    }

    private static LuaValue rk(Prototype p, LuaValue[] registers, int x) {
        return Lua.ISK(x) ? p.k[Lua.INDEXK(x)] : reg(registers, x);
    }

    /** A register's value (LuaJ leaves registers never written null). */
    private static LuaValue reg(LuaValue[] registers, int x) {
        return x < registers.length && registers[x] != null ? registers[x] : LuaValue.NIL;
    }

    /**
     * The register 5.1's concatenation of registers {@code from..to} blames, or -1 when a
     * {@code __concat} metamethod takes part (its result is unknown here).
     */
    private static int concatCulprit(LuaValue[] r, int from, int to) {
        int last = to;
        boolean lastIsText = isText(reg(r, last));
        while (last > from) {
            LuaValue left = reg(r, last - 1);
            if (!isText(left) || !lastIsText) {
                if (!left.metatag(LuaValue.CONCAT).isnil() || !reg(r, last).metatag(LuaValue.CONCAT).isnil()) {
                    return -1;
                }
                return isText(left) ? last : last - 1;
            }
            int n = 2;
            while (last - n >= from && isText(reg(r, last - n))) {
                n++;
            }
            last -= n - 1;
            lastIsText = true;
        }
        return -1;
    }

    private static boolean isText(LuaValue v) {
        return v.type() == LuaValue.TSTRING || v.type() == LuaValue.TNUMBER;
    }

    /** Lua 5.1's getobjname: how register {@code reg} is named at {@code pc} ("local 'x'", "field 'k'" ...), or null. */
    private static String nameOf(Prototype p, int pc, int reg) {
        String local = localName(p, reg, pc);
        if (local != null) {
            return "local '" + local + "'";
        }
        int setter = lastSetter(p, pc, reg);
        if (setter < 0) {
            return null;
        }
        int i = p.code[setter];
        switch (Lua.GET_OPCODE(i)) {
            case Lua.OP_MOVE:
                return Lua.GETARG_B(i) < Lua.GETARG_A(i) ? nameOf(p, pc, Lua.GETARG_B(i)) : null;
            case Lua.OP_GETTABUP:
                return ("_ENV".equals(upvalueName(p, Lua.GETARG_B(i))) ? "global '" : "field '") + constantName(p, Lua.GETARG_C(i)) + "'";
            case Lua.OP_GETTABLE:
                return "field '" + constantName(p, Lua.GETARG_C(i)) + "'";
            case Lua.OP_GETUPVAL:
                return "upvalue '" + upvalueName(p, Lua.GETARG_B(i)) + "'";
            case Lua.OP_SELF:
                return "method '" + constantName(p, Lua.GETARG_C(i)) + "'";
            default:
                return null;
        }
    }

    /** The name of the {@code reg}-th local variable live at {@code pc} (registers hold locals in order), or null. */
    private static String localName(Prototype p, int reg, int pc) {
        LocVars[] vars = p.locvars == null ? new LocVars[0] : p.locvars;
        int n = reg;
        for (int i = 0; i < vars.length && vars[i].startpc <= pc; i++) {
            if (pc < vars[i].endpc && n-- == 0) {
                return vars[i].varname.tojstring();
            }
        }
        return null;
    }

    /**
     * Lua 5.1's symbolic execution: the last instruction before {@code lastpc} that sets {@code reg},
     * or -1. Every forward jump that lands no later than {@code lastpc} is taken.
     */
    private static int lastSetter(Prototype p, int lastpc, int reg) {
        int last = -1;
        for (int pc = 0; pc < lastpc; pc++) {
            int i = p.code[pc];
            int op = Lua.GET_OPCODE(i);
            int a = Lua.GETARG_A(i);
            switch (op) {
                case Lua.OP_LOADNIL:
                    last = a <= reg && reg <= a + Lua.GETARG_B(i) ? pc : last;
                    break;
                case Lua.OP_SELF:
                    last = reg == a || reg == a + 1 ? pc : last;
                    break;
                case Lua.OP_CALL:
                case Lua.OP_TAILCALL:
                    last = reg >= a ? pc : last;
                    break;
                case Lua.OP_TFORCALL:
                    last = reg >= a + 2 ? pc : last;
                    break;
                case Lua.OP_JMP:
                case Lua.OP_FORLOOP:
                case Lua.OP_FORPREP:
                    last = op != Lua.OP_JMP && reg == a ? pc : last;
                    int dest = pc + 1 + Lua.GETARG_sBx(i);
                    if (pc < dest && dest <= lastpc) {
                        pc = dest - 1;
                    }
                    break;
                case Lua.OP_SETLIST:
                    pc += Lua.GETARG_C(i) == 0 ? 1 : 0;
                    break;
                case Lua.OP_MOVE: case Lua.OP_LOADK: case Lua.OP_LOADKX: case Lua.OP_LOADBOOL: case Lua.OP_GETUPVAL:
                case Lua.OP_GETTABUP: case Lua.OP_GETTABLE: case Lua.OP_NEWTABLE: case Lua.OP_ADD: case Lua.OP_SUB:
                case Lua.OP_MUL: case Lua.OP_DIV: case Lua.OP_MOD: case Lua.OP_POW: case Lua.OP_UNM: case Lua.OP_NOT:
                case Lua.OP_LEN: case Lua.OP_CONCAT: case Lua.OP_TEST: case Lua.OP_TESTSET: case Lua.OP_TFORLOOP:
                case Lua.OP_CLOSURE: case Lua.OP_VARARG:
                    last = reg == a ? pc : last;
                    break;
                default:
                    break;
            }
        }
        return last;
    }

    /** Lua 5.1's kname: a string constant's text, else "?". */
    private static String constantName(Prototype p, int x) {
        return Lua.ISK(x) && p.k[Lua.INDEXK(x)].type() == LuaValue.TSTRING ? p.k[Lua.INDEXK(x)].tojstring() : "?";
    }

    private static String upvalueName(Prototype p, int u) {
        return p.upvalues != null && u < p.upvalues.length && p.upvalues[u].name != null ? p.upvalues[u].name.tojstring() : "?";
    }
}
