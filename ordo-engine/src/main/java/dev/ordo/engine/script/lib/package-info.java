/**
 * The extra Lua libraries Redis 7 gives its scripts, as LuaJ libraries: {@code cjson} (lua-cjson 2.1.0),
 * {@code cmsgpack} (lua-cmsgpack 0.4.0), {@code bit} (LuaBitOp) and {@code struct} (lua-struct), plus
 * {@link dev.ordo.engine.script.lib.LuaNumberFormat}, C's {@code %.14g} that Lua 5.1 uses to print numbers.
 *
 * <p>Each library is a {@link org.luaj.vm2.lib.TwoArgFunction}: {@code globals.load(new CjsonLib())} sets the global
 * table and returns it. Outputs, type choices and error texts follow redis-server 7.0 on x86-64, including the
 * results C leaves to the machine (out-of-range double to integer conversions, shift counts taken modulo 64).
 * Errors a library raises with {@code luaL_error} are thrown as {@link org.luaj.vm2.LuaError}s built from a Java
 * string, so LuaJ prefixes the caller's position as Lua does; the few that Lua's VM raises without a position
 * ({@code table index is nil}) are built from a Lua value, which LuaJ leaves bare.
 *
 * <p>Known differences that come from LuaJ rather than from these libraries: LuaJ iterates a table's hash part in
 * its own order, so objects and maps with several keys may list them in another order than Redis (and
 * {@code cjson.encode} of a table mixing keys of 2^31 or more with small integer keys, whose outcome lua-cjson leaves
 * to iteration order, may differ); LuaJ has no negative zero (it stores {@code -0.0} as the integer 0, so
 * {@code cjson.decode("-0")} is 0 where Redis has -0) and its {@code 0/0} is a positive NaN where x86's is negative,
 * which shows in {@code cmsgpack.pack(0/0)}. One difference is this package's: argument errors name the function as
 * registered, where Lua names it as called ({@code '?'} under {@code pcall(f, ...)}).
 *
 * <p>Error texts stay in the class that raises them rather than in {@code dev.ordo.engine.error}: they are the texts
 * of each C library, which reach clients only inside a script error, not Redis replies of their own.
 */
package dev.ordo.engine.script.lib;
