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

    /**
     * A command named {@code name} with no arguments yet.
     *
     * @param name the command's name, e.g. {@code ZADD}
     * @return the command, to append arguments to
     */
    public static StoreCommand of(String name) {
        return new StoreCommand(name);
    }

    /**
     * Appends a key.
     *
     * @param key the key, which a cluster routes the command by
     * @return this command
     */
    public StoreCommand key(String key) {
        if (args.size() < Long.SIZE) {
            keyMask |= 1L << args.size();
        }
        args.add(key);
        return this;
    }

    /**
     * Appends a plain argument.
     *
     * @param value the argument, sent as it is
     * @return this command
     */
    public StoreCommand arg(String value) {
        args.add(value);
        return this;
    }

    /**
     * Appends an integer argument.
     *
     * @param value the integer, sent in decimal
     * @return this command
     */
    public StoreCommand arg(long value) {
        return arg(Long.toString(value));
    }

    /**
     * Appends a score argument, written so the server parses back the same double.
     *
     * @param value the score
     * @return this command
     */
    public StoreCommand arg(double value) {
        return arg(Scores.format(value));
    }

    /**
     * The command's name, as sent.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The arguments in order, keys among them.
     *
     * @return the arguments, not counting the name
     */
    public List<String> args() {
        return args;
    }

    /**
     * True when argument {@code index} is a key.
     *
     * @param index the argument's position in {@link #args()}, from 0
     * @return whether it was appended with {@link #key}
     */
    public boolean isKey(int index) {
        return index < Long.SIZE && (keyMask & (1L << index)) != 0;
    }

    @Override
    public String toString() {
        return name + " " + String.join(" ", args);
    }
}
