package dev.ordo.patterns.leaderboard;

import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Told of each call made on a board that has it: the board runs every public call through it, so
 * it may time or count the call. A board gets one with {@code withObserver} ({@link
 * Leaderboard#withObserver}, {@link PeriodicLeaderboard#withObserver}, {@link
 * ShardedLeaderboard#withObserver}), which keeps the board's own type. Names no Micrometer type, so
 * the boards need no Micrometer; the patterns' metrics make one per board name
 * ({@code OrdoMetrics.instrument}). An observer sees the name of the method called and whether it
 * writes, never its arguments (members, scores) or what it returns.
 *
 * <p>A call is reported once, by the board it was made on: what that call does on other boards
 * (a family's period boards, a sharded board's shards) is not reported again.
 */
public interface BoardObserver {
    /** Observes nothing: runs each call as it is; a board has it unless given another. */
    BoardObserver NONE = new BoardObserver() {
        @Override
        public <R> R observe(Access access, String operation, Supplier<R> call) {
            return call.get();
        }

        @Override
        public <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call) {
            return call.get();
        }

        @Override
        public String toString() {
            return "BoardObserver.NONE";
        }
    };

    /**
     * An observer telling {@code outer} of each call and {@code inner} inside it, so both see every
     * call (and {@code outer}'s time includes {@code inner}'s); {@link #NONE} on either side gives
     * the other. What {@code withObserver} uses when a board already has an observer.
     *
     * @param outer told first, around {@code inner}
     * @param inner told inside {@code outer}, around the call
     * @return the two as one
     */
    static BoardObserver both(BoardObserver outer, BoardObserver inner) {
        if (outer == NONE) {
            return inner;
        }
        if (inner == NONE) {
            return outer;
        }
        return new BoardObserver() {
            @Override
            public <R> R observe(Access access, String operation, Supplier<R> call) {
                return outer.observe(access, operation, () -> inner.observe(access, operation, call));
            }

            @Override
            public <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call) {
                return outer.observeAsync(access, operation, () -> inner.observeAsync(access, operation, call));
            }
        };
    }

    /**
     * Runs {@code call}, one blocking call on the board, and returns what it returns or throws what it throws.
     *
     * @param access    whether the call reads or writes the board
     * @param operation the board method called, as named in its class ({@code addPoints}, {@code top}, ...)
     * @param call      the call itself
     * @param <R>       what the call returns
     * @return what {@code call} returned
     */
    <R> R observe(Access access, String operation, Supplier<R> call);

    /**
     * Runs {@code call}, one non-blocking call on the board, and returns a stage that completes as
     * the call's does (it is done when that stage completes, not when {@code call} returns).
     *
     * @param access    whether the call reads or writes the board
     * @param operation the board method called, as named in its class without {@code Async}
     * @param call      the call itself, returning its stage
     * @param <R>       what the stage completes with
     * @return a stage completing, or failing, as the call's does
     */
    <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call);

    /** Whether a call reads the board or writes it (adds, sets, removes, stores metadata, merges). */
    enum Access {
        /** The call only reads. */
        READ,
        /** The call changes what the board holds. */
        WRITE
    }
}
