package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Plain;
import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;

import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The leaderboard's contract, on every back end. */
class LeaderboardTest {
    private static Leaderboard board(Backend backend, BoardOptions options) {
        return Leaderboard.create(backend.store(), Backend.uniqueName("board"), options);
    }

    private static List<String> members(List<Entry<String>> entries) {
        return entries.stream().map(Entry::member).toList();
    }

    private static List<Long> ranks(List<Entry<String>> entries) {
        return entries.stream().map(Entry::rank).toList();
    }

    @OnEveryBackend
    void addPoints_seedExample_topThreeAndRank(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst());
        b.addPoints("alice", 120);
        b.addPoints("bob", 95);
        b.addPoints("carol", 150);
        Placement<String> bob = b.addPoints("bob", 60);
        assertThat(bob).isEqualTo(new Placement<>("bob", 155, 1));
        assertThat(b.top(3)).containsExactly(new Entry<>("bob", 155, 1, Map.of()), new Entry<>("carol", 150, 2, Map.of()),
                new Entry<>("alice", 120, 3, Map.of()));
        assertThat(b.rank("alice")).hasValue(3);
        assertThat(b.score("alice")).hasValue(120);
        assertThat(b.count()).isEqualTo(3);
    }

    @OnEveryBackend
    void rank_missingMember_isEmpty(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst());
        b.setScore("a", 1);
        assertThat(b.rank("nobody")).isEmpty();
        assertThat(b.score("nobody")).isEmpty();
        assertThat(b.placement("nobody")).isEmpty();
        assertThat(b.around("nobody", 5)).isEmpty();
        assertThat(b.percentile("nobody")).isEmpty();
    }

    @OnEveryBackend
    void keepBest_descendingKeepsHigher_ascendingKeepsLower(Backend backend) {
        Leaderboard points = board(backend, BoardOptions.highestFirst());
        points.keepBest("a", 10);
        assertThat(points.keepBest("a", 5).score()).isEqualTo(10);
        assertThat(points.keepBest("a", 12).score()).isEqualTo(12);
        Leaderboard race = board(backend, BoardOptions.lowestFirst());
        race.keepBest("a", 60.5);
        assertThat(race.keepBest("a", 61).score()).isEqualTo(60.5);
        assertThat(race.keepBest("a", 59.25)).isEqualTo(new Placement<>("a", 59.25, 1));
    }

    @OnEveryBackend
    void ascendingBoard_lowestTimeRanksFirst(Backend backend) {
        Leaderboard race = board(backend, BoardOptions.lowestFirst());
        race.setScore("slow", 71.2);
        race.setScore("fast", 58.9);
        race.setScore("mid", 63);
        assertThat(members(race.top(3))).containsExactly("fast", "mid", "slow");
        assertThat(race.rank("slow")).hasValue(3);
    }

    @OnEveryBackend
    void tieRules_competitionAndDense_rankEqualScoresTogether(Backend backend) {
        for (TieRule rule : TieRule.values()) {
            Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(rule));
            b.setScore("a", 100);
            b.setScore("b", 90);
            b.setScore("c", 90);
            b.setScore("d", 80);
            List<Long> expected = switch (rule) {
                case COMPETITION -> List.of(1L, 2L, 2L, 4L);
                case DENSE -> List.of(1L, 2L, 2L, 3L);
                default -> List.of(1L, 2L, 3L, 4L);
            };
            assertThat(ranks(b.top(4))).as(rule.name()).isEqualTo(expected);
            assertThat(b.rank("d")).as(rule.name()).hasValue(expected.get(3));
            assertThat(ranks(b.page(2, 2))).as(rule.name()).isEqualTo(expected.subList(2, 4));
            assertThat(ranks(b.around("d", 2))).as(rule.name()).isEqualTo(expected.subList(2, 4));
        }
    }

    @OnEveryBackend
    void dense_scoresLeavingAndJoining_keepRanksExact(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.DENSE));
        b.setScore("a", 5);
        b.setScore("b", 5);
        b.setScore("c", 3);
        assertThat(b.rank("c")).hasValue(2);
        b.addPoints("a", 1);
        assertThat(b.rank("b")).hasValue(2);
        assertThat(b.rank("c")).hasValue(3);
        b.remove("b");
        assertThat(b.rank("c")).hasValue(2);
        b.addPoints("c", 3);
        assertThat(b.rank("a")).hasValue(1);
        assertThat(b.rank("c")).hasValue(1);
    }

    @OnEveryBackend
    void firstReached_equalScores_earlierArrivalRanksFirst(Backend backend) {
        AtomicLong now = new AtomicLong(1_764_460_800_000L);
        InstantSource clock = () -> Instant.ofEpochMilli(now.get());
        Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.FIRST_REACHED).withArrivalClock(clock));
        b.addPoints("zed", 2_000_000_000);
        now.incrementAndGet();
        b.addPoints("amy", 2_000_000_000);
        assertThat(members(b.top(2))).containsExactly("zed", "amy");
        now.incrementAndGet();
        b.addPoints("zed", 5);
        now.incrementAndGet();
        b.addPoints("amy", 5);
        assertThat(members(b.top(2))).containsExactly("zed", "amy");
        assertThat(b.placement("amy")).contains(new Placement<>("amy", 2_000_000_005, 2));
        now.incrementAndGet();
        b.addPoints("zed", -1);
        now.incrementAndGet();
        b.addPoints("zed", 1);
        assertThat(members(b.top(2))).as("zed reached 2,000,000,005 again after amy").containsExactly("amy", "zed");
        assertThat(b.score("zed")).hasValue(2_000_000_005);
        assertThat(b.remove("zed")).isTrue();
        assertThat(b.count()).isEqualTo(1);
        assertThat(b.rank("zed")).isEmpty();
    }

    @OnEveryBackend
    void firstReached_serverClock_stampsArrivals(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.FIRST_REACHED));
        b.setScore("a", 7);
        assertThat(b.placement("a")).contains(new Placement<>("a", 7, 1));
        assertThat(b.setScore("a", 7).rank()).isEqualTo(1);
    }

    @OnEveryBackend
    void around_nearEdges_windowStaysFull(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst());
        for (int i = 1; i <= 20; i++) {
            b.setScore("m" + i, i);
        }
        assertThat(members(b.around("m20", 5))).containsExactly("m20", "m19", "m18", "m17", "m16");
        assertThat(members(b.around("m1", 5))).containsExactly("m5", "m4", "m3", "m2", "m1");
        assertThat(members(b.around("m10", 5))).containsExactly("m12", "m11", "m10", "m9", "m8");
        assertThat(ranks(b.around("m10", 4))).containsExactly(10L, 11L, 12L, 13L);
        assertThat(b.around("m10", 30)).hasSize(20);
    }

    @OnEveryBackend
    void metadata_returnedWithTopPageAndAround(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst().withMetadata(true));
        b.setScore("p1", 10);
        b.setScore("p2", 20);
        b.setMetadata("p1", Map.of("name", "Ann & Bo=1", "avatar", "https://x/a.png?s=2"));
        assertThat(b.top(2)).containsExactly(new Entry<>("p2", 20, 1, Map.of()),
                new Entry<>("p1", 10, 2, Map.of("name", "Ann & Bo=1", "avatar", "https://x/a.png?s=2")));
        assertThat(b.around("p1", 1).get(0).metadata()).containsEntry("name", "Ann & Bo=1");
        assertThat(b.page(1, 1).get(0).member()).isEqualTo("p2");
        assertThat(b.metadata("p1")).containsEntry("avatar", "https://x/a.png?s=2");
        b.remove("p1");
        assertThat(b.metadata("p1")).isEmpty();
    }

    @OnEveryBackend
    void top_largestWindowWithMetadata_returnsEveryEntryAndItsMetadata(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.COMPETITION).withMetadata(true));
        StoreCommand add = StoreCommand.of("ZADD").key(b.key());
        for (int i = 0; i < Leaderboard.MAX_WINDOW + 3; i++) {
            add.arg(i / 3).arg("m" + i);
        }
        backend.store().call(add);
        b.setMetadata("m0", Map.of("name", "last"));
        List<Entry<String>> top = b.top(Leaderboard.MAX_WINDOW);
        assertThat(top).hasSize(Leaderboard.MAX_WINDOW);
        assertThat(top.get(0).rank()).isEqualTo(1);
        assertThat(top.get(3)).isEqualTo(new Entry<>("m10000", 3333, 2, Map.of()));
        assertThat(top.get(4)).isEqualTo(new Entry<>("m9998", 3332, 5, Map.of()));
        assertThat(b.page(2, Leaderboard.MAX_WINDOW)).extracting(Entry::member).containsExactly("m2", "m1", "m0");
        assertThat(b.page(2, Leaderboard.MAX_WINDOW).get(2).metadata()).containsEntry("name", "last");
    }

    @OnEveryBackend
    void percentile_countsLevelMembersAsHalf(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst());
        b.setScore("a", 4);
        b.setScore("b", 3);
        b.setScore("c", 3);
        b.setScore("d", 1);
        assertThat(b.percentile("a")).hasValue(87.5);
        assertThat(b.percentile("b")).hasValue(50.0);
        assertThat(b.percentile("d")).hasValue(12.5);
    }

    @OnEveryBackend
    void dense_distinctScoresStoredUnderAnotherText_ranksStillByScore(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.DENSE));
        b.setScore("a", 0.3);
        b.setScore("b", 0.1);
        // As if the board had been written by a server that prints 0.1 with 17 digits (Redis 7.0).
        backend.store().call(StoreCommand.of("ZREM").key(b.key() + ":ds").arg("0.1"));
        backend.store().call(StoreCommand.of("ZREM").key(b.key() + ":ds").arg("0.10000000000000001"));
        backend.store().call(StoreCommand.of("ZADD").key(b.key() + ":ds").arg(0.1).arg("0.10000000000000001"));
        assertThat(b.rank("b")).hasValue(2);
        b.setScore("b", 0.2);
        b.setScore("c", 0.1);
        assertThat(b.rank("b")).hasValue(2);
        assertThat(b.rank("c")).hasValue(3);
        b.remove("c");
        assertThat(Plain.of(backend.store().call(StoreCommand.of("ZCOUNT").key(b.key() + ":ds").arg("-inf").arg("+inf")))).isEqualTo(2L);
    }

    @OnEveryBackend
    void badInput_rejectedBeforeAnyWrite(Backend backend) {
        Leaderboard b = board(backend, BoardOptions.highestFirst());
        assertThatThrownBy(() -> b.addPoints("a", Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
        for (String bad : new String[] {"", "}x", "a{b", "{}", "x}{y"}) {
            assertThatThrownBy(() -> Leaderboard.create(backend.store(), bad, BoardOptions.highestFirst())).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(Leaderboard.create(backend.store(), "game{x}", BoardOptions.highestFirst()).key()).isEqualTo("game{x}");
        assertThatThrownBy(() -> b.setScore("a", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.top(Leaderboard.MAX_WINDOW + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.page(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.count()).isZero();
    }
}
