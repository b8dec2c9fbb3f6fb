package dev.ordo.patterns;

import dev.ordo.patterns.leaderboard.Board;
import dev.ordo.patterns.leaderboard.BoardOptions;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.Placement;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.leaderboard.TieRule;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.queue.Job;
import dev.ordo.patterns.queue.PriorityJobQueue;
import dev.ordo.patterns.ratelimit.Decision;
import dev.ordo.patterns.ratelimit.Limit;
import dev.ordo.patterns.ratelimit.RateLimiter;
import dev.ordo.patterns.ratelimit.SlidingLogLimiter;
import dev.ordo.patterns.ratelimit.SlidingWindowLimiter;
import dev.ordo.patterns.ratelimit.TokenBucketLimiter;
import dev.ordo.patterns.store.Reply;
import dev.ordo.patterns.store.Script;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import dev.ordo.patterns.store.StoreException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The non-blocking calls answer as the blocking ones do, on every backend: the store port, the
 * three kinds of board, the limiters and the queue producers. Over Lettuce the stage comes back
 * before the server has answered; on the embedded engine it comes back complete.
 */
class AsyncTest {
    private static <T> T join(CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }

    @OnEveryBackend
    void store_asyncCalls_answerAsTheBlockingOnes(Backend backend) {
        Store store = backend.store();
        String key = "{" + Backend.uniqueName("async") + "}:z";
        assertThat(Plain.of(join(store.callAsync(StoreCommand.of("ZADD").key(key).arg(2).arg("a"))))).isEqualTo(1L);
        assertThat(join(store.callAsync(StoreCommand.of("ZSCORE").key(key).arg("a")))).isEqualTo(store.call(StoreCommand.of("ZSCORE").key(key).arg("a")));
        assertThat(Plain.of(join(store.callAsync(StoreCommand.of("ZRANK").key(key).arg("missing"))))).isNull();
        assertThat(Plain.of(join(store.callAllAsync(List.of(StoreCommand.of("ZCARD").key(key), StoreCommand.of("ZRANGE").key(key).arg(0).arg(-1).arg("WITHSCORES"))))))
                .containsExactly(1L, List.of("a", "2"));

        // a script no server has seen: EVALSHA answers NOSCRIPT, then EVAL runs it
        Script fresh = new Script("-- " + Backend.uniqueName("fresh") + "\nreturn {KEYS[1], ARGV[1], redis.call('ZCARD', KEYS[1])}");
        assertThat(Plain.of(join(store.evalAsync(fresh, List.of(key), List.of("x"))))).isEqualTo(List.of(key, "x", 1L));
        assertThat(Plain.of(join(store.evalAllAsync(fresh, List.of(List.of(key), List.of(key)), List.of(List.of("p"), List.of("q"))))))
                .containsExactly(List.of(key, "p", 1L), List.of(key, "q", 1L));

        CompletableFuture<Reply> bad = store.callAsync(StoreCommand.of("ZADD").key(key).arg("x").arg("m")).toCompletableFuture();
        assertThatThrownBy(bad::join).isInstanceOf(CompletionException.class).cause()
                .isInstanceOf(StoreException.class).hasMessage("ERR value is not a valid float");
        CompletableFuture<List<Reply>> mixed = store.callAllAsync(List.of(StoreCommand.of("ZCARD").key(key),
                StoreCommand.of("ZADD").key(key).arg("y").arg("m"))).toCompletableFuture();
        assertThatThrownBy(mixed::join).cause().isInstanceOf(StoreException.class).hasMessage("ERR value is not a valid float");
        assertThat(Plain.of(Store.await(store.callAsync(StoreCommand.of("ZCARD").key(key))))).isEqualTo(1L);
        assertThatThrownBy(() -> Store.await(store.callAsync(StoreCommand.of("ZADD").key(key).arg("z").arg("m"))))
                .isInstanceOf(StoreException.class).hasMessage("ERR value is not a valid float");
    }

