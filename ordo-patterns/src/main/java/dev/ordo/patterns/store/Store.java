package dev.ordo.patterns.store;

import java.util.List;

/**
 * The port every pattern talks to its database through: one command, or one Lua script, each
 * atomic on the server. Two adapters implement it, each in its own module: {@code EmbeddedStore}
 * (ordo-patterns-embedded: Ordo in the same
 * process), and {@code LettuceStore} (ordo-patterns-lettuce) against one server (Ordo or Redis) or
 * a Redis Cluster.
 *
 * <p>Replies arrive as plain Java objects, the same from every adapter: integers as {@link Long},
 * bulk and status strings as {@link String} (UTF-8), nil as {@code null}, arrays as {@link List}.
 * An error reply is thrown as {@link StoreException} carrying Redis's text. Keys and arguments are
 * strings, sent as UTF-8.
 *
 * <p>Implementations are thread-safe. A pattern keeps all keys of one command or script under one
 * hash tag ({@code {board}:...}), so on a cluster they share a slot and a node.
 */
public interface Store extends AutoCloseable {
    /** Runs one command; returns its reply or throws {@link StoreException}. */
    Object call(StoreCommand command);

    /** Runs a script atomically: EVALSHA, then EVAL when the server answers NOSCRIPT. */
    Object eval(Script script, List<String> keys, List<String> args);

    /**
     * Runs independent commands together, pipelined on one connection and in parallel across a
     * cluster's nodes, and returns their replies in order. The group is not atomic: each command
     * is. When any fails, the first failure is thrown once all have answered.
     */
    default List<Object> callAll(List<StoreCommand> commands) {
        return Replies.each(commands.size(), i -> call(commands.get(i)));
    }

    /**
     * Runs {@code script} once per pair of {@code keys.get(i)} and {@code args.get(i)}, together as
     * {@link #callAll} runs commands; replies in order.
     */
    default List<Object> evalAll(Script script, List<List<String>> keys, List<List<String>> args) {
        return Replies.each(keys.size(), i -> eval(script, keys.get(i), args.get(i)));
    }

    /**
     * A store on a connection of its own, for blocking commands (BZPOPMIN and the like) that must
     * not stall anyone else's operations. Close it when done; closing it leaves this store open.
     */
    Store dedicated();

    /** True when keys under different hash tags may live on different nodes (Redis Cluster). */
    boolean clustered();

    /** Releases connections this store opened itself. */
    @Override
    void close();
}
