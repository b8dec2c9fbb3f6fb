package dev.ordo.engine.script.lib;

import java.util.function.Function;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/** A library function given as a Java lambda; {@code name} is the name its argument errors use. */
final class LibraryFunction extends VarArgFunction {

    private final Function<Varargs, Varargs> body;

    private LibraryFunction(String name, Function<Varargs, Varargs> body) {
        this.name = name;
        this.body = body;
    }

    /** Sets {@code table[name]} to a function running {@code body}. */
    static void register(LuaTable table, String name, Function<Varargs, Varargs> body) {
        table.set(name, new LibraryFunction(name, body));
    }

    @Override
    public Varargs invoke(Varargs args) {
        return body.apply(args);
    }
}
