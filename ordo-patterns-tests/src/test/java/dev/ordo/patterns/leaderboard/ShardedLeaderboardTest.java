package dev.ordo.patterns.leaderboard;

import dev.ordo.patterns.Plain;
import dev.ordo.patterns.Backend;
import dev.ordo.patterns.OnEveryBackend;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.Scores;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Store;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sharded board against a model: one sorted list of (member, score) in the single-board
 * order (score, then member bytes, both reversed on a highest-first board), on every back end.
 */
class ShardedLeaderboardTest {
    private static final int SHARDS = 16;

    /** Member names whose UTF-8 byte order differs from Java's UTF-16 order, and prefixes of each other. */
    private static final String[] STEMS = {"a", "ab", "abc", "B", "z", "é", "\uFF21", "\uD83D\uDE00", "x y", "ü-"};

    private record Row(String member, double score) {
    }

    /** The model: every member and score, in board order. */
    private static final class Model {
        final boolean descending;
        final Map<String, Double> scores = new HashMap<>();

        Model(boolean descending) {
            this.descending = descending;
        }

        List<Row> sorted() {
            Comparator<Row> ascending = Comparator.comparingDouble(Row::score)
                    .thenComparing((a, b) -> Arrays.compareUnsigned(utf8(a.member()), utf8(b.member())));
            List<Row> rows = new ArrayList<>();
            scores.forEach((m, s) -> rows.add(new Row(m, s)));
            rows.sort(descending ? ascending.reversed() : ascending);
            return rows;
        }

