package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;
import org.junit.jupiter.api.Test;

import java.util.OptionalDouble;

import static dev.ordo.patterns.leaderboard.ScoreCodec.Direction.HIGHER_RANKS_FIRST;
import static dev.ordo.patterns.leaderboard.ScoreCodec.Direction.LOWER_RANKS_FIRST;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Packed scores changed one dimension at a time on the server, exactly, on every back end. */
class CompositeLeaderboardTest {
    /** points 31 bits, a paid flag, then an earlier-is-better time of 21 bits: 53 bits. */
    private static final ScoreCodec LAYOUT = ScoreCodec.builder()
            .dimension("points", 31, HIGHER_RANKS_FIRST)
            .dimension("paid", 1, HIGHER_RANKS_FIRST)
            .dimension("time", 21, LOWER_RANKS_FIRST)
            .build();
    private static final long MAX_POINTS = (1L << 31) - 1;
    private static final long MAX_TIME = (1L << 21) - 1;

    private static CompositeLeaderboard board(Backend backend, ScoreCodec codec) {
        return CompositeLeaderboard.of(
                Leaderboard.create(backend.store(), Backend.uniqueName("composite"), BoardOptions.highestFirst()), codec);
    }

    /** The score as the server holds it, read with ZSCORE. */
    private static String rawScore(Backend backend, CompositeLeaderboard b, String member) {
        return backend.store().call(StoreCommand.of("ZSCORE").key(b.board().key()).arg(member)).asString();
    }

