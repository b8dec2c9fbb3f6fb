package dev.ordo.engine.script;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;

/**
 * Refuses, with Lua's "not enough memory", a string a script is about to build that the heap
 * could not take: one allocation of hundreds of megabytes ({@code s = s .. s} doubling, a huge
 * {@code string.rep}) would otherwise end the server at once ({@code -XX:+ExitOnOutOfMemoryError}),
 * before any check between instructions could see the heap fill. Asked before OP_CONCAT runs
 * (from the instruction hook, which sees its operands) and by {@code string.rep}.
 *
 * <p>An allocation under {@link #LARGE} is always let through (the heap guard covers many small
 * ones). A larger one must fit in the old generation's free space (an array that large is put
 * there; the young generation cannot hold it), counting what is used now as held, less
 * {@link HeapGuard#HEADROOM}; if it does not, a collection is asked for and the free space judged
 * again, so garbage alone never refuses it.
 */
final class LargeAllocations {
    /** Allocations below this are not checked. */
    static final long LARGE = 1L << 20;

    private LargeAllocations() {
    }

    /** Throws "not enough memory" unless the heap can take {@code bytes} more. */
    static void ensure(long bytes) {
        if (bytes < LARGE) {
            return;
        }
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new LuaError("not enough memory");
        }
        if (!fits(bytes)) {
            System.gc();
            if (!fits(bytes)) {
                throw new LuaError("not enough memory");
            }
        }
    }

    /** Whether the old generation, where an array this large is put, has room for it and the headroom. */
    private static boolean fits(long bytes) {
        return bytes <= HeapGuard.oldGenerationFree() - HeapGuard.HEADROOM;
    }

    /**
     * Before instruction {@code i} runs with {@code registers}: if it is OP_CONCAT, ensures the
     * heap can take its result (strings and numbers concatenated; other operands make it fail or
     * call a metamethod, which allocates on its own). Concatenating more than two values builds
     * the result in a buffer that may be copied once more, so that counts twice.
     */
    static void beforeInstruction(int i, LuaValue[] registers) {
        if (Lua.GET_OPCODE(i) != Lua.OP_CONCAT || registers == null) {
            return;
        }
        int b = Lua.GETARG_B(i);
        int c = Lua.GETARG_C(i);
        long total = 0;
        for (int r = b; r <= c && r < registers.length; r++) {
            LuaValue v = registers[r];
            if (v != null && v.type() == LuaValue.TSTRING) {
                total += v.length();
            }
        }
        ensure(c > b + 1 ? 2 * total : total);
    }
}
