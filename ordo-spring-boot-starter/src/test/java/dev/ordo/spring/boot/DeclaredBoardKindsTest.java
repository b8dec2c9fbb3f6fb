package dev.ordo.spring.boot;

import dev.ordo.patterns.leaderboard.BoardObserver;
import dev.ordo.patterns.leaderboard.CachedTop;
import dev.ordo.patterns.leaderboard.Entry;
import dev.ordo.patterns.leaderboard.Leaderboard;
import dev.ordo.patterns.leaderboard.Period;
import dev.ordo.patterns.leaderboard.PeriodicLeaderboard;
import dev.ordo.patterns.leaderboard.ShardedLeaderboard;
import dev.ordo.patterns.queue.ClaimedJob;
import dev.ordo.patterns.queue.DelayedJobQueue;
import dev.ordo.patterns.queue.Due;
import dev.ordo.patterns.store.Store;
import dev.ordo.patterns.store.StoreCommand;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The leaderboard kinds properties declare (periodic with zone and retention, sharded, with a
 * cached top) and a queue's backoff: built as declared and injectable by name as their own kind.
 */
class DeclaredBoardKindsTest {
    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OrdoEmbeddedAutoConfiguration.class, DataRedisAutoConfiguration.class,
                    OrdoPatternsAutoConfiguration.class))
            .withPropertyValues(
                    "ordo.leaderboards.games.period=daily,weekly,all-time",
                    "ordo.leaderboards.games.zone=Asia/Shanghai",
                    "ordo.leaderboards.games.retention=1d",
                    "ordo.leaderboards.global.shards=4",
                    "ordo.leaderboards.hot.cache-top.size=2",
                    "ordo.leaderboards.hot.cache-top.max-age=1h",
                    "ordo.queues.retry-now.backoff.kind=fixed",
                    "ordo.queues.retry-now.backoff.delay=0s");

    /** A service taking each kind by qualifier. */
    record Injected(PeriodicLeaderboard games, ShardedLeaderboard global, Leaderboard hot) {
    }

    @Configuration(proxyBeanMethods = false)
    static class ByQualifier {
        @Bean
        Injected injected(@Qualifier("games") PeriodicLeaderboard games, @Qualifier("global") ShardedLeaderboard global,
                          @Qualifier("hot") Leaderboard hot) {
            return new Injected(games, global, hot);
        }
    }

    @Test
    void periodicBoard_writesEveryPeriodInItsZoneAndKeepsEndedOnesForTheRetention() {
        runner.withUserConfiguration(ByQualifier.class).run(context -> {
            PeriodicLeaderboard games = context.getBean(Injected.class).games();
            assertThat(games).isSameAs(context.getBean(Leaderboards.class).periodic("games"));
            String dayBefore = Period.daily().id(Instant.now(), SHANGHAI);
            assertThat(games.addPointsAll("alice", 5)).hasSize(3);
            String dayAfter = Period.daily().id(Instant.now(), SHANGHAI);

            Leaderboard today = games.current(Period.daily());
            assertThat(today.key()).satisfiesAnyOf(key -> assertThat(key).endsWith(dayBefore), key -> assertThat(key).endsWith(dayAfter));
            assertThat(today.score("alice")).hasValue(5);
            assertThat(games.current(Period.weekly()).score("alice")).hasValue(5);
            assertThat(games.allTime().score("alice")).hasValue(5);

            long ttl = context.getBean(Store.class).call(StoreCommand.of("PTTL").key(today.key())).asLong();
            Duration untilDayEnds = Duration.between(Instant.now(), Period.daily().end(Instant.now(), SHANGHAI));
            assertThat(Duration.ofMillis(ttl)).isGreaterThan(Duration.ofDays(1)).isLessThanOrEqualTo(untilDayEnds.plusDays(1).plusSeconds(5));
        });
    }

    @Test
    void shardedBoard_spreadsMembersOverItsShardsAndRanksThemAsOne() {
        runner.withUserConfiguration(ByQualifier.class).run(context -> {
            ShardedLeaderboard global = context.getBean(Injected.class).global();
            assertThat(global.shards()).hasSize(4);
            for (int i = 0; i < 40; i++) {
                global.setScore("player-" + i, i);
            }
            assertThat(global.count()).isEqualTo(40);
            assertThat(global.shards()).allSatisfy(shard -> assertThat(shard.count()).isPositive());
            assertThat(global.top(2)).extracting(Entry::member).containsExactly("player-39", "player-38");
            assertThat(global.rank("player-0")).hasValue(40);
        });
    }

    @Test
    void cacheTop_servesTheCachedTopUntilItAges() {
        runner.run(context -> {
            Leaderboards boards = context.getBean(Leaderboards.class);
            Leaderboard hot = boards.get("hot");
            hot.setScore("a", 1);
            hot.setScore("b", 2);
            hot.setScore("c", 3);
            CachedTop top = boards.cachedTop("hot");
            assertThat(top.get()).extracting(Entry::member).containsExactly("c", "b");
            hot.setScore("d", 4);
            assertThat(top.get()).extracting(Entry::member).containsExactly("c", "b");
            assertThatThrownBy(() -> boards.cachedTop("games")).hasMessageContaining("ordo.leaderboards.games.cache-top");
        });
    }

    /** Gives every declared board an observer recording {@code name ACCESS operation}, as the metrics' decorator observes them. */
    @Configuration(proxyBeanMethods = false)
    static class RecordingDecorator {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Bean
        LeaderboardDecorator recordingDecorator() {
            return new LeaderboardDecorator() {
                @Override
                public Leaderboard decorate(String name, Leaderboard board) {
                    return board.withObserver(recorder(name));
                }

                @Override
                public PeriodicLeaderboard decorate(String name, PeriodicLeaderboard family) {
                    return family.withObserver(recorder(name));
                }

                @Override
                public ShardedLeaderboard decorate(String name, ShardedLeaderboard board) {
                    return board.withObserver(recorder(name));
                }
            };
        }

        private BoardObserver recorder(String name) {
            return new BoardObserver() {
                @Override
                public <R> R observe(Access access, String operation, Supplier<R> call) {
                    calls.add(name + " " + access + " " + operation);
                    return call.get();
                }

                @Override
                public <R> CompletionStage<R> observeAsync(Access access, String operation, Supplier<CompletionStage<R>> call) {
                    calls.add(name + " " + access + " " + operation);
                    return call.get();
                }
            };
        }
    }

    @Test
    void leaderboardDecorator_decoratesEveryKindAsBuilt_andEachBeanKeepsItsKind() {
        runner.withUserConfiguration(ByQualifier.class, RecordingDecorator.class).run(context -> {
            Injected injected = context.getBean(Injected.class);
            injected.games().addPointsAll("alice", 1);
            injected.global().top(1);
            injected.hot().count();
            context.getBean(Leaderboards.class).cachedTop("hot").get();

            assertThat(context.getBean(RecordingDecorator.class).calls)
                    .containsExactly("games WRITE addPointsAll", "global READ top", "hot READ count", "hot READ top");
            assertThat(injected.games()).isSameAs(context.getBean(Leaderboards.class).periodic("games"));
        });
    }

    @Test
    void getOnAnotherKind_namesTheKindAndTheGetterForIt() {
        runner.run(context -> assertThatThrownBy(() -> context.getBean(Leaderboards.class).get("games"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ordo.leaderboards.games is a PeriodicLeaderboard").hasMessageContaining("board(name)"));
    }

    @Test
    void shardsAndPeriod_failStartupNamingTheBoard() {
        runner.withPropertyValues("ordo.leaderboards.both.shards=2", "ordo.leaderboards.both.period=daily")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("ordo.leaderboards.both declares both shards and a period"));
    }

    @Test
    void queueBackoff_fixedZeroDelay_nackedJobIsReadyAtOnce() {
        runner.run(context -> {
            DelayedJobQueue<String> queue = context.getBean(JobQueues.class).delayed("retry-now");
            queue.schedule("j1", "payload", Due.now());
            List<ClaimedJob<String>> first = queue.claim(1);
            assertThat(queue.nack(first.get(0), "flaky")).isEqualTo(DelayedJobQueue.NackOutcome.RETRY_SCHEDULED);
            // the default backoff (exponential from 1 s) would hold the job back for most of a second
            assertThat(queue.claim(1)).extracting(ClaimedJob::attempt).containsExactly(2);
        });
    }
}