    @OnEveryBackend
    void setDimension_paid_keepsPointsAndTimeExactly(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        assertThat(LAYOUT.totalBits()).isEqualTo(53);
        Placement<String> set = b.set("alice", MAX_POINTS - 1, 0, MAX_TIME - 1);
        assertThat(set.score()).isEqualTo(LAYOUT.encode(MAX_POINTS - 1, 0, MAX_TIME - 1));

        Placement<String> paid = b.setDimension("alice", "paid", 1);
        assertThat(paid.score()).isEqualTo(LAYOUT.encode(MAX_POINTS - 1, 1, MAX_TIME - 1));
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS - 1, 1, MAX_TIME - 1));

        b.setDimension("alice", "paid", 0);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS - 1, 0, MAX_TIME - 1));
    }

    @OnEveryBackend
    void setDimension_eachDimensionAtItsExtremes_keepsTheOthersExactly(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        long[][] tuples = {{MAX_POINTS, 1, 0}, {0, 0, MAX_TIME}, {MAX_POINTS, 1, MAX_TIME}, {1, 0, 1}, {12_345, 1, 777}};
        String[] names = {"points", "paid", "time"};
        long[] max = {MAX_POINTS, 1, MAX_TIME};
        for (long[] tuple : tuples) {
            for (int d = 0; d < names.length; d++) {
                for (long value : new long[] {0, max[d], max[d] / 2}) {
                    b.set("m", tuple);
                    long[] expected = tuple.clone();
                    expected[d] = value;
                    assertThat(b.setDimension("m", names[d], value).score()).isEqualTo(LAYOUT.encode(expected));
                    assertThat(b.dimensions("m")).hasValueSatisfying(v -> assertThat(v).containsExactly(expected));
                }
            }
        }
    }

    @OnEveryBackend
    void addToDimension_largeValues_isExact(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        b.set("alice", MAX_POINTS - 9, 1, MAX_TIME - 3);

        Placement<String> p = b.addToDimension("alice", "points", 5);
        assertThat(p.score()).isEqualTo(LAYOUT.encode(MAX_POINTS - 4, 1, MAX_TIME - 3));
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS - 4, 1, MAX_TIME - 3));

        b.addToDimension("alice", "time", 3);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS - 4, 1, MAX_TIME));
        b.addToDimension("alice", "time", -10);
        b.addToDimension("alice", "points", 4);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS, 1, MAX_TIME - 10));
        b.addToDimension("alice", "points", -MAX_POINTS);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(0L, 1L, MAX_TIME - 10));
        b.addToDimension("alice", "paid", -1);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(0L, 0L, MAX_TIME - 10));
    }

    @OnEveryBackend
    void addToDimension_pastTheRange_throwsOutOfRangeAndLeavesTheScore(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        b.set("alice", MAX_POINTS - 2, 1, 5);
        String before = rawScore(backend, b, "alice");
        OptionalDouble scoreBefore = b.board().score("alice");

        assertThatThrownBy(() -> b.addToDimension("alice", "points", 5))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> b.addToDimension("alice", "points", -MAX_POINTS))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> b.addToDimension("alice", "paid", 1))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> b.addToDimension("alice", "time", -6))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");
        assertThatThrownBy(() -> b.addToDimension("alice", "time", MAX_TIME))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");

        assertThat(rawScore(backend, b, "alice")).isEqualTo(before);
        assertThat(b.board().score("alice")).isEqualTo(scoreBefore);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS - 2, 1, 5));
        // Exactly to the edges is allowed.
        b.addToDimension("alice", "points", 2);
        b.addToDimension("alice", "time", -5);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(MAX_POINTS, 1, 0));
    }

    @OnEveryBackend
    void setDimension_valueOutsideRange_rejectsBeforeWriting(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        b.set("alice", 10, 0, 10);
        assertThatThrownBy(() -> b.setDimension("alice", "paid", 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.setDimension("alice", "time", -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.setDimension("alice", "points", MAX_POINTS + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.setDimension("alice", "nope", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.dimensions("alice")).hasValueSatisfying(v -> assertThat(v).containsExactly(10, 0, 10));
    }

    @OnEveryBackend
    void ordering_equalPointsPaidFirst_thenEarlierTimeFirst(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        b.set("free-early", 500, 0, 10);
        b.set("paid-late", 500, 1, 2_000);
        b.set("paid-early", 500, 1, 1_999);
        b.set("more-points", 501, 0, MAX_TIME);
        b.set("fewer-points", 499, 1, 0);
        assertThat(b.board().top(5)).extracting(Entry::member)
                .containsExactly("more-points", "paid-early", "paid-late", "free-early", "fewer-points");
        assertThat(b.board().rank("free-early")).hasValue(4);

        // Paying later moves free-early ahead of both paid members, its time being the earliest.
        b.setDimension("free-early", "paid", 1);
        assertThat(b.board().top(5)).extracting(Entry::member)
                .containsExactly("more-points", "free-early", "paid-early", "paid-late", "fewer-points");
        // One more point puts paid-late first.
        b.addToDimension("paid-late", "points", 1);
        assertThat(b.board().rank("paid-late")).hasValue(1);
        assertThat(b.board().rank("more-points")).hasValue(2);
    }

    @OnEveryBackend
    void setDimension_scoreThatIsNoPackedScore_refusedAndUnchanged(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        for (double raw : new double[] {-1, 2.5, Double.POSITIVE_INFINITY, 9007199254740992.0}) {
            b.board().setScore("odd", raw);
            assertThatThrownBy(() -> b.setDimension("odd", "paid", 1)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("is not a packed score");
            assertThatThrownBy(() -> b.addToDimension("odd", "points", 1)).isInstanceOf(StoreException.class);
            assertThat(b.board().score("odd")).hasValue(raw);
        }
    }

    @OnEveryBackend
    void setDimension_memberNotOnTheBoard_startsFromScoreZero(Backend backend) {
        CompositeLeaderboard b = board(backend, LAYOUT);
        assertThat(b.dimensions("new")).isEmpty();
        b.setDimension("new", "points", 7);
        // Score 0 holds time at its largest value (stored 0 for a lower-ranks-first dimension).
        assertThat(b.dimensions("new")).hasValueSatisfying(v -> assertThat(v).containsExactly(7, 0, MAX_TIME));
    }

    @OnEveryBackend
    void wideLayout_multiplierOfTwoPow52_isExactOnTheServer(Backend backend) {
        // The flag's multiplier 2^52 and the rest's modulus 2^52 reach the script in E notation.
        ScoreCodec wide = ScoreCodec.builder()
                .dimension("flag", 1, HIGHER_RANKS_FIRST)
                .dimension("rest", 52, LOWER_RANKS_FIRST)
                .build();
        CompositeLeaderboard b = board(backend, wide);
        long maxRest = (1L << 52) - 1;
        b.set("m", 0, 12_345);
        b.setDimension("m", "flag", 1);
        assertThat(b.dimensions("m")).hasValueSatisfying(v -> assertThat(v).containsExactly(1, 12_345));
        b.addToDimension("m", "rest", maxRest - 12_345 - 1);
        assertThat(b.dimensions("m")).hasValueSatisfying(v -> assertThat(v).containsExactly(1, maxRest - 1));
        assertThat(b.board().score("m")).hasValue(wide.encode(1, maxRest - 1));
        b.setDimension("m", "rest", 0);
        assertThat(b.dimensions("m")).hasValueSatisfying(v -> assertThat(v).containsExactly(1, 0));
        assertThat(b.board().score("m")).hasValue((double) ((1L << 53) - 1));
        assertThatThrownBy(() -> b.addToDimension("m", "rest", -1))
                .isInstanceOf(StoreException.class).hasMessageContaining("out of range");
    }

    @Test
    void constructor_lowestFirstBoard_rejects() {
        Leaderboard ascending = Leaderboard.create(Backend.EMBEDDED.store(), Backend.uniqueName("composite"), BoardOptions.lowestFirst());
        assertThatThrownBy(() -> CompositeLeaderboard.of(ascending, LAYOUT)).isInstanceOf(IllegalArgumentException.class);
    }
}