        /** Rows as entries with the rank the tie rule gives, from position 0 of {@code sorted}. */
        static List<Entry<String>> ranked(List<Row> sorted, TieRule rule) {
            List<Entry<String>> out = new ArrayList<>(sorted.size());
            long rank = 0;
            for (int i = 0; i < sorted.size(); i++) {
                if (rule == TieRule.MEMBER_ORDER || i == 0 || sorted.get(i).score() != sorted.get(i - 1).score()) {
                    rank = i + 1;
                }
                out.add(new Entry<>(sorted.get(i).member(), sorted.get(i).score(), rank, Map.of()));
            }
            return out;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ShardedLeaderboard board(Backend backend, BoardOptions options) {
        return ShardedLeaderboard.create(backend.store(), Backend.uniqueName("sharded"), SHARDS, options);
    }

    /** A few hundred members, scores from a small range so that ties abound, written through the board. */
    private static Model fill(ShardedLeaderboard board, boolean descending, long seed) {
        Random random = new Random(seed);
        Model model = new Model(descending);
        for (int i = 0; i < 240; i++) {
            String member = STEMS[random.nextInt(STEMS.length)] + (random.nextInt(4) == 0 ? "" : Integer.toString(random.nextInt(60)));
            double score = random.nextInt(9) - 2 + (random.nextInt(5) == 0 ? 0.5 : 0);
            switch (random.nextInt(3)) {
                case 0 -> {
                    double expected = model.scores.getOrDefault(member, 0.0) + score;
                    assertThat(board.addPoints(member, score).score()).isEqualTo(expected);
                    model.scores.put(member, expected);
                }
                case 1 -> {
                    assertThat(board.setScore(member, score).score()).isEqualTo(score);
                    model.scores.put(member, score);
                }
                default -> {
                    Double old = model.scores.get(member);
                    double kept = old == null ? score : descending ? Math.max(old, score) : Math.min(old, score);
                    assertThat(board.keepBest(member, score).score()).isEqualTo(kept);
                    model.scores.put(member, kept);
                }
            }
        }
        assertThat(model.scores.size()).isGreaterThan(150);
        return model;
    }

    /** top, rank and around against the model, for every member and several window sizes. */
    private static void assertMatchesModel(ShardedLeaderboard board, Model model, TieRule rule) {
        List<Row> sorted = model.sorted();
        List<Entry<String>> expected = Model.ranked(sorted, rule);
        int total = sorted.size();
        assertThat(board.count()).isEqualTo(total);
        for (int n : new int[] {0, 1, 7, 50, total, total + 10}) {
            assertThat(board.top(n)).as("top %d", n).isEqualTo(expected.subList(0, Math.min(n, total)));
        }
        for (Entry<String> e : expected) {
            assertThat(board.rank(e.member())).as("rank of %s", e.member()).hasValue(e.rank());
            assertThat(board.score(e.member())).as("score of %s", e.member()).hasValue(e.score());
        }
        Random random = new Random(7);
        Set<Integer> positions = new TreeSet<>(List.of(0, 1, 2, total / 2, total - 3, total - 2, total - 1));
        while (positions.size() < 16) {
            positions.add(random.nextInt(total));
        }
        for (int pos : positions) {
            String member = sorted.get(pos).member();
            for (int size : new int[] {1, 2, 5, 10}) {
                int start = Math.max(0, Math.min(pos - (size - 1) / 2, total - size));
                assertThat(board.around(member, size)).as("around %s (position %d), size %d", member, pos, size)
                        .hasSize(size)
                        .isEqualTo(expected.subList(start, start + size));
            }
        }
    }

    /**
     * top(n) reads a few entries per shard first and more only from shards that may hide some of
     * the best n: here the best 40 all sit on one shard, tied in pairs, so that shard is read again
     * and again while the other shards are read once.
     */
    @OnEveryBackend
    void top_whenOneShardHoldsAllTheBest_readsItUntilExact(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        Model model = new Model(true);
        Leaderboard crowded = b.shardOf("m0");
        for (int i = 0, onCrowded = 0; onCrowded < 40 || i < 200; i++) {
            String member = "m" + i;
            boolean there = b.shardOf(member) == crowded;
            if (there && onCrowded >= 40) {
                continue;
            }
            double score = there ? 1000 + onCrowded++ / 2 : i % 50;
            b.setScore(member, score);
            model.scores.put(member, score);
        }
        List<Entry<String>> expected = Model.ranked(model.sorted(), TieRule.MEMBER_ORDER);
        for (int n : new int[] {1, 3, 16, 39, 40, 41, 60}) {
            assertThat(b.top(n)).as("top %d", n).isEqualTo(expected.subList(0, n));
        }
    }

    // ---- writes -----------------------------------------------------------------------------

    @OnEveryBackend
    void writes_eachMember_touchExactlyItsCrc32Shard(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        assertThat(b.shards()).hasSize(SHARDS);
        long[] expectedCounts = new long[SHARDS];
        for (String member : List.of("alice", "bob", "carol", "dave", "\uD83D\uDE00")) {
            CRC32 crc = new CRC32();
            crc.update(utf8(member));
            int shard = (int) (crc.getValue() % SHARDS);
            assertThat(b.shardOf(member)).isSameAs(b.shards().get(shard));

            b.addPoints(member, 3);
            b.addPoints(member, 4);
            b.keepBest(member, 1);
            expectedCounts[shard]++;
            for (int i = 0; i < SHARDS; i++) {
                assertThat(b.shards().get(i).count()).as("shard %d after writing %s", i, member).isEqualTo(expectedCounts[i]);
            }
            assertThat(b.shards().get(shard).score(member)).hasValue(7);
        }
        assertThat(b.count()).isEqualTo(5);
        assertThat(b.remove("bob")).isTrue();
        assertThat(b.remove("bob")).isFalse();
        assertThat(b.count()).isEqualTo(4);
        assertThat(b.score("bob")).isEmpty();
        assertThat(b.rank("bob")).isEmpty();
        assertThat(b.around("bob", 3)).isEmpty();
    }

    @OnEveryBackend
    void shardKeys_eachUnderItsOwnHashTag_spreadOverAtLeastTwoClusterNodes(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < SHARDS; i++) {
            String key = b.shards().get(i).key();
            assertThat(key).matches("\\{sharded:\\d+#" + i + "}");
            keys.add(key);
        }
        assertThat(keys).hasSize(SHARDS);
        // One member on every shard, so every shard key exists.
        for (int i = 0, placed = 0; placed < SHARDS; i++) {
            String member = "m" + i;
            if (b.shardOf(member).count() == 0) {
                b.setScore(member, i);
                placed++;
            }
        }
        if (backend != Backend.REDIS_CLUSTER) {
            return;
        }
        Store any = backend.nodes().get(0);
        Map<String, Integer> nodeOfId = new HashMap<>();
        for (int n = 0; n < backend.nodes().size(); n++) {
            nodeOfId.put(backend.nodes().get(n).call(StoreCommand.of("CLUSTER").arg("MYID")).asString(), n);
        }
        List<Reply> slotRanges = any.call(StoreCommand.of("CLUSTER").arg("SLOTS")).asList();
        Set<Integer> nodesUsed = new HashSet<>();
        for (Leaderboard shard : b.shards()) {
            long slot = any.call(StoreCommand.of("CLUSTER").arg("KEYSLOT").arg(shard.key())).asLong();
            int node = -1;
            for (Reply o : slotRanges) {
                List<Reply> range = o.asList();
                if (range.get(0).asLong() <= slot && slot <= range.get(1).asLong()) {
                    node = nodeOfId.get(range.get(2).asList().get(2).asString());
                }
            }
            assertThat(node).as("owner of slot %d", slot).isNotNegative();
            nodesUsed.add(node);
            // The key is really stored on that node (a standalone connection, no redirection).
            assertThat(Plain.of(backend.nodes().get(node).call(StoreCommand.of("EXISTS").key(shard.key())))).isEqualTo(1L);
        }
        assertThat(nodesUsed).hasSizeGreaterThanOrEqualTo(2);
    }

