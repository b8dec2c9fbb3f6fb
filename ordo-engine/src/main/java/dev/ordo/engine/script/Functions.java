package dev.ordo.engine.script;

import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Redis 7 function libraries: code that starts with {@code #!lua name=<library>} and registers
 * functions with {@code redis.register_function}, run once at FUNCTION LOAD in an environment
 * where {@code redis} offers only registration, logging and the version (no commands); the
 * registered functions later run as FCALL scripts with (keys, args).
 *
 * <p>Each library gets its own read-only environment (a {@link Globals}, so the instruction hook
 * runs in it) that reads the shared globals; its functions see the full {@code redis} library.
 * Libraries are kept in load order; function names are unique across libraries.
 */
public final class Functions {
    /** Flags a function or an EVAL shebang may declare, as Redis names them, in the order Redis lists them. */
    static final List<String> FLAGS = List.of("no-writes", "allow-oom", "allow-stale", "no-cluster", "allow-cross-slot-keys");

    private final LuaSandbox sandbox;
    private final Scripting scripting;
    private final Map<String, Library> libraries = new LinkedHashMap<>();
    private final Map<String, Function> functions = new LinkedHashMap<>();

    /** A loaded library and its functions. */
    public record Library(String name, String code, List<Function> functions) {
    }

    /** A registered function; its flags iterate in {@link #FLAGS}' order. */
    public record Function(String name, String library, LuaValue callback, String description, Set<String> flags) {
        /**
         * Whether the function declared the {@code no-writes} flag, so FCALL_RO may run it.
         *
         * @return whether it never writes
         */
        public boolean noWrites() {
            return flags.contains("no-writes");
        }
    }

    Functions(LuaSandbox sandbox, Scripting scripting) {
        this.sandbox = sandbox;
        this.scripting = scripting;
    }

    /**
     * The function called {@code name}, in any case: Redis compares function names without case.
     *
     * @param name the function's name
     * @return the function, or null
     */
    public Function function(String name) {
        return functions.get(folded(name));
    }

    /** ASCII case folded, as C's strcasecmp compares (the Kelvin sign is not a k). */
    private static String folded(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            out.append(ch >= 'A' && ch <= 'Z' ? (char) (ch + ('a' - 'A')) : ch);
        }
        return out.toString();
    }

    /**
     * The loaded libraries, in the order they were loaded.
     *
     * @return the libraries
     */
    public Collection<Library> libraries() {
        return libraries.values();
    }

    /**
     * How many functions the loaded libraries register.
     *
     * @return the number of functions
     */
    public int functionCount() {
        return functions.size();
    }

    /**
     * FUNCTION LOAD [REPLACE]: compiles and runs the library code; returns the library name.
     *
     * @param code the library's source, starting with its shebang line
     * @param replace whether a library of the same name may be replaced
     * @return the library's name
     */
    public String load(byte[] code, boolean replace) {
        return load(code, replace, "ERR Library '%s' already exists");
    }

    /** {@link #load(byte[], boolean)}, with the text for a library that exists (RESTORE's has no quotes). */
    private String load(byte[] code, boolean replace, String exists) {
        String text = new String(code, StandardCharsets.UTF_8);
        String name = libraryName(text);
        Library existing = libraries.get(name);
        if (existing != null && !replace) {
            throw new ErrorReply(String.format(exists, name));
        }
        Library library = evaluate(name, text, code);
        for (Function f : library.functions()) {
            Function other = function(f.name());
            if (other != null && !other.library().equals(name)) {
                throw new ErrorReply("ERR Function " + f.name() + " already exists");
            }
        }
        if (existing != null) {
            delete(name);
        }
        libraries.put(name, library);
        library.functions().forEach(f -> functions.put(folded(f.name()), f));
        return name;
    }

    /**
     * FUNCTION DELETE: whether the library existed.
     *
     * @param name the library's name
     * @return whether it existed
     */
    public boolean delete(String name) {
        Library l = libraries.remove(name);
        if (l == null) {
            return false;
        }
        l.functions().forEach(f -> functions.remove(folded(f.name())));
        return true;
    }

    /** FUNCTION FLUSH: drops every library and function. */
    public void flush() {
        libraries.clear();
        functions.clear();
    }

    /**
     * FUNCTION RESTORE: loads every library of a dump; FLUSH empties first, APPEND refuses a
     * library that exists, REPLACE replaces it. Nothing changes when any library fails.
     *
     * @param codes the libraries' sources, as FUNCTION DUMP wrote them
     * @param policy {@code FLUSH}, {@code APPEND} or {@code REPLACE}
     */
    public void restore(List<byte[]> codes, String policy) {
        Map<String, Library> savedLibraries = new LinkedHashMap<>(libraries);
        Map<String, Function> savedFunctions = new LinkedHashMap<>(functions);
        try {
            if (policy.equals("FLUSH")) {
                flush();
            }
            for (byte[] code : codes) {
                load(code, policy.equals("REPLACE"), "ERR Library %s already exists");
            }
        } catch (ErrorReply e) {
            libraries.clear();
            libraries.putAll(savedLibraries);
            functions.clear();
            functions.putAll(savedFunctions);
            throw e;
        }
    }

    /** The library name from the shebang line, with Redis's errors. */
    private static String libraryName(String code) {
        if (!code.startsWith("#!")) {
            throw new ErrorReply("ERR Missing library metadata");
        }
        int nl = code.indexOf('\n');
        if (nl < 0) {
            throw new ErrorReply("ERR Invalid library metadata");
        }
        String[] parts = code.substring(2, nl).trim().split("\\s+");
        if (!parts[0].equalsIgnoreCase("lua")) {
            throw new ErrorReply("ERR Engine '" + parts[0] + "' not found");
        }
        String name = null;
        for (int i = 1; i < parts.length; i++) {
            if (parts[i].regionMatches(true, 0, "name=", 0, 5)) {
                if (name != null) {
                    throw new ErrorReply("ERR Invalid metadata value, name argument was given multiple times");
                }
                name = parts[i].substring(5);
            } else {
                throw new ErrorReply("ERR Invalid metadata value given: " + parts[i]);
            }
        }
        if (name == null) {
            throw new ErrorReply("ERR Library name was not given");
        }
        if (name.isEmpty() || !name.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
            throw new ErrorReply("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long");
        }
        return name;
    }

    /** Runs the library body with the registration-only {@code redis}; collects what it registered. */
    private Library evaluate(String name, String text, byte[] code) {
        List<Function> registered = new ArrayList<>();
        boolean[] loading = {true};
        LuaTable loadRedis = loadTimeRedis(name, registered, loading);
        Globals env = sandbox.libraryEnvironment(loadRedis, loading);
        byte[] body = code;
        if (text.startsWith("#!")) {
            int nl = text.indexOf('\n');
            String rest = nl < 0 ? "" : "\n" + text.substring(nl + 1);
            body = rest.getBytes(StandardCharsets.UTF_8);
        }
        String lua51Error = Lua51Syntax.firstError(body, "user_function");
        if (lua51Error != null) {
            throw new ErrorReply(Errors.functionCompile(lua51Error));
        }
        try {
            LuaValue chunk = sandbox.compile(body, "@user_function", env);
            String failure = scripting.runLibraryLoad(chunk);
            if (failure != null) {
                throw new ErrorReply(failure);
            }
        } catch (ErrorReply e) {
            throw e;
        } catch (LuaError e) {
            LuaValue obj = e instanceof Scripting.TableError t ? t.table().rawget(LuaReplies.ERR) : null;
            String message = obj != null && obj.isstring() ? obj.tojstring()
                    : "ERR " + scripting.runtimeMessage(Scripting.compileMessage(e).strip());
            throw new ErrorReply("ERR Error registering functions: " + message);
        } finally {
            loading[0] = false;
            scripting.forgetErrorSite();
        }
        if (registered.isEmpty()) {
            throw new ErrorReply("ERR No functions registered");
        }
        return new Library(name, text, List.copyOf(registered));
    }

    private LuaTable loadTimeRedis(String library, List<Function> registered, boolean[] loading) {
        LuaTable redis = new LuaTable();
        redis.rawset("register_function", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (!loading[0]) {
                    throw new LuaError("redis.register_function can only be called on FUNCTION LOAD command");
                }
                String fname;
                LuaValue callback;
                String description = null;
                Set<String> flags = new LinkedHashSet<>();
                if (args.narg() == 1 && args.arg1().istable()) {
                    LuaTable t = (LuaTable) args.arg1();
                    for (Varargs kv = t.next(LuaValue.NIL); !kv.arg1().isnil(); kv = t.next(kv.arg1())) {
                        String key = kv.arg1().tojstring();
                        if (!key.equals("function_name") && !key.equals("callback") && !key.equals("flags") && !key.equals("description")) {
                            throw registrationError("unknown argument given to redis.register_function");
                        }
                    }
                    fname = t.rawget("function_name").isstring() ? t.rawget("function_name").tojstring() : null;
                    callback = t.rawget("callback");
                    LuaValue d = t.rawget("description");
                    description = d.isstring() ? d.tojstring() : null;
                    LuaValue f = t.rawget("flags");
                    if (f.istable()) {
                        for (int i = 1; !f.get(i).isnil(); i++) {
                            String flag = f.get(i).tojstring();
                            if (!FLAGS.contains(flag)) {
                                throw registrationError("unknown flag given");
                            }
                            flags.add(flag);
                        }
                    }
                } else if (args.narg() == 1) {
                    throw registrationError("calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).");
                } else if (args.narg() == 2) {
                    if (!args.arg1().isstring()) {
                        throw registrationError("first argument to redis.register_function must be a string");
                    }
                    if (!(args.arg(2) instanceof LuaFunction)) {
                        throw registrationError("second argument to redis.register_function must be a function");
                    }
                    fname = args.arg1().tojstring();
                    callback = args.arg(2);
                } else {
                    throw registrationError("wrong number of arguments to redis.register_function");
                }
                if (fname == null) {
                    throw registrationError("redis.register_function must get a function name argument");
                }
                if (!(callback instanceof LuaFunction)) {
                    throw registrationError("redis.register_function must get a callback argument");
                }
                if (fname.isEmpty() || !fname.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_')) {
                    // Redis's own wording for a bad function name says "Library names".
                    throw registrationError("Library names can only contain letters, numbers, or underscores(_) and must be at least one character long");
                }
                for (Function existing : registered) {
                    if (folded(existing.name()).equals(folded(fname))) {
                        throw registrationError("Function already exists in the library");
                    }
                }
                Set<String> ordered = new LinkedHashSet<>(FLAGS);
                ordered.retainAll(flags);
                registered.add(new Function(fname, library, callback, description, java.util.Collections.unmodifiableSet(ordered)));
                return LuaValue.NONE;
            }
        });
        LuaValue full = sandbox.global("redis");
        for (String name : new String[] {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION", "REDIS_VERSION_NUM", "setresp"}) {
            redis.rawset(name, full.get(name));
        }
        LuaTable meta = new LuaTable();
        meta.rawset(LuaValue.INDEX, new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue key) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + key.tojstring() + "'");
            }
        });
        redis.setmetatable(meta);
        return redis;
    }

    private static LuaError registrationError(String message) {
        return new Scripting.TableError(LuaReplies.errorTable("ERR " + message));
    }
}