    /** Plain boards of every tie rule, with and without metadata, a periodic family and a sharded board. */
    private static List<Board<String>> boards(Backend backend) {
        Store store = backend.store();
        List<Board<String>> boards = new ArrayList<>();
        for (TieRule rule : TieRule.values()) {
            boards.add(Leaderboard.create(store, Backend.uniqueName("ab"), BoardOptions.highestFirst().withTieRule(rule)));
            boards.add(Leaderboard.create(store, Backend.uniqueName("ab"), BoardOptions.lowestFirst().withTieRule(rule).withMetadata(true)));
        }
        boards.add(PeriodicLeaderboard.builder(store, Backend.uniqueName("ap")).period(Period.daily()).allTime().build());
        boards.add(ShardedLeaderboard.create(store, Backend.uniqueName("as"), 4, BoardOptions.highestFirst()));
        boards.add(ShardedLeaderboard.create(store, Backend.uniqueName("as"), 3, BoardOptions.lowestFirst().withTieRule(TieRule.COMPETITION).withMetadata(true)));
        return boards;
    }

    @OnEveryBackend
    void boards_asyncOperations_answerAsTheBlockingOnes(Backend backend) {
        for (Board<String> board : boards(backend)) {
            List<Placement<String>> async = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                async.add(join(board.addPointsAsync("m" + (i % 5), i % 3)));
            }
            assertThat(async).extracting(Placement::member).containsExactly("m0", "m1", "m2", "m3", "m4", "m0", "m1", "m2", "m3", "m4", "m0", "m1");
            assertThat(async.get(11).score()).isEqualTo(1.0 + 0 + 2);
            assertThat(async.get(11).rank()).isEqualTo(board.rank("m1").orElseThrow());
            for (String m : List.of("m0", "m1", "m2", "m3", "m4", "absent")) {
                OptionalLong rank = join(board.rankAsync(m));
                OptionalDouble score = join(board.scoreAsync(m));
                assertThat(rank).as("%s on %s", m, board).isEqualTo(board.rank(m));
                assertThat(score).as("%s on %s", m, board).isEqualTo(board.score(m));
            }
            assertThat(join(board.rankAsync("absent"))).isEmpty();
            for (int n : new int[] {0, 1, 3, 5, 9}) {
                List<Entry<String>> top = join(board.topAsync(n));
                assertThat(top).as("top %d on %s", n, board).isEqualTo(board.top(n)).hasSize(Math.min(n, 5));
            }
            Placement<String> sync = board.addPoints("m4", 10);
            assertThat(sync.rank()).isEqualTo(join(board.rankAsync("m4")).orElseThrow());
            assertThatThrownBy(() -> board.addPointsAsync("m4", Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @OnEveryBackend
    void limiters_tryAcquireAsync_grantsTheLimitThenRefuses(Backend backend) {
        Store store = backend.store();
        List<RateLimiter> limiters = List.of(SlidingLogLimiter.create(store, Backend.uniqueName("alog"), Limit.perHour(3)),
                SlidingWindowLimiter.create(store, Backend.uniqueName("aswc"), Limit.perHour(3)),
                TokenBucketLimiter.create(store, Backend.uniqueName("atb"), TokenBucketLimiter.Bucket.of(Limit.perHour(3))));
        for (RateLimiter limiter : limiters) {
            List<CompletionStage<Decision>> stages = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                stages.add(limiter.tryAcquireAsync("user"));
            }
            List<Decision> decisions = stages.stream().map(AsyncTest::join).toList();
            assertThat(decisions).extracting(Decision::allowed).containsExactly(true, true, true, false);
            assertThat(decisions).extracting(Decision::remaining).containsExactly(2L, 1L, 0L, 0L);
            assertThat(decisions.get(3).retryAfter()).isPositive();
            assertThat(limiter.tryAcquire("user").allowed()).isFalse();
            assertThatThrownBy(() -> limiter.tryAcquireAsync("user", 0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @OnEveryBackend
    void queues_asyncProducers_enqueueAsTheBlockingOnes(Backend backend) {
        Store store = backend.store();
        PriorityJobQueue<String> q = PriorityJobQueue.create(store, Backend.uniqueName("apq"));
        long first = join(q.offerAsync(5, "later"));
        List<Long> ids = join(q.offerAllAsync(1, List.of("a", "b")));
        assertThat(ids).hasSize(2).doesNotContain(first);
        assertThat(q.poll(3)).extracting(Job::payload).containsExactly("a", "b", "later");
        assertThatThrownBy(() -> q.offerAsync(PriorityJobQueue.MAX_PRIORITY + 1, "x")).isInstanceOf(IllegalArgumentException.class);

        DelayedJobQueue<String> d = DelayedJobQueue.create(store, Backend.uniqueName("adq"));
        assertThat(join(d.scheduleAsync("job-1", "p", Due.now()))).isTrue();
        assertThat(join(d.scheduleAsync("job-1", "other", Due.now()))).isFalse();
        assertThat(join(d.scheduleAllAsync(List.of(new DelayedJobQueue.NewJob<>("job-2", "q", 0, Due.in(Duration.ofHours(1)))),
                DelayedJobQueue.OnDuplicate.REJECT))).hasSize(1).doesNotContainNull();
        assertThat(d.claim(5)).extracting(j -> j.id() + "=" + j.payload()).containsExactly("job-1=p");
    }

    /** The embedded adapter answers in the call: the stage it returns is complete already. */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = "EMBEDDED")
    void embedded_asyncCalls_completeInline(Backend backend) {
        Store store = backend.store();
        String key = "{" + Backend.uniqueName("inline") + "}";
        assertThat(store.callAsync(StoreCommand.of("ZADD").key(key).arg(1).arg("m")).toCompletableFuture()).isCompletedWithValue(Reply.of(1));
        Leaderboard board = Leaderboard.create(store, Backend.uniqueName("inline"), BoardOptions.highestFirst().withTieRule(TieRule.DENSE));
        assertThat(board.addPointsAsync("m", 3).toCompletableFuture()).isCompletedWithValue(new Placement<>("m", 3, 1));
    }

    /**
     * Over Lettuce, a call returns before the server answers. The store's connection is held by a
     * BLPOP that nothing can end until the test pushes (its 20 s timeout only bounds a broken
     * adapter); a command, a script, a board write and a limiter decision on the same node queue
     * behind it. An adapter that waited for its reply would return only after the BLPOP had timed
     * out, with every stage complete; a non-blocking one returns at once, with none complete.
     */
    @ParameterizedTest
    @EnumSource(value = Backend.class, names = {"ORDO_SERVER", "REDIS", "REDIS_CLUSTER"})
    void lettuce_asyncCalls_returnBeforeTheServerAnswers(Backend backend) {
        String tag = "{" + Backend.uniqueName("nb") + "}";
        try (Store held = backend.store().dedicated()) {
            CompletableFuture<Reply> pop = held.callAsync(StoreCommand.of("BLPOP").key(tag + ":list").arg(20)).toCompletableFuture();
            CompletableFuture<Reply> card = held.callAsync(StoreCommand.of("ZCARD").key(tag + ":z")).toCompletableFuture();
            Script fresh = new Script("-- " + Backend.uniqueName("held") + "\nreturn ARGV[1]");
            CompletableFuture<Reply> eval = held.evalAsync(fresh, List.of(tag + ":s"), List.of("ran")).toCompletableFuture();
            Leaderboard board = Leaderboard.create(held, tag + ":board", BoardOptions.highestFirst());
            CompletableFuture<Placement<String>> added = board.addPointsAsync("m", 7).toCompletableFuture();
            Map<String, CompletableFuture<?>> stages = Map.of("BLPOP", pop, "ZCARD", card, "EVAL", eval, "addPoints", added);
            stages.forEach((name, stage) -> assertThat(stage.isDone()).as("%s done before the server could answer", name).isFalse());

            backend.store().call(StoreCommand.of("RPUSH").key(tag + ":list").arg("v"));
            assertThat(Plain.of(pop.join())).isEqualTo(List.of(tag + ":list", "v"));
            assertThat(Plain.of(card.join())).isEqualTo(0L);
            assertThat(Plain.of(eval.join())).isEqualTo("ran");
            assertThat(added.join()).isEqualTo(new Placement<>("m", 7, 1));
            assertThat(board.rank("m")).hasValue(1);
            assertThat(board.placement("m")).isEqualTo(Optional.of(new Placement<>("m", 7, 1)));
        }
    }
}
