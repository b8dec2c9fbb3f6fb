package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Backend;
import dev.ordo.patterns.Plain;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Scores;
import dev.ordo.patterns.store.Store;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 000's tie-break, {@code score = points + (1 - now / 1e13)}, against {@link TieRule#FIRST_REACHED}
 * on the same data: the seed's score loses the millisecond once points are large, and breaks on
 * increments, because every increment adds another fraction; the first-reached board stays exact.
 */
class SeedTieBreakTest {
    private static final long T0 = 1_764_547_200_000L;

    /** The seed's formula, verbatim. */
    private static double seedScore(long points, long now) {
        double tieBreak = 1.0 - (now / 1e13);
        return points + tieBreak;
    }

    @OnEveryBackend
    void seedScore_pointsInTheMillions_loseTheMillisecond_firstReachedKeepsIt(Backend backend) {
        Store store = backend.store();
        String key = "{" + Backend.uniqueName("seed") + "}";
        long points = 2_000_000;
        // anna reached 2,000,000 one millisecond before zoe: the seed's scores are the same double.
        assertThat(seedScore(points, T0)).isEqualTo(seedScore(points, T0 + 1));
        store.call(StoreCommand.of("ZADD").key(key).arg(seedScore(points, T0)).arg("anna"));
        store.call(StoreCommand.of("ZADD").key(key).arg(seedScore(points, T0 + 1)).arg("zoe"));
        List<Object> seedOrder = Plain.of(store.call(StoreCommand.of("ZREVRANGE").key(key).arg(0).arg(-1)).asList());
        assertThat(seedOrder).as("the seed's board ranks the later player first").containsExactly("zoe", "anna");

        AtomicLong now = new AtomicLong(T0);
        Leaderboard exact = Leaderboard.create(store, Backend.uniqueName("exact"),
                BoardOptions.highestFirst().withTieRule(TieRule.FIRST_REACHED).withArrivalClock(() -> Instant.ofEpochMilli(now.get())));
        exact.addPoints("anna", points);
        now.set(T0 + 1);
        exact.addPoints("zoe", points);
        assertThat(exact.top(2)).extracting(Entry::member).containsExactly("anna", "zoe");
        assertThat(exact.top(2)).extracting(Entry::score).containsOnly((double) points);
    }

    @OnEveryBackend
    void seedScore_increments_accumulateFractions_firstReachedStaysExact(Backend backend) {
        Store store = backend.store();
        String key = "{" + Backend.uniqueName("seed") + "}";
        // Two increments of 10 points, each with its own tie-break, as the seed's add would do with ZINCRBY.
        store.call(StoreCommand.of("ZINCRBY").key(key).arg(seedScore(10, T0)).arg("anna"));
        double seed = store.call(StoreCommand.of("ZINCRBY").key(key).arg(seedScore(10, T0 + 60_000)).arg("anna")).asDouble();
        assertThat(Math.floor(seed)).as("the seed's displayed points after 10 + 10").isEqualTo(21.0);

        AtomicLong now = new AtomicLong(T0);
        Leaderboard exact = Leaderboard.create(store, Backend.uniqueName("exact"),
                BoardOptions.highestFirst().withTieRule(TieRule.FIRST_REACHED).withArrivalClock(() -> Instant.ofEpochMilli(now.get())));
        exact.addPoints("anna", 10);
        now.set(T0 + 1);
        exact.addPoints("zoe", 20);
        now.set(T0 + 60_000);
        assertThat(exact.addPoints("anna", 10)).isEqualTo(new Placement<>("anna", 20, 2));
        assertThat(exact.top(2)).extracting(Entry::member).as("zoe reached 20 first").containsExactly("zoe", "anna");
    }
}
