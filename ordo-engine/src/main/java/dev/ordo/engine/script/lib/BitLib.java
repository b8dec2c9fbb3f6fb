package dev.ordo.engine.script.lib;

import java.util.function.IntBinaryOperator;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The {@code bit} library of Redis 7's scripts, LuaBitOp: {@code tobit tohex bnot band bor bxor lshift rshift arshift
 * rol ror bswap}, all returning signed 32-bit results.
 *
 * <p>Arguments are normalised as LuaBitOp does on Lua 5.1 with double numbers: {@code lua_tonumber} (numeric strings
 * count), plus 2^52+2^51, keep the low 32 bits of the sum's representation, so fractions round half to even and large
 * values wrap modulo 2^32. Shift counts use their low 5 bits. {@code band}, {@code bor} and {@code bxor} check their
 * arguments from the last down to the second, then the first, as LuaBitOp does; extra arguments elsewhere are
 * ignored. {@code tohex(x [, n])} writes the low |n| hex digits (at most 8, default 8), upper case when n is negative;
 * for n = -2^31, whose negation overflows, it writes 8 upper-case digits as Redis's build does.
 */
public final class BitLib extends TwoArgFunction {

    /** 2^52 + 2^51: adding it leaves a double's integer part, modulo 2^32, in the low 32 bits of its mantissa. */
    private static final double NORMALISER = 6755399441055744.0;
    private static final int DEFAULT_HEX_DIGITS = 8;

    /** Creates the library; {@code globals.load(new BitLib())} installs it. */
    public BitLib() {
    }

    /** Sets {@code env.bit} to a new module table and returns it. */
    @Override
    public LuaValue call(LuaValue modname, LuaValue env) {
        LuaTable module = new LuaTable();
        LibraryFunction.register(module, "tobit", args -> result(bitArg(args, 1, "tobit")));
        LibraryFunction.register(module, "bnot", args -> result(~bitArg(args, 1, "bnot")));
        LibraryFunction.register(module, "band", args -> fold(args, "band", (a, b) -> a & b));
        LibraryFunction.register(module, "bor", args -> fold(args, "bor", (a, b) -> a | b));
        LibraryFunction.register(module, "bxor", args -> fold(args, "bxor", (a, b) -> a ^ b));
        LibraryFunction.register(module, "lshift", args -> shift(args, "lshift", (b, n) -> b << n));
        LibraryFunction.register(module, "rshift", args -> shift(args, "rshift", (b, n) -> b >>> n));
        LibraryFunction.register(module, "arshift", args -> shift(args, "arshift", (b, n) -> b >> n));
        LibraryFunction.register(module, "rol", args -> shift(args, "rol", Integer::rotateLeft));
        LibraryFunction.register(module, "ror", args -> shift(args, "ror", Integer::rotateRight));
        LibraryFunction.register(module, "bswap", args -> result(Integer.reverseBytes(bitArg(args, 1, "bswap"))));
        LibraryFunction.register(module, "tohex", BitLib::tohex);
        env.set("bit", module);
        return module;
    }

    /** LuaBitOp's {@code barg}: argument {@code narg} as 32 bits, or a {@code number expected} error. */
    private static int bitArg(Varargs args, int narg, String name) {
        Double n = LuaArgs.toNumber(args.arg(narg));
        if (n == null) {
            throw LuaArgs.typeError(args, narg, name, "number");
        }
        return (int) Double.doubleToRawLongBits(n + NORMALISER);
    }

    private static LuaValue result(int bits) {
        return LuaValue.valueOf(bits);
    }

    private static LuaValue fold(Varargs args, String name, IntBinaryOperator op) {
        int b = bitArg(args, 1, name);
        for (int i = args.narg(); i > 1; i--) {
            b = op.applyAsInt(b, bitArg(args, i, name));
        }
        return result(b);
    }

    private static LuaValue shift(Varargs args, String name, IntBinaryOperator op) {
        int b = bitArg(args, 1, name);
        int n = bitArg(args, 2, name) & 31;
        return result(op.applyAsInt(b, n));
    }

    private static LuaValue tohex(Varargs args) {
        int b = bitArg(args, 1, "tohex");
        int n = LuaArgs.isNone(args, 2) ? DEFAULT_HEX_DIGITS : bitArg(args, 2, "tohex");
        String digits = "0123456789abcdef";
        if (n < 0) {
            n = -n;
            digits = "0123456789ABCDEF";
            if (n < 0) {
                n = DEFAULT_HEX_DIGITS;
            }
        }
        n = Math.min(n, DEFAULT_HEX_DIGITS);
        char[] out = new char[n];
        for (int i = n - 1; i >= 0; i--) {
            out[i] = digits.charAt(b & 15);
            b >>>= 4;
        }
        return LuaValue.valueOf(new String(out));
    }
}
