package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For random operation sequences, every read of a real board (score, rank under each tie rule,
 * top, pages, around) and every write's returned placement equals what {@link BoardModel}
 * computes; the same sequence runs on all five back ends in each try. Scores come from a small
 * range so ties are common.
 */
class LeaderboardPropertiesTest {
    private static final List<String> POOL = List.of("a", "b", "c", "ab", "ba", "z", "Z", "é", "m1", "m2", "m10", "");

    record Op(int kind, String member, int value) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 9), Arbitraries.of(POOL),
                Arbitraries.integers().between(-3, 6)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 40)
    void board_randomOperations_everyReadMatchesModel(@ForAll("ops") List<Op> ops, @ForAll boolean descending,
                                                      @ForAll TieRule tie, @ForAll @IntRange(min = 1, max = 6) int window) {
        for (Backend backend : Backend.values()) {
            AtomicLong clock = new AtomicLong(1_700_000_000_000L);
            InstantSource arrivals = () -> Instant.ofEpochMilli(clock.incrementAndGet());
            BoardOptions options = (descending ? BoardOptions.highestFirst() : BoardOptions.lowestFirst()).withTieRule(tie).withArrivalClock(arrivals);
            Leaderboard board = Leaderboard.create(backend.store(), Backend.uniqueName("prop"), options);
            BoardModel model = new BoardModel(descending, tie);
            for (Op op : ops) {
                apply(board, model, clock, op, backend);
            }
            String where = backend + " " + ops;
            assertThat(board.count()).as(where).isEqualTo(model.size());
            for (String m : POOL) {
                assertThat(board.rank(m)).as(where + " rank " + m).isEqualTo(model.rank(m));
                Double s = model.score(m);
                if (s == null) {
                    assertThat(board.score(m)).as(where).isEmpty();
                } else {
                    assertThat(board.score(m)).as(where).hasValue(s);
                }
                assertThat(board.around(m, window)).as(where + " around " + m).isEqualTo(model.around(m, window));
            }
            assertThat(board.top(window)).as(where + " top").isEqualTo(model.range(0, window));
            for (int page = 1; page <= 3; page++) {
                assertThat(board.page(page, window)).as(where + " page " + page).isEqualTo(model.range((page - 1) * window, window));
            }
        }
    }

    private static void apply(Leaderboard board, BoardModel model, AtomicLong clock, Op op, Backend backend) {
        String m = op.member();
        switch (op.kind()) {
            case 0, 1 -> {
                Placement<String> p = board.addPoints(m, op.value());
                model.add(m, op.value(), clock.get());
                check(board, model, p, backend);
            }
            case 2, 3 -> {
                double score = board.incrementScore(m, op.value());
                model.add(m, op.value(), clock.get());
                assertThat(score).as(backend + " score after increment").isEqualTo(model.score(m));
            }
            case 4, 5 -> {
                Placement<String> p = board.setScore(m, op.value());
                model.set(m, op.value(), clock.get());
                check(board, model, p, backend);
            }
            case 6, 7 -> {
                Placement<String> p = board.keepBest(m, op.value());
                model.best(m, op.value(), clock.get());
                check(board, model, p, backend);
            }
            default -> {
                boolean had = model.score(m) != null;
                model.remove(m);
                assertThat(board.remove(m)).as(backend + " remove " + m).isEqualTo(had);
            }
        }
    }

    private static void check(Leaderboard board, BoardModel model, Placement<String> p, Backend backend) {
        assertThat(p.score()).as(backend + " score after write").isEqualTo(model.score(p.member()));
        assertThat(p.rank()).as(backend + " rank after write").isEqualTo(model.rank(p.member()).getAsLong());
    }

    @Property(tries = 15)
    void shardedBoard_randomScores_topRankAndAroundMatchModel(
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 8) Integer> scores,
            @ForAll boolean descending, @ForAll boolean competition, @ForAll @IntRange(min = 1, max = 7) int window) {
        TieRule tie = competition ? TieRule.COMPETITION : TieRule.MEMBER_ORDER;
        for (Backend backend : Backend.values()) {
            BoardOptions options = (descending ? BoardOptions.highestFirst() : BoardOptions.lowestFirst()).withTieRule(tie);
            ShardedLeaderboard board = ShardedLeaderboard.create(backend.store(), Backend.uniqueName("sprop"), 4, options);
            BoardModel model = new BoardModel(descending, tie);
            for (int i = 0; i < scores.size(); i++) {
                String m = "p" + (i * 7919 % 101);
                board.setScore(m, scores.get(i));
                model.set(m, scores.get(i), 0);
            }
            String where = backend + " " + scores;
            assertThat(board.count()).as(where).isEqualTo(model.size());
            assertThat(board.top(window)).as(where + " top").isEqualTo(model.range(0, window));
            for (String m : model.order()) {
                assertThat(board.rank(m)).as(where + " rank " + m).isEqualTo(model.rank(m));
                assertThat(board.around(m, window)).as(where + " around " + m).isEqualTo(model.around(m, window));
            }
        }
    }
}
