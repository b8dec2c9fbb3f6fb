package dev.ordo.patterns.store;

import java.util.ArrayList;
import java.util.List;

/**
 * One command to send through a {@link Store}: a name and its arguments in order, each marked as a
 * key or not (a cluster adapter routes by the first key). Built fluently:
 * {@code StoreCommand.of("ZINCRBY").key(board).arg(5).arg("alice")}.
 */
public final class StoreCommand {
    private final String name;
    private final List<String> args = new ArrayList<>(4);
    private long keyMask;

    private StoreCommand(String name) {
        this.name = name;
    }

    /** A command named {@code name} with no arguments yet. */
    public static StoreCommand of(String name) {
        return new StoreCommand(name);
    }

    /** Appends a key. */
    public StoreCommand key(String key) {
        if (args.size() < Long.SIZE) {
            keyMask |= 1L << args.size();
        }
        args.add(key);
        return this;
    }

    /** Appends a plain argument. */
    public StoreCommand arg(String value) {
        args.add(value);
        return this;
    }

    /** Appends an integer argument. */
    public StoreCommand arg(long value) {
        return arg(Long.toString(value));
    }

    /** Appends a score argument, written so the server parses back the same double. */
    public StoreCommand arg(double value) {
        return arg(Scores.format(value));
    }

    /** The command's name, as sent. */
    public String name() {
        return name;
    }

    /** The arguments in order, keys among them. */
    public List<String> args() {
        return args;
    }

    /** True when argument {@code index} is a key. */
    public boolean isKey(int index) {
        return index < Long.SIZE && (keyMask & (1L << index)) != 0;
    }

    @Override
    public String toString() {
        return name + " " + String.join(" ", args);
    }
}
