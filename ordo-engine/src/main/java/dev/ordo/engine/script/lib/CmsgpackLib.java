package dev.ordo.engine.script.lib;

import java.util.Arrays;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.TwoArgFunction;

/**
 * The {@code cmsgpack} library of Redis 7's scripts, lua-cmsgpack 0.4.0: {@code pack(...)} writes each argument as one
 * MessagePack object (see {@link MsgpackEncoder}); {@code unpack(s)} returns every object in {@code s};
 * {@code unpack_one(s [, offset])} and {@code unpack_limit(s, limit [, offset])} read at most one or {@code limit}
 * objects from byte {@code offset} (0-based) and return first the offset after them, or -1 when {@code s} is used up,
 * then the objects. A limit and offset both 0 read everything and return no offset, as lua-cmsgpack does. Decoding
 * rules are in {@link MsgpackDecoder}.
 *
 * <p>Known differences from Redis: maps with several keys list them in LuaJ's table order.
 */
public final class CmsgpackLib extends TwoArgFunction {

    /** Creates the library; {@code globals.load(new CmsgpackLib())} installs it. */
    public CmsgpackLib() {
    }

    /** Sets {@code env.cmsgpack} to a new module table and returns it. */
    @Override
    public LuaValue call(LuaValue modname, LuaValue env) {
        LuaTable module = new LuaTable();
        LibraryFunction.register(module, "pack", CmsgpackLib::pack);
        LibraryFunction.register(module, "unpack", args -> unpack(args, "unpack", 0, 0, args.narg()));
        LibraryFunction.register(module, "unpack_one", args -> {
            long offset = LuaArgs.optInteger(args, 2, "unpack_one", 0);
            return unpack(args, "unpack_one", 1, offset, 1);
        });
        LibraryFunction.register(module, "unpack_limit", args -> {
            long limit = LuaArgs.checkInteger(args, 2, "unpack_limit");
            long offset = LuaArgs.optInteger(args, 3, "unpack_limit", 0);
            return unpack(args, "unpack_limit", limit, offset, 1);
        });
        module.set("_NAME", "cmsgpack");
        module.set("_VERSION", "lua-cmsgpack 0.4.0");
        module.set("_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo");
        module.set("_DESCRIPTION", "MessagePack C implementation for Lua");
        env.set("cmsgpack", module);
        return module;
    }

    private static Varargs pack(Varargs args) {
        if (args.narg() == 0) {
            throw LuaArgs.argError(0, "pack", "MessagePack pack needs input.");
        }
        return MsgpackEncoder.pack(args);
    }

    /**
     * lua-cmsgpack's {@code mp_unpack_full}, with its 64-bit limit and offset; its messages print them with
     * {@code %d}, which shows their low 32 bits. {@code stackSlots} is how many Lua stack slots the arguments left in
     * place take (all of them for {@code unpack}, only the string for the others).
     */
    private static Varargs unpack(Varargs args, String name, long limit, long offset, int stackSlots) {
        LuaString s = LuaArgs.checkString(args, 1, name);
        int length = s.m_length;
        if (offset < 0 || limit < 0) {
            throw LuaArgs.error("Invalid request to unpack with offset of " + (int) offset + " and limit of "
                    + length + ".");
        }
        if (offset > length) {
            throw LuaArgs.error("Start offset " + (int) offset + " greater than input length " + length + ".");
        }
        boolean decodeAll = limit == 0 && offset == 0;
        long max = decodeAll ? Integer.MAX_VALUE : limit;
        MsgpackDecoder decoder = new MsgpackDecoder(s, (int) offset);
        LuaValue[] results = new LuaValue[(int) Math.min(max, 16) + 1];
        int count = 0;
        while (decoder.left() > 0 && count < max) {
            LuaValue value = decoder.decodeNext(stackSlots + count);
            if (count + 1 == results.length) {
                results = Arrays.copyOf(results, results.length * 2);
            }
            results[++count] = value;
        }
        if (decodeAll) {
            return LuaValue.varargsOf(Arrays.copyOfRange(results, 1, count + 1));
        }
        if (stackSlots + count + 1 > LuaArgs.MAX_C_STACK) {
            throw LuaArgs.error("stack overflow (in function mp_unpack_full)");
        }
        results[0] = LuaValue.valueOf(decoder.left() == 0 ? -1 : length - decoder.left());
        return LuaValue.varargsOf(Arrays.copyOf(results, count + 1));
    }
}
