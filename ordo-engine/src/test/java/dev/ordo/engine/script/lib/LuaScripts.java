package dev.ordo.engine.script.lib;

import java.nio.charset.StandardCharsets;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Runs Lua code in LuaJ with the four Redis libraries installed fresh for each script (so cjson's settings start
 * at their defaults), under the chunk name {@code user_script} that Redis gives scripts.
 */
final class LuaScripts {

    private final Globals globals = JsePlatform.standardGlobals();

    LuaScripts() {
        globals.set("fmtnum", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue n) {
                return LuaString.valueOf(formatForRecordings(n.todouble()));
            }
        });
    }

    /** The number text {@link RedisRecordings} uses: {@code %.14g}, or {@code %.17g} when 14 digits lose the value. */
    static String formatForRecordings(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        String s = LuaNumberFormat.g14(v);
        if (!Double.isInfinite(v) && Double.parseDouble(s) != v) {
            s = LuaNumberFormat.g(v, 17);
        }
        return s;
    }

    /** Runs {@code code} as a chunk and returns its results; Lua errors propagate as {@link LuaError}. */
    Varargs eval(String code) {
        installLibraries();
        return globals.load(code, "user_script").invoke();
    }

    /** Runs a recorded snippet through the recordings' prelude and returns the line Redis's run() printed. */
    String runRecorded(String snippet) {
        installLibraries();
        String script = RedisRecordings.PRELUDE + "\nreturn run(function()\n" + snippet + "\nend)";
        LuaValue result = globals.load(script, "user_script").call();
        LuaString s = result.checkstring();
        return new String(s.m_bytes, s.m_offset, s.m_length, StandardCharsets.ISO_8859_1);
    }

    private void installLibraries() {
        globals.load(new CjsonLib());
        globals.load(new CmsgpackLib());
        globals.load(new BitLib());
        globals.load(new StructLib());
    }
}
