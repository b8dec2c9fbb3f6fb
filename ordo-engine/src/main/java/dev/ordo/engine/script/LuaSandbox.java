package dev.ordo.engine.script;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.CoroutineLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.ZeroArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * The Lua world a script sees, built to present Redis's Lua 5.1 surface on LuaJ (a Lua 5.2
 * implementation) and to be as closed as Redis's sandbox.
 *
 * <p>Present: the base functions Redis keeps ({@code assert error getmetatable ipairs load
 * loadstring next pairs pcall rawequal rawget rawset select setmetatable tonumber tostring type
 * unpack xpcall collectgarbage gcinfo}), {@code string table math coroutine} with their 5.1 names
 * ({@code unpack table.getn table.maxn table.foreach table.foreachi math.mod math.log10
 * string.gfind}), and whatever {@link #define} adds ({@code redis cjson ...}, and the scripting
 * layer's {@code error pcall xpcall}, which need its instruction hook). Absent: {@code os
 * io debug package require module dofile loadfile print}, Java access of any kind, and loading
 * of precompiled chunks (the text loader only).
 *
 * <p>Read-only: the global table and every library table are proxies whose writes fail with
 * Redis's {@code Attempt to modify a readonly table}; reading a global that does not exist fails
 * with {@code Script attempted to access nonexistent global variable 'x'}. Only {@link
 * #setGlobal} (KEYS and ARGV before each run) writes the real table.
 *
 * <p>Numbers print as Lua 5.1 prints them ({@code %.14g}) through {@code tostring}, {@code
 * string.format} and {@code redis.call}'s arguments. Known difference: the {@code ..} operator
 * on a non-integral number uses LuaJ's own conversion (at most 8 significant digits).
 */
public final class LuaSandbox {
    /** Lua 5.1's LUAI_MAXCSTACK: the most values a C function may push. */
    private static final int C_STACK_SLOTS = 8000;
    static final String READONLY = "Attempt to modify a readonly table";

    private final Globals real = new Globals();
    private final Globals env;

    /** A sandbox with Lua's base, table, string, coroutine and math libraries loaded, ready for {@link #define}. */
    public LuaSandbox() {
        real.load(new BaseLib());
        real.load(new PackageLib());
        real.load(new TableLib());
        real.load(new StringLib());
        real.load(new CoroutineLib());
        real.load(new JseMathLib());
        LoadState.install(real);
        LuaC.install(real);
        real.undumper = null;
        for (String name : new String[] {"dofile", "loadfile", "print", "require", "module", "package", "rawlen", "_VERSION"}) {
            real.rawset(name, LuaValue.NIL);
        }
        real.rawset("_VERSION", LuaValue.valueOf("Lua 5.1"));
        env = new ReadOnlyView(real);
        adaptTo51();
        LuaTable realMeta = new LuaTable();
        realMeta.rawset(LuaValue.INDEX, new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + key.tojstring() + "'");
            }
        });
        real.setmetatable(realMeta);
        real.rawset("_G", env);
    }

    /**
     * The environment scripts run in (the read-only proxy of the globals).
     *
     * @return the environment
     */
    public LuaTable env() {
        return env;
    }

    /**
     * Defines a global, made read-only if it is a table. Only while building.
     *
     * @param name the global's name
     * @param value its value
     */
    public void define(String name, LuaValue value) {
        real.rawset(name, value.istable() ? proxy((LuaTable) value) : value);
    }

    /**
     * A function library's environment: reads the globals, except that {@code redis} is {@code
     * loadRedis} while {@code loading[0]}; writes fail. A {@link Globals} with the hook installed.
     */
    Globals libraryEnvironment(LuaTable loadRedis, boolean[] loading) {
        Globals lib = new Globals();
        lib.debuglib = env.debuglib;
        lib.setmetatable(readOnlyMeta(new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                return loading[0] && "redis".equals(key.tojstring()) ? loadRedis : real.get(key);
            }
        }));
        return lib;
    }

    /** Replaces one function of a library table ({@code math.random} ...). Only while building. */
    void defineIn(String library, String name, LuaValue value) {
        ((LuaTable) real.rawget(library).getmetatable().rawget(LuaValue.INDEX)).rawset(name, value);
    }

    /** Installs LuaJ's debug hook for code running in {@link #env()}. */
    void setHook(org.luaj.vm2.lib.DebugLib hook) {
        env.debuglib = hook;
        real.debuglib = hook;
    }

    /**
     * Sets a global from Java (KEYS, ARGV before a run; names as constants, not made again per run).
     *
     * @param name the global's name
     * @param value its value
     */
    public void setGlobal(LuaString name, LuaValue value) {
        real.rawset(name, value);
    }

    /**
     * Reads a global from Java, or nil.
     *
     * @param name the global's name
     * @return its value
     */
    public LuaValue global(String name) {
        return real.rawget(name);
    }

    /**
     * Compiles Lua source text into a function running in {@link #env()}.
     *
     * @param source the Lua source
     * @param chunkName the name errors give the chunk, e.g. {@code user_script}
     * @return the compiled function
     */
    public LuaValue compile(byte[] source, String chunkName) {
        return compile(source, chunkName, env);
    }

    /**
     * Compiles Lua source text into a function running in {@code environment}.
     *
     * @param source the Lua source
     * @param chunkName the name errors give the chunk, e.g. {@code user_script}
     * @param environment the globals the function sees
     * @return the compiled function
     */
    public LuaValue compile(byte[] source, String chunkName, LuaValue environment) {
        try {
            Prototype p = real.compilePrototype(new ByteArrayInputStream(source), chunkName);
            return real.loader.load(p, chunkName, environment);
        } catch (IOException e) {
            throw new LuaError(e.getMessage());
        }
    }

    /** Raised as Redis raises it from C: a table error, so no position is prefixed. */
    private static void refuseReadOnly(LuaValue target) {
        if (target.istable() && target.getmetatable() != null && target.getmetatable().rawget(LuaValue.METATABLE) == LuaValue.FALSE) {
            throw new Scripting.TableError(LuaReplies.errorTable("ERR " + READONLY));
        }
    }

    /** A read-only view of {@code table}: reads pass through, writes fail. */
    static LuaTable proxy(LuaTable table) {
        return new ReadOnlyView(table);
    }

    /**
     * A read-only view of a table, for the globals and the library tables. A read goes straight to
     * the viewed table: one lookup, where an empty table whose {@code __index} is the viewed table
     * costs three, and scripts read globals ({@code redis}, {@code KEYS}, {@code ARGV}) and library
     * functions all the time. A key the viewed table lacks falls to the metatable's {@code __index}
     * (the viewed table, whose own metatable decides: nil, or the nonexistent-global error). Every
     * write fails with Redis's error: of a new key through {@code __newindex}, of an existing one
     * here ({@code table.insert} refuses first, without a position, as Redis does). Iteration
     * ({@code pairs}, {@code next}) walks the viewed table, as on Redis 7, whose tables are made
     * read-only in place; length sees an empty table (so {@code table.remove} and
     * {@code table.sort} find nothing to change; the library tables have no array part anyway).
     *
     * <p>A {@link Globals}, because the environment of compiled code must be one for LuaJ to run
     * its debug hooks (SCRIPT KILL, error lines); library views are no different.
     */
    private static final class ReadOnlyView extends Globals {
        private final LuaTable viewed;

        ReadOnlyView(LuaTable viewed) {
            this.viewed = viewed;
            setmetatable(readOnlyMeta(viewed));
        }

        @Override
        public LuaValue rawget(LuaValue key) {
            return viewed.rawget(key);
        }

        @Override
        public LuaValue rawget(int key) {
            return viewed.rawget(key);
        }

        @Override
        public void rawset(LuaValue key, LuaValue value) {
            throw new LuaError(READONLY);
        }

        @Override
        public void rawset(int key, LuaValue value) {
            throw new LuaError(READONLY);
        }

        @Override
        public void hashset(LuaValue key, LuaValue value) {
            throw new LuaError(READONLY);
        }

        /** pairs and next walk the viewed table, as they walk Redis 7's read-only tables. */
        @Override
        public Varargs next(LuaValue key) {
            return viewed.next(key);
        }
    }

    /** A locked metatable that sends reads to {@code index} and fails every write with Redis's error. */
    private static LuaTable readOnlyMeta(LuaValue index) {
        LuaTable meta = new LuaTable();
        meta.rawset(LuaValue.INDEX, index);
        meta.rawset(LuaValue.NEWINDEX, REFUSE_WRITE);
        meta.rawset(LuaValue.METATABLE, LuaValue.FALSE);
        return meta;
    }

    private static final LuaValue REFUSE_WRITE = new VarArgFunction() {
        @Override
        public Varargs invoke(Varargs args) {
            throw new LuaError(READONLY);
        }
    };

    /**
     * string.rep as Lua 5.1 does it: the count is the number truncated to a C int (so 2^31 wraps
     * to a negative count), and a count of zero or less gives the empty string. A result past the
     * largest Java array fails as a Lua allocation does, with "not enough memory".
     */
    private static LuaValue rep(Varargs args) {
        LuaValue s = args.arg1();
        if (!s.isstring()) {
            throw new LuaError("bad argument #1: string expected, got " + typeName(s, args.narg() >= 1));
        }
        LuaValue count = args.arg(2).tonumber();
        if (count.isnil()) {
            throw new LuaError("bad argument #2: number expected, got " + typeName(args.arg(2), args.narg() >= 2));
        }
        LuaString text = s.checkstring();
        int n = (int) (long) count.todouble();
        int len = text.length();
        if (n <= 0 || len == 0) {
            return LuaValue.EMPTYSTRING;
        }
        LargeAllocations.ensure((long) len * n);
        byte[] out = new byte[len * n];
        for (int i = 0; i < n; i++) {
            text.copyInto(0, out, i * len, len);
        }
        return LuaString.valueUsing(out);
    }

    /**
     * unpack as Lua 5.1 does it: raw reads of t[i..e] (e defaults to #t), the bounds truncated to
     * C ints, and at most as many results as the C stack has room for (8,000 slots less the
     * arguments), else "too many results to unpack".
     */
    private static Varargs unpack(Varargs args) {
        LuaValue t = args.arg1();
        if (!t.istable()) {
            throw new LuaError("bad argument #1: table expected, got " + typeName(t, args.narg() >= 1));
        }
        long i = optInt(args, 2, 1);
        long e = args.arg(3).isnil() ? t.rawlen() : optInt(args, 3, 0);
        if (i > e) {
            return LuaValue.NONE;
        }
        if (e - i + 1 > C_STACK_SLOTS - args.narg()) {
            throw new LuaError("too many results to unpack");
        }
        LuaValue[] out = new LuaValue[(int) (e - i + 1)];
        for (int k = 0; k < out.length; k++) {
            out[k] = t.rawget((int) (i + k));
        }
        return LuaValue.varargsOf(out);
    }

    /**
     * table.insert as Lua 5.1 does it: with two arguments appends at #t + 1; with three shifts
     * t[pos..] up by one (raw reads and writes) and stores at pos; any other count is "wrong
     * number of arguments to 'insert'". A read-only table is refused before any write.
     */
    private static Varargs insert(Varargs args) {
        LuaValue t = args.arg1();
        if (!t.istable()) {
            throw new LuaError("bad argument #1: table expected, got " + typeName(t, args.narg() >= 1));
        }
        long end = t.rawlen() + 1L;
        long pos;
        switch (args.narg()) {
            case 2:
                pos = end;
                break;
            case 3:
                pos = optInt(args, 2, 0);
                end = Math.max(end, pos);
                break;
            default:
                throw new LuaError("wrong number of arguments to 'insert'");
        }
        refuseReadOnly(t);
        for (long i = end; i > pos; i--) {
            t.rawset((int) i, t.rawget((int) (i - 1)));
        }
        t.rawset((int) pos, args.arg(args.narg()));
        return LuaValue.NONE;
    }

    /** Argument {@code n} as luaL_optint reads it (nil or absent: {@code def}), truncated to a C int. */
    private static long optInt(Varargs args, int n, int def) {
        LuaValue v = args.arg(n);
        if (v.isnil()) {
            return def;
        }
        LuaValue number = v.tonumber();
        if (number.isnil()) {
            throw new LuaError("bad argument #" + n + ": number expected, got " + v.typename());
        }
        return (int) (long) number.todouble();
    }

    private static String typeName(LuaValue v, boolean given) {
        return given ? v.typename() : "no value";
    }

    /** A Lua string's bytes, copied. */
    /**
     * Lua 5.1's string.gmatch, over {@code find}: after an empty match the next search starts one
     * byte on (LuaJ's own gmatch stayed put and looped for ever), a match may be empty at the very
     * end, and a leading {@code ^} is no anchor but the character itself. LuaJ's gmatch still
     * checks the arguments, so their errors read as before.
     */
    private static LuaValue gmatch(LuaValue luajGmatch, LuaValue find) {
        return new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                luajGmatch.invoke(args);
                LuaString subject = args.checkstring(1);
                LuaString p = args.checkstring(2);
                LuaValue pattern = p.length() > 0 && p.luaByte(0) == '^' ? LuaValue.valueOf("%").concat(p) : p;
                return new VarArgFunction() {
                    private int start = 1;

                    @Override
                    public Varargs invoke(Varargs unused) {
                        if (start > subject.length() + 1) {
                            return LuaValue.NIL;
                        }
                        Varargs found = find.invoke(LuaValue.varargsOf(subject, pattern, LuaValue.valueOf(start)));
                        if (found.arg1().isnil()) {
                            start = subject.length() + 2;
                            return LuaValue.NIL;
                        }
                        int from = found.arg(1).toint();
                        int to = found.arg(2).toint();
                        start = to >= from ? to + 1 : from + 1;
                        return found.narg() > 2 ? found.subargs(3) : subject.substring(from - 1, to);
                    }
                };
            }
        };
    }

    /** string.upper / string.lower as in the C locale: only the ASCII letters change, byte by byte. */
    private static LuaValue caseMapping(String functionName, char first, char last, int shift) {
        return new OneArgFunction() {
            {
                name = functionName; // the name argument errors give
            }

            @Override
            public LuaValue call(LuaValue arg) {
                byte[] b = bytes(arg.checkstring());
                for (int i = 0; i < b.length; i++) {
                    if (b[i] >= first && b[i] <= last) {
                        b[i] += shift;
                    }
                }
                return LuaString.valueUsing(b);
            }
        };
    }

    static byte[] bytes(LuaString s) {
        byte[] b = new byte[s.length()];
        s.copyInto(0, b, 0, b.length);
        return b;
    }

    /** Renames and adds what Lua 5.1 scripts expect; replaces LuaJ functions whose output differs. */
    private void adaptTo51() {
        LuaTable table = (LuaTable) real.rawget("table");
        LuaTable string = (LuaTable) real.rawget("string");
        LuaTable math = (LuaTable) real.rawget("math");
        real.rawset("unpack", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return unpack(args);
            }
        });
        table.rawset("unpack", LuaValue.NIL);
        table.rawset("pack", LuaValue.NIL);
        table.rawset("insert", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return insert(args);
            }
        });
        table.rawset("getn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                return LuaValue.valueOf(t.checktable().length());
            }
        });
        table.rawset("maxn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                double max = 0;
                LuaTable tt = t.checktable();
                for (LuaValue k = tt.next(LuaValue.NIL).arg1(); !k.isnil(); k = tt.next(k).arg1()) {
                    if (k.type() == LuaValue.TNUMBER && k.todouble() > max) {
                        max = k.todouble();
                    }
                }
                return LuaValue.valueOf(max);
            }
        });
        table.rawset("setn", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new LuaError("'setn' is obsolete");
            }
        });
        table.rawset("foreach", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue f) {
                LuaTable tt = t.checktable();
                f.checkfunction();
                for (Varargs kv = tt.next(LuaValue.NIL); !kv.arg1().isnil(); kv = tt.next(kv.arg1())) {
                    LuaValue r = f.call(kv.arg1(), kv.arg(2));
                    if (!r.isnil()) {
                        return r;
                    }
                }
                return LuaValue.NIL;
            }
        });
        table.rawset("foreachi", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue f) {
                LuaTable tt = t.checktable();
                f.checkfunction();
                for (int i = 1, n = tt.length(); i <= n; i++) {
                    LuaValue r = f.call(LuaValue.valueOf(i), tt.get(i));
                    if (!r.isnil()) {
                        return r;
                    }
                }
                return LuaValue.NIL;
            }
        });
        LuaValue gmatch = gmatch(string.rawget("gmatch"), string.rawget("find"));
        string.rawset("gmatch", gmatch);
        string.rawset("gfind", gmatch);
        string.rawset("upper", caseMapping("upper", 'a', 'z', 'A' - 'a'));
        string.rawset("lower", caseMapping("lower", 'A', 'Z', 'a' - 'A'));
        string.rawset("rep", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return rep(args);
            }
        });
        math.rawset("mod", math.rawget("fmod"));
        math.rawset("log10", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue x) {
                return LuaValue.valueOf(Math.log10(x.checkdouble()));
            }
        });
        math.rawset("log", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue x) {
                return LuaValue.valueOf(Math.log(x.checkdouble()));
            }
        });
        LuaValue tostring = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() == 0) {
                    throw new LuaError("bad argument #1: value expected");
                }
                LuaValue v = args.arg1();
                LuaValue h = v.metatag(LuaValue.TOSTRING);
                if (!h.isnil()) {
                    return h.call(v);
                }
                if (v.type() == LuaValue.TNUMBER) {
                    return LuaValue.valueOf(dev.ordo.engine.script.lib.LuaNumberFormat.g14(v.todouble()));
                }
                return v.isstring() ? v.checkstring() : LuaValue.valueOf(v.tojstring());
            }
        };
        real.rawset("tostring", tostring);
        LuaValue tonumber = real.rawget("tonumber");
        real.rawset("tonumber", new VarArgFunction() {
            /** Base 10 reads strings as Lua 5.1 does, with C's strtod ("inf", "0x1A", spaces around); LuaJ's reader differs. */
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue base = args.arg(2);
                if (!base.isnil() && !(base.type() == LuaValue.TNUMBER && base.todouble() == 10)) {
                    return tonumber.invoke(args);
                }
                if (args.narg() < 1) {
                    throw new LuaError("bad argument #1 to 'tonumber' (value expected)");
                }
                Double n = dev.ordo.engine.script.lib.LuaArgs.toNumber(args.arg1());
                return n == null ? LuaValue.NIL : LuaValue.valueOf(n);
            }
        });
        LuaValue rawset = real.rawget("rawset");
        real.rawset("rawset", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                refuseReadOnly(args.arg1());
                if (args.arg1().istable() && args.narg() >= 3 && (args.arg(2).isnil() || args.arg(2).isnumber() && Double.isNaN(args.arg(2).todouble()))) {
                    throw new LuaError(args.arg(2).isnil() ? "table index is nil" : "table index is NaN");
                }
                return rawset.invoke(args);
            }
        });
        LuaValue setmetatable = real.rawget("setmetatable");
        real.rawset("setmetatable", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                refuseReadOnly(args.arg1());
                return setmetatable.invoke(args);
            }
        });
        string.rawset("format", new LuaStringFormat(tostring));
        VarArgFunction loadstring = new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaString source = args.checkstring(1);
                String name = args.optjstring(2, source.tojstring());
                try {
                    return compile(bytes(source), name.startsWith("=") || name.startsWith("@") ? name : "=[string \"" + firstLine(name) + "\"]");
                } catch (LuaError e) {
                    return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf(e.getMessage()));
                }
            }
        };
        real.rawset("loadstring", loadstring);
        real.rawset("load", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue chunk = args.arg1();
                if (chunk.isstring()) {
                    return loadstring.invoke(args);
                }
                StringBuilder source = new StringBuilder();
                chunk.checkfunction();
                for (LuaValue piece = chunk.call(); !piece.isnil() && piece.length() > 0; piece = chunk.call()) {
                    source.append(piece.checkjstring());
                }
                return loadstring.invoke(LuaValue.varargsOf(LuaValue.valueOf(source.toString()), args.arg(2)));
            }
        });
        ZeroArgFunction gcinfo = new ZeroArgFunction() {
            @Override
            public LuaValue call() {
                Runtime rt = Runtime.getRuntime();
                return LuaValue.valueOf((rt.totalMemory() - rt.freeMemory()) / 1024);
            }
        };
        real.rawset("gcinfo", gcinfo);
        real.rawset("collectgarbage", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                String option = args.optjstring(1, "collect");
                return "count".equals(option) ? gcinfo.call() : LuaValue.ZERO;
            }
        });
        for (String lib : new String[] {"table", "string", "math", "coroutine"}) {
            real.rawset(lib, proxy((LuaTable) real.rawget(lib)));
        }
        LuaTable stringMeta = new LuaTable();
        stringMeta.rawset(LuaValue.INDEX, real.rawget("string"));
        stringMeta.rawset(LuaValue.METATABLE, LuaValue.FALSE);
        LuaString.s_metatable = stringMeta;
    }

    private static final java.util.regex.Pattern COMPARE =
            java.util.regex.Pattern.compile("attempt to compare (\\w+) with (\\w+) expected, got \\w+");
    private static final java.util.regex.Pattern COMPARE_META =
            java.util.regex.Pattern.compile("attempt to compare __\\w+ on (\\w+) and (\\w+)");
    private static final java.util.regex.Pattern COMPARE_PLAIN =
            java.util.regex.Pattern.compile("attempt to compare (nil|boolean|number|string|table|function|userdata|thread) with (\\w+)\\b(?! expected)");

    /**
     * Rewrites LuaJ's wording of runtime errors into Lua 5.1's where the meaning is certain:
     * comparisons (LuaJ names the operands in reverse; 5.1 says "two table values" for one type),
     * and type errors without the culprit's name ({@link RuntimeErrorNames} names it where it
     * knows where the error was raised).
     */
    static String as51Message(String text) {
        java.util.regex.Matcher m = COMPARE.matcher(text);
        if (m.find()) {
            return text.substring(0, m.start()) + compared(m.group(2), m.group(1)) + text.substring(m.end());
        }
        m = COMPARE_META.matcher(text);
        if (!m.find()) {
            m = COMPARE_PLAIN.matcher(text);
        }
        if (m.find(0)) {
            return text.substring(0, m.start()) + compared(m.group(1), m.group(2)) + text.substring(m.end());
        }
        return RuntimeErrorNames.rewrite(text, null);
    }

    /**
     * True when {@code text} is an error Lua 5.1's virtual machine raises itself (luaG_runerror:
     * an operation on a value of the wrong type, a bad key to next) rather than a library
     * function (luaL_error): raised inside a called C function, such an error carries no
     * position. (A nil key is left out: 5.1 raises it before calling a {@code __newindex} that
     * would rawset it, with a position, and LuaJ inside that rawset.)
     */
    static boolean raisedByTheVm(String text) {
        return !as51Message(text).equals(text) || COMPARE_PLAIN.matcher(text).find() || text.contains("invalid key to 'next'");
    }

    /** Lua 5.1's luaG_ordererror, which takes two types as one when their third letters match (string, thread). */
    private static String compared(String t1, String t2) {
        return t1.length() > 2 && t2.length() > 2 && t1.charAt(2) == t2.charAt(2)
                ? "attempt to compare two " + t1 + " values" : "attempt to compare " + t1 + " with " + t2;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl) + "...";
        return line.length() > 60 ? line.substring(0, 57) + "..." : line;
    }
}