    // ---- reads against the model ------------------------------------------------------------

    @OnEveryBackend
    void reads_highestFirstMemberOrder_equalModel(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        assertMatchesModel(b, fill(b, true, 11), TieRule.MEMBER_ORDER);
    }

    @OnEveryBackend
    void reads_highestFirstCompetition_equalModel(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst().withTieRule(TieRule.COMPETITION));
        assertMatchesModel(b, fill(b, true, 12), TieRule.COMPETITION);
    }

    @OnEveryBackend
    void reads_lowestFirstMemberOrder_equalModel(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.lowestFirst());
        assertMatchesModel(b, fill(b, false, 13), TieRule.MEMBER_ORDER);
    }

    @OnEveryBackend
    void reads_lowestFirstCompetition_equalModel(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.lowestFirst().withTieRule(TieRule.COMPETITION));
        assertMatchesModel(b, fill(b, false, 14), TieRule.COMPETITION);
    }

    @OnEveryBackend
    void around_atBothEdges_keepsTheWindowFull(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        for (int i = 1; i <= 9; i++) {
            b.setScore("p" + i, 100 - i);
        }
        assertThat(b.around("p1", 5)).extracting(Entry::member).containsExactly("p1", "p2", "p3", "p4", "p5");
        assertThat(b.around("p2", 5)).extracting(Entry::rank).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(b.around("p9", 5)).extracting(Entry::member).containsExactly("p5", "p6", "p7", "p8", "p9");
        assertThat(b.around("p8", 4)).extracting(Entry::rank).containsExactly(6L, 7L, 8L, 9L);
        assertThat(b.around("p5", 4)).extracting(Entry::member).containsExactly("p4", "p5", "p6", "p7");
        // A window wider than the board holds the whole board.
        assertThat(b.around("p9", 20)).extracting(Entry::member).containsExactly("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9");
        assertThat(b.around("p9", 0)).isEmpty();
        assertThatThrownBy(() -> b.around("p9", Leaderboard.MAX_WINDOW + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @OnEveryBackend
    void topAndAround_withMetadata_returnEachMembersMetadataFromItsShard(Backend backend) {
        ShardedLeaderboard b = ShardedLeaderboard.create(backend.store(), Backend.uniqueName("smeta"), 16,
                BoardOptions.highestFirst().withMetadata(true));
        for (int i = 1; i <= 6; i++) {
            b.setScore("p" + i, 10 - i);
            b.shardOf("p" + i).setMetadata("p" + i, Map.of("name", "Player " + i));
        }
        assertThat(b.top(3)).extracting(e -> e.metadata().get("name")).containsExactly("Player 1", "Player 2", "Player 3");
        assertThat(b.around("p5", 3)).extracting(e -> e.metadata().get("name")).containsExactly("Player 4", "Player 5", "Player 6");
    }

    @Test
    void scheduleSnapshots_failingRun_isRecordedAndLaterRunsGoOn() throws Exception {
        Store failing = new Store() {
            @Override
            public Reply call(StoreCommand command) {
                throw new dev.ordo.patterns.store.StoreException("ERR unreachable", null);
            }

            @Override
            public Reply eval(dev.ordo.patterns.store.Script script, List<String> keys, List<String> args) {
                throw new dev.ordo.patterns.store.StoreException("ERR unreachable", null);
            }

            @Override
            public Store dedicated() {
                return this;
            }

            @Override
            public boolean clustered() {
                return false;
            }

            @Override
            public void close() {
            }
        };
        ShardedLeaderboard b = ShardedLeaderboard.create(failing, "down", 2, BoardOptions.highestFirst());
        var executor = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            var runs = b.scheduleSnapshots(executor, java.time.Duration.ofMillis(1));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (b.lastSnapshotFailure().isEmpty() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(b.lastSnapshotFailure()).hasValueSatisfying(e -> assertThat(e).hasMessage("ERR unreachable"));
            assertThat(runs.isDone()).as("a failed run does not cancel the schedule").isFalse();
        } finally {
            executor.shutdownNow();
        }
    }

    // ---- snapshot ---------------------------------------------------------------------------

    @OnEveryBackend
    void mergeSnapshot_anyBoard_snapshotKeyHoldsEveryMemberWithItsScore(Backend backend) {
        ShardedLeaderboard b = board(backend, BoardOptions.highestFirst());
        Store store = backend.store();
        assertThat(b.mergeSnapshot()).isZero();
        assertThat(Plain.of(store.call(StoreCommand.of("EXISTS").key(b.snapshotKey())))).isEqualTo(0L);

        Model model = fill(b, true, 21);
        // 20,000 more members, about 1,250 per shard, so the cluster copy reads each shard in two
        // pages; written straight into each member's shard key, one ZADD per shard.
        Map<Leaderboard, StoreCommand> bulk = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            String member = "bulk" + i;
            double score = i * 0.25;
            Leaderboard shard = b.shardOf(member);
            bulk.computeIfAbsent(shard, s -> StoreCommand.of("ZADD").key(s.key())).arg(score).arg(member);
            model.scores.put(member, score);
        }
        bulk.values().forEach(store::call);
        assertThat(b.shards()).allSatisfy(s -> assertThat(s.count()).isGreaterThan(1000));
        assertThat(b.mergeSnapshot()).isEqualTo(model.scores.size());
        assertThat(snapshot(store, b)).isEqualTo(model.scores);

        // A second merge replaces the snapshot: removed members leave it, new scores arrive.
        b.remove("bulk0");
        model.scores.remove("bulk0");
        b.addPoints("bulk1", 1000);
        model.scores.merge("bulk1", 1000.0, Double::sum);
        assertThat(b.mergeSnapshot()).isEqualTo(model.scores.size());
        assertThat(snapshot(store, b)).isEqualTo(model.scores);
        assertThat(Plain.of(store.call(StoreCommand.of("EXISTS").key(b.snapshotKey() + ":building")))).isEqualTo(0L);
        assertThat(b.snapshotKey()).startsWith("{sharded:").endsWith("}:snapshot");
    }

    private static Map<String, Double> snapshot(Store store, ShardedLeaderboard b) {
        List<Reply> r = store.call(StoreCommand.of("ZRANGE").key(b.snapshotKey()).arg(0).arg(-1).arg("WITHSCORES")).asList();
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < r.size(); i += 2) {
            out.put(r.get(i).asString(), r.get(i + 1).asDouble());
        }
        return out;
    }

    // ---- validation -------------------------------------------------------------------------

    @Test
    void create_bracesBadShardCountsOrUnsupportedTieRules_rejects() {
        Store store = Backend.EMBEDDED.store();
        BoardOptions ok = BoardOptions.highestFirst();
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "a{b", 4, ok)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("braces");
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "a}b", 4, ok)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("braces");
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "{ab}", 4, ok)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "ab", 0, ok)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "ab", -1, ok)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "ab", ShardedLeaderboard.MAX_SHARDS + 1, ok))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 1025");
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "ab", 4, ok.withTieRule(TieRule.FIRST_REACHED)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("FIRST_REACHED");
        assertThatThrownBy(() -> ShardedLeaderboard.create(store, "ab", 4, ok.withTieRule(TieRule.DENSE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DENSE");
        assertThat(ShardedLeaderboard.create(store, "ab", 1, ok).shards()).hasSize(1);
        assertThat(ShardedLeaderboard.create(store, "ab", ShardedLeaderboard.MAX_SHARDS, ok).shards())
                .hasSize(ShardedLeaderboard.MAX_SHARDS);
    }
}
