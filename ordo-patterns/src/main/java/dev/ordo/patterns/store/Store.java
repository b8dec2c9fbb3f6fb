package dev.ordo.patterns.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The port every pattern talks to its database through: one command, or one Lua script, each
 * atomic on the server. Two adapters implement it, each in its own module: {@code EmbeddedStore}
 * (ordo-patterns-embedded: Ordo in the same process), and {@code LettuceStore}
 * (ordo-patterns-lettuce) against one server (Ordo or Redis) or a Redis Cluster.
 *
 * <p>Replies arrive as {@link Reply} values, the same from every adapter (integers, UTF-8 strings,
 * nil, arrays). An error reply is thrown as {@link StoreException} carrying Redis's text. Keys and arguments are
 * strings, sent as UTF-8.
 *
 * <p>Every call has a non-blocking twin ({@link #callAsync}, {@link #evalAsync}, ...) returning a
 * {@link CompletionStage} that completes with the same reply, or fails with the same {@link
 * StoreException}. An adapter over a network serves them without blocking the calling thread; an
 * in-process adapter may complete them before returning (the defaults here do, by running the
 * blocking call).
 *
 * <p>Implementations are thread-safe. A pattern keeps all keys of one command or script under one
 * hash tag ({@code {board}:...}), so on a cluster they share a slot and a node.
 */
public interface Store extends AutoCloseable {
    /**
     * Runs one command; returns its reply or throws {@link StoreException}.
     *
     * @param command the command, its keys marked
     * @return the server's reply
     */
    Reply call(StoreCommand command);

    /**
     * Runs a script atomically: EVALSHA, then EVAL when the server answers NOSCRIPT.
     *
     * @param script the script to run
     * @param keys the keys it touches (KEYS), all under one hash tag on a cluster
     * @param args its other arguments (ARGV)
     * @return the script's reply
     */
    Reply eval(Script script, List<String> keys, List<String> args);

    /**
     * Runs independent commands together, pipelined on one connection and in parallel across a
     * cluster's nodes, and returns their replies in order. The group is not atomic: each command
     * is. When any fails, the first failure is thrown once all have answered.
     *
     * @param commands the commands, independent of one another
     * @return their replies, in the order of {@code commands}
     */
    default List<Reply> callAll(List<StoreCommand> commands) {
        return Replies.each(commands.size(), i -> call(commands.get(i)));
    }

    /**
     * Runs {@code script} once per pair of {@code keys.get(i)} and {@code args.get(i)}, together as
     * {@link #callAll} runs commands; replies in order.
     *
     * @param script the script to run for every pair
     * @param keys each run's KEYS
     * @param args each run's ARGV, as many as {@code keys}
     * @return the replies, one per run in order
     */
    default List<Reply> evalAll(Script script, List<List<String>> keys, List<List<String>> args) {
        return Replies.each(keys.size(), i -> eval(script, keys.get(i), args.get(i)));
    }

    /**
     * {@link #call}, without blocking: the stage completes with the reply or fails with a {@link StoreException}.
     *
     * @param command the command, its keys marked
     * @return a stage completing with the server's reply
     */
    default CompletionStage<Reply> callAsync(StoreCommand command) {
        return inline(() -> call(command));
    }

    /**
     * {@link #eval}, without blocking: the stage completes with the reply or fails with a {@link StoreException}.
     *
     * @param script the script to run
     * @param keys the keys it touches (KEYS), all under one hash tag on a cluster
     * @param args its other arguments (ARGV)
     * @return a stage completing with the script's reply
     */
    default CompletionStage<Reply> evalAsync(Script script, List<String> keys, List<String> args) {
        return inline(() -> eval(script, keys, args));
    }

    /**
     * {@link #callAll}, without blocking: the stage fails with the first failure once all have answered.
     *
     * @param commands the commands, independent of one another
     * @return a stage completing with their replies, in order
     */
    default CompletionStage<List<Reply>> callAllAsync(List<StoreCommand> commands) {
        List<CompletionStage<Reply>> stages = new ArrayList<>(commands.size());
        for (StoreCommand c : commands) {
            stages.add(callAsync(c));
        }
        return Replies.all(stages);
    }

    /**
     * {@link #evalAll}, without blocking: the stage fails with the first failure once all have answered.
     *
     * @param script the script to run for every pair
     * @param keys each run's KEYS
     * @param args each run's ARGV, as many as {@code keys}
     * @return a stage completing with the replies, one per run in order
     */
    default CompletionStage<List<Reply>> evalAllAsync(Script script, List<List<String>> keys, List<List<String>> args) {
        List<CompletionStage<Reply>> stages = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            stages.add(evalAsync(script, keys.get(i), args.get(i)));
        }
        return Replies.all(stages);
    }

    /**
     * A store on a connection of its own, for blocking commands (BZPOPMIN and the like) that must
     * not stall anyone else's operations. Close it when done; closing it leaves this store open.
     *
     * @return a new store to close when done
     */
    Store dedicated();

    /**
     * True when keys under different hash tags may live on different nodes (Redis Cluster).
     *
     * @return whether multi-key operations must keep their keys under one hash tag
     */
    boolean clustered();

    /** Releases connections this store opened itself. */
    @Override
    void close();

    /**
     * Waits for {@code stage} and returns its value; a failure is rethrown as it is when it is
     * unchecked (a {@link StoreException} stays one), else wrapped in a {@link StoreException}.
     * For blocking calls built on non-blocking ones.
     *
     * @param <T> the stage's value type
     * @param stage the stage to wait for
     * @return its value
     */
    static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new StoreException(String.valueOf(cause.getMessage()), cause);
        } catch (java.util.concurrent.CancellationException e) {
            throw new StoreException("cancelled while waiting for a reply", e);
        }
    }

    /** A stage completed now with {@code call}'s value, or failed with what it threw. */
    private static <T> CompletionStage<T> inline(Supplier<T> call) {
        try {
            return CompletableFuture.completedFuture(call.get());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
