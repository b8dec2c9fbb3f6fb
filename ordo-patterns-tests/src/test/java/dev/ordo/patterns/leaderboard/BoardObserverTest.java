package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each kind of board given an observer ({@code withObserver}) keeps its type, reports each public
 * call once (not again for the calls it makes on itself, its period boards or its shards), with
 * the method's name and whether it writes, and answers as the board without one does.
 */
class BoardObserverTest {
    private static final String MEMBER = "alice";

    private final Store store = Backend.EMBEDDED.store();
    private final Recording recording = new Recording();

    /** Records each call it runs as {@code [prefix]ACCESS operation}, into a list it may share with other recordings. */
    private static final class Recording implements BoardObserver {
        final List<String> calls;
        private final String prefix;

        Recording() {
            this("", new CopyOnWriteArrayList<>());
        }

        Recording(String prefix, List<String> calls) {
            this.prefix = prefix;
            this.calls = calls;
        }

        @Override
        public <R> R observe(Access access, String operation, Supplier<R> call) {
            calls.add(prefix + access + " " + operation);
            return call.get();
        }

        @Override
        public <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call) {
            calls.add(prefix + access + " " + operation + " async");
            return call.get();
        }
    }

    @Test
    void leaderboard_withObserver_reportsEachCallOnceAndAnswersAsBefore() {
        String name = Backend.uniqueName("plain");
        Leaderboard plain = Leaderboard.create(store, name, BoardOptions.highestFirst().withTieRule(TieRule.FIRST_REACHED));
        Leaderboard observed = plain.withObserver(recording);

        observed.addPoints(MEMBER, 5);
        double incremented = observed.incrementScore(MEMBER, 1); // falls back on addPoints on first-reached boards
        observed.score(MEMBER); // read through placement on first-reached boards
        observed.rankAsync(MEMBER).toCompletableFuture().join();
        observed.page(1, 10);
        observed.setMetadata(MEMBER, java.util.Map.of("name", "Alice"));
        plain.addPoints("bob", 1);

        assertThat(incremented).isEqualTo(6);
        assertThat(recording.calls).containsExactly("WRITE addPoints", "WRITE incrementScore", "READ score", "READ rank async",
                "READ page", "WRITE setMetadata");
        assertThat(observed.top(10)).isEqualTo(plain.top(10));
        assertThat(observed.withObserver(BoardObserver.NONE).count()).isEqualTo(2);
        assertThat(recording.calls).hasSize(7).last().isEqualTo("READ top");
    }

    @Test
    void periodicLeaderboard_withObserver_reportsEachCallOnceAndItsPeriodBoardsReportToo() {
        String name = Backend.uniqueName("family");
        PeriodicLeaderboard observed = PeriodicLeaderboard.builder(store, name).period(Period.daily()).allTime().build()
                .withObserver(recording);

        List<Placement<String>> all = observed.addPointsAll(MEMBER, 3); // writes two boards
        observed.addPoints(MEMBER, 1); // through addPointsAll
        observed.top(3); // through the primary board
        observed.current(Period.daily()).score(MEMBER);
        observed.allTime().rank(MEMBER);

        assertThat(all).hasSize(2);
        assertThat(recording.calls).containsExactly("WRITE addPointsAll", "WRITE addPoints", "READ top", "READ score", "READ rank");
        assertThat(observed.withObserver(BoardObserver.NONE).score(MEMBER)).hasValue(4);
        assertThat(recording.calls).hasSize(5);
    }

    @Test
    void shardedLeaderboard_withObserver_reportsEachCallOnceHoweverManyShardsItReads() {
        String name = Backend.uniqueName("spread");
        ShardedLeaderboard observed = ShardedLeaderboard.create(store, name, 4, BoardOptions.highestFirst()).withObserver(recording);

        observed.addPoints(MEMBER, 3); // a shard's write, then a read of every shard
        observed.addPoints("bob", 4);
        observed.around(MEMBER, 2);
        observed.topAsync(2).toCompletableFuture().join();
        observed.shardOf(MEMBER).count();
        observed.mergeSnapshot();

        assertThat(recording.calls).containsExactly("WRITE addPoints", "WRITE addPoints", "READ around", "READ top async",
                "READ count", "WRITE mergeSnapshot");
        assertThat(observed.withObserver(BoardObserver.NONE).rank(MEMBER)).hasValue(2);
        assertThat(recording.calls).hasSize(6);
    }

    @Test
    void withObserver_aCallThatThrows_throwsThroughTheObserver() {
        Leaderboard observed = Leaderboard.create(store, Backend.uniqueName("bad"), BoardOptions.highestFirst()).withObserver(recording);

        assertThatThrownBy(() -> observed.top(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> observed.topAsync(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(recording.calls).containsExactly("READ top", "READ top async");
    }

    @Test
    void withObserverTwice_everyKind_bothObserversToldOuterFirst() {
        List<String> calls = new CopyOnWriteArrayList<>();
        BoardObserver first = new Recording("first ", calls);
        BoardObserver second = new Recording("second ", calls);
        Leaderboard plain = Leaderboard.create(store, Backend.uniqueName("twice"), BoardOptions.highestFirst())
                .withObserver(first).withObserver(second);
        PeriodicLeaderboard family = PeriodicLeaderboard.builder(store, Backend.uniqueName("twice-family")).period(Period.daily()).build()
                .withObserver(first).withObserver(second);
        ShardedLeaderboard sharded = ShardedLeaderboard.create(store, Backend.uniqueName("twice-sharded"), 4, BoardOptions.highestFirst())
                .withObserver(first).withObserver(second);

        plain.addPoints(MEMBER, 1);
        family.addPointsAll(MEMBER, 1);
        sharded.addPoints(MEMBER, 1);
        sharded.shardOf(MEMBER).rank(MEMBER);

        assertThat(calls).containsExactly("first WRITE addPoints", "second WRITE addPoints", "first WRITE addPointsAll",
                "second WRITE addPointsAll", "first WRITE addPoints", "second WRITE addPoints", "first READ rank", "second READ rank");
        assertThat(plain.withObserver(BoardObserver.NONE).rank(MEMBER)).hasValue(1);
        assertThat(calls).hasSize(8);
    }
}
