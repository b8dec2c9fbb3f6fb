package dev.ordo.engine.script.lib;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The {@code cjson} library of Redis 7's scripts: lua-cjson 2.1.0 with its functions {@code encode}, {@code decode},
 * {@code new} and the configuration functions {@code encode_sparse_array}, {@code encode_max_depth},
 * {@code decode_max_depth}, {@code encode_number_precision}, {@code encode_keep_buffer},
 * {@code encode_invalid_numbers} and {@code decode_invalid_numbers}, plus {@code cjson.null}, {@code _NAME} and
 * {@code _VERSION}. Each {@code cjson.new()} table has its own settings, as in lua-cjson.
 *
 * <p>Configuration functions return the settings after the call and check their arguments in order, so an error on
 * a later argument leaves earlier ones applied, as lua-cjson does. {@code encode_keep_buffer} only records its flag:
 * there is no buffer to keep. The encoding and decoding rules are in {@link JsonEncoder} and {@link JsonDecoder}.
 *
 * <p>Known differences from Redis: objects with several keys list them in LuaJ's table order; {@code cjson.null} is
 * a full userdata (Redis's is a light userdata holding NULL), which no script can tell apart.
 */
public final class CjsonLib extends TwoArgFunction {

    /** {@code cjson.null}: what {@code decode} returns for JSON {@code null} and {@code encode} writes as null. */
    public static final LuaValue NULL = new LuaUserdata(new NullPointerText());

    private static final int INT_MAX = Integer.MAX_VALUE;
    private static final String[] ON_OFF = {"off", "on"};
    private static final String[] INVALID_NUMBER_OPTIONS = {"off", "on", "null"};

    /** Creates the library; {@code globals.load(new CjsonLib())} installs it. */
    public CjsonLib() {
    }

    /** Sets {@code env.cjson} to a new module table and returns it. */
    @Override
    public LuaValue call(LuaValue modname, LuaValue env) {
        LuaTable module = newModule();
        env.set("cjson", module);
        return module;
    }

    /** The text {@code tostring(cjson.null)} gives in Redis: a NULL light userdata printed with {@code %p}. */
    private static final class NullPointerText {
        @Override
        public String toString() {
            return "userdata: (nil)";
        }
    }

    private static LuaTable newModule() {
        JsonConfig config = new JsonConfig();
        LuaTable module = new LuaTable();
        LibraryFunction.register(module, "encode", args -> {
            checkOneArgument(args, "encode");
            return JsonEncoder.encode(args.arg1(), config);
        });
        LibraryFunction.register(module, "decode", args -> {
            checkOneArgument(args, "decode");
            return JsonDecoder.decode(LuaArgs.checkString(args, 1, "decode"), config);
        });
        LibraryFunction.register(module, "encode_sparse_array", args -> {
            String name = "encode_sparse_array";
            checkArgumentCount(args, 3, name);
            LuaValue convert = booleanOption(args, 1, name, ON_OFF, config.encodeSparseConvert ? 1 : 0);
            config.encodeSparseConvert = convert.toboolean();
            config.encodeSparseRatio = integerOption(args, 2, name, config.encodeSparseRatio, 0, INT_MAX);
            config.encodeSparseSafe = integerOption(args, 3, name, config.encodeSparseSafe, 0, INT_MAX);
            return LuaValue.varargsOf(convert, LuaValue.valueOf(config.encodeSparseRatio),
                    LuaValue.valueOf(config.encodeSparseSafe));
        });
        LibraryFunction.register(module, "encode_max_depth", args -> {
            checkArgumentCount(args, 1, "encode_max_depth");
            config.encodeMaxDepth = integerOption(args, 1, "encode_max_depth", config.encodeMaxDepth, 1, INT_MAX);
            return LuaValue.valueOf(config.encodeMaxDepth);
        });
        LibraryFunction.register(module, "decode_max_depth", args -> {
            checkArgumentCount(args, 1, "decode_max_depth");
            config.decodeMaxDepth = integerOption(args, 1, "decode_max_depth", config.decodeMaxDepth, 1, INT_MAX);
            return LuaValue.valueOf(config.decodeMaxDepth);
        });
        LibraryFunction.register(module, "encode_number_precision", args -> {
            String name = "encode_number_precision";
            checkArgumentCount(args, 1, name);
            config.encodeNumberPrecision = integerOption(args, 1, name, config.encodeNumberPrecision, 1, 14);
            return LuaValue.valueOf(config.encodeNumberPrecision);
        });
        LibraryFunction.register(module, "encode_keep_buffer", args -> {
            checkArgumentCount(args, 1, "encode_keep_buffer");
            LuaValue keep = booleanOption(args, 1, "encode_keep_buffer", ON_OFF, config.encodeKeepBuffer ? 1 : 0);
            config.encodeKeepBuffer = keep.toboolean();
            return keep;
        });
        LibraryFunction.register(module, "encode_invalid_numbers", args -> {
            String name = "encode_invalid_numbers";
            checkArgumentCount(args, 1, name);
            LuaValue setting = booleanOption(args, 1, name, INVALID_NUMBER_OPTIONS, config.encodeInvalidNumbers);
            config.encodeInvalidNumbers = setting.isboolean() ? (setting.toboolean() ? 1 : 0)
                    : JsonConfig.INVALID_NUMBERS_NULL;
            return setting;
        });
        LibraryFunction.register(module, "decode_invalid_numbers", args -> {
            String name = "decode_invalid_numbers";
            checkArgumentCount(args, 1, name);
            LuaValue setting = booleanOption(args, 1, name, ON_OFF, config.decodeInvalidNumbers ? 1 : 0);
            config.decodeInvalidNumbers = setting.toboolean();
            return setting;
        });
        LibraryFunction.register(module, "new", args -> newModule());
        module.set("null", NULL);
        module.set("_NAME", "cjson");
        module.set("_VERSION", "2.1.0");
        return module;
    }

    private static void checkOneArgument(Varargs args, String name) {
        if (args.narg() != 1) {
            throw LuaArgs.argError(1, name, "expected 1 argument");
        }
    }

    /** lua-cjson's {@code json_arg_init}: at most {@code max} arguments. */
    private static void checkArgumentCount(Varargs args, int max, String name) {
        if (args.narg() > max) {
            throw LuaArgs.argError(max + 1, name, "found too many arguments");
        }
    }

    /**
     * lua-cjson's {@code json_enum_option} with booleans allowed: a boolean sets 0 or 1, a string must be one of
     * {@code options}; returns the resulting setting as a boolean when it is 0 or 1, else as its option name.
     */
    private static LuaValue booleanOption(Varargs args, int narg, String name, String[] options, int current) {
        int setting = current;
        if (!LuaArgs.isNoneOrNil(args, narg)) {
            LuaValue arg = args.arg(narg);
            if (arg.isboolean()) {
                setting = arg.toboolean() ? 1 : 0;
            } else {
                setting = checkOption(args, narg, name, options);
            }
        }
        return setting <= 1 ? LuaValue.valueOf(setting == 1) : LuaValue.valueOf(options[setting]);
    }

    /** {@code luaL_checkoption}: the index of the string argument in {@code options}. */
    private static int checkOption(Varargs args, int narg, String name, String[] options) {
        String given = LuaArgs.messageText(LuaArgs.checkString(args, narg, name));
        for (int i = 0; i < options.length; i++) {
            if (options[i].equals(given)) {
                return i;
            }
        }
        throw LuaArgs.argError(narg, name, "invalid option '" + given + "'");
    }

    /**
     * lua-cjson's {@code json_integer_option}: nil keeps {@code current}; otherwise an integer in {@code [min, max]}
     * after C's truncation to {@code int}. Its range error names argument #1 whichever argument it is, as lua-cjson's.
     */
    private static int integerOption(Varargs args, int narg, String name, int current, int min, int max) {
        if (LuaArgs.isNoneOrNil(args, narg)) {
            return current;
        }
        int value = (int) LuaArgs.checkInteger(args, narg, name);
        if (value < min || value > max) {
            throw LuaArgs.argError(1, name, "expected integer between " + min + " and " + max);
        }
        return value;
    }
}
